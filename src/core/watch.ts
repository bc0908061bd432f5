import { existsSync } from "node:fs";
import path from "node:path";
import { clearScreen, oneLine } from "../core/terminal-text.js";
import type { OutputStream } from "./io.js";
import { plural } from "./wording.js";

/** What one run reports: the files and folders whose changes should trigger the next run. */
export interface WatchedRun {
  inputs: readonly string[];
}

const DEBOUNCE_MS = 120;

/**
 * Runs `once`, then again after every change to its inputs, until `signal` aborts (Ctrl-C). A run
 * that fails (an invalid file, a fatal error) is reported and watching goes on; the loop itself
 * ends with exit code 0.
 *
 * Watching is chokidar's: it re-arms a file replaced by an atomic save (temporary file + rename),
 * follows folders that are deleted and created again (a branch switch), and reports a vanished
 * sub-folder as an event, not a crash. Only the inputs are watched, plus each input's parent folder
 * filtered down to that input, so that an input that does not exist yet is seen when it appears,
 * without watching a whole `src-tauri/` (with its `target/`). The watchers stay open while a run is
 * in progress, so a change made during a run triggers the next one.
 */
export async function watchLoop(
  once: () => Promise<WatchedRun>,
  describeError: (error: unknown) => string,
  stdout: OutputStream,
  signal: AbortSignal,
): Promise<number> {
  const { watch } = await import("chokidar");
  let wanted: readonly string[] = [];
  const isWanted = (file: string) => wanted.some((input) => isInsideOrEqual(file, input) || isInsideOrEqual(input, file));
  type Watcher = ReturnType<typeof watch>;
  let watcher: Watcher | undefined;
  const options = {
    ignoreInitial: true,
    persistent: true,
    atomic: true,
    ignorePermissionErrors: true,
    ignored: (file: string) => !isWanted(path.resolve(file)),
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
    created.on("all", changed);
    // A watch that fails (a folder removed mid-scan, too many watches) must not end the session.
    created.on("error", (error) => stdout.write(`[caplint] watch: ${oneLine(error instanceof Error ? error.message : String(error))}\n`));
    await new Promise<void>((resolve) => created.once("ready", () => resolve()));
    return created;
  };
  signal.addEventListener("abort", () => wake?.(), { once: true });
  const armed = new Set<string>();
  try {
    while (!signal.aborted) {
      pending = false;
      if (stdout.isTTY) stdout.write(clearScreen());
      try {
        wanted = [...new Set((await once()).inputs.map((input) => path.resolve(input)))];
      } catch (error) {
        stdout.write(`${describeError(error)}\n`);
      }
      // Re-armed on every run: a path that vanished and came back is watched again.
      const targets = new Set(wanted.flatMap((input) => [input, nearestExistingFolder(path.dirname(input))]));
      if (!watcher) watcher = await start([...targets]);
      else {
        const stale = [...armed].filter((target) => !targets.has(target));
        if (stale.length) watcher.unwatch(stale);
        watcher.add([...targets]);
      }
      armed.clear();
      for (const target of targets) armed.add(target);
      stdout.write(`\n[caplint] watching ${plural(wanted.length, "path")} for changes; press Ctrl-C to stop\n`);
      if (!pending && !signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    clearTimeout(timer);
    await watcher?.close();
  }
  return 0;
}

function isInsideOrEqual(file: string, folder: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}

function nearestExistingFolder(folder: string): string {
  let current = folder;
  while (!existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}
