import { Option, type Command } from "commander";
import { TARGETS } from "../model/types.js";
import { runningPlatform } from "../model/platform.js";
import { loadProject, type Project } from "../load/project.js";
import { resolveProject } from "../queries/project-model.js";
import type { Origin, ResolvedModel } from "../engine/index.js";
import { UsageError } from "../../core/errors.js";
import { isPlainObject } from "../../core/json.js";
import type { MainOptions } from "../../core/io.js";
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

/** `--url` to an origin: the app's own URLs (and its dev server) are local, like the host decides. */
export function originOf(url: string | undefined, project: Project): Origin {
  if (url === undefined || url === "local") return { kind: "local" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url ${url}: not a URL (write it in full, e.g. https://example.com/page)`);
  }
  const href = parsed.href;
  if (parsed.protocol === "tauri:" || parsed.protocol === "host:" || /^https?:\/\/(tauri|host)\.localhost(\/|$)/.test(href)) return { kind: "local" };
  const build = isPlainObject(project.config?.document.value) ? (project.config!.document.value as Record<string, unknown>).build : undefined;
  const devUrl = isPlainObject(build) && typeof build.devUrl === "string" ? build.devUrl : undefined;
  if (devUrl && href.startsWith(new URL(devUrl).href.replace(/\/$/, ""))) return { kind: "local" };
  return { kind: "remote", url: href };
}
