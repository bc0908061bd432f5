import { oneLine, textLines } from "../terminal-text.js";
import type { Diagnostic } from "../diagnostics.js";
import { LineIndex } from "../source/line-index.js";
import type { Reporter, ReporterContext } from "./types.js";
import { plural } from "../wording.js";

/** Grouped by file, each finding with a code frame, its fix hint and a closing summary line. */
const stylish: Reporter = ({ diagnostics, summary, notes = [], config, hiddenWarnings = 0 }, context) => {
  const { paint } = context;
  const out: string[] = [];
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
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
    for (const d of groupRedundant(list)) {
      // A suggestion changes nothing at run time: its line is dimmed, so problems stand out.
      out.push(
        d.severity === "suggestion"
          ? paint.dim(`  ${d.range.start.line}:${d.range.start.column}  suggestion  ${d.message}  ${d.ruleId}`)
          : `  ${d.range.start.line}:${d.range.start.column}  ${d.severity === "error" ? paint.error("error") : paint.warning("warning")}  ${d.message}  ${paint.dim(d.ruleId)}`,
      );
      out.push(...codeFrame(d, linesOf(d.absolutePath), context));
      if (d.relatedLine !== undefined) out.push(`      ${paint.dim(`see line ${d.relatedLine}`)}`);
      if (d.hint) out.push(`      ${paint.accent("help:")} ${d.hint}`);
    }
    out.push("");
  }
  const noteLines = notes.map((note) => `  ${paint.dim(`note: ${note}`)}`);
  // Which configuration decided the severities: a config can turn rules off, so the reader must see it.
  if (config) noteLines.push(`  ${paint.dim(`config: ${config}`)}`);
  const hidden = hiddenWarnings ? ` (${plural(hiddenWarnings, "warning")} not shown: --quiet)` : "";
  // Suggestions are counted apart: they are not problems.
  const suggestions = summary.suggestions ? paint.dim(`${plural(summary.suggestions, "suggestion")} (true, but changing nothing at run time)`) : undefined;
  if (summary.errors + summary.warnings === 0) {
    const clean = `${plural(summary.files, "file")} checked, ${hidden ? `no errors${hidden}` : "no problems"}`;
    return textLines([...out, suggestions ? `${clean}; ${suggestions}` : clean, ...noteLines]);
  }
  const total = summary.errors + summary.warnings;
  // Files with problems and files checked are different numbers: say both.
  let withProblems = 0;
  for (const list of byFile.values()) if (list.some((d) => d.severity !== "suggestion")) withProblems++;
  const line = `✖ ${plural(total, "problem")} (${plural(summary.errors, "error")}, ${plural(summary.warnings, "warning")}) in ${plural(withProblems, "file")} (${summary.files} checked)`;
  out.push(summary.errors ? paint.error(paint.bold(line + hidden)) : paint.warning(paint.bold(line + hidden)));
  if (suggestions) out.push(`  ${suggestions}`);
  if (summary.fixable) out.push(`  ${summary.fixable} fixable with --fix`);
  out.push(...noteLines);
  return textLines(out);
};

/** At this many redundant entries in one capability, stylish shows them as one finding. */
const GROUP_REDUNDANT_AT = 3;

/**
 * A capability's redundant-permission findings, when there are several, become one finding at the
 * first of them that lists them all (an app with dozens reads as one line per capability). `--fix`
 * removes them all; other formats keep one diagnostic per entry.
 */
function groupRedundant(list: readonly Diagnostic[]): Diagnostic[] {
  const groups = new Map<string, Diagnostic[]>();
  for (const d of list) {
    if (d.ruleId !== "redundant-permission" || typeof d.data?.capability !== "string") continue;
    const key = `${d.severity}\u0000${d.data.capability}`;
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  const grouped = new Map<Diagnostic, Diagnostic | null>();
  for (const members of groups.values()) {
    if (members.length < GROUP_REDUNDANT_AT) continue;
    const [first, ...rest] = members as [Diagnostic, ...Diagnostic[]];
    const listed = members.map((d) => `"${String(d.data!.permission)}" (by "${String(d.data!.grantedBy)}")`);
    const shown = listed.length > 8 ? `${listed.slice(0, 8).join(", ")} and ${listed.length - 8} more` : listed.join(", ");
    grouped.set(first, {
      ...first,
      message: `${members.length} permissions are already granted by sets in capability "${String(first.data!.capability)}": ${shown}`,
      hint: `remove them; --fix removes all ${members.length}`,
    });
    for (const d of rest) grouped.set(d, null);
  }
  return list.flatMap((d) => {
    const replacement = grouped.get(d);
    return replacement === undefined ? [d] : replacement === null ? [] : [replacement];
  });
}

function codeFrame(d: Diagnostic, lines: LineIndex | undefined, context: ReporterContext): string[] {
  if (!lines) return [];
  const { line, column } = d.range.start;
  const text = lines.lineText(line);
  if (text === "" && lines.text === "") return [];
  const gutterWidth = String(line + 1).length;
  const gutter = (n: number | "") => context.paint.dim(`${String(n).padStart(gutterWidth)} |`);
  const frame: string[] = [];
  if (line > 1) frame.push(`    ${gutter(line - 1)} ${truncate(lines.lineText(line - 1))}`);
  frame.push(`  ${context.paint.bold(">")} ${gutter(line)} ${truncate(text)}`);
  const endColumn = d.range.end.line === line ? d.range.end.column : text.length + 1;
  if (column <= MAX_LINE) {
    // Control characters in the line are shown escaped (several columns each): the caret follows them.
    const before = oneLine(text.slice(0, column - 1));
    const width = Math.max(1, oneLine(text.slice(column - 1, Math.min(endColumn, MAX_LINE + 1) - 1)).length);
    const carets = "^".repeat(width);
    const marker = d.severity === "error" ? context.paint.error(carets) : d.severity === "warning" ? context.paint.warning(carets) : context.paint.dim(carets);
    frame.push(`    ${gutter("")} ${before.replace(/[^\t]/g, " ")}${marker}`);
  }
  return frame;
}

const MAX_LINE = 160;

function truncate(text: string): string {
  return text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text;
}

export default stylish;
