import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadProject } from "../../../src/index.js";
import { smallApp } from "./small-app.js";
import { readWork } from "../../../src/core/source/read.js";

/**
 * A load asks about the same paths several times (package.json, each platform config, `.git` on the
 * way up): the disk is asked once per path and load, counted (never timed), and the next load asks again.
 */
const root = mkdtempSync(path.join(tmpdir(), "caplint-path-answers-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const app = (name: string) => smallApp(root, name);

describe("a load's questions about paths", () => {
  it("ask the disk once per path, every probe still in the read log", async () => {
    const dir = app("once");
    const before = readWork.stats;
    const project = await loadProject({ cwd: dir });
    const asked = readWork.stats - before;
    // Platform configs, Cargo files and package.json are probed by more than one loader.
    expect(project.read.files).toContain(path.join(dir, "src-tauri", "tauri.linux.conf.json"));
    expect(project.read.files).toContain(path.join(dir, "package.json"));
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeLessThanOrEqual(project.read.files.size);
  });

  it("end with the load: a platform config written after it is seen by the next", async () => {
    const dir = app("next");
    writeFileSync(
      path.join(dir, "src-tauri", "capabilities", "extra.json"),
      JSON.stringify({ identifier: "extra", windows: ["main"], permissions: ["core:app:default"] }),
    );
    const platformsOf = (project: Awaited<ReturnType<typeof loadProject>>) =>
      project.capabilities.map((capability) => [capability.identifier, capability.configPlatforms]);
    expect(platformsOf(await loadProject({ cwd: dir }))).toEqual([
      ["default", undefined],
      ["extra", undefined],
    ]);
    // Linux now loads "default" alone.
    writeFileSync(
      path.join(dir, "src-tauri", "tauri.linux.conf.json"),
      JSON.stringify({ app: { security: { capabilities: ["default"] } } }),
    );
    const [, extra] = platformsOf(await loadProject({ cwd: dir }));
    expect(extra![0]).toBe("extra");
    expect(extra![1]).toBeDefined();
    expect(extra![1]).not.toContain("linux");
  });
});
