import type { ManifestUnionNote } from "../queries/manifest-union.js";
import { NO_PAINT, type Paint } from "../../core/terminal-text.js";
import { plural } from "../../core/wording.js";

/** One note line per committed manifest whose union with the built-in catalog an answer rests on. */
export function manifestUnionLines(
  notes: readonly ManifestUnionNote[],
  paint: Paint = NO_PAINT,
): string[] {
  const byFile = new Map<string, string[]>();
  for (const note of notes)
    byFile.set(note.file, [...(byFile.get(note.file) ?? []), note.identifier]);
  return [...byFile].map(
    ([file, identifiers]) =>
      `${paint.dim("note:")} this answer reads ${plural(identifiers.length, "permission")} (${identifiers.join(", ")}) from the union of ${file} and the built-in catalog, which disagree on ${identifiers.length === 1 ? "it" : "them"} (caplint check's manifest-mismatch says how); the build regenerates that file: run it and commit the file for an exact answer`,
  );
}
