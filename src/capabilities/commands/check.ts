import type { Command } from "commander";
import { DEFAULT_MAX_FILE_BYTES, readForCodeFrame } from "../../core/source/read.js";
import { readStandardInput } from "../../core/source/stdin.js";
import { UsageError } from "../../core/errors.js";
import { CAPABILITY_RULES_BY_ID } from "../rules/index.js";
import type { Project } from "../load/project.js";
import { shippedTargets } from "../load/build.js";
import { APP_FILE_NAMES } from "../load/cargo.js";
import type { RuleMeta } from "../../core/lint/rule.js";
import { platformOption } from "./query-options.js";
import type { MainOptions } from "../../core/io.js";
import { addInputOptions, configOption } from "./options.js";
import { checkCapabilities, type InputOptions } from "../check-run.js";
import type { LintCommandOptions } from "../../core/options.js";
import { addLintOptions, reportLintRun } from "../../core/lint/lint-command.js";
import type { SetExitCode } from "../../core/command.js";
import { oneLine } from "../../core/terminal-text.js";
import { recordReads, type ReadLog } from "../../core/source/read-log.js";

interface CheckOptions extends InputOptions, LintCommandOptions {
  fix?: boolean;
  platform?: string[];
  watch?: boolean;
  fixDryRun?: boolean;
  stdinFilename?: string;
}

export function registerCheck(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("check", { isDefault: true })
    .description("check capability files (default: the app in the current folder)")
    .argument(
      "[paths...]",
      "capability files or folders; - reads one capability file from standard input",
    );
  addLintOptions(addInputOptions(command), {
    only: "; parse and schema always run",
    config: configOption().description,
  })
    .addOption(platformOption("resolve for these platforms only (default: all five)"))
    .option("--fix", "apply safe fixes to the files, then report what is left")
    .option(
      "--fix-dry-run",
      "print the safe fixes as a diff without writing, then report what is left",
    )
    .option(
      "--watch",
      "check again whenever a file the run read changes (capability, permission and config files, Cargo files, build.rs, sources); with -f json or sarif each run's report is one line (JSON Lines) and the status goes to stderr (Ctrl-C stops)",
    )
    .option(
      "--stdin-filename <name>",
      "with - among the paths: the file name standard input stands for (its extension picks JSON or TOML; default <stdin>, JSON)",
    )
    .action(async (paths: string[], options: CheckOptions) => {
      if (options.watch && paths.includes("-"))
        throw new UsageError("--watch cannot watch standard input (-)");
      if (!options.watch) {
        setExitCode(await runCheck(paths, options, io, allRules));
        return;
      }
      const { watchLoop } = await import("../../core/watch.js");
      const describe = (error: unknown) =>
        `caplint: ${oneLine(error instanceof Error ? error.message : String(error))}`;
      // Beside a machine format the status line goes to standard error: standard output holds only the reports.
      const streams = {
        output: io.stdout,
        status: options.format === "stylish" ? io.stdout : io.stderr,
        errors: io.stderr,
      };
      // Everything a run reads is recorded (configs, Cargo files, build.rs, sources the rules scan) and watched.
      const once = (read: ReadLog) =>
        recordReads(read, () => runCheck(paths, options, io, allRules));
      setExitCode(
        await watchLoop(once, describe, streams, io.signal ?? new AbortController().signal),
      );
    });
}

