import { Option, type Command } from "commander";
import path from "node:path";
import { loadSettings } from "../core/settings.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { EVENT_RULES_BY_ID } from "./rules.js";
import { checkRecording, formatSummary, openRecording, STDIN_NAME, summaryJson, type CurrentLine, type RecordingResult } from "./run-events.js";
import { REPORTER_NAMES } from "../core/reporters/index.js";
import { streamedReport } from "../core/reporters/streamed.js";
import type { RuleMeta } from "../core/lint/rule.js";
import { exitCodeFor, tooManyWarnings } from "../core/exit-codes.js";
import type { MainOptions } from "../core/io.js";
import { reporterContext } from "../core/reporters/context.js";
import { UsageError } from "../core/errors.js";
import { colorOption, noColorOption, onlyOption, parsePositiveInteger, type LintCommandOptions } from "../core/options.js";
import { CapturedOutput, writeOutputFile } from "../core/output.js";
import type { RegisterCommands, SetExitCode } from "../core/command.js";

interface EventsOptions extends LintCommandOptions {
  client?: boolean;
  summary?: boolean;
}

/** `caplint events`: the event-stream domain's command. */
export const registerEventCommands: RegisterCommands = (program, io, setExitCode, registry) => registerEvents(program, io, setExitCode, registry.byId);

function registerEvents(program: Command, io: MainOptions, setExitCode: SetExitCode, allRules: ReadonlyMap<string, RuleMeta>): void {
  program
    .command("events")
    .description("validate recorded chat event streams (JSONL) against the event protocol")
    .argument("[files...]", "recordings, one JSON event a line; - or none reads standard input")
    .option("--client", "check client-to-server traffic (ClientMessage, data pushes) instead of server events")
    .option("--summary", "also print per-type counts, tool calls by outcome and the longest-open call")
    .addOption(new Option("-f, --format <format>", "output format").choices(REPORTER_NAMES).default("stylish"))
    .addOption(new Option("--max-warnings <n>", "exit 1 when there are more warnings than this").argParser(parsePositiveInteger))
    .option("-c, --config <file>", "configuration file (default: caplint.config.json, searched upward from the working directory to the repository root)")
    .option("--rule <id=severity>", "set a rule's severity: off, suggestion, warning or error (repeatable)", (v: string, p: string[]) => [...p, v], [])
    .addOption(onlyOption())
    .option("-o, --output <file>", "write the report to this file (atomically) instead of standard output")
    .option("-q, --quiet", "report errors only")
    .addOption(colorOption())
    .addOption(noColorOption())
    .action(async (files: string[], options: EventsOptions) => {
      setExitCode(await runEvents(files, options, io, allRules));
    });
}

async function runEvents(names: string[], options: EventsOptions, io: MainOptions, allRules: ReadonlyMap<string, RuleMeta>): Promise<number> {
  const settings = await loadSettings({
    rules: allRules,
    domain: "events",
    cwd: io.cwd,
    ...(options.config === undefined ? {} : { config: options.config }),
    rule: options.rule,
    only: options.only,
  });
  const severityFor = settings.severityFor;
  const output = options.output === undefined ? io.stdout : new CapturedOutput();
  const context = await reporterContext({
    cwd: io.cwd,
    color: options.color,
    isTTY: output === io.stdout ? io.stdout.isTTY : false,
    env: io.env ?? {},
    rules: EVENT_RULES_BY_ID,
    // Code frames come from the line just read: a recording is never read twice (it may be a pipe).
    sourceText: () => undefined,
  });
  const keep = (d: Diagnostic) => !options.quiet || d.severity === "error";
  // Every format is written as the recording is read, each finding as soon as its line is checked
  // (each line's findings by column; end-of-recording ones last): a live stream piped in shows its
  // problems as they happen, and memory holds no finding already printed, however many there are.
  const counts = { error: 0, warning: 0, suggestion: 0 };
  let hiddenWarnings = 0;
  let congested = false;
  const write = (text: string) => {
    if (output.write(text) === false) congested = true;
  };
  const runOptions = {
    client: options.client === true,
    severityFor,
    pause: () => {
      if (!congested) return undefined;
      congested = false;
      return io.stdout.drained?.();
    },
    live: (found: readonly Diagnostic[], current?: CurrentLine) => {
      for (const d of found) {
        if (!keep(d)) {
          if (d.severity === "warning") hiddenWarnings++;
          continue;
        }
        counts[d.severity]++;
        report.add(d, current !== undefined && d.range.start.line === current.line ? current.text : undefined);
      }
    },
  };

  const inputs = names.length === 0 ? ["-"] : names;
  if (inputs.filter((name) => name === "-").length > 1) throw new UsageError("standard input (-) can be read only once");
  // Every input is opened before the report begins: a missing file is an error, not a report cut short.
  const recordings = [];
  for (const name of inputs) {
    if (name !== "-") recordings.push(await openRecording(name, io.cwd));
    else if (!io.stdin || (io.stdin as { isTTY?: boolean }).isTTY) {
      throw new UsageError("no recording given: name JSONL files, or pipe one into standard input (caplint events - < recording.jsonl)");
    } else recordings.push({ stream: io.stdin, file: STDIN_NAME, absolutePath: STDIN_NAME });
  }
  const report = await streamedReport(options.format, write, context);
  const results: RecordingResult[] = [];
  for (const { stream, file, absolutePath } of recordings) results.push(await checkRecording(stream, file, absolutePath, runOptions));

  const summary = { files: results.length, errors: counts.error, warnings: counts.warning, suggestions: counts.suggestion, fixable: 0 };
  const config = settings.configLabel ?? null;
  if (options.summary && options.format === "json") report.end({ summary, config, hiddenWarnings, extendJson: { events: summaryJson(results) } });
  else report.end({ summary, config, hiddenWarnings });
  if (options.summary) {
    if (options.format === "stylish" || options.format === "compact")
      output.write((summary.errors + summary.warnings > 0 ? "\n" : "") + formatSummary(results));
    // SARIF and workflow commands are read by programs: the summary goes to the person, on stderr.
    else if (options.format !== "json") io.stderr.write(formatSummary(results));
  }
  if (output instanceof CapturedOutput) {
    const read = inputs.filter((name) => name !== "-").map((name) => path.resolve(io.cwd, name));
    await writeOutputFile("--output", { given: options.output!, cwd: io.cwd, stdout: io.stdout, inputs: read }, output.text);
  }
  const limits = options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings };
  if (tooManyWarnings(summary, limits) && options.format === "stylish")
    io.stderr.write(`caplint: ${summary.warnings} warnings exceed --max-warnings ${options.maxWarnings}\n`);
  return exitCodeFor(summary, limits);
}
