#!/usr/bin/env node
// Writes the rule tables of README.md and docs/rules/README.md from the rules' metadata
// (scripts/lib/rule-tables.mjs says what is generated and what stays hand-written).
// Usage: npm run rule-tables (compiles src/ first: the metadata is read from dist/registry.js).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { contractWithRuleRows, readmeWithRuleTables } from "./lib/rule-tables.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const { REGISTRY } = await import(pathToFileURL(path.join(ROOT, "dist", "registry.js")).href);
const rules = REGISTRY.rules;
const readText = (file) => readFileSync(path.join(ROOT, file), "utf8");
const pageOf = (id) => {
  try {
    return readText(`docs/rules/${id}.md`);
  } catch {
    return undefined;
  }
};
const sectionDomain = (heading) =>
  REGISTRY.domains.find((domain) => heading.includes(`(\`caplint ${domain.lintCommand}\`)`))?.name;

for (const [file, write] of [
  ["README.md", (text) => readmeWithRuleTables(text, rules)],
  [
    path.join("docs", "rules", "README.md"),
    (text) => contractWithRuleRows(text, rules, sectionDomain, pageOf),
  ],
]) {
  const before = readText(file);
  const after = write(before);
  if (after !== before) writeFileSync(path.join(ROOT, file), after);
  process.stdout.write(`${file}: ${after === before ? "up to date" : "written"}\n`);
}
