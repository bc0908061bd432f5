/**
 * The one front door of a capability check, whoever knocks: the `check` command, the library and
 * the language server. It plans the run (the apps the paths name, the settings of each), loads,
 * lints and fixes; the caller only reports. A {@link CheckSession} keeps what it loaded between
 * calls, so an editor's edit of capability files reloads and re-lints only what depends on them.
 */
import { statSync } from "node:fs";
import path from "node:path";
import { appFolders } from "./load/cargo.js";
import { compareDiagnostics } from "../core/diagnostics.js";
import { configSectionOf } from "../core/config.js";
import type { RuleMeta } from "../core/lint/rule.js";
import { loadSettings, type Settings } from "../core/settings.js";
import { readPaths } from "../core/source/read-log.js";
import { oneLine } from "../core/terminal-text.js";
import { CAPABILITY_CONFIG } from "./config-section.js";
import { lint, type LintOptions, type LintResult } from "./lint.js";
import { LintMemo, type LintWork } from "./lint-memo.js";
import { isFrontendFile } from "./frontend/blocks.js";
import { configDocuments } from "./load/app-config.js";
import { planCheckRuns } from "./load/check-runs.js";
import {
  loadProject,
  reloadCapabilityFiles,
  type LoadOptions,
  type Project,
} from "./load/project.js";
import { CAPABILITY_RULES, CAPABILITY_RULES_BY_ID } from "./rules/index.js";

/** What every capability command reads: files and folders, an app folder, manifests and permission folders. */
export interface InputOptions {
  app?: string;
  manifest: string[];
  plugins: string[];
  permissions: string[];
  maxFileSize?: number;
  /** `--no-cargo-registry` sets it false. */
  cargoRegistry?: boolean;
}

/**
 * Where Cargo unpacks registry crates: `$CARGO_HOME`, else `~/.cargo` (from the environment given, so a
 * test or an embedding decides), unless `--no-cargo-registry` or `CAPLINT_CARGO_REGISTRY=off`.
 */
export function cargoHomeOf(
  options: Pick<InputOptions, "cargoRegistry">,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (
    options.cargoRegistry === false ||
    /^(off|0|false|no)$/i.test(env.CAPLINT_CARGO_REGISTRY ?? "")
  )
    return undefined;
  if (env.CARGO_HOME) return path.resolve(env.CARGO_HOME);
  return env.HOME
    ? path.join(env.HOME, ".cargo")
    : env.USERPROFILE
      ? path.join(env.USERPROFILE, ".cargo")
      : undefined;
}

export function loadOptionsFrom(
  paths: string[],
  options: InputOptions,
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = {},
): LoadOptions {
  const load: LoadOptions = {
    cwd,
    paths,
    manifests: options.manifest,
    plugins: options.plugins,
    permissions: options.permissions,
  };
  const cargoHome = cargoHomeOf(options, env);
  if (cargoHome !== undefined) load.cargoHome = cargoHome;
  if (options.app !== undefined) load.app = options.app;
  if (options.maxFileSize !== undefined) load.maxFileBytes = options.maxFileSize;
  return load;
}

export interface SettingsOptions {
  app?: string;
  config?: string;
  rule?: string[];
  only?: string[];
}

/**
 * The run's settings (core/settings.ts) for a capability command: the config found upward from the
 * app folder (`--app`, else the working directory) or `--config`, then `--rule` and `--only`.
 */
export function capabilitySettings(
  options: SettingsOptions,
  cwd: string,
  rules: ReadonlyMap<string, RuleMeta>,
): Promise<Settings> {
  const start = options.app === undefined ? cwd : path.resolve(cwd, options.app);
  return loadSettings({
    rules,
    domain: "capabilities",
    cwd,
    start,
    // Outside a repository the app's own folders count: started in src-tauri/, the app folder above it too.
    outsideRepository: appFolders(start),
    ...(options.config === undefined ? {} : { config: options.config }),
    rule: options.rule ?? [],
    only: options.only ?? [],
  });
}

/** The config's `manifests` are read too, and its `app` is the app when the command line names none. */
export function applyConfig(load: LoadOptions, settings: Settings): LoadOptions {
  if (!settings.config) return load;
  const { manifests, app, frontend } = configSectionOf(settings.config, CAPABILITY_CONFIG);
  const applied: LoadOptions = { ...load, manifests: [...manifests, ...(load.manifests ?? [])] };
  if (frontend !== undefined && load.frontend !== false) applied.frontend = frontend;
  if (app !== undefined && (load.paths ?? []).length === 0 && load.app === undefined)
    applied.app = app;
  return applied;
}

