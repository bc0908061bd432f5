import { oneLine, textLines } from "../terminal-text.js";
import type { Diagnostic } from "../diagnostics.js";
import { LineIndex } from "../source/line-index.js";
import type { Reporter, ReporterContext } from "./types.js";

/** Grouped by file, each finding with a code frame, its fix hint and a closing summary line. */
const stylish: Reporter = ({ diagnostics, summary, notes = [] }, context) => {
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
    for (const d of list) {
      const severity = d.severity === "error" ? paint.error("error") : paint.warning("warning");
      out.push(`  ${d.range.start.line}:${d.range.start.column}  ${severity}  ${d.message}  ${paint.dim(d.ruleId)}`);
      out.push(...codeFrame(d, linesOf(d.absolutePath), context));
      if (d.relatedLine !== undefined) out.push(`      ${paint.dim(`see line ${d.relatedLine}`)}`);
      if (d.hint) out.push(`      ${paint.accent("help:")} ${d.hint}`);
    }
    out.push("");
  }
  const noteLines = notes.map((note) => `  ${paint.dim(`note: ${note}`)}`);
  if (summary.errors + summary.warnings === 0) {
    return textLines([`${summary.files} file${summary.files === 1 ? "" : "s"} checked, no problems`, ...noteLines]);
  }
  const total = summary.errors + summary.warnings;
  const line = `✖ ${total} problem${total === 1 ? "" : "s"} (${summary.errors} error${summary.errors === 1 ? "" : "s"}, ${summary.warnings} warning${summary.warnings === 1 ? "" : "s"}) in ${summary.files} file${summary.files === 1 ? "" : "s"}`;
  out.push(summary.errors ? paint.error(paint.bold(line)) : paint.warning(paint.bold(line)));
  if (summary.fixable) out.push(`  ${summary.fixable} fixable with --fix`);
  out.push(...noteLines);
  return textLines(out);
};

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
    const marker = d.severity === "error" ? context.paint.error("^".repeat(width)) : context.paint.warning("^".repeat(width));
    frame.push(`    ${gutter("")} ${before.replace(/[^\t]/g, " ")}${marker}`);
  }
  return frame;
}

const MAX_LINE = 160;

function truncate(text: string): string {
  return text.length > MAX_LINE ? `${text.slice(0, MAX_LINE)}…` : text;
}

export default stylish;
