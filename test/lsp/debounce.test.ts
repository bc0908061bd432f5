import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { Connection, TextDocuments } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { DEFAULT_SETTINGS } from "../../src/lsp/settings.js";
import { Workspace, type Clock } from "../../src/lsp/workspace.js";

/**
 * The wait after an edit (src/lsp/workspace.ts `waitAfterChange`): the debounce, or the app's last
 * check time when that is shorter. The workspace runs on a clock the test drives: every reading of it
 * advances by the cost the test sets, and each timer is noted with its delay and run only when the test
 * says so. What is asserted is the delays asked for and how many checks ran, never how long anything took.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const APP = path.join(ROOT, "fixtures/real-world/build-truth/TheBestTvarynka__Dataans/dataans");
const FILE = path.join(APP, "src-tauri/capabilities/desktop.json");
const URI = pathToFileURL(FILE).href;

interface Timer {
  run: () => void;
  ms: number;
  cleared: boolean;
}

function harness() {
  const timers: Timer[] = [];
  /** What one check "takes": the clock moves by this much between the two readings around it. */
  const cost = { ms: 0 };
  let time = 0;
  const clock: Clock = {
    now: () => (time += cost.ms),
    setTimeout(run, ms) {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimeout(timer) {
      (timer as Timer).cleared = true;
    },
  };
  const logs: string[] = [];
  const connection = {
    sendDiagnostics: () => Promise.resolve(),
    console: { log: (line: string) => logs.push(line), error: (line: string) => logs.push(line) },
    window: { showWarningMessage: () => Promise.resolve(undefined) },
  } as unknown as Connection;
  const open = new Map<string, TextDocument>();
  const documents = {
    get: (uri: string) => open.get(uri),
    keys: () => [...open.keys()],
    all: () => [...open.values()],
  } as unknown as TextDocuments<TextDocument>;
  const workspace = new Workspace(
    connection,
    documents,
    { ...process.env, CAPLINT_CARGO_REGISTRY: "off" },
    clock,
  );
  workspace.folders = [APP];
  const checks = () => logs.filter((line) => / checked in /.test(line)).length;
  /** Runs the latest timer (the check it schedules) and waits until that check has run. */
  const fire = async () => {
    const before = checks();
    const timer = timers[timers.length - 1]!;
    expect(timer.cleared).toBe(false);
    timer.run();
    // Waiting, not measuring: the check reads the app from disk.
    for (let i = 0; i < 3000 && checks() === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(checks()).toBe(before + 1);
  };
  let version = 1;
  const edit = () => {
    open.set(URI, TextDocument.create(URI, "json", ++version, readFileSync(FILE, "utf8")));
    workspace.changed(URI);
  };
  return { workspace, timers, cost, checks, fire, edit, open, logs };
}

describe("caplint lsp: the wait after an edit", () => {
  it("is the debounce before the first check, then the last check's time when shorter", async () => {
    const { workspace, timers, cost, checks, fire, edit, open, logs } = harness();
    workspace.settings = { ...DEFAULT_SETTINGS, debounceMs: 50 };
    open.set(URI, TextDocument.create(URI, "json", 1, readFileSync(FILE, "utf8")));
    workspace.opened(URI);
    // Nothing known of the app yet: the debounce.
    expect(timers.map((timer) => timer.ms)).toEqual([50]);
    cost.ms = 7;
    await fire();

    // The app's check took 7 ms: the next edit waits 7 ms, not 50.
    edit();
    expect(timers[timers.length - 1]!.ms).toBe(7);
    // A second edit before that timer ran: it is cleared, one check takes both.
    edit();
    expect(timers[timers.length - 2]!.cleared).toBe(true);
    expect(timers[timers.length - 1]!.ms).toBe(7);
    cost.ms = 500;
    await fire();
    expect(checks()).toBe(2);

    // A check slower than the debounce: the wait is the debounce again.
    edit();
    expect(timers[timers.length - 1]!.ms).toBe(50);
    cost.ms = 0.2;
    await fire();
    // Part of a millisecond is rounded up: never a wait of 0 when a debounce is set.
    edit();
    expect(timers[timers.length - 1]!.ms).toBe(1);

    // No debounce: no wait, whatever the last check took.
    workspace.settings = { ...DEFAULT_SETTINGS, debounceMs: 0 };
    edit();
    expect(timers[timers.length - 1]!.ms).toBe(0);
    await fire();
    expect(checks()).toBe(4);
    expect(logs.filter((line) => !/ checked in /.test(line))).toEqual([]);
    workspace.dispose();
  });
});
