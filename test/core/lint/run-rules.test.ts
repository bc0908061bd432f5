/** The one rule run of every domain (src/core/lint/run-rules.ts), on rules and inputs made up here. */
import { describe, expect, it } from "vitest";
import type { RuleMeta } from "../../../src/core/lint/rule.js";
import {
  MAX_FINDINGS_PER_FILE,
  RuleRun,
  type BoundReport,
  type Finding,
  type FindingInput,
} from "../../../src/core/lint/run-rules.js";
import { RuleContractError } from "../../../src/core/messages.js";
import type { Suppression } from "../../../src/core/suppressions.js";

const START = { line: 1, column: 1 };

function rule(
  id: string,
  extra: Partial<RuleMeta> & {
    check?: (context: { report: BoundReport }) => void | Promise<void>;
  } = {},
) {
  return {
    id,
    domain: "test",
    description: "test rule",
    category: "correctness",
    defaultSeverity: "warning",
    fixable: false,
    messages: { found: "found {{what}}" },
    ...extra,
  } as RuleMeta & {
    check(context: { report: BoundReport }): void | Promise<void>;
  };
}

/** One file whose every path is placed at its start, counting how often it was asked. */
function input(absolutePath = "/a.json"): FindingInput & { located: number } {
  const made = {
    file: absolutePath.slice(1),
    absolutePath,
    located: 0,
    locate: () => {
      made.located++;
      return { range: { start: START, end: START }, offset: 0, length: 0 };
    },
  };
  return made;
}

const finding = (what: string, extra: Partial<Finding> = {}): Finding => ({
  path: ["x"],
  messageId: "found",
  data: { what },
  ...extra,
});

