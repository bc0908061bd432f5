/**
 * `caplint events [FILES...]`: streams each recording (or standard input) through the validator and
 * reports the findings with the same reporters, options and exit codes as `check`.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic, RuleSetting } from "../core/diagnostics.js";
import { describeIoError } from "../core/source/read.js";
import { FatalError } from "../core/errors.js";
import { displayFile } from "../core/file-names.js";
import { readLines } from "./read-lines.js";
import type { EventRuleId } from "./rules/index.js";
import { createLineValidator, MAX_LINE_CHARS, type EventSummary } from "./validator.js";
import { quote } from "./text.js";
import { plural } from "../core/wording.js";

export interface EventsRunOptions {
  client: boolean;
  /** Severity of a rule for a file (command line, then config overrides, then config). */
  severityFor: (ruleId: EventRuleId, absoluteFile: string) => RuleSetting | undefined;
  /**
   * Called with each line's findings as soon as the line is read (output as the recording arrives);
   * the findings are then not kept, so memory stays bounded whatever their number.
   */
  live?: (found: readonly Diagnostic[], current?: CurrentLine) => void;
  /** Asked after each chunk read: a promise to wait for (the report's reader is behind), or undefined. */
  pause?: () => Promise<void> | undefined;
}

/** The line just read, for code frames of its findings (its text is dropped after its findings are printed). */
export interface CurrentLine {
  line: number;
  text: string;
}

export interface RecordingResult {
  /** Display name (relative POSIX path, or <stdin>). */
  file: string;
  absolutePath: string;
  diagnostics: Diagnostic[];
  summary: EventSummary;
}

export type ByteStream = AsyncIterable<Buffer | string>;

/** Checks one recording read from `stream`. */
export async function checkRecording(
  stream: ByteStream,
  file: string,
  absolutePath: string,
  options: EventsRunOptions,
): Promise<RecordingResult> {
  const validator = createLineValidator({
    client: options.client,
    file,
    absolutePath,
    settings: { severityFor: (ruleId) => options.severityFor(ruleId as EventRuleId, absolutePath) },
  });
  const diagnostics: Diagnostic[] = [];
  const keep = (taken: readonly Diagnostic[], current?: CurrentLine) => {
    if (taken.length === 0) return;
    const found = [...taken].sort(byPosition);
    if (options.live) options.live(found, current);
    else for (const d of found) diagnostics.push(d);
  };
  await readLines(
    stream,
    {
      line: (text, invalidUtf8) => {
        const found = validator.pushLine(text, invalidUtf8);
        if (found.length > 0) keep(found, { line: validator.summary.lines, text });
      },
      overlong: (chars) => keep(validator.pushOverlong(chars)),
      ...(options.pause ? { pause: options.pause } : {}),
    },
    MAX_LINE_CHARS,
  );
  keep(validator.end());
  diagnostics.sort(byPosition);
  return { file, absolutePath, diagnostics, summary: validator.summary };
}

function byPosition(a: Diagnostic, b: Diagnostic): number {
  return (
    a.range.start.line - b.range.start.line ||
    a.range.start.column - b.range.start.column ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0)
  );
}

/** Opens a named recording; a missing file, a folder or an unreadable file is fatal (exit 2). */
export async function openRecording(
  name: string,
  cwd: string,
): Promise<{ stream: ByteStream; file: string; absolutePath: string }> {
  const absolutePath = path.resolve(cwd, name);
  let info;
  try {
    info = await stat(absolutePath);
  } catch (error) {
    throw new FatalError(`${quote(name)}: ${describeIoError(error)}`);
  }
  if (info.isDirectory())
    throw new FatalError(
      `${quote(name)}: is a folder; give recording files (JSONL), or - for standard input`,
    );
  const file = displayFile(cwd, absolutePath);
  // 64 KiB reads (Node's default): bigger chunks cost peak memory and gain no speed here.
  const stream = createReadStream(absolutePath);
  // Open errors (permissions) surface on the first read; report them like the others.
  const guarded = (async function* () {
    try {
      yield* stream;
    } catch (error) {
      throw new FatalError(`${quote(name)}: ${describeIoError(error)}`);
    }
  })();
  return { stream: guarded, file, absolutePath };
}

/** `--summary`: what a person debugging a recording asks first. */
export function formatSummary(results: readonly RecordingResult[]): string {
  const out: string[] = [];
  for (const { file, summary } of results) {
    out.push(`${file}: ${plural(summary.events, "event")} on ${plural(summary.lines, "line")}`);
    const types = Object.entries(summary.types).sort(
      (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
    );
    const width = Math.max(0, ...types.map(([type]) => type.length));
    for (const [type, count] of types) out.push(`  ${type.padEnd(width)}  ${count}`);
    const calls = summary.toolCalls.byTerminal;
    const total = Object.values(calls).reduce((a, b) => a + b, 0);
    out.push(
      `  tool calls: ${total} (${calls.tool_done} done, ${calls.tool_error} error, ${calls.tool_cancelled} cancelled, ${calls.tool_rejected} rejected, ${calls["open at turn end"]} open at turn end, ${calls.open} still open)`,
    );
    const longest = summary.toolCalls.longest;
    if (longest) {
      out.push(
        `  longest-open call: ${longest.id}${longest.name ? ` (${quote(longest.name)})` : ""}, lines ${longest.startLine}-${longest.endLine} (${plural(longest.endLine - longest.startLine, "line")}), ${longest.how}`,
      );
    }
  }
  return out.join("\n") + "\n";
}

/** `--summary` as JSON, for `--format json`. */
export function summaryJson(results: readonly RecordingResult[]) {
  return results.map(({ file, summary }) => ({
    file,
    lines: summary.lines,
    events: summary.events,
    types: { ...summary.types },
    toolCalls: summary.toolCalls,
  }));
}
