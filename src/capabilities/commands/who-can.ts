import type { Command } from "commander";
import { whoCan } from "../engine/index.js";
import { SourceLines } from "../queries/project-model.js";
import { renderWhoCanJson, renderWhoCanText } from "../render/who-can.js";
import type { MainOptions } from "../../core/io.js";
import { addQueryOptions, loadModel, type QueryOptions } from "./query-options.js";
import type { SetExitCode } from "../../core/command.js";

export function registerWhoCan(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("who-can")
    .description("every capability, window pattern and origin that grants a command, and the denies that block it")
    .argument("<command>", "command as invoked: plugin:window|close, plugin:fs|read_file, my_command");
  addQueryOptions(command, ["text", "json"]).action(async (name: string, paths: string[], options: QueryOptions) => {
    const { project, model } = await loadModel(paths, options, io);
    const result = whoCan(model, name);
    const lines = new SourceLines(project);
    const render = options.format === "json" ? renderWhoCanJson : renderWhoCanText;
    // The command in the project's spelling of the brand word, whichever spelling was asked.
    io.stdout.write(render({ name: result.command, result, model, lines }));
    setExitCode(0);
  });
}
