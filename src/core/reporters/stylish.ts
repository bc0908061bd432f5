import { oneLine, textLines } from "../terminal-text.js";
import type { Diagnostic, LintSummary } from "../diagnostics.js";
import { LineIndex } from "../source/line-index.js";
import { formatMessage } from "../messages.js";
import type { Paint, Reporter, ReporterContext } from "./types.js";
import { plural } from "../wording.js";

/** Grouped by file, each finding with a code frame, its fix hint and a closing summary line. */
const stylish: Reporter = (
  { diagnostics, summary, notes = [], config, hiddenWarnings = 0 },
  context,
) => {
  const { paint } = context;
  const out: string[] = [];
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  const lineIndexes = new Map<string, LineIndex | undefined>();
  const linesOf = (absolutePath: string) => {
    if (!lineIndexes.has(absolutePath)) {
      const text = context.sourceText(absolutePath);
      lineIndexes.set(absolutePath, text === undefined ? undefined : new LineIndex(text));
    }
    return lineIndexes.get(absolutePath);
  };
  for (const [file, list] of byFile) {
    out.push(paint.underline(file));
    for (const d of groupFindings(list)) {
      const lines = linesOf(d.absolutePath);
      const line = d.range.start.line;
      // A live server's answer is no file the user has: no line, column or code frame of it.
      const frame =
        d.liveServer === undefined && lines && !(lines.text === "" && lines.lineText(line) === "")
          ? {
              text: lines.lineText(line),
              previous: line > 1 ? lines.lineText(line - 1) : undefined,
            }
          : undefined;
      out.push(...findingLines(d, frame, context));
    }
    out.push("");
  }
  // Files with problems and files checked are different numbers: the closing line says both.
  let withProblems = 0;
  for (const list of byFile.values())
    if (list.some((d) => d.severity !== "suggestion")) withProblems++;
  out.push(...closingLines(summary, withProblems, notes, config, paint, hiddenWarnings));
  return textLines(out);
};

/**
 * One finding as stylish shows it: position, severity, message and rule; the code frame of its line
 * when the text is at hand; the related line and the hint. Shared with reports written while the
 * findings arrive (`caplint events`).
 */
export function findingLines(
  d: Diagnostic,
  frame: { text: string; previous?: string | undefined } | undefined,
  context: ReporterContext,
): string[] {
  const { paint } = context;
  // A suggestion changes nothing at run time: its line is dimmed, so problems stand out.
  const at = d.liveServer === undefined ? `  ${d.range.start.line}:${d.range.start.column}` : "";
  const out = [
    d.severity === "suggestion"
      ? paint.dim(`${at}  suggestion  ${d.message}  ${d.ruleId}`)
      : `${at}  ${d.severity === "error" ? paint.error("error") : paint.warning("warning")}  ${d.message}  ${paint.dim(d.ruleId)}`,
  ];
  if (frame) out.push(...codeFrame(d, frame.text, frame.previous, context));
  if (d.relatedLine !== undefined) out.push(`      ${paint.dim(`see line ${d.relatedLine}`)}`);
  if (d.hint) out.push(`      ${paint.accent("help:")} ${d.hint}`);
  return out;
}

/** The closing lines: "no problems", or the counts of problems and files; then the notes and the config used. */
export function closingLines(
  summary: LintSummary,
  filesWithProblems: number,
  notes: readonly string[],
  config: string | null | undefined,
  paint: Paint,
  /** Warnings `--quiet` did not show: said, so a quiet run never reads "no problems" while hiding some. */
  hiddenWarnings = 0,
): string[] {
  const noteLines = notes.map((note) => `  ${paint.dim(`note: ${note}`)}`);
  // Which configuration decided the severities: a config can turn rules off, so the reader must see it.
  if (config) noteLines.push(`  ${paint.dim(`config: ${config}`)}`);
  const hidden = hiddenWarnings ? ` (${plural(hiddenWarnings, "warning")} not shown: --quiet)` : "";
  // Suggestions are counted apart: they are not problems.
  const suggestions = summary.suggestions
    ? paint.dim(
        `${plural(summary.suggestions, "suggestion")} (true, but changing nothing at run time)`,
      )
    : undefined;
  if (summary.errors + summary.warnings === 0) {
    const clean = `${plural(summary.files, "file")} checked, ${hidden ? `no errors${hidden}` : "no problems"}`;
    return [suggestions ? `${clean}; ${suggestions}` : clean, ...noteLines];
  }
  const total = summary.errors + summary.warnings;
  // Files with problems and files checked are different numbers: say both.
  const line = `✖ ${plural(total, "problem")} (${plural(summary.errors, "error")}, ${plural(summary.warnings, "warning")}) in ${plural(filesWithProblems, "file")} (${summary.files} checked)${hidden}`;
  const out = [summary.errors ? paint.error(paint.bold(line)) : paint.warning(paint.bold(line))];
  if (suggestions) out.push(`  ${suggestions}`);
  if (summary.fixable) out.push(`  ${summary.fixable} fixable with --fix`);
  out.push(...noteLines);
  return out;
}

