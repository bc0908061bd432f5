import { Option, type Command } from "commander";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { loadSettings } from "../core/settings.js";
import { summarize, type Diagnostic } from "../core/diagnostics.js";
import { EVENT_RULES_BY_ID } from "./rules.js";
import { checkRecording, formatSummary, openRecording, STDIN_NAME, summaryJson, type RecordingResult } from "./run-events.js";
import { REPORTER_NAMES, loadReporter } from "../core/reporters/index.js";
import type { RuleMeta } from "../core/rule.js";
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

/** Small recordings are re-read for stylish code frames; big ones and standard input go without. */
const MAX_FRAME_SOURCE_BYTES = 4 * 1024 * 1024;

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
  const reporter = await loadReporter(options.format);
  const output = options.output === undefined ? io.stdout : new CapturedOutput();
  const context = await reporterContext({
    cwd: io.cwd,
    color: options.color,
    isTTY: output === io.stdout ? io.stdout.isTTY : false,
    env: io.env ?? {},
    rules: EVENT_RULES_BY_ID,
    sourceText: readSmallRecording,
  });
  const keep = (d: Diagnostic) => !options.quiet || d.severity === "error";
  // One line per finding: printed as each line of the recording is read, so a live stream piped in
  // shows its problems as they happen (each line's findings by column; end-of-recording ones last).
  const live = output === io.stdout && (options.format === "compact" || options.format === "github");
  const liveCounts = { error: 0, warning: 0, suggestion: 0 };
  const runOptions = {
    client: options.client === true,
    severityFor,
    ...(live
      ? {
          live: (found: readonly Diagnostic[]) => {
            const shown = found.filter(keep);
            for (const d of shown) liveCounts[d.severity]++;
            io.stdout.write(reporter({ diagnostics: shown, summary: summarize([], 0) }, context));
          },
        }
      : {}),
  };

  const inputs = names.length === 0 ? ["-"] : names;
  if (inputs.filter((name) => name === "-").length > 1) throw new UsageError("standard input (-) can be read only once");
  const results: RecordingResult[] = [];
  for (const name of inputs) {
    if (name === "-") {
      if (!io.stdin || (io.stdin as { isTTY?: boolean }).isTTY) {
        throw new UsageError("no recording given: name JSONL files, or pipe one into standard input (caplint events - < recording.jsonl)");
      }
      results.push(await checkRecording(io.stdin, STDIN_NAME, STDIN_NAME, runOptions));
    } else {
      const { stream, file, absolutePath } = await openRecording(name, io.cwd);
      results.push(await checkRecording(stream, file, absolutePath, runOptions));
    }
  }

  const diagnostics: Diagnostic[] = results.flatMap((result) => result.diagnostics).filter(keep);
  const summary = live
    ? { files: results.length, errors: liveCounts.error, warnings: liveCounts.warning, suggestions: liveCounts.suggestion, fixable: 0 }
    : summarize(diagnostics, results.length);
  let report = live ? "" : reporter({ diagnostics, summary, config: settings.configLabel ?? null }, context);
  if (options.summary) {
    if (options.format === "json") report = JSON.stringify({ ...JSON.parse(report), events: summaryJson(results) }, null, 2) + "\n";
    else if (options.format === "stylish" || options.format === "compact")
      report += (summary.errors + summary.warnings > 0 && !report.endsWith("\n\n") ? "\n" : "") + formatSummary(results);
    // SARIF and workflow commands are read by programs: the summary goes to the person, on stderr.
    else io.stderr.write(formatSummary(results));
  }
  output.write(report);
  if (output instanceof CapturedOutput) {
    const read = inputs.filter((name) => name !== "-").map((name) => path.resolve(io.cwd, name));
    await writeOutputFile("--output", { given: options.output!, cwd: io.cwd, stdout: io.stdout, inputs: read }, output.text);
  }
  const limits = options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings };
  if (tooManyWarnings(summary, limits) && options.format === "stylish")
    io.stderr.write(`caplint: ${summary.warnings} warnings exceed --max-warnings ${options.maxWarnings}\n`);
  return exitCodeFor(summary, limits);
}

function readSmallRecording(file: string): string | undefined {
  if (file === STDIN_NAME) return undefined;
  try {
    return statSync(file).size <= MAX_FRAME_SOURCE_BYTES ? readFileSync(file, "utf8") : undefined;
  } catch {
    return undefined;
  }
}
