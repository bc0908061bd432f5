import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { run } from "../../helpers/run.js";
import { writeCapabilityApp } from "../../helpers/capability-app.js";

const work_dir = mkdtempSync(path.join(tmpdir(), "caplint-shared-judging-"));
afterAll(() => rmSync(work_dir, { recursive: true, force: true }));

/** How many capabilities each app has: every one repeats the others' patterns and set problems. */
const COUNT = 30;

/**
 * An app of COUNT capabilities, each listing the same three window patterns (one fine, one the host
 * rejects, one with a character no label has) and granting two app sets: one that includes itself,
 * one with a member that does not exist.
 */
function app(): string {
  const dir = writeCapabilityApp(
    path.join(work_dir, "app"),
    "test.shared.judging",
    Array.from({ length: COUNT }, (_, i) => ({
      identifier: `c${i}`,
      windows: ["main", "main-[", "main{x}"],
      permissions: ["core:default", "loop", "broken"],
    })),
  );
  mkdirSync(path.join(dir, "src-tauri", "permissions"), { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "permissions", "app.toml"),
    [
      "[[permission]]",
      'identifier = "allow-ping"',
      'commands.allow = ["ping"]',
      "",
      "[[set]]",
      'identifier = "loop"',
      'description = "includes itself"',
      'permissions = ["allow-ping", "loop"]',
      "",
      "[[set]]",
      'identifier = "broken"',
      'description = "names a permission that does not exist"',
      'permissions = ["allow-ping", "allow-pong"]',
      "",
    ].join("\n"),
  );
  return dir;
}

describe("rules that judge what capabilities repeat", () => {
  it("judge each window pattern once and place resolution problems through one index", async () => {
    resetWork();
    const rules = [
      "invalid-label-pattern",
      "set-cycle",
      "unknown-set-member",
      "default-without-set",
    ];
    const result = await run(
      ["check", "--app", app(), "--format", "json", ...rules.flatMap((rule) => ["--only", rule])],
      work_dir,
    );
    expect(result.stderr).toBe("");
    const found = (
      JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string; messageId?: string }> }
    ).diagnostics;
    const byRule = (rule: string) => found.filter((d) => d.ruleId === rule).length;
    // Every capability still has its findings: two bad patterns, a cycle and a missing member each.
    expect(byRule("invalid-label-pattern")).toBe(2 * COUNT);
    expect(byRule("set-cycle")).toBe(COUNT);
    expect(byRule("unknown-set-member")).toBe(COUNT);
    // Three distinct patterns judged once each (before: each of the 90 items).
    expect(work.labelPatternsJudged).toBe(3);
    // One index of the capabilities for the rules that placed problems (before: one per rule).
    expect(work.problemCapabilityIndexes).toBe(1);
  });

  it("list remote patterns once for both remote rules and work out each host reach once", async () => {
    resetWork();
    const dir = writeCapabilityApp(
      path.join(work_dir, "remote"),
      "test.shared.remote",
      Array.from({ length: COUNT }, (_, i) => ({
        identifier: `r${i}`,
        windows: ["main"],
        remote: { urls: ["https://*", "http://app.example.com"] },
        permissions: ["core:default"],
      })),
    );
    const rules = ["broad-remote", "insecure-remote"];
    const result = await run(
      ["check", "--app", dir, "--format", "json", ...rules.flatMap((rule) => ["--only", rule])],
      work_dir,
    );
    expect(result.stderr).toBe("");
    const found = (JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string }> })
      .diagnostics;
    const byRule = (rule: string) => found.filter((d) => d.ruleId === rule).length;
    expect(byRule("broad-remote")).toBe(COUNT);
    expect(byRule("insecure-remote")).toBe(COUNT);
    // 60 items listed once for the two rules (120 before), two distinct reaches (60 before).
    expect(work.remotePatternsListed).toBe(2 * COUNT);
    expect(work.hostReachesWorkedOut).toBe(2);
  });
});
