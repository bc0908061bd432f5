import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RULES } from "../../../src/registry.js";
import { expectedOutput, type JsonFinding } from "../../helpers/expected-output.js";
import { ROOT, run } from "../../helpers/run.js";

/**
 * The docs are executed (actionlint's check-checks, ESLint's lint:docs:rule-examples): in each
 * docs/rules/<id>.md, the "Bad" section's files must produce exactly the findings of its ```text
 * block, and the "Good" section's files none. A code block's file is named by the `path` line before
 * it (default example.json); a finding's hint follows it as a `  help:` line, as in the fixtures' `.out` files.
 * With a tauri.conf.json the folder is an app checked from src-tauri/;
 * otherwise example.json is checked, with the permissions/ and plugins/ folders the section defines.
 */
interface Example {
  files: Map<string, string>;
  /** File names by code block language, in order. */
  languages: Map<string, string[]>;
  expected?: string;
}

/**
 * A section's code blocks. In "Good", a block without a name line takes the name of the "Bad" block
 * of the same language at the same position, and the context "Good" does not show carries over from
 * "Bad" ("fix the typo" shows only the fixed capability, not tauri.conf.json again).
 */
function parseSection(markdown: string, heading: string, base?: Example): Example {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf("\n## ", start + heading.length + 5);
  const lines = markdown.slice(start, end < 0 ? undefined : end).split("\n");
  const example: Example = { files: new Map(), languages: new Map() };
  const languageCounts = new Map<string, number>();
  let name: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const named = /^`([^`\s]+\.(json5?|toml|ts|tsx|js|html|vue|svelte))`/.exec(line);
    if (named) name = named[1];
    const fence = /^```(\w+)\s*$/.exec(line);
    if (!fence) continue;
    const body: string[] = [];
    while (++i < lines.length && !lines[i]!.startsWith("```")) body.push(lines[i]!);
    const text = body.join("\n") + "\n";
    if (fence[1] === "text") example.expected = text;
    else if (
      ["json", "json5", "toml", "ts", "tsx", "js", "html", "vue", "svelte"].includes(fence[1]!)
    ) {
      const language = fence[1]!;
      const position = languageCounts.get(language) ?? 0;
      languageCounts.set(language, position + 1);
      const file =
        name ?? (base ? base.languages.get(language)?.[position] : undefined) ?? "example.json";
      if (!example.files.has(file)) {
        example.files.set(file, text);
        example.languages.set(language, [...(example.languages.get(language) ?? []), file]);
      }
    }
    name = undefined;
  }
  if (base) {
    // Context carries over (the app config, permission files); capability files only when "Good" shows none.
    const showsCapabilities = [...example.files.keys()].some((file) => !isContext(file));
    for (const [file, text] of base.files)
      if (!example.files.has(file) && (isContext(file) || !showsCapabilities))
        example.files.set(file, text);
  }
  return example;
}

const isContext = (file: string) =>
  APP_FILES.has(file) ||
  file.startsWith("permissions/") ||
  file.startsWith("plugins/") ||
  /\.(ts|tsx|js|html|vue|svelte)$/.test(file);

/** Files of the app folder itself (src-tauri/, and the frontend beside it), not capability files. */
const APP_FILES = new Set(["tauri.conf.json", "Cargo.toml", "package.json", "index.html"]);

async function check(example: Example) {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-docs-"));
  const appMode = example.files.has("tauri.conf.json");
  for (const [file, text] of example.files) {
    const target = path.join(
      dir,
      appMode && !file.includes("/") && !APP_FILES.has(file) ? `capabilities/${file}` : file,
    );
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  const names = [...example.files.keys()];
  const args = appMode
    ? ["--format", "json"]
    : ["check", "--format", "json", ...names.filter((n) => !n.includes("/"))];
  if (!appMode && names.some((n) => n.startsWith("permissions/")))
    args.push("--permissions", "permissions");
  if (!appMode && names.some((n) => n.startsWith("plugins/"))) args.push("--plugins", "plugins");
  const result = await run(args, dir);
  if (result.stderr !== "") return { stderr: result.stderr, findings: "" };
  return {
    stderr: "",
    findings: expectedOutput(
      (JSON.parse(result.stdout) as { diagnostics: JsonFinding[] }).diagnostics,
    ),
  };
}

/** Capability rules; the other domains execute their docs in test/<domain>/docs.test.ts. */
describe("rule docs are executed", () => {
  for (const rule of RULES.filter((r) => r.domain === "capabilities")) {
    const markdown = readFileSync(path.join(ROOT, "docs", "rules", `${rule.id}.md`), "utf8");
    it(`${rule.id}: the bad example gives exactly the documented findings`, async () => {
      const bad = parseSection(markdown, "Bad");
      expect(bad.expected, "a ```text block with the output").toBeDefined();
      const result = await check(bad);
      expect(result.stderr).toBe("");
      expect(result.findings).toBe(bad.expected);
    });
    it(`${rule.id}: the good example is clean`, async () => {
      const result = await check(parseSection(markdown, "Good", parseSection(markdown, "Bad")));
      expect(result.stderr).toBe("");
      expect(result.findings).toBe("");
    });
  }
});

describe("README", () => {
  it("lists every capability rule with its default severity and fixability", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    for (const rule of RULES.filter((r) => r.domain === "capabilities")) {
      const row = readme
        .split("\n")
        .find((line) => line.startsWith(`| [\`${rule.id}\`](docs/rules/${rule.id}.md) |`));
      expect(row, rule.id).toBeDefined();
      expect(
        row!
          .split("|")
          .map((cell) => cell.trim())
          .slice(2, 4),
        rule.id,
      ).toEqual([rule.defaultSeverity, rule.fixable ? "✔" : ""]);
    }
  });
});

describe("docs/rules/README.md (the severity contract)", () => {
  const contract = readFileSync(path.join(ROOT, "docs", "rules", "README.md"), "utf8").split("\n");
  const rowOf = (id: string) =>
    contract.find((line) => line.startsWith(`| [\`${id}\`](${id}.md) |`));
  for (const rule of RULES) {
    it(`${rule.id}: one row with its default severity and the behaviour that justifies it`, () => {
      const row = rowOf(rule.id);
      expect(row, rule.id).toBeDefined();
      const cells = row!.split("|").map((cell) => cell.trim());
      expect(cells[2], rule.id).toBe(rule.defaultSeverity);
      expect(cells.at(-2)!.length, `${rule.id}: the justification`).toBeGreaterThan(20);
    });
  }
});