/**
 * Findings that carry a group (a capability's many redundant entries), when there are enough
 * of them, become one finding at the first of them, worded by the rule (see FindingGroup). `--fix`
 * removes them all; other formats keep one diagnostic per entry.
 */
function groupFindings(list: readonly Diagnostic[]): Diagnostic[] {
  const groups = new Map<string, Diagnostic[]>();
  for (const d of list) {
    if (!d.group) continue;
    const key = `${d.ruleId}\u0000${d.severity}\u0000${d.group.key}`;
    const members = groups.get(key);
    if (members) members.push(d);
    else groups.set(key, [d]);
  }
  const grouped = new Map<Diagnostic, Diagnostic | null>();
  for (const members of groups.values()) {
    const [first, ...rest] = members as [Diagnostic, ...Diagnostic[]];
    const group = first.group!;
    if (members.length < group.atLeast) continue;
    const listed = members.map((d) => d.group!.item);
    const list =
      listed.length > 8
        ? `${listed.slice(0, 8).join(", ")} and ${listed.length - 8} more`
        : listed.join(", ");
    const data = { ...group.data, count: members.length, list };
    const templates = { id: first.ruleId, messages: { message: group.message, hint: group.hint } };
    grouped.set(first, {
      ...first,
      message: formatMessage(templates, "message", data),
      hint: formatMessage(templates, "hint", data),
    });
    for (const d of rest) grouped.set(d, null);
  }
  return list.flatMap((d) => {
    const replacement = grouped.get(d);
    return replacement === undefined ? [d] : replacement === null ? [] : [replacement];
  });
}

/**
 * The finding's line with a marker under its span, and the line before it. A line longer than
 * MAX_LINE (minified JSON, a JSONL event) is shown as a window of MAX_LINE characters around the
 * span, with … where it is cut, so the marker stays under the field however far along the line it is.
 */
function codeFrame(
  d: Diagnostic,
  text: string,
  previous: string | undefined,
  context: ReporterContext,
): string[] {
  const { line, column } = d.range.start;
  const gutterWidth = String(line + 1).length;
  const gutter = (n: number | "") => context.paint.dim(`${String(n).padStart(gutterWidth)} |`);
  const start = windowStart(text, column - 1);
  const frame: string[] = [];
  if (previous !== undefined) frame.push(`    ${gutter(line - 1)} ${windowOf(previous, start)}`);
  frame.push(`  ${context.paint.bold(">")} ${gutter(line)} ${windowOf(text, start)}`);
  const endColumn = d.range.end.line === line ? d.range.end.column : text.length + 1;
  // Control characters in the line are shown escaped (several columns each): the marker follows them.
  const before = (start > 0 ? "…" : "") + oneLine(text.slice(start, column - 1));
  const width = Math.max(
    1,
    oneLine(text.slice(column - 1, Math.min(endColumn - 1, windowEnd(text, start)))).length,
  );
  const carets = "^".repeat(width);
  const marker =
    d.severity === "error"
      ? context.paint.error(carets)
      : d.severity === "warning"
        ? context.paint.warning(carets)
        : context.paint.dim(carets);
  frame.push(`    ${gutter("")} ${before.replace(/[^\t]/g, " ")}${marker}`);
  return frame;
}

const MAX_LINE = 160;
/** How much of the line before the marked span a window shows (the key of a marked value, say). */
const CONTEXT_BEFORE = 60;

/** Where the window of `text` that shows `offset` starts: 0 when the line fits, never inside a surrogate pair. */
function windowStart(text: string, offset: number): number {
  if (text.length <= MAX_LINE || offset < MAX_LINE - CONTEXT_BEFORE) return 0;
  let start = Math.max(0, Math.min(offset - CONTEXT_BEFORE, text.length - MAX_LINE));
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  return start;
}

function windowEnd(text: string, start: number): number {
  let end = Math.min(text.length, start + MAX_LINE);
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end--;
  return end;
}

function windowOf(text: string, start: number): string {
  const end = windowEnd(text, start);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

export default stylish;
