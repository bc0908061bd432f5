import { structuredPatch, type StructuredPatchHunk } from "diff";
import { textLines } from "../terminal-text.js";

/**
 * Beyond this many changed lines Myers' diff stops searching (its cost grows with the number of
 * changes times the file's length) and the file is shown replaced whole: still a correct patch, and
 * the run stays linear in its input. Fixes change a few lines each.
 */
const MAX_EDIT_LENGTH = 1_000;

/** A unified diff (`---`/`+++` headers, hunks with `context` lines around each change) of one file. */
export function unifiedDiff(file: string, before: string, after: string, context = 3): string {
  if (before === after) return "";
  const patch = structuredPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, {
    context,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  const lines = [`--- a/${file}`, `+++ b/${file}`];
  for (const hunk of patch?.hunks ?? [wholeFileHunk(before, after)]) {
    lines.push(
      `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
      ...hunk.lines,
    );
  }
  // File contents are untrusted: each line is escaped for the terminal like every other output line.
  return textLines(lines);
}

function wholeFileHunk(before: string, after: string): StructuredPatchHunk {
  const removed = splitLines(before);
  const added = splitLines(after);
  return {
    oldStart: removed.length ? 1 : 0,
    oldLines: removed.length,
    newStart: added.length ? 1 : 0,
    newLines: added.length,
    lines: [...removed.map((line) => `-${line}`), ...added.map((line) => `+${line}`)],
  };
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}