/** The rules that judge the frontend's calls: a run that starts one of them scans the frontend. */
export const FRONTEND_RULES = [
  "frontend-command-not-granted",
  "frontend-calls-unregistered-plugin",
  "frontend-version-skew",
  "unused-permission",
  "unused-dangerous-permission",
];

/** Asks the load to scan the frontend (with the config's `frontend` section, when it has one) when a rule that judges it runs. */
export function withFrontendScan(load: LoadOptions, only: ReadonlySet<string>): LoadOptions {
  if (load.frontend || !FRONTEND_RULES.some((id) => only.has(id))) return load;
  return { ...load, frontend: true };
}

/** The lint options that carry the settings: rules off for every file are left out, so they never start. */
export function lintSettings(
  settings: Settings,
  rules: Iterable<{ id: string }>,
): { severityFor: Settings["severityFor"]; only: Set<string> } {
  return {
    severityFor: settings.severityFor,
    only: new Set([...rules].map((rule) => rule.id).filter((id) => settings.runs(id))),
  };
}

/** One check: what the command line (or an editor) names and how to judge it. */
export interface CheckRequest extends InputOptions, SettingsOptions {
  /** Absolute working directory: paths and file names are relative to it. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Capability files or folders (none: the app in `cwd`, or every app below it). */
  paths: string[];
  /** Every rule of every domain: a shared config may name any of them (passed in: no domain imports the registry). */
  rules: ReadonlyMap<string, RuleMeta>;
  /** Platforms to resolve for (default: all five). */
  platforms?: string[];
  /** `write`: apply the safe fixes to the files; `preview`: only compute them, as diffs. */
  fix?: "write" | "preview";
  /** Standard input standing for the file of this name (`check -`). */
  stdin?: { name: string; text: string };
  /** The caller reads no finding's fix (its report does not show them): none are made (LintOptions.omitFixes), unless the run fixes. */
  omitFixes?: boolean;
  /** The caller reads no finding's data or group: the findings are made without them (LintOptions.omitFindingData), unless the run fixes. */
  omitFindingData?: boolean;
}

/** One app (or set of loose files) checked. */
export interface AppCheck {
  project: Project;
  result: LintResult;
}

export interface CheckOutcome {
  checks: AppCheck[];
  /** Every check's findings in one report, sorted; notes said once. */
  result: Required<LintResult>;
  /** The configs the checks followed, as the reader should see them, or null for none. */
  config: string | null;
  /** Every file the checks read or looked for (what `--output` must not replace, what `--watch` watches). */
  inputs: string[];
  /** The texts the checks read, by absolute path: what code frames show (standard input, fixed texts). */
  texts: Map<string, string>;
  /** With `fix: "preview"`: the fixes as unified diffs, file by file. */
  diffs?: Array<{ file: string; diff: string }>;
}

/** A check of capability files, run once (the CLI) or again and again (an editor, see {@link CheckSession}). */
export function checkCapabilities(request: CheckRequest): Promise<CheckOutcome> {
  // Nothing runs again: the state of every input on disk (a stat of each) is not worth taking.
  return new CheckSession({ once: true }).run(request);
}

interface PlannedCheck {
  load: LoadOptions;
  lint: LintOptions;
  check: AppCheck;
}

/**
 * Checks that remember: the settings, the plan and each app's loaded model of the last run. A run
 * told which files changed since the last one reloads only the capability files and scans the frontend
 * again (parsing only its changed modules) when nothing else changed (the catalog, Cargo files and app
 * config stay), and re-lints only the apps they belong to.
 */
export class CheckSession {
  /** `once`: the session runs one check, so it keeps nothing for a next one. */
  constructor(private readonly options: { once?: boolean } = {}) {}

  private last:
    | {
        request: string;
        planned: PlannedCheck[];
        config: string | null;
        configFiles: string[];
        disk: Map<string, string>;
      }
    | undefined;

  /** What each app's last lint ran again and what it kept (a session's lints keep a memo; see lint-memo.ts). */
  lintWork(): LintWork[] {
    return (this.last?.planned ?? []).flatMap(({ lint }) => (lint.memo ? [lint.memo.work] : []));
  }

