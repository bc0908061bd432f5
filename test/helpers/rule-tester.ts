/**
 * An in-process rule tester for unit tests (ESLint's RuleTester): one rule of any domain, run alone by
 * its domain's linter on a text, with `valid` cases that give no finding and `invalid` cases that give
 * exactly the listed findings (messageId, and when given the message, hint, line and column) and, for a
 * fixable rule, the text after its fixes. The fixture folders stay the through-the-bin contract; this is
 * the quick loop for a rule's corners.
 *
 *   testRule(rule, { valid: ['{"identifier": "a", "windows": ["main"], "permissions": []}'], invalid: [...] });
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lint } from "../../src/capabilities/lint.js";
import { loadProject } from "../../src/capabilities/load/project.js";
import type { Diagnostic } from "../../src/core/diagnostics.js";
import { applyFixes } from "../../src/core/fix/apply-fixes.js";
import type { RuleMeta } from "../../src/core/lint/rule.js";
import type { RunSettings } from "../../src/core/lint/run-rules.js";
import { SourceDocument } from "../../src/core/source/document.js";
import { createLineValidator } from "../../src/events/validator.js";
import { lintMcp } from "../../src/mcp/lint.js";
import { readListing } from "../../src/mcp/listing.js";
import type { McpSettings } from "../../src/mcp/rules/types.js";
import { TOOL_SERVER_WORDING } from "../../src/mcp/wording.js";

export interface ValidCase {
  /** The input: a capability file (JSON, or TOML with a `.toml` filename), a tools/list dump, or a JSONL recording. */
  code: string;
  /** The test's name; default: the code's first 60 characters. */
  name?: string;
  /** The file the code is read as (its extension picks JSON or TOML for a capability file). */
  filename?: string;
  /** For an mcp rule: settings beside the defaults (`serverNameStyle: "any"`, no extra verbs, no pinned list tools). */
  mcp?: Partial<McpSettings>;
  /** For an event rule: the recording is client-to-server traffic. */
  client?: boolean;
}

export interface ExpectedFinding {
  messageId: string;
  message?: string;
  hint?: string;
  line?: number;
  column?: number;
  severity?: Diagnostic["severity"];
}

export interface InvalidCase extends ValidCase {
  errors: ExpectedFinding[];
  /** For a fixable rule: the code after its fixes (one pass); `null` when the findings carry no fix. */
  output?: string | null;
}

export interface RuleCases {
  valid: ReadonlyArray<string | ValidCase>;
  invalid: readonly InvalidCase[];
}

/** Every other rule of the domain is off; pipeline steps (parse, schema) still report, and a case must not trip them. */
function alone(rule: RuleMeta): RunSettings {
  return { severityFor: (id) => (id === rule.id ? undefined : "off"), only: new Set([rule.id]) };
}

const DEFAULT_FILENAMES: Readonly<Record<string, string>> = {
  capabilities: "capability.json",
  mcp: "tools.json",
  events: "recording.jsonl",
};

/** The findings of `rule` alone (and of the pipeline steps) on the case's code, through its domain's linter. */
async function check(rule: RuleMeta, item: ValidCase, folder: string): Promise<Diagnostic[]> {
  const filename = item.filename ?? DEFAULT_FILENAMES[rule.domain];
  if (filename === undefined) throw new Error(`the rule tester knows no domain "${rule.domain}"`);
  const absolutePath = path.join(folder, filename);
  switch (rule.domain) {
    case "capabilities": {
      writeFileSync(absolutePath, item.code);
      const project = await loadProject({ cwd: folder, paths: [absolutePath] });
      return (await lint(project, alone(rule))).diagnostics;
    }
    case "mcp": {
      const document = SourceDocument.parse(
        absolutePath,
        filename,
        item.code,
        "json",
        undefined,
        undefined,
        TOOL_SERVER_WORDING,
      );
      const settings: McpSettings = {
        serverNameStyle: "any",
        verbs: new Set(),
        listTools: new Map(),
        ...item.mcp,
      };
      return lintMcp([readListing(document)], { settings, ...alone(rule) });
    }
    default: {
      const validator = createLineValidator({
        client: item.client === true,
        file: filename,
        absolutePath,
        settings: alone(rule),
      });
      const lines = item.code.split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      return [...lines.flatMap((line) => validator.pushLine(line)), ...validator.end()];
    }
  }
}

function title(item: ValidCase): string {
  return (
    item.name ??
    (item.code.length > 60 ? `${item.code.slice(0, 60)}…` : item.code).replace(/\s+/g, " ")
  );
}

/** Registers one vitest test per case of `rule`. */
export function testRule(rule: RuleMeta, cases: RuleCases): void {
  describe(`rule ${rule.id} (rule tester)`, () => {
    const folder = mkdtempSync(path.join(tmpdir(), "caplint-rule-tester-"));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    let next = 0;
    /** Each case in a folder of its own: a capability case is a project of one file. */
    const caseFolder = () => {
      const dir = path.join(folder, String(next++));
      mkdirSync(dir);
      return dir;
    };

    for (const given of cases.valid) {
      const item = typeof given === "string" ? { code: given } : given;
      it(`valid: ${title(item)}`, async () => {
        const found = await check(rule, item, caseFolder());
        expect(found.map((d) => `${d.ruleId}/${d.messageId}: ${d.message}`)).toEqual([]);
      });
    }

    for (const item of cases.invalid) {
      it(`invalid: ${title(item)}`, async () => {
        expect(item.errors.length, "an invalid case lists its findings").toBeGreaterThan(0);
        const found = await check(rule, item, caseFolder());
        expect(
          found.filter((d) => d.ruleId !== rule.id).map((d) => `${d.ruleId}: ${d.message}`),
          "the code trips no pipeline step",
        ).toEqual([]);
        // Only the fields the case names are compared, in report order (file order, then position).
        const shown = found.map((d, index) => {
          const wanted = item.errors[index] ?? { messageId: d.messageId ?? "" };
          return {
            messageId: d.messageId,
            ...("message" in wanted ? { message: d.message } : {}),
            ...("hint" in wanted ? { hint: d.hint } : {}),
            ...("line" in wanted ? { line: d.range.start.line } : {}),
            ...("column" in wanted ? { column: d.range.start.column } : {}),
            ...("severity" in wanted ? { severity: d.severity } : {}),
          };
        });
        expect(shown).toEqual(item.errors);
        if (item.output !== undefined) {
          const fixes = found.flatMap((d) => (d.fix ? [d.fix] : []));
          expect(fixes.length === 0 ? null : applyFixes(item.code, fixes).text).toEqual(
            item.output,
          );
        } else if (rule.fixable) {
          expect(
            found.every((d) => !d.fix),
            "a case whose findings carry fixes says the fixed code (output)",
          ).toBe(true);
        }
      });
    }
  });
}
