/**
 * One check of what an editor shows, through the same front doors as the CLI (the capability
 * domain's check, the events runner, the client-configuration reader), with the open buffers' texts
 * in place of the files on disk.
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { loadSettings, type LintResult, type Project } from "../index.js";
import { RULES_BY_ID } from "../registry.js";
import { type CheckRequest, type CheckSession } from "../capabilities/check-run.js";
import type { LintWork } from "../capabilities/lint-memo.js";
import type { Diagnostic } from "../core/diagnostics.js";
import { withOpenBuffers } from "../core/source/read.js";
import { checkRecording } from "../events/run-events.js";
import type { EventRuleId } from "../events/rules/index.js";
import { configuredServerProblems } from "../mcp/configured-servers.js";
import { relativeFile } from "../capabilities/load/project.js";
import { ruleArguments, type ServerSettings } from "./settings.js";

/** What a check of one app (or of capability files outside any app) found, and the model it found it in. */
export interface AppAnalysis {
  project: Project;
  result: LintResult;
  /** Which rules the check ran again, and over which files, and which kept their findings. */
  work?: LintWork;
}

export interface AppTarget {
  /** The folder file names are relative to, and where the config search starts. */
  root: string;
  /** The app's src-tauri folder; undefined for capability files outside any app, checked alone. */
  srcTauri?: string;
  /** Without an app: the files checked. */
  paths?: string[];
}

/**
 * Checks an app with the open buffers' texts, through the domain's check (as `caplint check --app`).
 * `session` keeps the app's model between checks; `changed` (absolute paths edited since its last
 * check, or undefined when anything may have changed) lets it reload only the capability files.
 */
export async function analyzeApp(
  target: AppTarget,
  texts: ReadonlyMap<string, string>,
  settings: ServerSettings,
  env: Readonly<Record<string, string | undefined>>,
  session: CheckSession,
  changed?: ReadonlySet<string>,
): Promise<AppAnalysis> {
  return withOpenBuffers(texts, async () => {
    const request: CheckRequest = {
      cwd: target.root,
      env,
      // The app folder: the config search starts there, as `caplint check` run in it does.
      ...(target.srcTauri === undefined
        ? { paths: target.paths ?? [] }
        : { app: target.root, paths: unsavedCapabilityFiles(target.srcTauri, texts) }),
      manifest: [],
      plugins: [],
      permissions: [],
      cargoRegistry: settings.cargoRegistry,
      ...(settings.config === undefined ? {} : { config: settings.config }),
      rule: ruleArguments(settings, "capabilities"),
      rules: RULES_BY_ID,
    };
    const outcome = await session.run(request, changed);
    const [check] = outcome.checks;
    if (!check || outcome.checks.length > 1)
      throw new Error(`${target.root}: expected one app to check, found ${outcome.checks.length}`);
    const [work] = session.lintWork();
    return work ? { ...check, work } : check;
  });
}

/** Buffers in the app's capabilities folder that were never saved: the folder is listed from the disk, so they are named. */
function unsavedCapabilityFiles(srcTauri: string, texts: ReadonlyMap<string, string>): string[] {
  const folder = path.join(srcTauri, "capabilities") + path.sep;
  return [...texts.keys()].filter(
    (file) => file.startsWith(folder) && /\.(json|toml)$/.test(file) && !existsSync(file),
  );
}

/**
 * A recording (`caplint events`, or `--client` for client traffic) from its buffer's text: its first
 * `limit` findings in file order and how many there are in all. Only those are kept, so a recording of
 * a million bad lines costs the editor no more memory than one of a thousand.
 */
export async function analyzeRecording(
  absolutePath: string,
  text: string,
  client: boolean,
  settings: ServerSettings,
  workspaceFolder: string,
  texts: ReadonlyMap<string, string>,
  limit: number,
  /** Asked between slices of the text: false (a newer edit, the client left) stops the check early. */
  wanted: () => boolean,
): Promise<{ diagnostics: Diagnostic[]; total: number }> {
  return withOpenBuffers(texts, async () => {
    const runSettings = await loadSettings({
      cwd: path.dirname(absolutePath),
      domain: "events",
      config: settings.config === undefined ? "auto" : settings.config,
      rule: ruleArguments(settings, "events"),
    });
    const file = relativeFile(workspaceFolder, absolutePath);
    const kept: Diagnostic[] = [];
    let total = 0;
    await checkRecording(slices(text, wanted), file, absolutePath, {
      client,
      severityFor: (ruleId: EventRuleId, absoluteFile: string) =>
        runSettings.severityFor(ruleId, absoluteFile),
      live: (found) => {
        total += found.length;
        for (const finding of found) if (kept.length < limit) kept.push(finding);
      },
    });
    kept.sort(
      (a, b) =>
        a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column,
    );
    return { diagnostics: kept, total };
  });
}

/** A tool-server client configuration, offline: entries that cannot be run. No server is ever started from the editor. */
export function analyzeClientConfig(
  absolutePath: string,
  text: string,
  workspaceFolder: string,
  env: Readonly<Record<string, string | undefined>>,
): Diagnostic[] {
  return configuredServerProblems(text, absolutePath, relativeFile(workspaceFolder, absolutePath), {
    env,
    home: env.HOME ?? homedir(),
  });
}

/**
 * The text in slices, with a turn of the event loop between them: a check of a large recording does not
 * hold the server deaf to the client (a newer edit, `exit`, a closed pipe), and stops once not wanted.
 */
async function* slices(text: string, wanted: () => boolean): AsyncIterable<string> {
  const size = 256 * 1024;
  for (let start = 0; start < text.length; start += size) {
    if (start > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!wanted()) return;
    }
    yield text.slice(start, start + size);
  }
}
