import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { run } from "../../helpers/run.js";
import { writeCapabilityApp } from "../../helpers/capability-app.js";

const work_dir = mkdtempSync(path.join(tmpdir(), "caplint-problems-"));
afterAll(() => rmSync(work_dir, { recursive: true, force: true }));

/**
 * `count` capabilities, each granting an identifier of a plugin nobody defines and an unknown
 * permission of a known plugin: "unresolved" resolution problems, which unknown-plugin and
 * unknown-permission report from the entries themselves.
 */
function app(count: number): string {
  return writeCapabilityApp(
    path.join(work_dir, `app-${count}`),
    "test.problems",
    Array.from({ length: count }, (_, i) => ({
      identifier: `c${i}`,
      windows: ["main"],
      permissions: ["core:default", "nosuchplugin:allow-thing", "fs:allow-no-such-thing"],
    })),
  );
}

describe("resolution problems in a check", () => {
  it("are made only for the kinds a rule reports", async () => {
    resetWork();
    const result = await run(["check", "--app", app(30), "--format", "json"], work_dir);
    expect(result.stderr).toBe("");
    const rules = (
      JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string }> }
    ).diagnostics
      .map((diagnostic) => diagnostic.ruleId)
      .filter((rule) => rule === "unknown-plugin" || rule === "unknown-permission");
    // Both unknown identifiers of every capability are still reported, from the entries.
    expect(rules.length).toBe(60);
    // 60 "unresolved" problems, asked for by no rule of a check: no object is made for them (one
    // each before, kept for the run).
    expect(work.problemsMade).toBe(0);
  });
});

describe("unknown-permission in a check", () => {
  it("judges each distinct identifier once, however many entries grant it", async () => {
    resetWork();
    const result = await run(
      ["check", "--app", app(30), "--format", "json", "--only", "unknown-permission"],
      work_dir,
    );
    expect(result.stderr).toBe("");
    const found = (JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string }> })
      .diagnostics;
    // Every capability's unknown permission is still reported, at its own entry.
    expect(found.filter((diagnostic) => diagnostic.ruleId === "unknown-permission").length).toBe(
      30,
    );
    // Three distinct identifiers in 90 entries (one judgement per entry before).
    expect(work.identifiersJudged).toBe(3);
  });
});