async function runCheck(
  paths: string[],
  options: CheckOptions,
  io: MainOptions,
  allRules: ReadonlyMap<string, RuleMeta>,
): Promise<number> {
  if (options.fix && options.fixDryRun)
    throw new UsageError(
      "--fix writes the fixes and --fix-dry-run only shows them: give one of the two",
    );
  if (options.fixDryRun && (options.format === "sarif" || options.format === "github")) {
    throw new UsageError(
      `--fix-dry-run prints a diff, which ${options.format} output cannot carry: use --format stylish, compact or json`,
    );
  }
  const stdin = await standardInput(paths, options, io);
  const { app, manifest, plugins, permissions, maxFileSize, cargoRegistry, config, rule, only } =
    options;
  const outcome = await checkCapabilities({
    ...{ app, manifest, plugins, permissions, maxFileSize, cargoRegistry, config, rule, only },
    cwd: io.cwd,
    env: io.env ?? {},
    paths,
    rules: allRules,
    ...(options.platform?.length ? { platforms: options.platform } : {}),
    ...(options.fix
      ? { fix: "write" as const }
      : options.fixDryRun
        ? { fix: "preview" as const }
        : {}),
    ...(stdin ? { stdin } : {}),
    // These reports show no fix and no count of them, and no finding's data or group (stylish groups):
    // the findings are made without them (unless the run fixes: checkAll keeps them then).
    ...(REPORTS_WITHOUT_FIX_OR_DATA.has(options.format)
      ? { omitFixes: true, omitFindingData: true }
      : {}),
  });
  if (io.argv.includes("--debug"))
    for (const { project } of outcome.checks) io.stderr.write(shippedTargetsDebug(project));
  // A machine-readable report stays parseable: the diff goes inside the JSON, not before it.
  if (outcome.diffs && options.format !== "json")
    for (const { diff } of outcome.diffs) io.stdout.write(diff);
  const { result } = outcome;
  return reportLintRun(
    {
      diagnostics: result.diagnostics,
      files: result.files,
      notes: result.notes,
      config: outcome.config,
      ...(outcome.diffs && options.format === "json" ? { fixes: outcome.diffs } : {}),
    },
    options,
    io,
    {
      rules: CAPABILITY_RULES_BY_ID,
      sourceText: (file) => outcome.texts.get(file) ?? readForCodeFrame(file),
      inputs: outcome.inputs,
      projectFiles: APP_FILE_NAMES,
      // Watching, each run's JSON or SARIF document is one line (JSON Lines): a reader parses the stream line by line.
      jsonLines: options.watch === true,
    },
  );
}

/** The formats whose report reads no finding's fix (json says `fixable`, stylish counts them), data or group (stylish groups by it). */
const REPORTS_WITHOUT_FIX_OR_DATA: ReadonlySet<string> = new Set(["compact", "github", "sarif"]);

/** `--debug`: the targets the app ships and the evidence that decided each (plugin-not-in-build judges those). */
function shippedTargetsDebug(project: Project): string {
  if (!project.build) return "";
  const app = oneLine(project.build.file);
  return [...shippedTargets(project.build, project.capabilities)]
    .map(([target, because]) => {
      const evidence = because.evidence
        .map((piece) => `${oneLine(piece.says)}${piece.certain ? "" : " (suggests it only)"}`)
        .join("; ");
      return `caplint: debug: ${app}: ${target} ships: ${evidence || "desktop"}\n`;
    })
    .join("");
}

/** `-` among the paths: standard input, read once, named by --stdin-filename. `--fix` cannot write it back (ESLint refuses too). */
async function standardInput(
  paths: string[],
  options: CheckOptions,
  io: MainOptions,
): Promise<{ name: string; text: string } | undefined> {
  const dashes = paths.filter((p) => p === "-").length;
  if (dashes === 0) {
    if (options.stdinFilename !== undefined)
      throw new UsageError(
        "--stdin-filename names standard input: add - to the paths (caplint check - --stdin-filename FILE)",
      );
    return undefined;
  }
  if (dashes > 1) throw new UsageError("- (standard input) can be given once");
  if (options.fix)
    throw new UsageError(
      "--fix cannot write standard input back: use --fix-dry-run to see the fixes",
    );
  const name = options.stdinFilename ?? "<stdin>";
  if (name === "" || name === "-")
    throw new UsageError(
      `--stdin-filename "${name}": give a file name such as src-tauri/capabilities/default.json`,
    );
  return {
    name,
    text: await readStandardInput(io.stdin, options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES),
  };
}
