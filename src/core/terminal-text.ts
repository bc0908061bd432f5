import { createRequire } from "node:module";

import { FatalError } from "./errors.js";
import { EXIT_FATAL } from "./exit-codes.js";
import { describeIoError } from "./source/read.js";

/**
 * The one output layer between caplint and a terminal (or a file someone will `cat`).
 *
 * Everything caplint prints can carry text from an untrusted repository: file names, labels,
 * identifiers, messages quoting them, code frames. A raw ESC starts an escape sequence (OSC 52 writes
 * the clipboard, OSC 0 sets the title, CSI clears the screen), a bidi override reorders what the
 * reader sees, a CR overwrites a line, and a newline forges a line of its own (`::error …`). So every
 * such character is shown as a `\uXXXX` escape, on every path to the output:
 *
 * - {@link terminalSafe} escapes a whole output text (line breaks and tabs kept) and is applied by
 *   {@link SafeOutput}, the stream wrapper the CLI writes everything through, and by the library's
 *   `format()`.
 * - {@link oneLine} escapes a value or a line, line breaks included; text formats build lines with
 *   {@link textLines}, so a newline inside a value can never start a line.
 *
 * Escapes are plain ASCII, so escaping twice changes nothing. In JSON and SARIF every escaped
 * character sits inside a string literal (JSON.stringify already escapes C0 controls), where
 * `\uXXXX` is the same value: those formats keep the exact data.
 *
 * Colour is the one thing caplint itself puts in the text, and it must survive the escaping that
 * removes the repository's escape sequences. So paint functions emit markers (below) that contain no
 * control character and carry a random per-process nonce a repository cannot guess; only after all
 * escaping does {@link terminalSafe} turn markers into real SGR sequences.
 */

/** C0 and C1 controls, DEL, bidi embeddings/overrides/isolates and marks, line/paragraph separators, lone surrogates. */
const UNSAFE_WITH_BREAKS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const UNSAFE =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Fast tests before the replaces: almost every text has nothing to escape. */
const MAYBE_UNSAFE =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;
// Without the line feed: a whole output text has one per line, and would always take the slow replace.
const MAYBE_UNSAFE_WITH_BREAKS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/;

function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** A value or a single line: every control and bidi character escaped, line breaks too. Tabs are kept. */
export function oneLine(value: string): string {
  return MAYBE_UNSAFE.test(value) ? value.replace(UNSAFE, escapeChar) : value;
}

/**
 * The last text a reporter made only of values {@link oneLine} escaped and ASCII between them (see
 * {@link escapedText}): {@link terminalSafe} does not search it for controls again. Kept by content,
 * so a text equal to it is as safe, whoever made it; dropped once written.
 */
let lastEscapedText: string | undefined;

/** How many whole texts {@link terminalSafe} has searched for controls (tests count them). */
export const outputScans = { count: 0 };

/**
 * Says that `text` is built only of values {@link oneLine} escaped and ASCII text between them, so
 * the control search {@link terminalSafe} makes of a whole output (6.2 MB for bench row 5's compact
 * report, in a two-byte string) would find nothing it replaces: `oneLine` escapes every character
 * `terminalSafe` does, and more. Returns `text`.
 */
export function escapedText(text: string): string {
  lastEscapedText = text;
  return text;
}

/** Lines of text output joined with `\n` (and a final one), each escaped by {@link oneLine}. */
export function textLines(lines: readonly string[]): string {
  if (lines.length === 0) return "";
  const escaped = lines.map(oneLine);
  // The final break is an empty last item of the join, not `+ "\n"`: appending to a report of
  // megabytes makes a string of two parts that the output's escaping then copies whole.
  escaped.push("");
  return escaped.join("\n");
}

/**
 * A whole output text made safe for a terminal: controls escaped except line breaks and tabs, lines
 * that a CI runner would read as a workflow command neutralised (see {@link WorkflowCommandGuard}),
 * then caplint's own markers turned into SGR sequences and workflow commands. `guard` carries what
 * came before when a stream is written in pieces; a text on its own starts at a line start.
 */
export function terminalSafe(
  text: string,
  guard: WorkflowCommandGuard = new WorkflowCommandGuard(),
): string {
  const escaped = guard.neutralise(controlsEscaped(text));
  // No marker exists before the first colour is painted: then there is nothing to render.
  return markers && escaped.includes(markers.open)
    ? escaped.replace(markers.pattern, (_, code: string) => SEQUENCES[Number(code)] ?? "")
    : escaped;
}

/** `text` with every control escaped except line breaks and tabs. */
function controlsEscaped(text: string): string {
  if (text === lastEscapedText) {
    // Written once: the reference would keep a report of megabytes alive for the rest of the run.
    lastEscapedText = undefined;
    return text;
  }
  outputScans.count++;
  return MAYBE_UNSAFE_WITH_BREAKS.test(text) ? text.replace(UNSAFE_WITH_BREAKS, escapeChar) : text;
}

