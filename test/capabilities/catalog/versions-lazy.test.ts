import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lint, loadProject } from "../../../src/index.js";
import { versionHistoriesRead } from "../../../src/capabilities/catalog/versions.js";

/**
 * The bundled version history (data/acl-versions.json) is read when a load first asks it a question:
 * an app's releases or a committed manifest. A check of loose capability files (pre-commit's call)
 * never reads it. Work is counted (histories read), not timed.
 */
const root = mkdtempSync(path.join(tmpdir(), "caplint-versions-lazy-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const demoApp = path.join(import.meta.dirname, "../../../examples/demo-app");

describe("the bundled version history", () => {
  it("is not read by a check of loose files, and read once by an app's check", async () => {
    const file = path.join(root, "default.json");
    writeFileSync(
      file,
      JSON.stringify({
        identifier: "main",
        windows: ["main"],
        permissions: ["core:default", "core:window:allow-set-title", "fs:allow-read-file"],
      }),
    );
    const loose = await lint(await loadProject({ cwd: root, paths: [file] }));
    expect(loose.diagnostics).toEqual([]);
    expect(versionHistoriesRead()).toBe(0);

    await lint(await loadProject({ cwd: demoApp, paths: [] }));
    expect(versionHistoriesRead()).toBe(1);
    await lint(await loadProject({ cwd: demoApp, paths: [] }));
    expect(versionHistoriesRead()).toBe(1);
  });
});
