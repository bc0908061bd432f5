import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lint } from "../../src/capabilities/lint.js";
import { loadProject } from "../../src/capabilities/load/project.js";
import { resetWork, work } from "../../src/capabilities/work.js";
import { writeRedundantEntriesApp } from "../helpers/capability-app.js";
import { run } from "../helpers/run.js";

const dir = mkdtempSync(path.join(tmpdir(), "caplint-omit-fixes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const app = writeRedundantEntriesApp(dir, "omit.fixes");

async function counted(format: string, ...more: string[]) {
  resetWork();
  const result = await run(["check", "--app", app, "--format", format, ...more], dir);
  return { result, fixesMade: work.fixesMade, withoutData: work.findingsWithoutData };
}

describe("findings of a report that shows no fix are made without one", () => {
  it("builds no fix for a compact, GitHub or SARIF report, and one per fixable finding for json and stylish", async () => {
    const json = await counted("json");
    const fixable = (
      JSON.parse(json.result.stdout) as { diagnostics: Array<{ fixable: boolean }> }
    ).diagnostics.filter((d) => d.fixable).length;
    expect(fixable).toBe(30);
    expect(json.fixesMade).toBe(30);
    const stylish = await counted("stylish");
    expect(stylish.fixesMade).toBe(30);
    for (const format of ["compact", "github", "sarif"]) {
      const report = await counted(format);
      expect(report.fixesMade, format).toBe(0);
      expect(report.result.stdout.length, format).toBeGreaterThan(0);
    }
    const compact = await counted("compact");
    expect(compact.result.stdout.trim().split("\n")).toHaveLength(30);
  });

  it("still fixes with --fix-dry-run in a compact report", async () => {
    const preview = await counted("compact", "--fix-dry-run");
    expect(preview.fixesMade).toBeGreaterThan(0);
    expect(preview.result.stdout).toContain(
      '+{"identifier":"cap-9","windows":["main"],"permissions":["core:default"]}',
    );
  });

  it("gives the library the same findings without their fix", async () => {
    const project = await loadProject({ cwd: dir, app });
    const all = await lint(project);
    const without = await lint(project, { omitFixes: true });
    expect(all.diagnostics.filter((d) => d.fix)).toHaveLength(30);
    expect(without.diagnostics.filter((d) => d.fix)).toHaveLength(0);
    expect(without.diagnostics).toEqual(all.diagnostics.map(({ fix: _, ...rest }) => rest));
  });
});

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
