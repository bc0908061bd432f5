import { Option, type Command } from "commander";
import { TARGETS } from "../model/types.js";
import { runningPlatform } from "../util/tool.js";
import { loadProject, type Project } from "../load/project.js";
import { resolveProject } from "../query/project-model.js";
import { parsePlatforms, PlatformNameError, resolvePlatformGroups, type PlatformGroup } from "../query/platforms.js";
import type { ResolvedModel } from "../engine/index.js";
import type { MainOptions } from "./io.js";
import { UsageError } from "./main.js";
import { addInputOptions, loadOptionsFrom, type InputOptions } from "./options.js";

export interface QueryOptions extends InputOptions {
  /** Platforms asked with `--platform` (default: all five). */
  platform?: string[];
  format: string;
}

/** `--platform`, case-insensitive and comma-separated, for every command that takes one. */
export function platformOption(description: string): Option {
  return new Option("--platform <targets>", `${description} (${TARGETS.join(", ")}; case-insensitive, comma-separated)`).argParser(platformArgument);
}

export function platformArgument(value: string, previous: string[] | undefined): string[] {
  try {
    return [...new Set([...(previous ?? []), ...parsePlatforms(value)])];
  } catch (error) {
    if (error instanceof PlatformNameError) throw new UsageError(error.message);
    throw error;
  }
}

/** Inputs, `--platform` and `--format` for the query commands. */
export function addQueryOptions(command: Command, formats: readonly string[]): Command {
  return addInputOptions(command.argument("[paths...]", "capability files or folders (default: the app here)"))
    .addOption(platformOption("answer for these platforms only (default: all, showing where they differ)"))
    .addOption(new Option("-f, --format <format>", "output format").choices(formats).default(formats[0]));
}

/** The platforms a query answers for. */
export function askedPlatforms(options: Pick<QueryOptions, "platform">): string[] {
  return options.platform?.length ? options.platform : [...TARGETS];
}

export async function loadGroups(paths: string[], options: QueryOptions, io: MainOptions): Promise<{ project: Project; asked: string[]; groups: PlatformGroup[] }> {
  const project = await loadProject(loadOptionsFrom(paths, options, io.cwd));
  const asked = askedPlatforms(options);
  return { project, asked, groups: resolvePlatformGroups(project, asked) };
}

/** For `resolve`, which prints one platform's model: `--platform` or the platform caplint runs on. */
export async function loadModel(paths: string[], options: QueryOptions, io: MainOptions): Promise<{ project: Project; model: ResolvedModel }> {
  if ((options.platform?.length ?? 0) > 1) throw new UsageError("--platform: this command answers for one platform; name one");
  const project = await loadProject(loadOptionsFrom(paths, options, io.cwd));
  return { project, model: resolveProject(project, options.platform?.[0] ?? runningPlatform()) };
}
