import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULES } from "../src/registry.js";
import { FIXTURES, ROOT, run } from "./helpers/run.js";

/**
 * Fixture-driven rule tests (actionlint style):
 * - `fixtures/<rule-id>/valid/<case>` (a file, or a folder holding an app) must produce no finding at all;
 * - `fixtures/<rule-id>/invalid/<case>` must produce exactly the findings of that rule listed in
 *   `<case>.out`, in compact form, with paths relative to the `invalid/` folder;
 * - optional `<case>.args` holds extra CLI arguments, one per line (e.g. `--platform` or `--rule`);
 * - optional `<case>.fixed.json` is the file after `--fix`: it must no longer produce that rule's
 *   findings, and a second `--fix` must change nothing. Every fixable rule needs one.
 * These are the capability rules; the other domains run their fixtures in test/<domain>/.
 */
const CASE = /\.(json|jsonl|toml|json5|txt)$/;

function cases(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => !name.endsWith(".out") && !name.endsWith(".args") && !name.endsWith(".fixed.json") && (CASE.test(name) || statSync(path.join(dir, name)).isDirectory()))
    .sort();
}

function extraArgs(dir: string, name: string): string[] {
  const file = path.join(dir, `${caseName(name)}.args`);
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").map((l) => l.trim()).filter(Boolean) : [];
}

function caseName(name: string): string {
  return name.replace(CASE, "");
}

/** The command line that checks a case with some options: `check --format compact --app case`. */
function argv(dir: string, name: string, ...options: string[]): string[] {
  const isApp = statSync(path.join(dir, name)).isDirectory();
  return ["check", ...options, ...(isApp ? ["--app", name] : [name]), ...extraArgs(dir, name)];
}

describe("the rule registry and docs/rules", () => {
  it("every rule of every domain has its page, and every page is a registered rule", () => {
    const pages = readdirSync(path.join(ROOT, "docs", "rules")).filter((name) => name.endsWith(".md")).map((name) => name.slice(0, -3));
    expect(pages.sort()).toEqual(RULES.map((rule) => rule.id).sort());
  });
});

for (const rule of RULES.filter((r) => r.domain === "capabilities")) {
  describe(`rule ${rule.id}`, () => {
    const base = path.join(FIXTURES, rule.id);
    const validDir = path.join(base, "valid");
    const invalidDir = path.join(base, "invalid");

    it("has docs, a valid and an invalid fixture", () => {
      expect(existsSync(path.join(ROOT, "docs", "rules", `${rule.id}.md`)), `docs/rules/${rule.id}.md`).toBe(true);
      expect(cases(validDir).length, `${validDir} has cases`).toBeGreaterThan(0);
      expect(cases(invalidDir).length, `${invalidDir} has cases`).toBeGreaterThan(0);
      const fixedCases = existsSync(invalidDir) ? readdirSync(invalidDir).filter((n) => n.endsWith(".fixed.json")) : [];
      expect(fixedCases.length > 0, `fixable: ${rule.fixable}, .fixed.json cases: ${fixedCases.length}`).toBe(rule.fixable);
    });

    for (const name of cases(validDir)) {
      it(`valid/${name} is clean`, async () => {
        const result = await run(argv(validDir, name, "--format", "compact"), validDir);
        expect(result.stderr).toBe("");
        expect(result.stdout).toBe("");
        expect(result.code).toBe(0);
      });
    }

    for (const name of cases(invalidDir)) {
      it(`invalid/${name} reports what ${caseName(name)}.out lists`, async () => {
        const result = await run(argv(invalidDir, name, "--format", "compact"), invalidDir);
        expect(result.stderr).toBe("");
        const mine = result.stdout.split("\n").filter((line) => line.endsWith(`[${rule.id}]`));
        expect(mine.length, "the rule fires").toBeGreaterThan(0);
        await expect(mine.join("\n") + "\n").toMatchFileSnapshot(path.join(invalidDir, `${caseName(name)}.out`));
        expect(result.code).toBe(result.stdout.includes(": error ") ? 1 : 0);
      });

      const fixed = path.join(invalidDir, `${caseName(name)}.fixed.json`);
      if (existsSync(fixed)) {
        it(`invalid/${name} --fix gives ${caseName(name)}.fixed.json, clean of the rule and stable`, async () => {
          const dir = mkdtempSync(path.join(tmpdir(), `caplint-fix-${rule.id}-`));
          copyFileSync(path.join(invalidDir, name), path.join(dir, name));
          const first = await run(["check", "--fix", "--format", "json", name, ...extraArgs(invalidDir, name)], dir);
          expect(first.stderr).toBe("");
          expect(readFileSync(path.join(dir, name), "utf8")).toBe(readFileSync(fixed, "utf8"));
          const left = JSON.parse(first.stdout).diagnostics.filter((d: { ruleId: string; fixable: boolean }) => d.ruleId === rule.id && d.fixable);
          expect(left, "no fixable finding of the rule is left").toEqual([]);
          await run(["check", "--fix", "--format", "compact", name, ...extraArgs(invalidDir, name)], dir);
          expect(readFileSync(path.join(dir, name), "utf8")).toBe(readFileSync(fixed, "utf8"));
        });
      }
    }
  });
}
