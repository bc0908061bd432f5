import { Option, type Command } from "commander";
import type { SetExitCode } from "../core/command.js";
import type { MainOptions } from "../core/io.js";
import { UsageError } from "../core/errors.js";
import { parsePositiveInteger } from "../core/options.js";

/**
 * `caplint lsp --stdio`: the language server for editors (docs/lsp.md). `--stdio` is the flag editors'
 * clients pass; it is the only transport. The protocol's framed bytes go to the process's own stdout:
 * the CLI's output layer escapes control characters, which would break the framing.
 */
export function registerLsp(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  program
    .command("lsp")
    .description(
      "run the language server for editors (diagnostics, completion, hover, quick fixes, definitions)",
    )
    .option("--stdio", "speak LSP over standard input and output (the only transport)")
    .addOption(
      new Option(
        "--max-message-size <bytes>",
        "largest message read from the client, in bytes (default 64 MiB)",
      ).argParser(parsePositiveInteger),
    )
    .action(async (options: { stdio?: boolean; maxMessageSize?: number }) => {
      if (!options.stdio)
        throw new UsageError(
          "lsp: give --stdio (caplint lsp --stdio), as editors' clients start it",
        );
      const { runLanguageServer } = await import("./server.js");
      const code = await runLanguageServer({
        input: process.stdin,
        output: process.stdout,
        errors: process.stderr,
        env: io.env ?? process.env,
        ...(options.maxMessageSize === undefined
          ? {}
          : { maxMessageBytes: options.maxMessageSize }),
      });
      setExitCode(code);
      // Standard input would keep the process alive after `exit`.
      process.stdin.destroy();
      // A check still running when the client left (a large recording) must not keep the process alive:
      // what it would publish has no reader. Written output is flushed first.
      process.stdout.write("", () => setTimeout(() => process.exit(code), 50).unref());
    });
}
