import type { Command } from "commander";
import type { SetExitCode } from "../core/command.js";
import type { MainOptions } from "../core/io.js";
import { UsageError } from "../core/errors.js";

/**
 * `caplint lsp --stdio`: the language server for editors (docs/lsp.md). `--stdio` is the flag editors'
 * clients pass; it is the only transport. The protocol's framed bytes go to the process's own stdout:
 * the CLI's output layer escapes control characters, which would break the framing.
 */
export function registerLsp(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  program
    .command("lsp")
    .description("run the language server for editors (diagnostics, completion, hover, quick fixes, definitions)")
    .option("--stdio", "speak LSP over standard input and output (the only transport)")
    .action(async (options: { stdio?: boolean }) => {
      if (!options.stdio) throw new UsageError("lsp: give --stdio (caplint lsp --stdio), as editors' clients start it");
      const { runLanguageServer } = await import("./server.js");
      setExitCode(await runLanguageServer({ input: process.stdin, output: process.stdout, env: io.env ?? process.env }));
      // Standard input would keep the process alive after `exit`.
      process.stdin.destroy();
    });
}
