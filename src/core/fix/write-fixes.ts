import { readFile } from "node:fs/promises";
import { replaceFile } from "../file-output.js";
import { describeIoError, hasRawName } from "../source/read.js";
import { FatalError } from "../errors.js";
import type { FileChanges } from "./fix-passes.js";

/**
 * Writes fixed files atomically. A file that changed on disk since caplint read it is refused, so
 * an editor's unsaved-then-saved work is never overwritten; a failed write leaves the original.
 */
export async function writeFixes(changes: FileChanges, write = replaceFile): Promise<void> {
  for (const [absolutePath, change] of changes) {
    // Its name is not UTF-8: a write by the shown name would make another file. Refused, not guessed.
    if (hasRawName(absolutePath))
      throw new FatalError(
        `${change.file}: the file name is not UTF-8 (shown escaped); caplint does not rewrite such a file: apply the fix by hand`,
      );
    const current = await readFile(absolutePath, "utf8").catch(() => undefined);
    if (current !== change.original)
      throw new FatalError(
        `${change.file}: changed on disk while caplint was fixing it; not written (run --fix again)`,
      );
    try {
      await write(absolutePath, change.fixed);
    } catch (error) {
      throw new FatalError(
        `${change.file}: cannot write the fixed file, original left untouched: ${describeIoError(error)}`,
      );
    }
  }
}
