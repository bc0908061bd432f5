import { Command, CommanderError, Option } from "commander";
import { FatalError, UsageError } from "../core/errors.js";
import { EXIT_FATAL } from "../core/exit-codes.js";
import type { MainOptions } from "../core/io.js";
import { toolVersion } from "../core/tool.js";
import { registerCommands } from "./commands/index.js";
import { oneLine, SafeOutput } from "../core/terminal-text.js";

export type { MainOptions } from "../core/io.js";

/**
 * The whole CLI, with injected streams and working directory; returns the exit code.
 * Nothing here calls process.exit, so tests run it in-process.
 */
export async function main(givenOptions: MainOptions): Promise<number> {
  // Everything printed goes through the terminal-safe layer: file contents and names never reach the terminal raw.
  const options: MainOptions = { ...givenOptions, stdout: new SafeOutput(givenOptions.stdout), stderr: new SafeOutput(givenOptions.stderr) };
  const { stderr } = options;
  let exitCode = 0;
  const debug = options.argv.includes("--debug");
  const program = new Command("caplint")
    .description("Validate, lint and query host capability files.")
    .version(toolVersion(), "-v, --version")
    .exitOverride()
    .configureOutput({
      writeOut: (text) => options.stdout.write(text),
      writeErr: (text) => stderr.write(text),
      outputError: (text, write) => write(`caplint: ${text.replace(/^error: /, "")}`),
    })
    .showSuggestionAfterError(true)
    .addOption(new Option("--debug", "print internal stack traces on errors").hideHelp());
  registerCommands(program, options, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(releaseFlag(options.argv), { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; commander's own usage errors exit 1, which is ours for findings.
      return error.exitCode === 0 ? 0 : EXIT_FATAL;
    }
    if (error instanceof FatalError || error instanceof UsageError) {
      stderr.write(`caplint: ${oneLine(error.message)}\n`);
      return EXIT_FATAL;
    }
    stderr.write(`caplint: internal error (caplint ${toolVersion()}): ${oneLine(error instanceof Error ? error.message : String(error))}\n`);
    if (debug && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
    else stderr.write("caplint: rerun with --debug for the stack trace, and report it\n");
    return EXIT_FATAL;
  }
}

/**
 * `caplint permissions fs --version 2.0.1` asks for a release's catalog, not caplint's version; commander
 * reads the root's `--version` anywhere on the line, so after `permissions` it is passed on as `--release`.
 */
function releaseFlag(argv: readonly string[]): string[] {
  const command = argv.findIndex((arg) => !arg.startsWith("-"));
  if (command < 0 || argv[command] !== "permissions") return [...argv];
  return argv.map((arg, i) => (i <= command ? arg : arg === "--version" ? "--release" : arg.startsWith("--version=") ? `--release=${arg.slice("--version=".length)}` : arg));
}