  /**
   * Runs a check. `changed`: the absolute paths changed since the last run of the same request (an
   * editor's edits); undefined when anything may have changed, which loads everything again.
   */
  async run(request: CheckRequest, changed?: ReadonlySet<string>): Promise<CheckOutcome> {
    const key = requestKey(request);
    const last = this.last;
    this.last = undefined;
    if (
      last &&
      last.request === key &&
      changed &&
      onlyReloadableFiles(last.planned, changed) &&
      unchangedOnDisk(last.disk)
    ) {
      const planned: PlannedCheck[] = [];
      for (const previous of last.planned) {
        const before = previous.check.project;
        if (
          !before.documents.some((document) => changed.has(document.absolutePath)) &&
          !(before.frontend && [...changed].some(isFrontendFile))
        ) {
          planned.push(previous);
          continue;
        }
        const project = await reloadCapabilityFiles(previous.check.project);
        planned.push({
          ...previous,
          check: { project, result: await lint(project, previous.lint) },
        });
      }
      this.last = { ...last, planned };
      return outcomeOf(
        planned.map((p) => p.check),
        last.config,
        last.configFiles,
      );
    }
    const { planned, config, configFiles, diffs } = await checkAll(request, !this.options.once);
    const outcome = outcomeOf(
      planned.map((p) => p.check),
      config,
      configFiles,
    );
    if (request.fix === undefined && !this.options.once)
      this.last = { request: key, planned, config, configFiles, disk: diskState(outcome, planned) };
    return diffs ? { ...outcome, diffs } : outcome;
  }
}

/**
 * What the disk held of every input but the capability files (which a reload reads anyway): a file
 * changed behind the caller's back (a config written by a tool, a Cargo.lock after a build) makes the
 * next run load everything again.
 */
function diskState(outcome: CheckOutcome, planned: readonly PlannedCheck[]): Map<string, string> {
  const reread = new Set(
    planned.flatMap(({ check }) => [
      ...check.project.documents.map((document) => document.absolutePath),
      ...(check.project.frontend?.files ?? []),
    ]),
  );
  return new Map(
    outcome.inputs.filter((file) => !reread.has(file)).map((file) => [file, signature(file)]),
  );
}

function unchangedOnDisk(state: ReadonlyMap<string, string>): boolean {
  for (const [file, known] of state) if (signature(file) !== known) return false;
  return true;
}

function signature(file: string): string {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : "missing";
}

/** A request as a key: a run with other inputs or options starts over. */
function requestKey(request: CheckRequest): string {
  const { rules: _rules, env, stdin, ...rest } = request;
  return JSON.stringify([rest, env, stdin ?? null]);
}

/**
 * Whether a reload can take every change: each changed path is a capability file of some check, or a
 * frontend module of an app whose frontend was scanned (the reload scans it again, parsing only the
 * modules whose text changed), and no other input (manifest, permission file, config).
 */
function onlyReloadableFiles(
  planned: readonly PlannedCheck[],
  changed: ReadonlySet<string>,
): boolean {
  const scanned = planned.some(({ check }) => check.project.frontend !== undefined);
  const capabilityFiles = new Set<string>();
  const otherInputs = new Set<string>();
  for (const { check } of planned) {
    for (const document of check.project.documents) capabilityFiles.add(document.absolutePath);
    for (const document of [
      ...check.project.manifestDocuments,
      ...check.project.permissionDocuments,
      ...configDocuments(check.project.config),
    ])
      otherInputs.add(document.absolutePath);
  }
  return [...changed].every(
    (file) =>
      (capabilityFiles.has(file) || (scanned && isFrontendFile(file))) && !otherInputs.has(file),
  );
}

