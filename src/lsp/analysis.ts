/**
 * One check of what an editor shows, through the same loaded-model APIs as the CLI (the library's
 * loadSettings, loadProject and lint; the events runner; the client-configuration reader), with the
 * open buffers' texts in place of the files on disk.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { lint, loadProject, loadSettings, type LintResult, type Project } from "../index.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { withOpenBuffers } from "../core/source/read.js";
import { checkRecording } from "../events/run-events.js";
import type { EventRuleId } from "../events/rules/index.js";
import { configuredServerProblems } from "../mcp/configured-servers.js";
import { cargoHomeOf } from "../capabilities/commands/options.js";
import { relativeFile } from "../capabilities/load/project.js";
import { ruleArguments, type ServerSettings } from "./settings.js";

/** What a check of one app (or of capability files outside any app) found, and the model it found it in. */
export interface AppAnalysis {
  project: Project;
  result: LintResult;
}

export interface AppTarget {
  /** The folder file names are relative to, and where the config search starts. */
  root: string;
  /** The app's src-tauri folder; undefined for capability files outside any app, checked alone. */
  srcTauri?: string;
  /** Without an app: the files checked. */
  paths?: string[];
}

export async function analyzeApp(
  target: AppTarget,
  texts: ReadonlyMap<string, string>,
  settings: ServerSettings,
  env: Readonly<Record<string, string | undefined>>,
  workspaceFolder: string,
): Promise<AppAnalysis> {
  return withOpenBuffers(texts, async () => {
    const runSettings = await loadSettings({
      cwd: target.root,
      config: settings.config === undefined ? "auto" : path.resolve(workspaceFolder, settings.config),
      rule: ruleArguments(settings, "capabilities"),
    });
    const cargoHome = cargoHomeOf({ manifest: [], plugins: [], permissions: [], cargoRegistry: settings.cargoRegistry }, env);
    const project = await loadProject({
      cwd: target.root,
      ...(target.srcTauri === undefined ? { paths: target.paths ?? [] } : { app: target.srcTauri, paths: unsavedCapabilityFiles(target.srcTauri, texts) }),
      ...(cargoHome === undefined ? {} : { cargoHome }),
      settings: runSettings,
    });
    return { project, result: await lint(project, { settings: runSettings }) };
  });
}

/** Buffers in the app's capabilities folder that were never saved: the folder is listed from the disk, so they are named. */
function unsavedCapabilityFiles(srcTauri: string, texts: ReadonlyMap<string, string>): string[] {
  const folder = path.join(srcTauri, "capabilities") + path.sep;
  return [...texts.keys()].filter((file) => file.startsWith(folder) && /\.(json|toml)$/.test(file) && !existsSync(file));
}

/** A recording (`caplint events`, or `--client` for client traffic) from its buffer's text. */
export async function analyzeRecording(
  absolutePath: string,
  text: string,
  client: boolean,
  settings: ServerSettings,
  workspaceFolder: string,
  texts: ReadonlyMap<string, string>,
): Promise<Diagnostic[]> {
  return withOpenBuffers(texts, async () => {
    const runSettings = await loadSettings({
      cwd: path.dirname(absolutePath),
      domain: "events",
      config: settings.config === undefined ? "auto" : path.resolve(workspaceFolder, settings.config),
      rule: ruleArguments(settings, "events"),
    });
    const file = relativeFile(workspaceFolder, absolutePath);
    const result = await checkRecording(oneChunk(text), file, absolutePath, {
      client,
      severityFor: (ruleId: EventRuleId, absoluteFile: string) => runSettings.severityFor(ruleId, absoluteFile),
    });
    return result.diagnostics;
  });
}

/** A tool-server client configuration, offline: entries that cannot be run. No server is ever started from the editor. */
export function analyzeClientConfig(
  absolutePath: string,
  text: string,
  workspaceFolder: string,
  env: Readonly<Record<string, string | undefined>>,
): Diagnostic[] {
  return configuredServerProblems(text, absolutePath, relativeFile(workspaceFolder, absolutePath), { env, home: env.HOME ?? homedir() });
}

async function* oneChunk(text: string): AsyncIterable<string> {
  yield text;
}
