#!/usr/bin/env node
// Starts a rule: `npm run new-rule -- <kind> <id>` (kind: capabilities, events or mcp) writes the four
// places a rule has (docs/architecture.md, "Adding a rule"):
//   1. src/<kind>/rules/<id>.ts, the rule from its domain's template;
//   2. its line in src/<kind>/rules/list.ts (kept sorted);
//   3. docs/rules/<id>.md with the sections the docs tests read (What, Why, Bad, Good);
//   4. its fixtures: a valid and an invalid case, where the fixture tests look for them.
// The README's rule tables and the severity contract's row are then written from the rule's metadata
// by `npm run rule-tables`. Until the rule reports what its invalid case holds, its tests fail and say
// what is missing: that is the checklist.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const [kind, id] = process.argv.slice(2);
const KINDS = ["capabilities", "events", "mcp"];
if (!KINDS.includes(kind) || !/^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/.test(id ?? "")) {
  process.stderr.write(
    "usage: npm run new-rule -- <capabilities|events|mcp> <rule-id> (kebab-case, at least two words: no-target)\n",
  );
  process.exit(2);
}
const camel = id.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

const RULE = {
  capabilities: `import { defineRule } from "./types.js";

export default defineRule({
  id: "${id}",
  description: "Report …: one sentence, what the rule finds.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: { found: 'capability "{{capability}}" …' },
  check(context) {
    for (const capability of context.capabilities) {
      context.report({
        at: capability.source,
        path: [...capability.source.path, "identifier"],
        messageId: "found",
        data: { capability: capability.identifier },
        hint: "how to fix it, in one line",
      });
    }
  },
});
`,
  mcp: `import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "${id}",
  input: "static",
  description: "Tools …: one sentence, what the convention asks.",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: { found: "tool {{name}} …" },
  check({ tools, report }) {
    for (const tool of tools) {
      if (tool.name === undefined) continue;
      report({ path: [...tool.path, "name"], messageId: "found", data: { name: quote(tool.name) }, hint: "how to fix it, in one line" });
    }
  },
});
`,
  events: `import { defineRule } from "./types.js";

export default defineRule({
  id: "${id}",
  description: "Every …: one sentence, what the protocol asks.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: { found: "tool call {{id}} …" },
  check({ on, report }) {
    on({
      tool_start(event) {
        report({ messageId: "found", data: { id: String(event.tool_call_id) }, field: "tool_call_id", hint: "how to fix it, in one line" });
      },
    });
  },
});
`,
};

const EXAMPLE = {
  capabilities: {
    ext: "json",
    code: '{\n  "identifier": "main",\n  "windows": ["main"],\n  "permissions": ["core:default"]\n}\n',
    language: "json",
  },
  mcp: {
    ext: "json",
    code: `${JSON.stringify({ serverInfo: { name: "demo_mcp", version: "1.0.0" }, tools: [{ name: "demo_get_item", description: "Gets an item.", inputSchema: { type: "object" } }] }, null, 2)}\n`,
    language: "json",
  },
  events: {
    ext: "jsonl",
    code: '{"type":"user_message","message_id":1,"content":"go"}\n{"type":"done","message_id":2,"stack_id":1,"content":"ok","input_tokens":1,"output_tokens":1}\n',
    language: "jsonl",
  },
};

/** One layout for every kind (test/rule-fixtures.test.ts): fixtures/<kind>/<rule-id>/{valid,invalid}/. */
const FIXTURES = {
  valid: `fixtures/${kind}/${id}/valid`,
  invalid: `fixtures/${kind}/${id}/invalid`,
};

const DOCS = `# ${id}

One sentence: what the rule finds (its description).

- Default severity: ${kind === "events" ? "error" : "warning"}
- Fixable: no

## What

What the rule reports, and where in the file.

## Why

What the host (or the protocol) does with it, which decides the default severity.

## Bad

\`\`\`${EXAMPLE[kind].language}
${EXAMPLE[kind].code}\`\`\`

## Good

\`\`\`${EXAMPLE[kind].language}
${EXAMPLE[kind].code}\`\`\`
`;

const written = [];
function create(file, text) {
  const full = path.join(ROOT, file);
  if (existsSync(full)) throw new Error(`${file} exists already`);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  written.push(file);
}

try {
  create(`src/${kind}/rules/${id}.ts`, RULE[kind]);
  const list = path.join(ROOT, `src/${kind}/rules/list.ts`);
  const lines = readFileSync(list, "utf8").split("\n");
  const line = `export { default as ${camel} } from "./${id}.js";`;
  const exports = lines.filter((l) => l.startsWith("export "));
  const after = exports.filter((l) => l < line).at(-1);
  lines.splice(after === undefined ? lines.indexOf(exports[0]) : lines.indexOf(after) + 1, 0, line);
  writeFileSync(list, lines.join("\n"));
  written.push(`src/${kind}/rules/list.ts (one line)`);
  create(`docs/rules/${id}.md`, DOCS);
  create(`${FIXTURES.valid}/clean.${EXAMPLE[kind].ext}`, EXAMPLE[kind].code);
  create(`${FIXTURES.invalid}/case.${EXAMPLE[kind].ext}`, EXAMPLE[kind].code);
} catch (error) {
  process.stderr.write(`new-rule: ${error.message}\n`);
  process.exit(2);
}
process.stdout.write(
  `${written.map((file) => `wrote ${file}\n`).join("")}
Next: write the check and its messages, the docs page's sections and examples, and the invalid case;
"npx vitest run -u" on the rule's fixture test writes the case's expected output (review it);
"npm run rule-tables" writes its rows in README.md and docs/rules/README.md from the metadata.
`,
);
