/**
 * Where a finding's file is for the formats GitHub reads: code scanning (SARIF) and workflow
 * annotations both resolve a relative path from the repository root, whatever folder caplint ran
 * in, so `cd apps/desktop && caplint` must name `apps/desktop/src-tauri/…`, not `src-tauri/…`.
 */
import path from "node:path";
import { fsPath, repositoryRoot } from "../source/read.js";

/** What the text formats call standard input read without `--stdin-filename`: no file in the repository. */
export const STDIN_NAME = "<stdin>";

/**
 * The folder relative paths start from: the repository holding the working directory (the nearest
 * folder above it with `.git`), else the working directory itself.
 */
export function sourceRoot(cwd: string): string {
  // Asked once per finding of a streamed report: remembered for the run's one working directory.
  if (lastRoot?.cwd !== cwd) lastRoot = { cwd, root: repositoryRoot(cwd) ?? cwd };
  return lastRoot.root;
}
let lastRoot: { cwd: string; root: string } | undefined;

export interface RepositoryPath {
  /** The path's bytes as the file system has them (a name that is not UTF-8 keeps its bytes). */
  bytes: Buffer;
  /** The bytes after the root and its separator; empty for the root itself; undefined for a path outside it. */
  fromRoot: Buffer | undefined;
}

/** `absolutePath` split at `root`, byte for byte (a `\xff` display name is not what the file system holds). */
export function repositoryPath(absolutePath: string, root: string): RepositoryPath {
  const raw = fsPath(absolutePath);
  const bytes = typeof raw === "string" ? Buffer.from(raw) : raw;
  if (absolutePath === root) return { bytes, fromRoot: Buffer.alloc(0) };
  const prefix = Buffer.from(root.endsWith(path.sep) ? root : root + path.sep);
  const inside = bytes.length > prefix.length && bytes.subarray(0, prefix.length).equals(prefix);
  return { bytes, fromRoot: inside ? bytes.subarray(prefix.length) : undefined };
}
