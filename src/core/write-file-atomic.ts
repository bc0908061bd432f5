import { randomBytes } from "node:crypto";
import { chmod, open, realpath, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

/**
 * Writes `text` to `file` so that readers see either the old file or the complete new one, never
 * a half-written report: the text goes to a temporary file in the same folder (a rename is only
 * atomic within one file system), is flushed to disk, then renamed over the target.
 * An existing file keeps its permission bits, a symbolic link stays a link (its target is
 * replaced); on any error the temporary file is removed and the error is rethrown with the target
 * untouched.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const target = await realpath(file).catch(() => path.resolve(file));
  const existingMode = await modeOf(target);
  // The leading dot and `.tmp` suffix keep a leftover out of folder listings and git (.gitignore `*.tmp`).
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let created = false;
  try {
    // `wx`: never follow or clobber something already at the temporary name.
    const handle = await open(temporary, "wx", existingMode ?? 0o666);
    created = true;
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    // open() applies the umask to the mode; chmod sets the existing file's bits exactly.
    if (existingMode !== undefined) await chmod(temporary, existingMode);
    await rename(temporary, target);
  } catch (error) {
    if (created) await rm(temporary, { force: true });
    throw error;
  }
}

async function modeOf(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.mode & 0o7777 : undefined;
  } catch {
    return undefined;
  }
}
