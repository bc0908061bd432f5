import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MCP_RULES } from "../../src/mcp/rules/index.js";
import { expectedOutput, type JsonFinding } from "../helpers/expected-output.js";
import { ROOT, run } from "../helpers/run.js";

/**
 * The tool-server rule docs are executed like the capability ones: in docs/rules/<id>.md the "Bad"
 * JSON must give exactly the findings of that rule listed in its ```text block (each hint as a `  help:` line), and the "Good" JSON
 * none at all. A line "The examples run with `ARGS`." gives extra arguments.
 */
function section(markdown: string, heading: string): { json: string; text?: string } {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf("\n## ", start + heading.length + 5);
  const body = markdown.slice(start, end < 0 ? undefined : end);
  const block = (language: string) =>
    new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(body)?.[1];
  const json = block("json");
  if (json === undefined) throw new Error(`no json block under "## ${heading}"`);
  const text = block("text");
  return text === undefined ? { json } : { json, text };
}

async function lint(json: string, args: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-docs-"));
  writeFileSync(path.join(dir, "example.json"), json);
  return run(["mcp", "--format", "json", "example.json", ...args], dir);
}

describe("tool-server rule docs", () => {
  for (const rule of MCP_RULES) {
    const markdown = readFileSync(path.join(ROOT, "docs", "rules", `${rule.id}.md`), "utf8");
    const args = /^The examples run with `([^`]+)`\.$/m.exec(markdown)?.[1]?.split(" ") ?? [];

    it(`${rule.id}: "Bad" gives the documented findings`, async () => {
      const bad = section(markdown, "Bad");
      const result = await lint(bad.json, args);
      expect(result.stderr).toBe("");
      const findings = (JSON.parse(result.stdout) as { diagnostics: JsonFinding[] }).diagnostics;
      expect(expectedOutput(findings.filter((finding) => finding.ruleId === rule.id))).toBe(
        bad.text,
      );
    });

    it(`${rule.id}: "Good" is clean`, async () => {
      const result = await lint(section(markdown, "Good").json, args);
      expect(result.stderr).toBe("");
      expect((JSON.parse(result.stdout) as { diagnostics: JsonFinding[] }).diagnostics).toEqual([]);
    });

    it(`${rule.id}: the page states the default severity`, () => {
      expect(markdown).toMatch(new RegExp(`^- Default severity: ${rule.defaultSeverity}`, "m"));
    });
  }
});

describe("README, Tool servers", () => {
  it("lists every tool-server rule with its default severity", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    for (const rule of MCP_RULES) {
      const row = readme
        .split("\n")
        .find((line) => line.startsWith(`| [\`${rule.id}\`](docs/rules/${rule.id}.md) |`));
      expect(row, rule.id).toBeDefined();
      expect(row!.split("|").map((cell) => cell.trim())[2], rule.id).toBe(rule.defaultSeverity);
    }
  });

  it("says in bold that --probe calls only tools with readOnlyHint: true", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme).toMatch(
      /\*\*[^*]*--probe[^*]*never calls a tool[^*]*readOnlyHint: true[^*]*\*\*/,
    );
  });
});
