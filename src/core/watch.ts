import { existsSync } from "node:fs";
import path from "node:path";
import { clearScreen, oneLine } from "../core/terminal-text.js";
import type { OutputStream } from "./io.js";
import { newReadLog, type ReadLog } from "./source/read-log.js";
import { plural } from "./wording.js";

/** Where watch mode writes: the runs' reports, and its own lines (status, watch errors, failed runs). */
export interface WatchStreams {
  /** The reports; cleared before each run when it is a terminal. */
  output: OutputStream;
  /** The status line: standard output for people, standard error beside a machine format. */
  status: OutputStream;
  errors: OutputStream;
}

const DEBOUNCE_MS = 120;

/**
 * Runs `once`, which records into the log it is given what it read on disk, then again after every
 * change to what it read, until `signal` aborts (Ctrl-C). A run
 * that fails (an invalid file, a fatal error) is reported and watching goes on; the loop itself
 * ends with exit code 0. Every run reads everything again (Cargo files, configs, sources): nothing
 * is cached between runs.
 *
 * Watching is chokidar's: it re-arms a file replaced by an atomic save (temporary file + rename),
 * follows folders that are deleted and created again (a branch switch), and reports a vanished
 * sub-folder as an event, not a crash. Only what the run read is watched: each file (with its
 * parent folder filtered down to it, so that a file that does not exist yet is seen when it
 * appears), each folder it listed (its direct entries), and each folder it walked to any depth (a
 * capabilities folder), never a whole `src-tauri/` with its `target/`. The watchers stay open while
 * a run is in progress, so a change made during a run triggers the next one.
 */
export async function watchLoop(
  once: (read: ReadLog) => Promise<unknown>,
  describeError: (error: unknown) => string,
  streams: WatchStreams,
  signal: AbortSignal,
): Promise<number> {
  const { watch } = await import("chokidar");
  let wanted = new WatchedPaths(newReadLog());
  type Watcher = ReturnType<typeof watch>;
  let watcher: Watcher | undefined;
  const options = {
    ignoreInitial: true,
    persistent: true,
    atomic: true,
    ignorePermissionErrors: true,
    ignored: (file: string) => !wanted.has(path.resolve(file)),
  };
  let pending = false;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      pending = true;
      wake?.();
    }, DEBOUNCE_MS);
  };
  const start = async (targets: string[]): Promise<Watcher> => {
    const created = watch(targets, options);
    created.on("all", (event, file) => {
      if (wanted.matters(event, path.resolve(file))) changed();
    });
    // A watch that fails (a folder removed mid-scan, too many watches) must not end the session.
    created.on("error", (error) =>
      streams.errors.write(
        `[caplint] watch: ${oneLine(error instanceof Error ? error.message : String(error))}\n`,
      ),
    );
    await new Promise<void>((resolve) => created.once("ready", () => resolve()));
    return created;
  };
  signal.addEventListener("abort", () => wake?.(), { once: true });
  /** The paths the current watcher was made for. */
  let watchedPaths = "";
  try {
    while (!signal.aborted) {
      pending = false;
      if (streams.output.isTTY) streams.output.write(clearScreen());
      const read = newReadLog();
      try {
        await once(read);
        wanted = new WatchedPaths(read);
      } catch (error) {
        // What the failed run read (the broken file included) is watched beside the last run's paths,
        // so that fixing what broke it starts the next run.
        wanted = new WatchedPaths(wanted.log, read);
        streams.errors.write(`${describeError(error)}\n`);
      }
      // chokidar looks at a folder's entries once, when it starts watching it: a run that read new
      // paths (a plugin folder Cargo.toml now names) gets a new watcher, started before the old one
      // closes so that no change falls between them. Adding paths to the old one instead, or removing
      // some, misleads it: a folder it already watches is reported removed, and a removed path stays
      // ignored when it comes back.
      const paths = wanted.signature();
      if (paths !== watchedPaths) {
        const previous = watcher;
        watcher = await start(wanted.targets());
        await previous?.close();
        watchedPaths = paths;
      }
      streams.status.write(
        `\n[caplint] watching ${plural(wanted.size, "path")} for changes; press Ctrl-C to stop\n`,
      );
      if (!pending && !signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    clearTimeout(timer);
    await watcher?.close();
  }
  return 0;
}

/** What one run read, as the paths chokidar may report: a lookup per event, whatever the number of paths. */
class WatchedPaths {
  readonly log: ReadLog = newReadLog();
  private readonly trees: string[];
  /** Folders on the way to a watched path, so that chokidar descends from a watched ancestor. */
  private readonly ancestors = new Set<string>();
  readonly size: number;

  constructor(...reads: ReadLog[]) {
    for (const read of reads)
      for (const kind of ["files", "folders", "trees"] as const)
        for (const target of read[kind]) this.log[kind].add(target);
    const { files, folders, trees } = this.log;
    this.trees = [...trees];
    for (const target of [...files, ...folders, ...trees]) {
      for (let dir = path.dirname(target); !this.ancestors.has(dir); dir = path.dirname(dir)) {
        this.ancestors.add(dir);
        if (path.dirname(dir) === dir) break;
      }
    }
    this.size = new Set([...files, ...folders, ...trees]).size;
  }

  /** The paths, as one text that differs when they do; files in walked folders are watched with them (a new capability file needs no new watcher). */
  signature(): string {
    const outsideTrees = (paths: Iterable<string>) =>
      [...paths].filter((file) => !this.trees.some((tree) => isInsideOrEqual(file, tree))).sort();
    return JSON.stringify([
      outsideTrees(this.log.files),
      outsideTrees(this.log.folders),
      [...this.trees].sort(),
    ]);
  }

  /** Whether chokidar should look at `file` at all. */
  has(file: string): boolean {
    return this.log.folders.has(path.dirname(file)) || this.ancestors.has(file) || this.read(file);
  }

  /**
   * Whether an event calls for a new run: any change to what was read; in a folder that was only
   * listed, an entry appearing or going (the contents of a file no run read, an editor's swap file
   * being saved, change nothing).
   */
  matters(event: string, file: string): boolean {
    return this.read(file) || (this.log.folders.has(path.dirname(file)) && event !== "change");
  }

  private read(file: string): boolean {
    return (
      this.log.files.has(file) ||
      this.log.folders.has(file) ||
      this.trees.some((tree) => isInsideOrEqual(file, tree))
    );
  }

  /**
   * What chokidar is given: the topmost of the existing folders above the paths (a path may not exist
   * yet); it descends from them through the folders on the way (see `has`). Watching a folder both
   * on its own and through its parent makes chokidar report its files as removed.
   */
  targets(): string[] {
    const folders = new Set(
      [...this.log.files, ...this.log.folders, ...this.trees].map((target) =>
        nearestExistingFolder(path.dirname(target)),
      ),
    );
    return [...folders].filter((folder) => {
      for (
        let dir = folder, parent = path.dirname(dir);
        parent !== dir;
        dir = parent, parent = path.dirname(dir)
      )
        if (folders.has(parent)) return false;
      return true;
    });
  }
}

function isInsideOrEqual(file: string, folder: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}

function nearestExistingFolder(folder: string): string {
  let current = folder;
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}
