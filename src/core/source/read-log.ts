import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";

/**
 * What a run looked at on disk, for watch mode (whose next run is due when any of it changes) and
 * for `--output` (which must not replace any of it). Recorded where the reading happens, so a loader
 * or rule added later is covered without being told.
 */
export interface ReadLog {
  /** Files read, and paths probed for existence (a `Cargo.lock` or `Tauri.toml` that may appear later). */
  files: Set<string>;
  /** Folders listed: a file or folder appearing in one of them may change the verdict. */
  folders: Set<string>;
  /** Folders walked to any depth (capability and permission folders): anything below them counts. */
  trees: Set<string>;
}

export type ReadKind = keyof ReadLog;

export function newReadLog(): ReadLog {
  return { files: new Set(), folders: new Set(), trees: new Set() };
}

/**
 * Scoped to one asynchronous call tree, so that two loads running at once (a language server, a
 * library user) each record only their own reads; a nested recording also records into the outer one.
 */
const active = new AsyncLocalStorage<readonly ReadLog[]>();

/** Runs `body`, recording into `log` every read made below it. */
export function recordReads<T>(log: ReadLog, body: () => Promise<T>): Promise<T> {
  return active.run([...(active.getStore() ?? []), log], body);
}

/** Records one read into the recordings in progress, if any. */
export function noteRead(kind: ReadKind, target: string): void {
  const logs = active.getStore();
  if (!logs) return;
  const absolute = path.resolve(target);
  for (const log of logs) log[kind].add(absolute);
}

/** Every path in the log, files and folders alike. */
export function readPaths(log: ReadLog): string[] {
  return [...new Set([...log.files, ...log.folders, ...log.trees])];
}
