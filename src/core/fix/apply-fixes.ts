import type { Fix } from "../diagnostics.js";

/**
 * Applies non-overlapping fixes to a text. A fix that overlaps one already taken is left for the
 * next pass, when it is recomputed against the new text (ESLint's multi-pass approach).
 */
export function applyFixes(text: string, fixes: readonly Fix[]): { text: string; applied: number } {
  const spans = fixes
    .map((fix) => ({
      fix,
      start: Math.min(...fix.edits.map((e) => e.offset)),
      end: Math.max(...fix.edits.map((e) => e.offset + e.length)),
    }))
    .sort((a, b) => a.start - b.start || a.end - b.end);
  const taken: typeof spans = [];
  let lastEnd = -1;
  for (const span of spans) {
    if (span.start < lastEnd || (span.start === lastEnd && taken.length && span.start === span.end))
      continue;
    taken.push(span);
    lastEnd = span.end;
  }
  const edits = taken.flatMap((span) => span.fix.edits).sort((a, b) => b.offset - a.offset);
  let result = text;
  for (const edit of edits)
    result = result.slice(0, edit.offset) + edit.content + result.slice(edit.offset + edit.length);
  return { text: result, applied: taken.length };
}
