import { Option, type Command } from "commander";
import { TARGETS } from "../model/types.js";
import { runningPlatform } from "../util/tool.js";
import { loadProject, type Project } from "../load/project.js";
import { resolveProject } from "../query/project-model.js";
import type { ResolvedModel } from "../engine/index.js";
import type { MainOptions } from "./io.js";
import { addInputOptions, loadOptionsFrom, type InputOptions } from "./options.js";

export interface QueryOptions extends InputOptions {
  platform: string;
  format: string;
}

/** Inputs, `--platform` and `--format` for the query commands. */
export function addQueryOptions(command: Command, formats: readonly string[]): Command {
  return addInputOptions(command.argument("[paths...]", "capability files or folders (default: the app here)"))
    .addOption(new Option("--platform <target>", "target platform").choices(TARGETS).default(runningPlatform()))
    .addOption(new Option("-f, --format <format>", "output format").choices(formats).default(formats[0]));
}

export async function loadModel(paths: string[], options: QueryOptions, io: MainOptions): Promise<{ project: Project; model: ResolvedModel }> {
  const project = await loadProject(loadOptionsFrom(paths, options, io.cwd));
  return { project, model: resolveProject(project, options.platform) };
}