/**
 * GitHub Actions runs a line of a job's log as a workflow command (`::add-mask::`, `::error …::`,
 * `::stop-commands::`, `::set-output …`) when it starts with `::` after any white space (C#'s
 * `TrimStart()`, so also no-break and ideographic spaces), and a legacy one when `##[` appears anywhere in
 * it (actions/runner, `ActionCommand.TryParseV2` and `TryParse`). A file's or a tool server's text can
 * start a line of caplint's output: a file name heading the stylish report or a compact line, an
 * indented value of a query, a server's stderr under `mcp --verbose`. So, in every output, the second
 * colon of a line-start `::` is written `\u003a` and the `[` of `##[` is written `\u005b` (escapes, like
 * the others here; inside a JSON string, the same value). caplint's own annotations (`-f github`) start
 * with a marker that is rendered as `::` only after this.
 *
 * Writes to a stream can cut a line anywhere, so what the current line holds so far is kept: whether
 * it is still white space (and markers), perhaps followed by one colon, and how many `#` end it.
 */
export class WorkflowCommandGuard {
  private lineStart: "blank" | "colon" | "text" = "blank";
  private hashes = 0;

  neutralise(text: string): string {
    if (text === "") return text;
    // Most output holds neither `::` nor `##[`: two searches then spare the two replacements and the
    // copy of a whole report (a JSON report of 1,000 tools is 460 KB). A text that starts with a colon,
    // `#` or `[` may complete what the line before it began, so it takes the full path.
    if (!text.includes("::") && !text.includes("##[") && !/^[:#[]/.test(text)) {
      this.remember(text);
      return text;
    }
    const before =
      this.lineStart === "blank"
        ? "\n"
        : this.lineStart === "colon"
          ? "\n:"
          : "x" + "#".repeat(this.hashes);
    const guarded = (before + text)
      .replace(LINE_COMMAND, "$1\\u003a")
      .replace(LEGACY_COMMAND, "##\\u005b")
      .slice(before.length);
    this.remember(text);
    return guarded;
  }

  private remember(text: string): void {
    const lastBreak = text.lastIndexOf("\n");
    const tail = lastBreak < 0 ? text : text.slice(lastBreak + 1);
    const continued = lastBreak < 0 ? this.lineStart : "blank";
    if (continued === "blank") {
      const indent = LEADING_BLANK.exec(tail)![0].length;
      this.lineStart =
        indent === tail.length
          ? "blank"
          : indent === tail.length - 1 && tail.endsWith(":")
            ? "colon"
            : "text";
    } else {
      this.lineStart = "text";
    }
    const ending = /#{0,2}$/.exec(tail)![0].length;
    this.hashes = Math.min(
      2,
      ending === tail.length && lastBreak < 0 ? this.hashes + ending : ending,
    );
  }
}

/** What `TrimStart()` skips (the C0 and C1 ones are escaped before), and caplint's colour markers. */
const BLANK = String.raw`(?:[\t \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]|\ue000[\w-]+:\d+\ue001)`;
const LINE_COMMAND = new RegExp(String.raw`(\n${BLANK}*:):`, "g");
const LEGACY_COMMAND = /##\[/g;
const LEADING_BLANK = new RegExp(`^${BLANK}*`);

// ---- markers for caplint's own escape sequences ----------------------------------------------

const MARK_CLOSE = "\ue001";
let markers: { open: string; pattern: RegExp } | undefined;

/**
 * The markers carry a random nonce, so text from a file cannot forge one. It is made on the first
 * paint: a run without colour never loads node:crypto and the stream modules it pulls in.
 */
function markersOf(): { open: string; pattern: RegExp } {
  if (!markers) {
    const { randomBytes } = createRequire(import.meta.url)(
      "node:crypto",
    ) as typeof import("node:crypto");
    const nonce = randomBytes(9).toString("base64url");
    markers = {
      open: `\ue000${nonce}:`,
      pattern: new RegExp(`\\ue000${nonce}:(\\d+)\\ue001`, "g"),
    };
  }
  return markers;
}

/** The only escape sequences caplint writes: SGR colours and attributes, and the watch mode's screen clear. */
const SEQUENCES = [
  "\u001b[31m",
  "\u001b[33m",
  "\u001b[36m",
  "\u001b[39m", // red, yellow, cyan, default colour
  "\u001b[1m",
  "\u001b[2m",
  "\u001b[22m", // bold, dim, normal intensity
  "\u001b[4m",
  "\u001b[24m", // underline on, off
  "\u001b[2J\u001b[3J\u001b[H", // clear screen and scroll-back, cursor home
  "\u001b[32m", // green
  "::", // the start of caplint's own workflow command (-f github), written after the guard
] as const;

const mark = (index: number) => `${markersOf().open}${index}${MARK_CLOSE}`;
const wrap = (open: number, close: number) => (text: string) =>
  text === "" ? "" : `${mark(open)}${text}${mark(close)}`;

/** The colour functions reporters and query answers use; identity functions when colour is off. */
export interface Paint {
  error(text: string): string;
  warning(text: string): string;
  /** A good answer: ALLOWED, callable, no new access. */
  ok(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  underline(text: string): string;
  accent(text: string): string;
}

export const NO_PAINT: Paint = {
  error: (t) => t,
  warning: (t) => t,
  ok: (t) => t,
  dim: (t) => t,
  bold: (t) => t,
  underline: (t) => t,
  accent: (t) => t,
};

/** Colours as markers, which {@link terminalSafe} renders; the result must go through it. */
export const MARKER_PAINT: Paint = {
  error: wrap(0, 3),
  warning: wrap(1, 3),
  ok: wrap(10, 3),
  accent: wrap(2, 3),
  bold: wrap(4, 6),
  dim: wrap(5, 6),
  underline: wrap(7, 8),
};

/** The `::` that starts one of caplint's own workflow commands: the one line start the guard lets through. */
export const workflowCommand = (): string => mark(11);

/** Clears the terminal (watch mode), through the same layer. */
export const clearScreen = (): string => mark(9);

/** What the CLI writes to: a stream or a captured text. */
export interface TextSink {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/**
 * A stream whose every write goes through {@link terminalSafe}. A reader that goes away
 * (`caplint permissions | head -1`) closes the pipe: the rest of the output is dropped quietly
 * instead of ending in an EPIPE stack trace, and the run keeps its exit code.
 */
/** A stream SafeOutput writes to: a process stream, or anything with `write`. */
type OutputTarget = TextSink & {
  on?: (event: "error", listener: (error: NodeJS.ErrnoException) => void) => unknown;
  once?: (event: "drain" | "close" | "error", listener: () => void) => unknown;
  off?: (event: "drain" | "close" | "error", listener: () => void) => unknown;
  writableNeedDrain?: boolean;
};

let writeFailure: string | undefined;

/** Whether a standard stream refused a write after it was made (the run then exits 2). */
export function outputWriteFailed(): boolean {
  return writeFailure !== undefined;
}

export class SafeOutput implements TextSink {
  private closed = false;
  private readonly guard = new WorkflowCommandGuard();
  private made: OutputTarget | undefined;
  /**
   * `target` given as a function is asked for on first use: Node makes `process.stdout` and
   * `process.stderr` when they are first read (on a pipe, with the net streams behind them: 6 M
   * instructions each), and a run that writes nothing to one of them need not make it.
   */
  constructor(private readonly given: OutputTarget | (() => OutputTarget)) {
    if (typeof given !== "function") this.made = this.guarded(given);
  }

