import type { Command } from "commander";
import { normalize } from "../engine/index.js";
import type { MainOptions } from "../../core/io.js";
import { addQueryOptions, loadModel, type QueryOptions } from "./query-options.js";
import { capabilitySettings } from "./options.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/rule.js";

export function registerResolve(program: Command, io: MainOptions, setExitCode: SetExitCode, allRules: ReadonlyMap<string, RuleMeta>): void {
  const command = program.command("resolve").description("the whole resolved model, as the host computes it (allowed, denied, global scopes)");
  addQueryOptions(command, ["json"]).action(async (paths: string[], options: QueryOptions) => {
    const { model } = await loadModel(paths, options, io, await capabilitySettings(options, io.cwd, allRules));
    io.stdout.write(JSON.stringify({ platform: model.platform, ...normalize(model) }, null, 2) + "\n");
    setExitCode(0);
  });
}