/** `remember`: the run is a session's, whose next runs re-lint only what changed (each app's lint keeps a memo). */
async function checkAll(
  request: CheckRequest,
  remember = false,
): Promise<{
  planned: PlannedCheck[];
  config: string | null;
  configFiles: string[];
  diffs?: Array<{ file: string; diff: string }>;
}> {
  const { cwd, env, stdin } = request;
  const settings = await capabilitySettings(request, cwd, request.rules);
  let loadOptions = loadOptionsFrom(
    stdin ? request.paths.map((p) => (p === "-" ? stdin.name : p)) : request.paths,
    request,
    cwd,
    env,
  );
  if (stdin) loadOptions.sourceOverrides = new Map([[path.resolve(cwd, stdin.name), stdin.text]]);
  loadOptions = applyConfig(loadOptions, settings);
  const lintOptions = {
    ...lintSettings(settings, CAPABILITY_RULES),
    ...(request.platforms?.length ? { platforms: request.platforms } : {}),
    ...(request.omitFixes === true && request.fix === undefined ? { omitFixes: true } : {}),
    ...(request.omitFindingData === true && request.fix === undefined
      ? { omitFindingData: true }
      : {}),
  };
  // Each app is checked in its own context (a monorepo root, a file list spanning apps); the
  // findings of every run form one report.
  const runs = await planCheckRuns(withFrontendScan(loadOptions, lintOptions.only));
  const planned: PlannedCheck[] = [];
  let diffs: Array<{ file: string; diff: string }> | undefined;
  // Without --config, an app below the working directory (a monorepo root, files of several apps)
  // follows its own caplint.config.json when it has one, as a run from its folder would.
  const configLabels = new Set(settings.configLabel === undefined ? [] : [settings.configLabel]);
  const configFiles = settings.config?.file ? [settings.config.file] : [];
  for (const run of runs) {
    let runSettings = settings;
    if (run.app !== undefined && request.config === undefined) {
      const own = await capabilitySettings({ ...request, app: run.app }, cwd, request.rules);
      if (own.config?.file !== settings.config?.file) {
        runSettings = own;
        run.load = withFrontendScan(
          applyConfig(run.load, own),
          lintSettings(own, CAPABILITY_RULES).only,
        );
        if (own.config?.file) configFiles.push(own.config.file);
      }
    }
    if (runSettings.configLabel !== undefined) configLabels.add(runSettings.configLabel);
    const base =
      runSettings === settings
        ? lintOptions
        : { ...lintOptions, ...lintSettings(runSettings, CAPABILITY_RULES) };
    const runLint = run.focus ? { ...base, focus: run.focus } : base;
    if (request.fix !== undefined) {
      const { fixProject } = await import("./fix-project.js");
      const outcome = await fixProject(run.load, runLint);
      const check = {
        project: outcome.project,
        result: {
          ...outcome.result,
          notes: [
            ...(outcome.result.notes ?? []),
            ...unfixableNotes(outcome.project, outcome.result),
          ],
        },
      };
      planned.push({ load: run.load, lint: runLint, check });
      if (request.fix === "preview") {
        const { unifiedDiff } = await import("../core/fix/unified-diff.js");
        diffs = [
          ...(diffs ?? []),
          ...[...outcome.changes.values()].map((change) => ({
            file: change.file,
            diff: unifiedDiff(change.file, change.original, change.fixed),
          })),
        ];
      } else {
        await (await import("../core/fix/write-fixes.js")).writeFixes(outcome.changes);
      }
    } else {
      const project = await loadProject(run.load);
      const lintOptions = remember ? { ...runLint, memo: new LintMemo() } : runLint;
      planned.push({
        load: run.load,
        lint: lintOptions,
        check: { project, result: await lint(project, lintOptions) },
      });
    }
  }
  const config = configLabels.size ? [...configLabels].join(", ") : null;
  return { planned, config, configFiles, ...(diffs ? { diffs } : {}) };
}

/** The report of every check together; `configFiles`: the configs read, which are inputs too. */
function outcomeOf(
  checks: AppCheck[],
  config: string | null,
  configFiles: readonly string[],
): CheckOutcome {
  const texts = new Map<string, string>();
  for (const { project } of checks) {
    for (const d of project.documents) texts.set(d.absolutePath, d.text);
    for (const document of configDocuments(project.config))
      texts.set(document.absolutePath, document.text);
  }
  const inputs = [
    ...checks.flatMap(({ project }) => [
      ...readPaths(project.read),
      ...configDocuments(project.config).map((document) => document.absolutePath),
    ]),
    ...configFiles,
    ...checks.flatMap(({ project }) => project.documents.map((d) => d.absolutePath)),
  ];
  return {
    checks,
    result: {
      diagnostics: checks.flatMap((c) => c.result.diagnostics).sort(compareDiagnostics),
      files: checks.reduce((sum, c) => sum + c.result.files, 0),
      notes: [...new Set(checks.flatMap((c) => c.result.notes ?? []))],
    },
    config,
    inputs,
    texts,
  };
}

/**
 * `--fix` says which findings it had to leave in TOML files, where some places have no safe text
 * edit (an entry of an array of tables `[[permissions]]` is a section of its own; a multi-line
 * string is not rewritten), rather than skipping them silently.
 */
function unfixableNotes(project: Project, result: LintResult): string[] {
  const toml = new Set(
    project.documents.filter((d) => d.format === "toml").map((d) => d.absolutePath),
  );
  const left = new Map<string, number>();
  for (const d of result.diagnostics) {
    if (d.fix || !toml.has(d.absolutePath) || !CAPABILITY_RULES_BY_ID.get(d.ruleId)?.fixable)
      continue;
    left.set(d.file, (left.get(d.file) ?? 0) + 1);
  }
  return [...left].map(
    ([file, count]) =>
      `${oneLine(file)}: ${count} fixable ${count === 1 ? "finding was" : "findings were"} left: TOML arrays of tables ([[permissions]]) and multi-line strings have no safe edit; fix by hand`,
  );
}
