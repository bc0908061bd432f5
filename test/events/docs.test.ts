import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EVENT_RULES } from "../../src/events/rules/index.js";
import { ROOT } from "../helpers/run.js";
import { validateText } from "./helpers.js";

/** The jsonl block and the expected compact lines of a "## Bad" or "## Good" section. */
function section(markdown: string, heading: string): { recording: string; expected: string } {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf("\n## ", start + heading.length + 5);
  const body = markdown.slice(start, end < 0 ? undefined : end);
  const block = (language: string) =>
    new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(body)?.[1] ?? "";
  return { recording: block("jsonl"), expected: block("text") };
}

const compact = (text: string, client: boolean) =>
  validateText(text, client)
    .map(
      (d) =>
        `example.jsonl:${d.line}:${d.column}: ${d.severity} ${d.message} [${d.ruleId}]\n${d.hint === undefined ? "" : `  help: ${d.hint}\n`}`,
    )
    .join("");

/** Each event rule's docs are executed: "Bad" gives exactly its documented findings, "Good" none. */
describe("event rule docs", () => {
  for (const rule of EVENT_RULES) {
    const markdown = readFileSync(path.join(ROOT, "docs", "rules", `${rule.id}.md`), "utf8");
    it(`${rule.id}: the bad example gives its documented findings`, () => {
      const bad = section(markdown, "Bad");
      expect(bad.recording).not.toBe("");
      expect(compact(bad.recording, false)).toBe(bad.expected);
    });
    it(`${rule.id}: the good example gives none`, () => {
      expect(compact(section(markdown, "Good").recording, false)).toBe("");
    });
    it(`${rule.id}: documents its default severity and what it does not check`, () => {
      expect(markdown).toContain(`- Default severity: ${rule.defaultSeverity}`);
      expect(markdown.startsWith(`# ${rule.id}\n`)).toBe(true);
    });
  }
});

describe("README: Event streams", () => {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  it("lists every event rule with its default severity", () => {
    for (const rule of EVENT_RULES) {
      const row = readme
        .split("\n")
        .find((line) => line.startsWith(`| [\`${rule.id}\`](docs/rules/${rule.id}.md) |`));
      expect(row, rule.id).toBeDefined();
      expect(row!.split("|")[2]!.trim(), rule.id).toBe(rule.defaultSeverity);
    }
  });
});
