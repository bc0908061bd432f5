import { watch, type FSWatcher } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { OutputStream } from "./io.js";

/** What one run reports: the files and folders whose changes should trigger the next run. */
export interface WatchedRun {
  inputs: readonly string[];
}

const DEBOUNCE_MS = 120;
const CLEAR_SCREEN = "\u001b[2J\u001b[3J\u001b[H";

/**
 * Runs `once`, then again after every change to its inputs, until `signal` aborts (Ctrl-C). A run
 * that fails (an invalid file, a fatal error) is reported and watching goes on; the loop itself
 * ends with exit code 0. Watchers stay open while a run is in progress, so a change made during a
 * run is not lost: it triggers the next one.
 */
export async function watchLoop(
  once: () => Promise<WatchedRun>,
  describeError: (error: unknown) => string,
  stdout: OutputStream,
  signal: AbortSignal,
): Promise<number> {
  const watchers = new Map<string, FSWatcher>();
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
  signal.addEventListener("abort", () => wake?.(), { once: true });
  try {
    while (!signal.aborted) {
      pending = false;
      if (stdout.isTTY) stdout.write(CLEAR_SCREEN);
      let inputs: readonly string[] = [...watchers.keys()];
      try {
        inputs = (await once()).inputs;
      } catch (error) {
        stdout.write(`${describeError(error)}\n`);
      }
      await watchInputs(inputs, watchers, changed);
      stdout.write(`\n[caplint] watching ${watchers.size} path${watchers.size === 1 ? "" : "s"} for changes; press Ctrl-C to stop\n`);
      if (!pending && !signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
  }
  return 0;
}

/** Watches every input (a folder recursively; a missing input through its parent folder). */
async function watchInputs(inputs: readonly string[], watchers: Map<string, FSWatcher>, changed: () => void): Promise<void> {
  for (const input of inputs) {
    const kind = await stat(input).then((s) => (s.isDirectory() ? "dir" : "file"), () => "missing");
    const target = kind === "missing" ? path.dirname(input) : input;
    if (watchers.has(target)) continue;
    try {
      watchers.set(target, watch(target, { recursive: kind === "dir", persistent: true }, changed));
    } catch {
      // An input that vanished between stat and watch is picked up by the next run.
    }
  }
}
