import { CommanderError, Option } from "commander";
import { existsSync } from "node:fs";
import path from "node:path";
import { nearest, quoteList } from "../core/did-you-mean.js";
import { FatalError, UsageError } from "../core/errors.js";
import { EXIT_FATAL } from "../core/exit-codes.js";
import { withStreams, type MainOptions } from "../core/io.js";
import { toolVersion } from "../core/tool.js";
import { COMMAND_NAMES, registerCommands } from "./commands/index.js";
import { addOutputOptions, switchableOutput } from "./output-options.js";
import { oneLine, outputWriteFailed, SafeOutput } from "../core/terminal-text.js";
import { forgetFilesRead } from "../core/source/read.js";
import { CaplintCommand } from "./usage-errors.js";

export type { MainOptions } from "../core/io.js";
// The bin writes standard output and error through these (bin/caplint.js).
export { standardStream } from "../core/output.js";

/**
 * The whole CLI, with injected streams and working directory; returns the exit code.
 * Nothing here calls process.exit, so tests run it in-process.
 */
export async function main(givenOptions: MainOptions): Promise<number> {
  // Everything printed goes through the terminal-safe layer: file contents and names never reach the terminal raw.
  forgetFilesRead();
  const options = withStreams(givenOptions, {
    // Asked for on first use: the bin's streams are made by Node when first read.
    stdout: new SafeOutput(() => givenOptions.stdout),
    stderr: new SafeOutput(() => givenOptions.stderr),
  });
  const { stderr } = options;
  let exitCode = 0;
  const debug = options.argv.includes("--debug");
  const output = switchableOutput(options);
  /**
   * One parse of the line, with the commands it names (`everyCommand`: all of them). Commander's
   * error lines are held back until the parse fails: an unknown option is worded with the other
   * commands' options (`check --fail-on`: "it is an option of diff"), so a parse with the named
   * command alone that meets one is dropped and the line parsed again with every command.
   */
  const parse = async (everyCommand: boolean, errors: string[]) => {
    const program = new CaplintCommand("caplint")
      .description(
        "Validate, lint and query the capability files of Tauri v2 apps (the spec calls the framework `host`: the same ACL).",
      )
      .version(toolVersion(), "-v, --version")
      .exitOverride()
      .configureOutput({
        writeOut: (text) => options.stdout.write(text),
        writeErr: (text) => stderr.write(text),
        outputError: (text) => errors.push(`caplint: ${text.replace(/^error: /, "")}`),
      })
      // The did-you-mean of an unknown option is on the error's own line (usage-errors.ts).
      .showSuggestionAfterError(false)
      // Each command's --help lists --debug and --version too, under "Global Options".
      .configureHelp({ showGlobalOptions: true })
      .addOption(new Option("--debug", "print internal stack traces on errors"));
    await registerCommands(
      program,
      output.io,
      (code) => {
        exitCode = code;
      },
      everyCommand,
    );
    addOutputOptions(program, output, options.cwd, options.stdout);
    await program.parseAsync(releaseFlag(options.argv), { from: "user" });
  };
  const errors: string[] = [];
  try {
    // Before any command module loads: a mistyped command is a usage error, whatever it would have run.
    rejectMistypedCommand(options);
    try {
      await parse(false, errors);
    } catch (error) {
      if (!(error instanceof CommanderError && error.code === "commander.unknownOption"))
        throw error;
      errors.length = 0;
      await parse(true, errors);
    }
    return outputWriteFailed() ? EXIT_FATAL : exitCode;
  } catch (error) {
    for (const line of errors) stderr.write(line);
    if (error instanceof CommanderError) {
      // Help and version exit 0; commander's own usage errors exit 1, which is ours for findings.
      return error.exitCode === 0 ? 0 : EXIT_FATAL;
    }
    if (error instanceof FatalError || error instanceof UsageError) {
      stderr.write(`caplint: ${oneLine(error.message)}\n`);
      return EXIT_FATAL;
    }
    stderr.write(
      `caplint: internal error (caplint ${toolVersion()}): ${oneLine(error instanceof Error ? error.message : String(error))}\n`,
    );
    if (debug && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
    else stderr.write("caplint: rerun with --debug for the stack trace, and report it\n");
    return EXIT_FATAL;
  }
}

/**
 * `check` is the default command, so `caplint chek` would be checked as a path and fail with "no such
 * file". A first argument that is a bare word (no `/`, `\` or `.`), names no command and no existing
 * file or folder is a mistyped command: a usage error with a did-you-mean, as git and npm say it.
 */
function rejectMistypedCommand(options: MainOptions): void {
  const first = options.argv[0];
  if (first === undefined || first.startsWith("-") || /[/\\.]/.test(first)) return;
  const names = COMMAND_NAMES;
  if (names.includes(first) || first === "help" || existsSync(path.resolve(options.cwd, first)))
    return;
  const close = nearest(first, names, 2);
  const commands = names.join(", ");
  throw new UsageError(
    `unknown command "${first}"${close.length ? `; did you mean ${quoteList(close)}?` : ""} (commands: ${commands}; a file or folder to check must exist)`,
  );
}

/**
 * `caplint permissions fs --version 2.0.1` asks for a release's catalog, not caplint's version; commander
 * reads the root's `--version` anywhere on the line, so after `permissions` it is passed on as `--release`.
 */
function releaseFlag(argv: readonly string[]): string[] {
  const command = argv.findIndex((arg) => !arg.startsWith("-"));
  if (command < 0 || argv[command] !== "permissions") return [...argv];
  return argv.map((arg, i) =>
    i <= command
      ? arg
      : arg === "--version"
        ? "--release"
        : arg.startsWith("--version=")
          ? `--release=${arg.slice("--version=".length)}`
          : arg,
  );
}
