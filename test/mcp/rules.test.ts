import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PARSE_META } from "../../src/mcp/lint.js";
import { MCP_RULES } from "../../src/mcp/rules/index.js";
import { expectedOutput, type JsonFinding } from "../helpers/expected-output.js";
import { FIXTURES, ROOT, run, type RunResult } from "../helpers/run.js";

/**
 * Fixture-driven tests of the tool-server rules, like test/capabilities/rules/fixtures.test.ts for capability files:
 * `fixtures/mcp/valid/<rule-id>/<case>.json` must give no finding at all, `fixtures/mcp/invalid/<rule-id>/<case>.json`
 * exactly the findings of that rule in `<case>.out` (the compact line of each, then its hint as a `  help:` line,
 * as test/capabilities/rules/fixtures.test.ts writes them); `<case>.args` holds extra arguments.
 */
function cases(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith(".json"))
        .sort()
    : [];
}

function extraArgs(dir: string, name: string): string[] {
  const file = path.join(dir, name.replace(/\.json$/, ".args"));
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)
    : [];
}

/**
 * One run per invalid case, whichever test asks first: the case's own test, or the message coverage
 * test below, which runs every case itself (so it checks all of them under -t or any test order).
 */
const invalidRuns = new Map<string, Promise<RunResult>>();
function runInvalidCase(invalidDir: string, name: string): Promise<RunResult> {
  const key = path.join(invalidDir, name);
  let result = invalidRuns.get(key);
  if (!result)
    invalidRuns.set(
      key,
      (result = run(["mcp", "--format", "json", name, ...extraArgs(invalidDir, name)], invalidDir)),
    );
  return result;
}

for (const rule of MCP_RULES) {
  describe(`rule ${rule.id}`, () => {
    const validDir = path.join(FIXTURES, "mcp", "valid", rule.id);
    const invalidDir = path.join(FIXTURES, "mcp", "invalid", rule.id);

    it("has docs, a valid and an invalid fixture", () => {
      expect(
        existsSync(path.join(ROOT, "docs", "rules", `${rule.id}.md`)),
        `docs/rules/${rule.id}.md`,
      ).toBe(true);
      expect(cases(validDir).length).toBeGreaterThan(0);
      expect(cases(invalidDir).length).toBeGreaterThan(0);
    });

    for (const name of cases(validDir)) {
      it(`valid/${name} is clean`, async () => {
        const result = await run(
          ["mcp", "--format", "compact", name, ...extraArgs(validDir, name)],
          validDir,
        );
        expect(result.stderr).toBe("");
        expect(result.stdout).toBe("");
        expect(result.code).toBe(0);
      });
    }

    for (const name of cases(invalidDir)) {
      it(`invalid/${name} reports what ${name.replace(/\.json$/, ".out")} lists`, async () => {
        const result = await runInvalidCase(invalidDir, name);
        expect(result.stderr).toBe("");
        const all = (JSON.parse(result.stdout) as { diagnostics: JsonFinding[] }).diagnostics;
        const mine = all.filter((d) => d.ruleId === rule.id);
        expect(mine.length, "the rule fires").toBeGreaterThan(0);
        await expect(expectedOutput(mine)).toMatchFileSnapshot(
          path.join(invalidDir, name.replace(/\.json$/, ".out")),
        );
        expect(result.code).toBe(all.some((d) => d.severity === "error") ? 1 : 0);
        for (const d of all) {
          const declared = Object.keys(
            [...MCP_RULES, PARSE_META].find((r) => r.id === d.ruleId)!.messages,
          );
          expect(declared, `${d.ruleId} reported messageId ${d.messageId}`).toContain(d.messageId);
        }
      });
    }
  });
}

/** Messages no fixture can produce, with the reason and where they are tested instead. */
const UNREACHED_MESSAGES: Readonly<Record<string, readonly string[]>> = {};

describe("tool-server rule messages (meta.messages)", () => {
  it("every message a rule declares is produced by one of its invalid fixtures", async () => {
    const reportedMessages = new Map<string, Set<string>>();
    for (const rule of MCP_RULES) {
      const invalidDir = path.join(FIXTURES, "mcp", "invalid", rule.id);
      for (const name of cases(invalidDir)) {
        const { stdout } = await runInvalidCase(invalidDir, name);
        for (const d of (JSON.parse(stdout) as { diagnostics: JsonFinding[] }).diagnostics)
          reportedMessages.set(
            d.ruleId,
            (reportedMessages.get(d.ruleId) ?? new Set()).add(d.messageId!),
          );
      }
    }
    const unreached: Record<string, string[]> = {};
    for (const rule of MCP_RULES) {
      const missing = Object.keys(rule.messages).filter(
        (id) =>
          !reportedMessages.get(rule.id)?.has(id) &&
          !(UNREACHED_MESSAGES[rule.id] ?? []).includes(id),
      );
      if (missing.length) unreached[rule.id] = missing;
    }
    expect(unreached, "messages no invalid fixture produces").toEqual({});
  });
});
