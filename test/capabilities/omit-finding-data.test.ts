import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lint } from "../../src/capabilities/lint.js";
import { loadProject } from "../../src/capabilities/load/project.js";
import { resetWork, work } from "../../src/capabilities/work.js";
import { writeCapabilityApp } from "../helpers/capability-app.js";
import { run } from "../helpers/run.js";

const dir = mkdtempSync(path.join(tmpdir(), "caplint-omit-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Ten capabilities of three redundant entries each: 30 findings with data, grouped for stylish. */
const app = writeCapabilityApp(
  dir,
  "omit.data",
  Array.from({ length: 10 }, (_, i) => ({
    identifier: `cap-${i}`,
    windows: ["main"],
    permissions: [
      "core:default",
      "core:window:allow-title",
      "core:window:allow-is-enabled",
      "core:menu:allow-set-as-help-menu-for-nsapp",
    ],
  })),
);

async function counted(format: string, ...more: string[]) {
  resetWork();
  const result = await run(["check", "--app", app, "--format", format, ...more], dir);
  return { result, withoutData: work.findingsWithoutData };
}

describe("findings of a report that prints no data or group are made without them", () => {
  it("omits them for a compact, GitHub or SARIF report, and keeps them for json and stylish", async () => {
    for (const format of ["compact", "github", "sarif"]) {
      const report = await counted(format);
      expect(report.withoutData, format).toBe(30);
      expect(report.result.stdout.length, format).toBeGreaterThan(0);
    }
    for (const format of ["json", "stylish"]) expect((await counted(format)).withoutData).toBe(0);
    // A run that fixes keeps them (its findings go through the fixer).
    expect((await counted("compact", "--fix-dry-run")).withoutData).toBe(0);
  });

  it("gives the library the same findings without their data and group", async () => {
    const project = await loadProject({ cwd: dir, app });
    const all = await lint(project);
    const without = await lint(project, { omitFindingData: true });
    expect(all.diagnostics.filter((d) => d.data !== undefined)).toHaveLength(30);
    expect(all.diagnostics.filter((d) => d.group !== undefined).length).toBeGreaterThan(0);
    expect(without.diagnostics.filter((d) => "data" in d || "group" in d)).toHaveLength(0);
    expect(without.diagnostics).toStrictEqual(
      all.diagnostics.map(({ data: _, group: __, ...rest }) => rest),
    );
  });
});
