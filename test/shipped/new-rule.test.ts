import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

// `npm run new-rule` writes into the checkout it belongs to: it runs here on a copy of the sources.
let copy: string;
const newRule = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(copy, "scripts/new-rule.mjs"), ...args], {
    encoding: "utf8",
  });

beforeAll(() => {
  copy = mkdtempSync(path.join(tmpdir(), "caplint-new-rule-"));
  for (const entry of [
    "src",
    "scripts/new-rule.mjs",
    "package.json",
    "tsconfig.json",
    "tsconfig.build.json",
  ])
    cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe("npm run new-rule -- <kind> <id>", () => {
  it.each([
    ["capabilities", "zz-made-rule", "zzMadeRule"],
    ["events", "zz-made-event-rule", "zzMadeEventRule"],
    ["mcp", "mcp-zz-made-rule", "mcpZzMadeRule"],
  ])(
    "%s: writes the rule, its sorted line in the list, its docs page and two fixtures",
    (kind, id, name) => {
      const result = newRule(kind, id);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      const written = [...result.stdout.matchAll(/^wrote (\S+)/gm)].map((match) => match[1]!);
      expect(written).toHaveLength(5);
      for (const file of written) expect(existsSync(path.join(copy, file)), file).toBe(true);
      expect(written).toContain(`src/${kind}/rules/${id}.ts`);
      const exports = readFileSync(path.join(copy, `src/${kind}/rules/list.ts`), "utf8")
        .split("\n")
        .filter((line) => line.startsWith("export "));
      expect(exports).toContain(`export { default as ${name} } from "./${id}.js";`);
      expect(exports).toEqual([...exports].sort());
    },
  );

  it("the scaffolded rules type-check against the real rule contracts", () => {
    const tsc = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json", "--noEmit"],
      { cwd: copy, encoding: "utf8" },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 120_000);

  it("refuses a rule that exists, an unknown kind and a one-word id, exit 2", () => {
    const again = newRule("capabilities", "zz-made-rule");
    expect(again.status).toBe(2);
    expect(again.stderr).toBe("new-rule: src/capabilities/rules/zz-made-rule.ts exists already\n");
    for (const args of [["plugins", "zz-other-rule"], ["capabilities", "target"], []]) {
      const usage = newRule(...args);
      expect(usage.status).toBe(2);
      expect(usage.stderr).toMatch(
        /^usage: npm run new-rule -- <capabilities\|events\|mcp> <rule-id>/,
      );
    }
  });
});
