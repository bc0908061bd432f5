import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
// The spawn the MCP SDK uses (npx.cmd and shebang scripts on Windows work as with the SDK; node's own spawn elsewhere).
import spawn from "cross-spawn";
import { escapeControls } from "./text.js";

/** A stdio server to run: what `--stdio -- CMD ARGS...` and `--env` say. */
export interface StdioTarget {
  kind: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  /** The working directory (a client configuration's `cwd`); caplint's own when absent. */
  cwd?: string;
}

/** How the child's stderr is handled: passed through (sanitized) with `--verbose`, else only its last lines kept. */
export interface ServerStderr {
  verbose: boolean;
  stderr: { write(chunk: string): unknown };
  /** Hides secrets in what is passed through (see redact.ts). */
  redact?: (text: string) => string;
}

/**
 * The variables a stdio server inherits from caplint's environment, the same as the MCP SDK's
 * `getDefaultEnvironment()` (client/stdio.js; test/integrations/mcp/server-process.test.ts compares the two): the
 * server gets these and what `--env` gives, nothing else.
 */
const INHERITED_ENV_VARS =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
        "PROGRAMFILES",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

export function inheritedEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const key of INHERITED_ENV_VARS) {
    const value = env[key];
    // A value starting with "()" is an exported shell function: not passed on (as the SDK does).
    if (value !== undefined && !value.startsWith("()")) inherited[key] = value;
  }
  return inherited;
}

/** Most stdout kept before a transport listens (the SDK's read buffer holds as much). */
const EARLY_STDOUT_BYTES = 10 * 1024 * 1024;
/** Lines of the child's stderr kept for error messages. */
const STDERR_TAIL = 5;
/** Whether the server leads a process group of its own that stop() can signal whole (POSIX). */
const OWN_GROUP = process.platform !== "win32";
/** Signals that would end caplint while a server runs: the server is stopped first, then caplint ends as the signal says. */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** What the transport listening to the server's stdout is told. */
export interface ServerListener {
  data(chunk: Buffer): void;
  error(error: Error): void;
  close(): void;
}

/**
 * A stdio tool server that caplint started. It is spawned before anything else of a live run loads
 * (by the bin itself, before the CLI: `startEarly`), so the server's own start-up and caplint's
 * overlap; the run adopts it (`startServer`) and the SDK's transport listens to it later (live.ts).
 * What the server writes on stdout until then is kept and handed over first (past 10 MiB the
 * stream is paused and the pipe holds the rest), so nothing a server says first is lost; its stderr
 * is read from the start (and passed through with --verbose once the run knows where to). Whatever
 * happens (a usage or fatal error before the SDK is loaded, a server that hangs, Ctrl-C), `stop()`
 * and the signal handlers end the child and wait until it is reaped.
 */
export class ServerProcess {
  readonly child: ChildProcess;
  /** How the child ended, once it has. */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** A failure to start it (ENOENT: no such command). */
  spawnError: Error | undefined;
  /** The last lines of its stderr (sanitized by whoever prints them). */
  readonly stderrTail: string[] = [];
  private closed = false;
  private listener: ServerListener | undefined;
  private early: Buffer[] = [];
  private stopping = false;
  private stopped: Promise<void> | undefined;
  private earlyBytes = 0;
  private readonly started: Promise<void>;
  private readonly ended: Promise<void>;
  private readonly onSignal = (signal: NodeJS.Signals) => void this.stopOnSignal(signal);
  /** Where stderr goes; until the run says (a server started by the bin), what it writes is held. */
  private output: ServerStderr | undefined;
  private heldStderr: string[] = [];
  /** A stderr line not yet ended, passed through once it is (a secret split across chunks is still redacted whole). */
  private stderrPartial = "";

