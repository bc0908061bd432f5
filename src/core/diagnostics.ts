import type { JsonPath, Range, TextEdit } from "./location.js";

/**
 * `error`: a rejection or a real exposure (exit 1); `warning`: accepted but wrong or risky;
 * `suggestion`: true, but it changes nothing at run time (never fails a run, not counted by
 * `--max-warnings`).
 */
export type Severity = "error" | "warning" | "suggestion";
export type RuleSetting = Severity | "off";

export interface Fix {
  /** What the fix does, for `--fix-dry-run` and reporters. */
  description: string;
  edits: TextEdit[];
}

/**
 * Findings of one rule that stylish shows as one line once there are `atLeast` of them with the same
 * `key` and severity (a capability's many redundant entries). `message` and `hint` are templates
 * (src/core/messages.ts) filled from `data` plus `count` (how many) and `list` (their `item`s, the
 * first eight). Other formats keep one finding each. The rule words all of it: reporters print what
 * findings carry.
 */
export interface FindingGroup {
  key: string;
  atLeast: number;
  item: string;
  message: string;
  hint: string;
  data?: Readonly<Record<string, string | number>>;
}

export interface Diagnostic {
  ruleId: string;
  /** The id of the rule's message template (`meta.messages`) the text was built from. */
  messageId?: string;
  severity: Severity;
  message: string;
  /** POSIX path relative to the working directory (or absolute when outside it); for a `liveServer` finding, the server's label. */
  file: string;
  /**
   * A finding about a live tool server that has no file (`caplint mcp --stdio`/`--url`): its label,
   * secrets redacted. Text formats show it where a file would be; SARIF and GitHub annotations give
   * no file location (none that GitHub could place exists) and name the server in the message.
   */
  liveServer?: string;
  /** Absolute file system path, for fixes and code frames; not part of the JSON contract. */
  absolutePath: string;
  path: JsonPath;
  range: Range;
  /** Character offsets of the range in the file text, for code frames. */
  offset: number;
  length: number;
  /** How to fix it, in one line. */
  hint?: string;
  /** The other line of a finding that pairs two events (a terminal event and its start). */
  relatedLine?: number;
  fix?: Fix;
  /** Stylish shows this finding with the others of its group as one line (see FindingGroup). */
  group?: FindingGroup;
  /** Facts behind the message for programs: its placeholder values and e.g. the commands a dangerous grant covers; not printed. */
  data?: Readonly<Record<string, unknown>>;
}

export interface LintSummary {
  files: number;
  errors: number;
  warnings: number;
  suggestions: number;
  fixable: number;
}

export function summarize(diagnostics: readonly Diagnostic[], files: number): LintSummary {
  let errors = 0;
  let warnings = 0;
  let suggestions = 0;
  let fixable = 0;
  for (const d of diagnostics) {
    if (d.severity === "error") errors++;
    else if (d.severity === "warning") warnings++;
    else suggestions++;
    if (d.fix) fixable++;
  }
  return { files, errors, warnings, suggestions, fixable };
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareStrings(a.file, b.file) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.column - b.range.start.column ||
    compareStrings(a.ruleId, b.ruleId) ||
    compareStrings(a.message, b.message)
  );
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
