import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULES } from "../src/rules/index.js";
import { FIXTURES, ROOT, run } from "./helpers/run.js";

/**
 * Fixture-driven rule tests (actionlint style):
 * - `fixtures/<rule-id>/valid/<case>` (a file, or a folder holding an app) must produce no finding at all;
 * - `fixtures/<rule-id>/invalid/<case>` must produce exactly the findings of that rule listed in
 *   `<case>.out`, in compact form, with paths relative to the `invalid/` folder;
 * - optional `<case>.args` holds extra CLI arguments, one per line (e.g. `--platform` or `--rule`).
 */
const CASE = /\.(json|toml|json5|txt)$/;

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

function target(dir: string, name: string): string[] {
  const full = path.join(dir, name);
  return statSync(full).isDirectory() ? ["--app", name] : [name];
}

for (const rule of RULES) {
  describe(`rule ${rule.id}`, () => {
    const base = path.join(FIXTURES, rule.id);
    const validDir = path.join(base, "valid");
    const invalidDir = path.join(base, "invalid");

    it("has docs, a valid and an invalid fixture", () => {
      expect(existsSync(path.join(ROOT, "docs", "rules", `${rule.id}.md`)), `docs/rules/${rule.id}.md`).toBe(true);
      expect(cases(validDir).length, `${validDir} has cases`).toBeGreaterThan(0);
      expect(cases(invalidDir).length, `${invalidDir} has cases`).toBeGreaterThan(0);
    });

    for (const name of cases(validDir)) {
      it(`valid/${name} is clean`, async () => {
        const result = await run(["check", "--format", "compact", ...target(validDir, name), ...extraArgs(validDir, name)], validDir);
        expect(result.stderr).toBe("");
        expect(result.stdout).toBe("");
        expect(result.code).toBe(0);
      });
    }

    for (const name of cases(invalidDir)) {
      it(`invalid/${name} reports what ${caseName(name)}.out lists`, async () => {
        const result = await run(["check", "--format", "compact", ...target(invalidDir, name), ...extraArgs(invalidDir, name)], invalidDir);
        expect(result.stderr).toBe("");
        const mine = result.stdout.split("\n").filter((line) => line.endsWith(`[${rule.id}]`));
        expect(mine.length, "the rule fires").toBeGreaterThan(0);
        await expect(mine.join("\n") + "\n").toMatchFileSnapshot(path.join(invalidDir, `${caseName(name)}.out`));
        expect(result.code).toBe(result.stdout.includes(": error ") ? 1 : 0);
      });
    }
  });
}
