import type { Command } from "commander";
import path from "node:path";
import { lint, type LintResult } from "../lint.js";
import { DEFAULT_MAX_FILE_BYTES, readForCodeFrame } from "../../core/source/read.js";
import { readStandardInput } from "../../core/source/stdin.js";
import { UsageError } from "../../core/errors.js";
import { compareDiagnostics } from "../../core/diagnostics.js";
import { loadProject, type Project } from "../load/project.js";
import { CAPABILITY_RULES, CAPABILITY_RULES_BY_ID } from "../rules/index.js";
import type { RuleMeta } from "../../core/lint/rule.js";
import { platformOption } from "./query-options.js";
import { planCheckRuns } from "../load/check-runs.js";
import { configDocuments } from "../load/app-config.js";
import type { MainOptions } from "../../core/io.js";
import {
  addInputOptions,
  applyConfig,
  capabilitySettings,
  configOption,
  lintSettings,
  loadOptionsFrom,
  withFrontendScan,
  type InputOptions,
} from "./options.js";
import type { LintCommandOptions } from "../../core/options.js";
import { addLintOptions, reportLintRun } from "../../core/lint/lint-command.js";
import type { SetExitCode } from "../../core/command.js";
import { oneLine } from "../../core/terminal-text.js";
import { readPaths, recordReads, type ReadLog } from "../../core/source/read-log.js";

interface CheckOptions extends InputOptions, LintCommandOptions {
  fix?: boolean;
  platform?: string[];
  watch?: boolean;
  fixDryRun?: boolean;
  stdinFilename?: string;
}

export function registerCheck(program: Command, io: MainOptions, setExitCode: SetExitCode, allRules: ReadonlyMap<string, RuleMeta>): void {
  const command = program
    .command("check", { isDefault: true })
    .description("check capability files (default: the app in the current folder)")
    .argument("[paths...]", "capability files or folders; - reads one capability file from standard input");
  addLintOptions(addInputOptions(command), { only: "; parse and schema always run", config: configOption().description })
    .addOption(platformOption("resolve for these platforms only (default: all five)"))
    .option("--fix", "apply safe fixes to the files, then report what is left")
    .option("--fix-dry-run", "print the safe fixes as a diff without writing, then report what is left")
    .option(
      "--watch",
      "check again whenever a file the run read changes (capability, permission and config files, Cargo files, build.rs, sources); with -f json or sarif each run's report is one line (JSON Lines) and the status goes to stderr (Ctrl-C stops)",
    )
    .option(
      "--stdin-filename <name>",
      "with - among the paths: the file name standard input stands for (its extension picks JSON or TOML; default <stdin>, JSON)",
    )
    .action(async (paths: string[], options: CheckOptions) => {
      if (options.watch && paths.includes("-")) throw new UsageError("--watch cannot watch standard input (-)");
      if (!options.watch) {
        setExitCode(await runCheck(paths, options, io, allRules));
        return;
      }
      const { watchLoop } = await import("../../core/watch.js");
      const describe = (error: unknown) => `caplint: ${oneLine(error instanceof Error ? error.message : String(error))}`;
      // Beside a machine format the status line goes to standard error: standard output holds only the reports.
      const streams = { output: io.stdout, status: options.format === "stylish" ? io.stdout : io.stderr, errors: io.stderr };
      // Everything a run reads is recorded (configs, Cargo files, build.rs, sources the rules scan) and watched.
      const once = (read: ReadLog) => recordReads(read, () => runCheck(paths, options, io, allRules));
      setExitCode(await watchLoop(once, describe, streams, io.signal ?? new AbortController().signal));
    });
}

