import { readFileSync, statSync } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";

/** Files larger than this are refused with a finding (configurable with `--max-file-size`). */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export type ReadResult = { ok: true; text: string } | { ok: false; message: string };

/**
 * Reads a text file with a size limit; never throws for file problems. Synchronous on purpose:
 * capability files are small and local, and for thousands of them the thread-pool round trips of
 * asynchronous reads (stat, open, read, close) cost more than the reads (3x in the benchmark).
 * The stat comes first so that a FIFO is never opened (which would block).
 */
export function readTextFile(file: string, maxBytes: number): ReadResult {
  try {
    const info = statSync(file);
    if (info.isDirectory()) return { ok: false, message: "is a directory, not a file" };
    if (!info.isFile()) return { ok: false, message: "is not a regular file (FIFO, socket or device); skipped" };
    if (info.size > maxBytes) {
      return { ok: false, message: `file is ${formatBytes(info.size)}, over the ${formatBytes(maxBytes)} limit (raise it with --max-file-size)` };
    }
    return { ok: true, text: decodeUtf8(readFileSync(file)) };
  } catch (error) {
    return { ok: false, message: `cannot read file: ${describeIoError(error)}` };
  }
}

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** Invalid UTF-8 becomes U+FFFD, which the document pre-check reports. */
function decodeUtf8(buffer: Uint8Array): string {
  return decoder.decode(buffer);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

export function describeIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const known: Record<string, string> = {
    ENOENT: "no such file or directory",
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    ELOOP: "too many levels of symbolic links",
    EISDIR: "is a directory",
    ENOTDIR: "not a directory",
  };
  return (code && known[code]) ?? (error instanceof Error ? error.message : String(error));
}

export async function pathKind(target: string): Promise<"file" | "directory" | "other" | "missing"> {
  try {
    const info = await stat(target);
    return info.isDirectory() ? "directory" : info.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

export interface WalkResult {
  files: string[];
  /** Files under the folder that the host would not load as capabilities (wrong extension). */
  skipped: string[];
  problems: Array<{ file: string; message: string }>;
}

/**
 * Files below `root` with one of `extensions`, recursively, skipping folders named `schemas`
 * like tauri-build does. Symlinked folders are followed once (loops are cut by real path).
 */
export async function walk(root: string, extensions: readonly string[], ignoreName: (name: string) => boolean = () => false): Promise<WalkResult> {
  const result: WalkResult = { files: [], skipped: [], problems: [] };
  const seen = new Set<string>();
  const visit = async (dir: string): Promise<void> => {
    let real: string;
    try {
      real = await realpath(dir);
    } catch (error) {
      result.problems.push({ file: dir, message: `cannot read folder: ${describeIoError(error)}` });
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      result.problems.push({ file: dir, message: `cannot read folder: ${describeIoError(error)}` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          const info = await stat(full);
          isDir = info.isDirectory();
          isFile = info.isFile();
        } catch (error) {
          result.problems.push({ file: full, message: `broken symbolic link: ${describeIoError(error)}` });
          continue;
        }
      }
      if (isDir) {
        if (entry.name === "schemas") continue;
        if (extensions.some((ext) => entry.name.endsWith(ext))) {
          result.problems.push({ file: full, message: "is a directory with a capability file extension; skipped" });
        }
        await visit(full);
      } else if (ignoreName(entry.name)) {
        continue;
      } else if (extensions.some((ext) => entry.name.endsWith(ext))) {
        if (isFile) result.files.push(full);
        else result.problems.push({ file: full, message: "is not a regular file (FIFO, socket or device); skipped" });
      } else if (isFile && !entry.name.startsWith(".")) {
        result.skipped.push(full);
      }
    }
  };
  await visit(root);
  return result;
}
