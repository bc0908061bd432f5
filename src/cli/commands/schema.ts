import type { Command } from "commander";
import { loadProject } from "../../capabilities/load/project.js";
import { addInputOptions, loadOptionsFrom, type InputOptions } from "../../capabilities/commands/options.js";
import { baseCapabilitySchema, editorSchema } from "../../capabilities/schema/editor-schema.js";
import type { MainOptions } from "../../core/io.js";
import type { SetExitCode } from "../../core/command.js";

export function registerSchema(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("schema")
    .description("print the draft-07 JSON Schema of capability files for editors ($schema), with every known permission identifier to complete")
    .option("--events", "print the JSON Schema of the chat event protocol instead (one line of a recording)");
  addInputOptions(command).action(async (options: InputOptions & { events?: boolean }) => {
    if (options.events) {
      const { eventsJsonSchemaText } = await import("../../events/schema.js");
      io.stdout.write(eventsJsonSchemaText());
      setExitCode(0);
      return;
    }
    // Only --app (not the folder it runs in) adds an app: `caplint schema > x.json` works anywhere.
    const project = await loadProject({ ...loadOptionsFrom([], options, io.cwd), discover: false });
    io.stdout.write(JSON.stringify(editorSchema(await baseCapabilitySchema(), project.catalog), null, 2) + "\n");
    setExitCode(0);
  });
}
