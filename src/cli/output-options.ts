import { APP_FILE_NAMES } from "../capabilities/load/cargo.js";
import { Option, type Command } from "commander";
import path from "node:path";
import { withStreams, type MainOptions, type OutputStream } from "../core/io.js";
import { CapturedOutput, writeOutputFile } from "../core/output.js";

/**
 * `-o, --output FILE` and `-q, --quiet` mean the same in every command (as `check` defines them):
 * the report goes to FILE, written atomically, or nowhere, and the exit code is unchanged. Commands
 * write to `io.stdout`; the CLI hands them a stream that it points at the file or at nothing for one run.
 */
const QUIET_COMMANDS = new Set(["access", "diff"]);
/** Commands that write files of their own (`check -o`, `report --html`), and the language server, which prints only protocol messages. */
const OWN_OUTPUT = new Set(["check", "report", "lsp"]);

export function switchableOutput(io: MainOptions): {
  io: MainOptions;
  use(target: OutputStream): void;
  reset(): void;
} {
  let target: OutputStream = io.stdout;
  const stdout: OutputStream = {
    write: (chunk: string) => target.write(chunk),
    drained: () => target.drained?.() ?? Promise.resolve(),
    get isTTY() {
      return target.isTTY;
    },
  };
  return {
    io: withStreams(io, { stdout }),
    use: (next) => (target = next),
    reset: () => (target = io.stdout),
  };
}

export function addOutputOptions(
  program: Command,
  output: ReturnType<typeof switchableOutput>,
  cwd: string,
  stdout: OutputStream,
): void {
  const handled = new Set<Command>();
  for (const command of program.commands) {
    if (OWN_OUTPUT.has(command.name()) || command.options.some((o) => o.long === "--output"))
      continue;
    handled.add(command);
    command.addOption(
      new Option(
        "-o, --output <file>",
        "write the output to this file (atomically) instead of standard output; the exit code is unchanged",
      ),
    );
    if (QUIET_COMMANDS.has(command.name()))
      command.addOption(new Option("-q, --quiet", "print nothing: the exit code is the answer"));
  }
  let captured: CapturedOutput | undefined;
  program.hook("preAction", (_program, action) => {
    if (!handled.has(action)) return;
    const { output: file, quiet } = action.opts<{ output?: string; quiet?: boolean }>();
    captured = quiet || file !== undefined ? new CapturedOutput() : undefined;
    if (captured) output.use(captured);
  });
  program.hook("postAction", async (_program, action) => {
    if (!handled.has(action)) return;
    output.reset();
    const { output: file, quiet } = action.opts<{ output?: string; quiet?: boolean }>();
    if (captured && !quiet && file !== undefined) {
      // The files the command line names are inputs, which a report must never replace.
      const named = [
        ...action.args,
        ...Object.values(action.opts<Record<string, unknown>>()).flat(),
      ].filter((value): value is string => typeof value === "string" && value !== file);
      // An app's files too, whichever command writes the report (`schema -o tauri.conf.json`).
      const inputs = named.map((value) => path.resolve(cwd, value));
      await writeOutputFile(
        "--output",
        { given: file, cwd, stdout, inputs, projectFiles: APP_FILE_NAMES },
        captured.text,
      );
    }
    captured = undefined;
  });
}