  private guarded(target: OutputTarget): OutputTarget {
    target.on?.("error", (error) => {
      this.closed = true;
      if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") return;
      // A full disk or a device that refuses the write (`> /dev/full`), reported after the write
      // returned: one line and exit 2, never a stack trace (which would print a line of the bundle).
      writeFailure ??= `cannot write the output: ${describeIoError(error)}`;
      process.exitCode = EXIT_FATAL;
      if (target !== process.stderr) process.stderr.write(`caplint: ${writeFailure}\n`);
    });
    return target;
  }

  private get target(): OutputTarget {
    return (this.made ??= this.guarded((this.given as () => OutputTarget)()));
  }

  get isTTY(): boolean | undefined {
    return this.target.isTTY;
  }
  /** Resolves when the target's buffer has drained, or at once when nothing waits in it (or it closed). */
  drained(): Promise<void> {
    const { target } = this;
    if (this.closed || !target.writableNeedDrain || !target.once || !target.off)
      return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        for (const event of ["drain", "close", "error"] as const) target.off!(event, done);
        resolve();
      };
      for (const event of ["drain", "close", "error"] as const) target.once!(event, done);
    });
  }

  write(chunk: string): unknown {
    if (this.closed) return false;
    // Nothing to write (a clean run's compact report): the stream is not made for it.
    if (chunk === "") return true;
    try {
      return this.target.write(terminalSafe(chunk, this.guard));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A synchronous pipe reports the closed reader at once.
      if (code === "EPIPE") {
        this.closed = true;
        return false;
      }
      // A full disk or a device that refuses the write (`> /dev/full`): one line and exit 2, never a
      // stack trace (which would print a line of the bundle).
      if (typeof code === "string")
        throw new FatalError(`cannot write the output: ${describeIoError(error)}`);
      throw error;
    }
  }
}