  constructor(
    readonly target: StdioTarget,
    output?: ServerStderr,
  ) {
    this.output = output;
    this.child = spawn(target.command, target.args, {
      env: { ...inheritedEnvironment(), ...target.env },
      ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
      // Its own process group, so that stop() ends what it started too (npx, a shell, workers), not only the process caplint spawned.
      detached: OWN_GROUP,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      windowsHide: process.platform === "win32",
    });
    const child = this.child;
    this.started = new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", reject);
    });
    // Rejections of `started` are read by `whenStarted()`; one nobody waits for is not an unhandled rejection.
    this.started.catch(() => undefined);
    this.ended = new Promise((resolve) => child.once("close", () => resolve()));
    child.on("error", (error) => {
      this.spawnError ??= error;
      this.listener?.error(error);
    });
    child.once("exit", (code, signal) => {
      this.exit = { code, signal };
      this.removeSignalHandlers();
    });
    child.once("close", () => {
      this.closed = true;
      this.removeSignalHandlers();
      this.listener?.close();
    });
    // EPIPE when the server is gone: the close that follows ends the session.
    child.stdin?.on("error", (error) => this.listener?.error(error));
    child.stdout?.on("error", (error) => this.listener?.error(error));
    child.stdout?.on("data", (chunk: Buffer) => this.readStdout(chunk));
    child.stderr?.on("data", (chunk: Buffer) => this.readStderr(chunk.toString("utf8")));
    if (child.pid !== undefined)
      for (const signal of ENDING_SIGNALS) process.on(signal, this.onSignal);
  }

  /** The run's stderr settings, for a server started before they were known: held output is written now. */
  setOutput(output: ServerStderr): void {
    this.output = output;
    const held = this.heldStderr;
    this.heldStderr = [];
    for (const text of held) this.passThrough(text);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Resolves once the process runs, rejects with the spawn error (ENOENT) when it cannot. */
  whenStarted(): Promise<void> {
    return this.started;
  }

  /**
   * Starts reading stdout into `listener`, beginning with whatever the server wrote before. When the
   * server has already gone, `close` follows once its last output is read.
   */
  listen(listener: ServerListener): void {
    if (this.listener) throw new Error("the server's stdout is already read");
    this.listener = listener;
    const early = this.early;
    this.early = [];
    for (const chunk of early) listener.data(chunk);
    this.child.stdout?.resume();
    if (this.closed) queueMicrotask(() => listener.close());
  }

  /** Writes one serialized message to the server's stdin; resolves once written (or buffered below the high-water mark). */
  write(text: string): Promise<void> {
    const stdin = this.child.stdin;
    if (this.closed || !stdin || stdin.destroyed) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(text)) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /**
   * Ends the server and its process tree, bounded in time, and waits until it is reaped: stdin is
   * closed (a well-behaved server exits then), it gets 300 ms, then its process group and every
   * descendant get SIGTERM and 1.5 s, then SIGKILL. Descendants still running once the server has
   * gone (a worker that inherited stdout, a daemon that left the group with setsid) are ended the
   * same way. Its stdout is drained meanwhile, and its pipes are let go after a last 500 ms: a
   * process caplint could not end never keeps caplint from exiting.
   */
  stop(): Promise<void> {
    // Called by the transport's close and again by the run's `finally`: one stop.
    this.stopped ??= this.stopOnce();
    return this.stopped;
  }

  private async stopOnce(): Promise<void> {
    const child = this.child;
    if (child.pid === undefined || (this.closed && !OWN_GROUP)) return;
    // Unread output no longer matters; a paused stdout would keep the pipe (and caplint) open.
    this.stopping = true;
    this.early = [];
    child.stdout?.resume();
    // Taken while the server runs: once it exits, its children belong to init and cannot be told from others.
    const tree = descendants(child.pid);
    if (this.exit === undefined) {
      child.stdin?.end();
      if (!(await this.exited(300))) {
        this.signalTree(tree, "SIGTERM");
        if (!(await this.exited(1500))) {
          this.signalTree(tree, "SIGKILL");
          await this.exited(2000);
        }
      }
    }
    await this.endLeftovers(tree);
    // stdio closes after the exit, once the pipes are drained; a process that still holds them is let go.
    await Promise.race([this.ended, delay(500)]);
    if (!this.closed)
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    this.removeSignalHandlers();
  }

  /** The server's group and its descendants still running after it exited: SIGTERM, then SIGKILL after 300 ms. */
  private async endLeftovers(tree: readonly number[]): Promise<void> {
    if (!OWN_GROUP) return;
    // The server has exited: what it started is in the tree taken before, or still in its group.
    const running = () => tree.some(isRunning) || groupRuns(this.child.pid!);
    if (!running()) return;
    this.signalTree(tree, "SIGTERM");
    // A timer that keeps caplint alive (delay() does not): nothing else may be left to wait for.
    for (let waited = 0; waited < 300 && running(); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    if (running()) this.signalTree(tree, "SIGKILL");
  }

  /** Signals the server's process group (POSIX), the processes it started that left the group, and the server itself. */
  private signalTree(tree: readonly number[], signal: NodeJS.Signals): void {
    const pid = this.child.pid!;
    if (OWN_GROUP) {
      try {
        process.kill(-pid, signal);
      } catch {
        // the group is empty
      }
      // While the server runs it may have started more since the tree was taken.
      for (const member of this.exit === undefined ? [...tree, ...descendants(pid)] : tree) {
        try {
          process.kill(member, signal);
        } catch {
          // gone
        }
      }
    }
    if (this.exit === undefined) this.child.kill(signal);
  }

  private exited(ms: number): Promise<boolean> {
    if (this.exit !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.child.once("exit", () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Ctrl-C (or SIGTERM, SIGHUP) while the server runs: caplint would die at once and leave a server
   * that ignores its closed stdin running. The server and its process tree are stopped (SIGTERM,
   * SIGKILL after 1 s) and reaped, then the signal is raised again so that caplint ends as it would have.
   */
  private async stopOnSignal(signal: NodeJS.Signals): Promise<void> {
    this.removeSignalHandlers();
    const tree = this.child.pid === undefined ? [] : descendants(this.child.pid);
    if (this.exit === undefined) {
      this.signalTree(tree, "SIGTERM");
      if (!(await this.exited(1000))) {
        this.signalTree(tree, "SIGKILL");
        await this.exited(2000);
      }
    }
    if (this.child.pid !== undefined) await this.endLeftovers(tree);
    // Raised again only when nothing else handles it, so the default action (ending caplint) happens.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  }

  private removeSignalHandlers(): void {
    for (const signal of ENDING_SIGNALS) process.removeListener(signal, this.onSignal);
  }

  private readStdout(chunk: Buffer): void {
    if (this.listener) return this.listener.data(chunk);
    if (this.stopping) return;
    this.early.push(chunk);
    this.earlyBytes += chunk.length;
    if (this.earlyBytes > EARLY_STDOUT_BYTES) this.child.stdout?.pause();
  }

  private readStderr(text: string): void {
    if (this.output) this.passThrough(text);
    else if (this.heldStderr.length < 1000) this.heldStderr.push(text);
    for (const line of text.split("\n")) if (line.trim()) this.stderrTail.push(line.trim());
    this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - STDERR_TAIL));
  }

  private passThrough(text: string): void {
    if (!this.output?.verbose) return;
    const lines = this.stderrPartial + text;
    const end = lines.lastIndexOf("\n") + 1;
    // Whole lines only (a partial line over 64 KiB is written as it is).
    this.stderrPartial = lines.slice(end);
    let shown = lines.slice(0, end);
    if (this.stderrPartial.length > 65536) {
      shown += this.stderrPartial;
      this.stderrPartial = "";
    }
    if (shown === "") return;
    const redact = this.output.redact ?? ((plain: string) => plain);
    this.output.stderr.write(
      escapeControls(redact(shown))
        .replace(/\\u000a/g, "\n")
        .replace(/\\u0009/g, "\t")
        .replace(/\\\\/g, "\\")
        .replace(/\\"/g, '"'),
    );
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch {
    return false;
  }
}

/** Whether a process group still has a member (POSIX). */
function groupRuns(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2) === "Z";
  } catch {
    return false;
  }
}

/**
 * Every running descendant of `pid` (Linux /proc; elsewhere none, and the process group covers what
 * stayed in it). A process that left the group (setsid, `detached: true`) is found through its parent.
 */
function descendants(pid: number): number[] {
  if (process.platform !== "linux") return [];
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After the command name in parentheses (which may hold spaces and parentheses): state, ppid.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z") continue;
      const parent = Number(fields[1]);
      const list = children.get(parent);
      if (list) list.push(Number(entry));
      else children.set(parent, [Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The server the bin started before the CLI loaded, until the run adopts it. */
let early: ServerProcess | undefined;
/** Early servers the run did not adopt (it asked for another command): stopped, reaped before caplint ends. */
const abandoned: Promise<void>[] = [];

/**
 * The server for a live run: the one the bin started early when it is the same command, arguments
 * and environment (what commander parsed is the truth; `earlyTarget` only guesses), else a new one.
 */
export function startServer(target: StdioTarget, output: ServerStderr): ServerProcess {
  const started = early;
  early = undefined;
  if (started && sameTarget(started.target, target)) {
    started.setOutput(output);
    return started;
  }
  if (started) abandoned.push(started.stop());
  return new ServerProcess(target, output);
}

function sameTarget(a: StdioTarget, b: StdioTarget): boolean {
  const sameEnv =
    Object.keys(a.env).length === Object.keys(b.env).length &&
    Object.entries(a.env).every(([key, value]) => b.env[key] === value);
  return (
    a.command === b.command &&
    a.args.length === b.args.length &&
    a.args.every((arg, i) => arg === b.args[i]) &&
    sameEnv
  );
}

/**
 * Called by the bin with its arguments before it loads the CLI: when they are plainly
 * `mcp [dump] [OPTIONS] --stdio [OPTIONS] -- CMD ARGS...`, the server starts now.
 */
export function startEarly(argv: readonly string[]): ServerProcess | undefined {
  const target = earlyTarget(argv);
  if (target && early === undefined) early = new ServerProcess(target);
  return early;
}

/** Called by the bin once the CLI has finished: a server started early that no run adopted (a usage error, say) is stopped. */
export async function stopUnadopted(): Promise<void> {
  const left = early;
  early = undefined;
  if (left) abandoned.push(left.stop());
  await Promise.all(abandoned.splice(0));
}

/**
 * The options of `caplint mcp` by whether they take a value (test/integrations/mcp/server-process.test.ts checks
 * this against the command's definition). Anything else before `--` (another option, a bundled short
 * flag, --help) and no server is started early: the run starts it after commander has parsed.
 */
export const EARLY_FLAGS: ReadonlySet<string> = new Set([
  "--stdio",
  "--probe",
  "--verbose",
  "-q",
  "--quiet",
  "--color",
  "--no-color",
  "--debug",
]);
export const EARLY_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "--timeout",
  "--env",
  "--max-calls",
  "--service",
  "--server-name-style",
  "--verbs",
  "--list-tools",
  "-f",
  "--format",
  "-o",
  "--output",
  "--max-warnings",
  "-c",
  "--config",
  "--rule",
  "--only",
  "--max-file-size",
  "--servers",
  "--server",
]);

/** What `mcp [dump] ... --stdio ... -- CMD ARGS...` will run, when the arguments leave no doubt; else undefined. */
export function earlyTarget(argv: readonly string[]): StdioTarget | undefined {
  if (argv[0] !== "mcp") return undefined;
  const end = argv.indexOf("--");
  const command = argv[end + 1];
  if (end < 0 || command === undefined || command === "") return undefined;
  let stdio = false;
  const env: Record<string, string> = {};
  for (let i = argv[1] === "dump" ? 2 : 1; i < end; i++) {
    const arg = argv[i]!;
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    if (equals < 0 && EARLY_FLAGS.has(name)) {
      stdio ||= name === "--stdio";
      continue;
    }
    if (!EARLY_VALUE_OPTIONS.has(name)) return undefined;
    const value = equals > 0 ? arg.slice(equals + 1) : argv[++i];
    if (value === undefined || i >= end) return undefined;
    if (name === "--env") {
      const at = value.indexOf("=");
      if (at <= 0) return undefined;
      env[value.slice(0, at)] = value.slice(at + 1);
    }
  }
  return stdio ? { kind: "stdio", command, args: argv.slice(end + 2), env } : undefined;
}
