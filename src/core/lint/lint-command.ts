/**
 * The one command layer of every linting command (`check`, `events`, `mcp`): the options they share,
 * the report (format, colour, `--quiet`), `--output`, `--max-warnings` and the exit code. A domain's
 * command keeps only its input handling: what to read and how to lint it.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { summarize, type Diagnostic, type LintSummary } from "../diagnostics.js";
import { exitCodeFor, tooManyWarnings } from "../exit-codes.js";
import type { MainOptions } from "../io.js";
import {
  colorOption,
  noColorOption,
  onlyOption,
  parsePositiveInteger,
  type LintCommandOptions,
} from "../options.js";
import { CapturedOutput, writeOutputFile } from "../output.js";
import { reporterContext } from "../reporters/context.js";
import { loadReporter, REPORTER_NAMES } from "../reporters/index.js";
import type { ReporterContext } from "../reporters/types.js";
import type { RuleMeta } from "./rule.js";
import { loadSettings, type Settings } from "../settings.js";
import { agree, plural } from "../wording.js";

/** The settings of a run (caplint.config.json or --config, --rule, --only) for a command whose input has no app folder. */
export function commandSettings(
  options: LintCommandOptions,
  io: MainOptions,
  rules: ReadonlyMap<string, RuleMeta>,
  domain: string,
): Promise<Settings> {
  return loadSettings({
    rules,
    domain,
    cwd: io.cwd,
    ...(options.config === undefined ? {} : { config: options.config }),
    rule: options.rule,
    only: options.only,
  });
}

/** Where a report goes: standard output, or a buffer written to `--output` at the end. */
export type ReportOutput = MainOptions["stdout"] | CapturedOutput;

/** The options every linting command shares; `notes` words the ones whose meaning differs per command. */
export function addLintOptions(
  command: Command,
  notes: { only?: string; output?: string; config?: string } = {},
): Command {
  return command
    .addOption(
      new Option("-f, --format <format>", "output format")
        .choices(REPORTER_NAMES)
        .default("stylish"),
    )
    .addOption(
      new Option(
        "--max-warnings <n>",
        "exit 1 when there are more warnings than this (-1: no limit, as in ESLint)",
      ).argParser(parseWarningLimit),
    )
    .option(
      "-c, --config <file>",
      notes.config ??
        "configuration file (default: caplint.config.json, searched upward from the working directory to the repository root)",
    )
    .option(
      "--rule <id=severity>",
      "set a rule's severity: off, suggestion, warning or error (repeatable)",
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .addOption(onlyOption(notes.only))
    .option(
      "-o, --output <file>",
      notes.output ?? "write the report to this file (atomically) instead of standard output",
    )
    .option("-q, --quiet", "report errors only")
    .addOption(colorOption())
    .addOption(noColorOption());
}

/** Where the report of a run goes (`--output` collects it, to write it once at the end). */
export function reportOutput(options: LintCommandOptions, io: MainOptions): ReportOutput {
  return options.output === undefined ? io.stdout : new CapturedOutput();
}

/** The reporters' context for a report written to `output`. */
export function lintReporterContext(
  options: LintCommandOptions,
  io: MainOptions,
  output: ReportOutput,
  rules: ReadonlyMap<string, RuleMeta>,
  sourceText: (absolutePath: string) => string | undefined,
): Promise<ReporterContext> {
  return reporterContext({
    cwd: io.cwd,
    color: options.color,
    isTTY: output === io.stdout ? io.stdout.isTTY : false,
    env: io.env ?? {},
    rules,
    sourceText,
  });
}

/** Formats whose report is one JSON document. */
const DOCUMENT_FORMATS: ReadonlySet<string> = new Set(["json", "sarif"]);

export interface LintRun {
  diagnostics: readonly Diagnostic[];
  /** How many files (recordings, listings) were checked. */
  files: number;
  notes: readonly string[];
  /** The config file(s) in force, as the report names them. */
  config: string | null;
  /** `--fix-dry-run --format json`: the diffs, inside the report. */
  fixes?: Array<{ file: string; diff: string }>;
}

/**
 * Reports a finished run in the chosen format and ends it: `--quiet`, the reporter, `--output`,
 * `--max-warnings` and the exit code. `inputs`: the files the run read, which `--output` never
 * replaces. `scrub` is applied to the whole report (secrets a live run was given).
 */
export async function reportLintRun(
  run: LintRun,
  options: LintCommandOptions,
  io: MainOptions,
  report: {
    rules: ReadonlyMap<string, RuleMeta>;
    sourceText(absolutePath: string): string | undefined;
    inputs: readonly string[];
    /** Files of the domain's projects that `--output` never replaces (OutputTarget.projectFiles). */
    projectFiles?: RegExp;
    scrub?: (text: string) => string;
    /** A JSON or SARIF report on one line (JSON Lines), for a stream of reports (`check --watch`). */
    jsonLines?: boolean;
  },
): Promise<number> {
  const shown = options.quiet
    ? run.diagnostics.filter((d) => d.severity === "error")
    : run.diagnostics;
  const summary = summarize(shown, run.files);
  const reporter = await loadReporter(options.format);
  const output = reportOutput(options, io);
  const text = reporter(
    {
      diagnostics: shown,
      summary,
      notes: [...run.notes],
      config: run.config,
      hiddenWarnings: options.quiet
        ? run.diagnostics.filter((d) => d.severity === "warning").length
        : 0,
      ...(run.fixes ? { fixes: run.fixes } : {}),
    },
    await lintReporterContext(options, io, output, report.rules, report.sourceText),
  );
  const shownText = report.scrub ? report.scrub(text) : text;
  output.write(
    report.jsonLines && DOCUMENT_FORMATS.has(options.format)
      ? `${JSON.stringify(JSON.parse(shownText))}\n`
      : shownText,
  );
  return finishLintRun(summary, options, io, output, report.inputs, report.projectFiles);
}

/**
 * A whole number, or -1 for no limit: ESLint's default, which scripts and CI configurations written
 * for ESLint pass explicitly (`--max-warnings -1`).
 */
function parseWarningLimit(value: string): number {
  if (value.trim() === "-1") return Number.POSITIVE_INFINITY;
  try {
    return parsePositiveInteger(value);
  } catch {
    throw new InvalidArgumentError("expected a whole number (0 or more), or -1 for no limit");
  }
}

/** The end of every linting command: the `--output` file, the `--max-warnings` gate and the exit code. */
export async function finishLintRun(
  summary: LintSummary,
  options: LintCommandOptions,
  io: MainOptions,
  output: ReportOutput,
  inputs: readonly string[],
  projectFiles?: RegExp,
): Promise<number> {
  if (output instanceof CapturedOutput) {
    await writeOutputFile(
      "--output",
      { given: options.output!, cwd: io.cwd, stdout: io.stdout, inputs, projectFiles },
      output.text,
    );
  }
  const limits = options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings };
  if (tooManyWarnings(summary, limits) && options.format === "stylish")
    io.stderr.write(
      `caplint: ${plural(summary.warnings, "warning")} ${agree(summary.warnings, "exceeds", "exceed")} --max-warnings ${options.maxWarnings}\n`,
    );
  return exitCodeFor(summary, limits);
}