describe("RuleRun", () => {
  it("starts the rules in order, runsLast ones last, each with a frozen context whose report is bound to it", async () => {
    const run = new RuleRun({ settings: {} });
    const file = input();
    const started: string[] = [];
    const seen: object[] = [];
    const last = rule("z-last", {
      runsLast: true,
      check: ({ report }) => report(finding("last"), file),
    });
    const first = rule("a-first", { check: ({ report }) => report(finding("first"), file) });
    await run.start([last, first, rule("parse", { kind: "pipeline" })], (r, report) => {
      started.push(r.id);
      const context = { report };
      seen.push(context);
      return context;
    });
    expect(started).toEqual(["a-first", "z-last"]);
    expect(seen.every((context) => Object.isFrozen(context))).toBe(true);
    expect(run.finish().map((d) => [d.ruleId, d.message])).toEqual([
      ["a-first", "found first"],
      ["z-last", "found last"],
    ]);
  });

  it("listen() starts every rule before it returns (a rule that only subscribes is never awaited)", () => {
    const run = new RuleRun({ settings: {} });
    const subscribed: string[] = [];
    run.listen(
      [
        rule("a", { check: () => void subscribed.push("a") }),
        rule("b", { check: () => void subscribed.push("b") }),
      ],
      (_rule, report) => ({ report }),
    );
    expect(subscribed).toEqual(["a", "b"]);
  });

  it("drops a finding of a rule off for the file before placing it, and keeps a pipeline step's whatever the settings", () => {
    const run = new RuleRun({
      settings: {
        severityFor: (id, file) => (id === "quiet" && file === "/a.json" ? "off" : undefined),
      },
    });
    const a = input();
    run.report(rule("quiet"), finding("x"), a);
    run.report(rule("quiet"), finding("y"), input("/b.json"));
    run.report(rule("parse", { kind: "pipeline", defaultSeverity: "error" }), finding("z"), a);
    expect(run.finish().map((d) => [d.ruleId, d.file, d.severity])).toEqual([
      ["quiet", "b.json", "warning"],
      ["parse", "a.json", "error"],
    ]);
    expect(a.located).toBe(1);
  });

  it("raises and lowers a finding as it asks, and words it as the domain says", () => {
    const run = new RuleRun({
      settings: {},
      words: (_rule, f) => ({ message: `<${String(f.data?.what)}>` }),
    });
    run.report(rule("r"), finding("up", { escalate: true, hint: "fix it" }), input());
    run.report(rule("e", { defaultSeverity: "error" }), finding("down", { demote: true }), input());
    expect(run.finish().map((d) => [d.severity, d.message, d.hint])).toEqual([
      ["error", "<up>", "fix it"],
      ["warning", "<down>", undefined],
    ]);
  });

  it("marks a suppression used instead of keeping the finding it covers; pipeline steps are never suppressed", () => {
    const suppression: Suppression = {
      scope: { absolutePath: "/a.json", path: [], label: "all" },
      ruleId: "r",
      path: [],
      used: false,
    };
    const run = new RuleRun({ settings: {}, suppressions: [suppression] });
    run.report(rule("r"), finding("x"), input());
    expect(run.finish()).toEqual([]);
    expect(suppression.used).toBe(true);
    const steps = new RuleRun({
      settings: {},
      suppressions: [{ ...suppression, ruleId: "parse" }],
    });
    steps.report(rule("parse", { kind: "pipeline" }), finding("x"), input());
    expect(steps.finish()).toHaveLength(1);
  });

  it("checks a finding against its own file's suppressions only, the first that covers it winning as before", () => {
    // 200 files with 3 suppressions each; each suppression counts how often a finding asked about it.
    let asked = 0;
    const suppressions: Suppression[] = [];
    for (let file = 0; file < 200; file++)
      for (const [ruleId, path] of [
        ["other", []],
        ["r", ["y"]],
        ["r", []],
      ] as const) {
        const suppression = {
          scope: { absolutePath: `/f${file}.json`, path: [...path], label: "all" },
          path: [],
          used: false,
        } as unknown as Suppression;
        Object.defineProperty(suppression, "ruleId", {
          get: () => (asked++, ruleId),
          enumerable: true,
        });
        suppressions.push(suppression);
      }
    const run = new RuleRun({ settings: {}, suppressions });
    // A finding in every file, and one in a file without suppressions.
    for (let file = 0; file < 200; file++)
      run.report(rule("r"), finding("x"), input(`/f${file}.json`));
    run.report(rule("r"), finding("x"), input("/none.json"));
    expect(run.finish()).toHaveLength(1);
    // Each finding asked about its file's three at most (the whole list: 200 x 600 = 120,000).
    expect(asked).toBeLessThanOrEqual(200 * 3);
    // The first covering suppression in written order is the one used: ["y"] does not cover ["x"].
    for (let file = 0; file < 200; file++) {
      expect(suppressions[file * 3 + 1]!.used).toBe(false);
      expect(suppressions[file * 3 + 2]!.used).toBe(true);
    }
  });
  it("keeps at most MAX_FINDINGS_PER_FILE findings a file and says how many more, unless the budget is off", () => {
    const run = new RuleRun({ settings: {} });
    const a = input();
    for (let i = 0; i <= MAX_FINDINGS_PER_FILE; i++)
      run.report(rule("many"), finding(String(i)), a);
    const found = run.finish();
    expect(found).toHaveLength(MAX_FINDINGS_PER_FILE + 1);
    expect(found.at(-1)!.message).toMatch(
      /^1 more many finding in this file \(1 warning\) not listed/,
    );
    expect(a.located).toBe(MAX_FINDINGS_PER_FILE);
    const streamed = new RuleRun({ settings: {}, budget: false });
    for (let i = 0; i <= MAX_FINDINGS_PER_FILE; i++)
      streamed.report(rule("many"), finding(String(i)), a);
    expect(streamed.take()).toHaveLength(MAX_FINDINGS_PER_FILE + 1);
    expect(streamed.take()).toEqual([]);
  });

  it("throws on a broken contract even for a rule that is off: a fix from a rule not fixable, a finished message", () => {
    const off = new RuleRun({ settings: { severityFor: () => "off" } });
    expect(() =>
      off.report(rule("r"), { ...finding("x"), fix: () => undefined } as Finding, input()),
    ).toThrow(RuleContractError);
    expect(() =>
      off.report(rule("r"), { ...finding("x"), message: "done" } as Finding, input()),
    ).toThrow(RuleContractError);
    const fixable = new RuleRun({ settings: {} });
    const edits = { description: "fix", edits: [] };
    fixable.report(rule("r", { fixable: true }), { ...finding("x"), fix: true } as Finding, {
      ...input(),
      fix: () => edits,
    });
    expect(fixable.finish()[0]!.fix).toBe(edits);
  });
});
