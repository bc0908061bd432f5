import type { Command } from "commander";
import { loadProject } from "../../capabilities/load/project.js";
import { addInputOptions, configOption } from "../../capabilities/commands/options.js";
import {
  applyConfig,
  capabilitySettings,
  loadOptionsFrom,
  type InputOptions,
} from "../../capabilities/check-run.js";
import { baseCapabilitySchema, editorSchema } from "../../capabilities/schema/editor-schema.js";
import type { MainOptions } from "../../core/io.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/lint/rule.js";

export function registerSchema(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("schema")
    .description(
      "print the draft-07 JSON Schema of capability files for editors ($schema), with every known permission identifier to complete",
    )
    .option(
      "--events",
      "print the JSON Schema of the chat event protocol instead (one line of a recording)",
    )
    .addOption(configOption());
  addInputOptions(command).action(
    async (options: InputOptions & { events?: boolean; config?: string }) => {
      if (options.events) {
        const { eventsJsonSchemaText } = await import("../../events/schema.js");
        io.stdout.write(eventsJsonSchemaText());
        setExitCode(0);
        return;
      }
      // Only --app or --config (not the folder it runs in) adds an app: `caplint schema > x.json` works
      // anywhere. With either, the config's `manifests` (vendored plugins) complete as `check` knows them.
      const load = loadOptionsFrom([], options, io.cwd, io.env ?? {});
      const named = options.app !== undefined || options.config !== undefined;
      const project = await loadProject({
        ...(named ? applyConfig(load, await capabilitySettings(options, io.cwd, allRules)) : load),
        discover: false,
      });
      io.stdout.write(
        JSON.stringify(editorSchema(await baseCapabilitySchema(), project.catalog), null, 2) + "\n",
      );
      setExitCode(0);
    },
  );
}