async function runCheck(paths: string[], options: CheckOptions, io: MainOptions, allRules: ReadonlyMap<string, RuleMeta>): Promise<number> {
  const settings = await capabilitySettings(options, io.cwd, allRules);
  const config = settings.config;
  const stdin = await standardInput(paths, options, io);
  let loadOptions = loadOptionsFrom(stdin ? paths.map((p) => (p === "-" ? stdin.name : p)) : paths, options, io.cwd, io.env ?? {});
  if (stdin) loadOptions.sourceOverrides = new Map([[path.resolve(io.cwd, stdin.name), stdin.text]]);
  loadOptions = applyConfig(loadOptions, settings);
  const lintOptions = {
    ...lintSettings(settings, CAPABILITY_RULES),
    ...(options.platform?.length ? { platforms: options.platform } : {}),
  };
  if (options.fix && options.fixDryRun) throw new UsageError("--fix writes the fixes and --fix-dry-run only shows them: give one of the two");
  if (options.fixDryRun && (options.format === "sarif" || options.format === "github")) {
    throw new UsageError(`--fix-dry-run prints a diff, which ${options.format} output cannot carry: use --format stylish, compact or json`);
  }
  // Each app is checked in its own context (a monorepo root, a file list spanning apps); the
  // findings of every run form one report.
  const runs = await planCheckRuns(withFrontendScan(loadOptions, lintOptions.only));
  const results: Array<{ project: Project; result: LintResult }> = [];
  let fixes: Array<{ file: string; diff: string }> | undefined;
  // Without --config, an app below the working directory (a monorepo root, files of several apps)
  // follows its own caplint.config.json when it has one, as a run from its folder would.
  const configLabels = new Set(settings.configLabel === undefined ? [] : [settings.configLabel]);
  const appConfigFiles: string[] = [];
  for (const run of runs) {
    let runSettings = settings;
    if (run.app !== undefined && options.config === undefined) {
      const own = await capabilitySettings({ ...options, app: run.app }, io.cwd, allRules);
      if (own.config?.file !== settings.config?.file) {
        runSettings = own;
        run.load = withFrontendScan(applyConfig(run.load, own), lintSettings(own, CAPABILITY_RULES).only);
        if (own.config?.file) appConfigFiles.push(own.config.file);
      }
    }
    if (runSettings.configLabel !== undefined) configLabels.add(runSettings.configLabel);
    const base = runSettings === settings ? lintOptions : { ...lintOptions, ...lintSettings(runSettings, CAPABILITY_RULES) };
    const runLint = run.focus ? { ...base, focus: run.focus } : base;
    if (options.fix || options.fixDryRun) {
      const { fixProject } = await import("../fix-project.js");
      const outcome = await fixProject(run.load, runLint);
      results.push({
        project: outcome.project,
        result: { ...outcome.result, notes: [...(outcome.result.notes ?? []), ...unfixableNotes(outcome.project, outcome.result)] },
      });
      if (options.fixDryRun) {
        const { unifiedDiff } = await import("../../core/fix/unified-diff.js");
        const diffs = [...outcome.changes.values()].map((change) => ({ file: change.file, diff: unifiedDiff(change.file, change.original, change.fixed) }));
        // A machine-readable report stays parseable: the diff goes inside the JSON, not before it.
        if (options.format === "json") fixes = [...(fixes ?? []), ...diffs];
        else for (const { diff } of diffs) io.stdout.write(diff);
      } else {
        await (await import("../../core/fix/write-fixes.js")).writeFixes(outcome.changes);
      }
    } else {
      const project = await loadProject(run.load);
      results.push({ project, result: await lint(project, runLint) });
    }
  }
  const result: LintResult = {
    diagnostics: results.flatMap((r) => r.result.diagnostics).sort(compareDiagnostics),
    files: results.reduce((sum, r) => sum + r.result.files, 0),
    notes: [...new Set(results.flatMap((r) => r.result.notes ?? []))],
  };
  const texts = new Map<string, string>();
  for (const { project } of results) {
    for (const d of project.documents) texts.set(d.absolutePath, d.text);
    for (const document of configDocuments(project.config)) texts.set(document.absolutePath, document.text);
  }
  const inputs = results.flatMap(({ project }) => [...readPaths(project.read), ...configDocuments(project.config).map((document) => document.absolutePath)]);
  if (config?.file) inputs.push(config.file);
  inputs.push(...appConfigFiles);
  const code = await reportLintRun(
    {
      diagnostics: result.diagnostics,
      files: result.files,
      notes: result.notes ?? [],
      config: configLabels.size ? [...configLabels].join(", ") : null,
      ...(fixes ? { fixes } : {}),
    },
    options,
    io,
    {
      rules: CAPABILITY_RULES_BY_ID,
      sourceText: (file) => texts.get(file) ?? readForCodeFrame(file),
      inputs: [...inputs, ...results.flatMap(({ project }) => project.documents.map((d) => d.absolutePath))],
      // Watching, each run's JSON or SARIF document is one line (JSON Lines): a reader parses the stream line by line.
      jsonLines: options.watch === true,
    },
  );
  return code;
}

/** `-` among the paths: standard input, read once, named by --stdin-filename. `--fix` cannot write it back (ESLint refuses too). */
async function standardInput(paths: string[], options: CheckOptions, io: MainOptions): Promise<{ name: string; text: string } | undefined> {
  const dashes = paths.filter((p) => p === "-").length;
  if (dashes === 0) {
    if (options.stdinFilename !== undefined)
      throw new UsageError("--stdin-filename names standard input: add - to the paths (caplint check - --stdin-filename FILE)");
    return undefined;
  }
  if (dashes > 1) throw new UsageError("- (standard input) can be given once");
  if (options.fix) throw new UsageError("--fix cannot write standard input back: use --fix-dry-run to see the fixes");
  const name = options.stdinFilename ?? "<stdin>";
  if (name === "" || name === "-") throw new UsageError(`--stdin-filename "${name}": give a file name such as src-tauri/capabilities/default.json`);
  return { name, text: await readStandardInput(io.stdin, options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES) };
}

/**
 * `--fix` says which findings it had to leave in TOML files, where some places have no safe text
 * edit (an entry of an array of tables `[[permissions]]` is a section of its own; a multi-line
 * string is not rewritten), rather than skipping them silently.
 */
function unfixableNotes(project: Project, result: LintResult): string[] {
  const toml = new Set(project.documents.filter((d) => d.format === "toml").map((d) => d.absolutePath));
  const left = new Map<string, number>();
  for (const d of result.diagnostics) {
    if (d.fix || !toml.has(d.absolutePath) || !CAPABILITY_RULES_BY_ID.get(d.ruleId)?.fixable) continue;
    left.set(d.file, (left.get(d.file) ?? 0) + 1);
  }
  return [...left].map(
    ([file, count]) =>
      `${oneLine(file)}: ${count} fixable ${count === 1 ? "finding was" : "findings were"} left: TOML arrays of tables ([[permissions]]) and multi-line strings have no safe edit; fix by hand`,
  );
}
