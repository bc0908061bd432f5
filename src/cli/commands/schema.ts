import type { Command } from "commander";
import { readFile } from "node:fs/promises";
import { packageFile } from "../../core/package-files.js";
import type { MainOptions } from "../../core/io.js";
import type { SetExitCode } from "../../core/command.js";

export function registerSchema(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  program
    .command("schema")
    .description("print the draft-07 JSON Schema of capability files (usable as $schema in an editor)")
    .option("--events", "print the JSON Schema of the chat event protocol instead (one line of a recording)")
    .action(async (options: { events?: boolean }) => {
      if (options.events) {
        const { eventsJsonSchemaText } = await import("../../events/schema.js");
        io.stdout.write(eventsJsonSchemaText());
        setExitCode(0);
        return;
      }
      io.stdout.write(await readFile(packageFile("schema", "capability.schema.json"), "utf8"));
      setExitCode(0);
    });
}
