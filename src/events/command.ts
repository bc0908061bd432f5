import path from "node:path";
import type { Diagnostic } from "../core/diagnostics.js";
import { EVENT_RULES_BY_ID } from "./rules/index.js";
import { EVENTS_DOMAIN } from "./rules/types.js";
import { STDIN_NAME } from "../core/reporters/repository-paths.js";
import {
  checkRecording,
  formatSummary,
  openRecording,
  summaryJson,
  type CurrentLine,
  type RecordingResult,
} from "./run-events.js";
import { streamedReport } from "../core/reporters/streamed.js";
import type { RuleMeta } from "../core/lint/rule.js";
import type { MainOptions } from "../core/io.js";
import { UsageError } from "../core/errors.js";
import { openOutputFile } from "../core/output.js";
import type { FileSink } from "../core/file-output.js";
import type { Command } from "commander";
import type { LintCommandOptions } from "../core/options.js";
import {
  addLintOptions,
  commandSettings,
  finishLintRun,
  lintReporterContext,
  reportOutput,
} from "../core/lint/lint-command.js";
import type { RegisterCommands, SetExitCode } from "../core/command.js";

interface EventsOptions extends LintCommandOptions {
  client?: boolean;
  summary?: boolean;
}

/** `caplint events`: the event-stream domain's command. */
export const registerEventCommands: RegisterCommands = (program, io, setExitCode, registry) =>
  registerEvents(program, io, setExitCode, registry.byId);

function registerEvents(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("events")
    .description("validate recorded chat event streams (JSONL) against the event protocol")
    .argument("[files...]", "recordings, one JSON event a line; - or none reads standard input")
    .option(
      "--client",
      "check client-to-server traffic (ClientMessage, data pushes) instead of server events",
    )
    .option(
      "--summary",
      "also print per-type counts, tool calls by outcome and the longest-open call",
    );
  addLintOptions(command).action(async (files: string[], options: EventsOptions) => {
    setExitCode(await runEvents(files, options, io, allRules));
  });
}

async function runEvents(
  names: string[],
  options: EventsOptions,
  io: MainOptions,
  allRules: ReadonlyMap<string, RuleMeta>,
): Promise<number> {
  const settings = await commandSettings(options, io, allRules, EVENTS_DOMAIN);
  const severityFor = settings.severityFor;
  // Code frames come from the line just read: a recording is never read twice (it may be a pipe).
  const context = await lintReporterContext(
    options,
    io,
    reportOutput(options, io),
    EVENT_RULES_BY_ID,
    () => undefined,
  );
  const keep = (d: Diagnostic) => !options.quiet || d.severity === "error";
  // Every format is written as the recording is read, each finding as soon as its line is checked
  // (each line's findings by column; end-of-recording ones last): a live stream piped in shows its
  // problems as they happen, and memory holds no finding already printed, however many there are.
  const counts = { error: 0, warning: 0, suggestion: 0 };
  let hiddenWarnings = 0;
  let congested = false;
  // Standard output, or the --output file as it is written (opened below, once the inputs are known).
  let output: Pick<FileSink, "write" | "drained"> = {
    write: (text) => io.stdout.write(text) !== false,
    drained: () => io.stdout.drained?.(),
  };
  const write = (text: string) => {
    if (!output.write(text)) congested = true;
  };
  const runOptions = {
    client: options.client === true,
    severityFor,
    pause: () => {
      if (!congested) return undefined;
      congested = false;
      return output.drained();
    },
    live: (found: readonly Diagnostic[], current?: CurrentLine) => {
      for (const d of found) {
        if (!keep(d)) {
          if (d.severity === "warning") hiddenWarnings++;
          continue;
        }
        counts[d.severity]++;
        report.add(
          d,
          current !== undefined && d.range.start.line === current.line ? current.text : undefined,
        );
      }
    },
  };

  const inputs = names.length === 0 ? ["-"] : names;
  if (inputs.filter((name) => name === "-").length > 1)
    throw new UsageError("standard input (-) can be read only once");
  // Every input is opened before the report begins: a missing file is an error, not a report cut short.
  const recordings = [];
  for (const name of inputs) {
    if (name !== "-") recordings.push(await openRecording(name, io.cwd));
    else if (!io.stdin || (io.stdin as { isTTY?: boolean }).isTTY) {
      throw new UsageError(
        "no recording given: name JSONL files, or pipe one into standard input (caplint events - < recording.jsonl)",
      );
    } else recordings.push({ stream: io.stdin, file: STDIN_NAME, absolutePath: STDIN_NAME });
  }
  const read = inputs.filter((name) => name !== "-").map((name) => path.resolve(io.cwd, name));
  // Streamed into a temporary file renamed at the end: a million findings are never held whole.
  const sink =
    options.output === undefined
      ? undefined
      : await openOutputFile("--output", {
          given: options.output,
          cwd: io.cwd,
          stdout: io.stdout,
          inputs: read,
        });
  if (sink) output = sink;
  const report = await streamedReport(options.format, write, context);
  const results: RecordingResult[] = [];
  const summary = { files: 0, errors: 0, warnings: 0, suggestions: 0, fixable: 0 };
  try {
    for (const { stream, file, absolutePath } of recordings)
      results.push(await checkRecording(stream, file, absolutePath, runOptions));
    Object.assign(summary, {
      files: results.length,
      errors: counts.error,
      warnings: counts.warning,
      suggestions: counts.suggestion,
    });
    const config = settings.configLabel ?? null;
    if (options.summary && options.format === "json")
      report.end({ summary, config, hiddenWarnings, extendJson: { events: summaryJson(results) } });
    else report.end({ summary, config, hiddenWarnings });
    if (options.summary) {
      if (options.format === "stylish" || options.format === "compact")
        write((summary.errors + summary.warnings > 0 ? "\n" : "") + formatSummary(results));
      // SARIF and workflow commands are read by programs: the summary goes to the person, on stderr.
      else if (options.format !== "json") io.stderr.write(formatSummary(results));
    }
  } catch (error) {
    await sink?.abandon();
    throw error;
  }
  await sink?.finish();
  // The report is written: standard output stands for it, so nothing is written again.
  return finishLintRun(summary, options, io, io.stdout, read);
}
