/**
 * The one command layer of check, events and mcp (src/core/lint/lint-command.ts): files named the
 * same way in every command and format, and the same `--max-warnings` gate and message.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../helpers/run.js";

function workspace(): { root: string; below: string } {
  const root = mkdtempSync(path.join(tmpdir(), "caplint-naming-"));
  const below = path.join(root, "a", "b");
  mkdirSync(below, { recursive: true });
  writeFileSync(
    path.join(root, "cap.json"),
    '{"identifier":"x","windows":["main"],"permissions":["core:defaul"]}\n',
  );
  writeFileSync(path.join(root, "rec.jsonl"), '{"type":"nope"}\n');
  writeFileSync(path.join(root, "tools.json"), '{"tools":[{"name":"x"}]}\n');
  return { root, below };
}

const COMMANDS = [
  ["check", "../../cap.json"],
  ["events", "../../rec.jsonl"],
  ["mcp", "../../tools.json"],
] as const;

describe("every linting command", () => {
  const { root, below } = workspace();

  it.each(COMMANDS)(
    "%s names a file above the working directory as given, relative (compact)",
    async (command, file) => {
      const result = await run([command, file, "-f", "compact"], below);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(1);
      const lines = result.stdout.split("\n").filter(Boolean);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(line.startsWith(`${file}:`), line).toBe(true);
      expect(result.stdout).not.toContain(root);
    },
  );

  it.each(COMMANDS)("%s names it the same way in JSON", async (command, file) => {
    const result = await run([command, file, "-f", "json"], below);
    const report = JSON.parse(result.stdout) as { diagnostics: Array<{ file: string }> };
    expect(report.diagnostics.length).toBeGreaterThan(0);
    expect(new Set(report.diagnostics.map((d) => d.file))).toEqual(new Set([file]));
  });

  /** A rule set to warning on each command's input: the run has warnings and no error. */
  const WARNING_RULE = { check: "unknown-permission", events: "event-type", mcp: "mcp-schema" };

  it.each(COMMANDS)(
    "%s refuses a --max-warnings that is not a whole number with the same message",
    async (command, file) => {
      const result = await run([command, file, "--max-warnings", "x"], below);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "caplint: --max-warnings x: expected a whole number (0 or more), or -1 for no limit\n",
      );
    },
  );

  it.each(COMMANDS)(
    "%s takes --max-warnings -1 as no limit, as ESLint does, and refuses -2",
    async (command, file) => {
      const args = [command, file, "--rule", `${WARNING_RULE[command]}=warning`];
      const unlimited = await run([...args, "--max-warnings", "-1"], below);
      expect(unlimited.stderr).toBe("");
      expect(unlimited.code).toBe(0);
      expect(unlimited.stdout).toMatch(/warning/);
      const minusTwo = await run([...args, "--max-warnings", "-2"], below);
      expect(minusTwo.code).toBe(2);
      expect(minusTwo.stderr).toBe(
        "caplint: --max-warnings -2: expected a whole number (0 or more), or -1 for no limit\n",
      );
    },
  );

  it.each(COMMANDS)(
    "%s fails a run over --max-warnings with the same message",
    async (command, file) => {
      const result = await run(
        [command, file, "--rule", `${WARNING_RULE[command]}=warning`, "--max-warnings", "0"],
        below,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^caplint: (1 warning exceeds|\d+ warnings exceed) --max-warnings 0\n$/,
      );
    },
  );
});
