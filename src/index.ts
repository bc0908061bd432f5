/**
 * caplint's library API (`import { loadProject, lint, format } from "caplint"`).
 * Everything exported here is public; internal modules may change between versions.
 */
import { terminalSafe } from "./core/terminal-text.js";
import { reporterContext } from "./core/reporters/context.js";
import { toolVersion } from "./core/tool.js";
import { runningPlatform } from "./capabilities/model/platform.js";
import { summarize, type Diagnostic } from "./core/diagnostics.js";
import {
  LOCAL_ORIGIN,
  resolve,
  resolveAccess as resolveModelAccess,
  type AccessResult,
} from "./capabilities/engine/index.js";
import {
  lint as lintCapabilities,
  type LintOptions,
  type LintResult,
} from "./capabilities/lint.js";
import {
  loadProject as loadCapabilityProject,
  type LoadOptions,
  type Project,
} from "./capabilities/load/project.js";
import { applyConfig, lintSettings, withFrontendScan } from "./capabilities/check-run.js";
import { CAPABILITY_RULES } from "./capabilities/rules/index.js";
import { loadSettings as loadRunSettings, type Settings } from "./core/settings.js";
import { REPORTER_NAMES, loadReporter, type ReporterName } from "./core/reporters/index.js";
import { RULES_BY_ID, type DomainName } from "./registry.js";
import { readForCodeFrame } from "./core/source/read.js";
import {
  normalizePlatform,
  OptionError,
  requireString,
  requireStringList,
} from "./capabilities/library-options.js";
import path from "node:path";

export type { LintOptions, LintResult } from "./capabilities/lint.js";
export type { LoadOptions, LoadProblem, Project } from "./capabilities/load/project.js";
export type { AppConfig, WindowDecl } from "./capabilities/load/app-config.js";
export type { Settings } from "./core/settings.js";
export { RULES, RULES_BY_ID } from "./registry.js";
export { FatalError, UsageError } from "./core/errors.js";
export type { Rule } from "./capabilities/rules/types.js";
export type { RuleCategory, RuleMeta } from "./core/lint/rule.js";
export type { DomainName } from "./registry.js";
export { summarize } from "./core/diagnostics.js";
export type { Diagnostic, Fix, LintSummary, RuleSetting, Severity } from "./core/diagnostics.js";
export type { JsonPath, Position, Range, TextEdit } from "./core/location.js";
export { TARGETS } from "./capabilities/model/types.js";
export type {
  Capability,
  CapabilitySource,
  PermissionEntry,
  Target,
} from "./capabilities/model/types.js";
export { REPORTER_NAMES, type ReporterName } from "./core/reporters/index.js";
export type {
  AccessResult,
  AllowedCommand,
  CommandExplanation,
  DeniedCommand,
  Origin,
} from "./capabilities/engine/index.js";

// Chat event streams (`caplint events`): the streaming validator, its rules, the schema and the types.
export {
  createEventValidator,
  type EventDiagnostic,
  type EventSeverity,
  type EventSummary,
  type EventValidator,
  type EventValidatorOptions,
} from "./events/validator.js";
export { EVENT_RULES, type EventRuleId, type EventRuleMeta } from "./events/rules/index.js";
export { eventsJsonSchema } from "./events/schema.js";
export { SERVER_EVENT_TYPES } from "./events/definitions.js";
export type {
  ClientMessage,
  GlobalEvent,
  InboundDataMessage,
  ServerEvent,
  ServerEventOf,
  ServerEventType,
} from "./events/types.js";

/** The installed caplint's version. */
export const VERSION: string = toolVersion();

/**
 * A caplint configuration as `caplint.config.json` holds it: a path to such a file (relative to the
 * `cwd` it is used with) or the same object in memory. Checked as the CLI checks the file (unknown
 * rule ids and fields throw a `UsageError` with a did-you-mean); paths inside are relative to the
 * file, or to `cwd` for an object.
 */
export type ConfigInput = string | Record<string, unknown>;

export interface SettingsOptions {
  /** Absolute folder: where `config` paths resolve and where the search starts when `config` is `"auto"`. */
  cwd: string;
  /** The config to use; `"auto"` searches `caplint.config.json` upward from `cwd` to the repository root, as the CLI does. */
  // "auto" is a string too, named for the reader and the editor's completion.
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
  config?: ConfigInput | "auto";
  /** The domain whose rules `rule` and `only` name (default `capabilities`). */
  domain?: DomainName;
  /** Like `--rule`: `["unknown-field=off"]`. */
  rule?: readonly string[];
  /** Like `--only`: rule ids. */
  only?: readonly string[];
}

/**
 * The settings the CLI builds for a run (config, `--rule`, `--only`): pass them to {@link lint} and
 * {@link loadProject} as `settings`, so a library run judges exactly as `caplint check` does.
 */
export async function loadSettings(options: SettingsOptions): Promise<Settings> {
  if (typeof options?.cwd !== "string" || !path.isAbsolute(options.cwd))
    throw new OptionError(
      `cwd: expected an absolute folder path, got ${JSON.stringify(options?.cwd) ?? "nothing"}`,
    );
  const config = options.config;
  if (
    config !== undefined &&
    typeof config !== "string" &&
    (typeof config !== "object" || config === null || Array.isArray(config))
  ) {
    throw new OptionError(
      `config: expected a file path or a config object, got ${JSON.stringify(config)}`,
    );
  }
  requireStringList("rule", options.rule);
  requireStringList("only", options.only);
  return loadRunSettings({
    rules: RULES_BY_ID,
    domain: options.domain ?? "capabilities",
    cwd: options.cwd,
    ...(config === undefined || config === "auto" ? {} : { config }),
    ...(config === undefined ? { noDiscovery: true } : {}),
    rule: options.rule ?? [],
    only: options.only ?? [],
  });
}

/** Where a library call takes its settings from: ready settings, or a config to load. */
export interface WithSettings {
  /** Settings from {@link loadSettings}; they win over `config`. */
  settings?: Settings;
  /** A config to apply (see {@link ConfigInput}); `"auto"` finds it as the CLI does. */
  // "auto" is a string too, named for the reader and the editor's completion.
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
  config?: ConfigInput | "auto";
}

/**
 * Loads an app or files (see `LoadOptions`). With `settings` or `config`, the config's `manifests`
 * are read and its `app` is the app when neither `paths` nor `app` is given, as in the CLI.
 */
export async function loadProject(options: LoadOptions & WithSettings): Promise<Project> {
  const { settings: given, config, ...load } = options ?? ({} as LoadOptions);
  // `lint` runs every rule unless told otherwise, the frontend's too: the frontend is scanned as `caplint check` scans it.
  if (given === undefined && config === undefined)
    return loadCapabilityProject({ ...load, frontend: load.frontend ?? true });
  const settings = given ?? (await loadSettings({ cwd: load.cwd, config: config! }));
  return loadCapabilityProject(
    withFrontendScan(applyConfig(load, settings), lintSettings(settings, CAPABILITY_RULES).only),
  );
}

/**
 * Lints a loaded project (see `LintOptions`). With `settings` or `config`, severities come from the
 * config's `rules` and `overrides` (an explicit `severityFor` still wins), and rules that are off for
 * every file do not run: the same findings as `caplint check`.
 */
export async function lint(
  project: Project,
  options: LintOptions & WithSettings = {},
): Promise<LintResult> {
  const { settings: given, config, ...rest } = options ?? {};
  if (given === undefined && config === undefined) return lintCapabilities(project, rest);
  const settings = given ?? (await loadSettings({ cwd: project.cwd, config: config! }));
  const configured = lintSettings(settings, CAPABILITY_RULES);
  const severityFor = rest.severityFor;
  return lintCapabilities(project, {
    ...rest,
    severityFor: severityFor
      ? (ruleId, file) => severityFor(ruleId, file) ?? configured.severityFor(ruleId, file)
      : configured.severityFor,
    only: rest.only
      ? new Set([...rest.only].filter((id) => configured.only.has(id)))
      : configured.only,
  });
}

export interface FormatOptions {
  /** Folder the diagnostics' file names are relative to (SARIF's %SRCROOT%); usually `project.cwd`. */
  cwd: string;
  /** ANSI colours in `stylish` output; off by default. */
  color?: boolean;
  /** Text of a file for `stylish` code frames; by default the file is read from disk. */
  sourceText?: (absolutePath: string) => string | undefined;
  /** The config the run used, to print (stylish footer, JSON `summary.config`, SARIF invocation): `settings.configLabel`, or null for none. */
  config?: string | null;
}

/**
 * Renders lint results in one of the CLI's formats (`stylish`, `compact`, `json`, `sarif`,
 * `github`): the same text `caplint check --format <name>` prints.
 */
export async function format(
  input: LintResult | readonly Diagnostic[],
  name: ReporterName,
  options: FormatOptions,
): Promise<string> {
  if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
    throw new TypeError(
      `unknown format "${String(name)}": expected one of ${REPORTER_NAMES.join(", ")}`,
    );
  }
  const diagnostics = isLintResult(input) ? input.diagnostics : input;
  const files = isLintResult(input) ? input.files : new Set(diagnostics.map((d) => d.file)).size;
  const reporter = await loadReporter(name);
  // The same terminal-safe layer as the CLI: control characters from files are escaped (JSON keeps the values).
  return terminalSafe(
    reporter(
      {
        diagnostics,
        summary: summarize(diagnostics, files),
        notes: isLintResult(input) ? (input.notes ?? []) : [],
        ...(options.config === undefined ? {} : { config: options.config }),
      },
      await reporterContext({
        cwd: options.cwd,
        color: options.color ?? false,
        isTTY: false,
        env: {},
        rules: RULES_BY_ID,
        sourceText: options.sourceText ?? readForCodeFrame,
      }),
    ),
  );
}

export interface AccessQuestion {
  /** Label of the window making the call. */
  window: string;
  /** Label of the calling webview; defaults to the window's label (an ordinary webview window). */
  webview?: string;
  /** URL of a remote page making the call; omitted means the app's own (local) pages. */
  url?: string;
  /** `linux`, `macOS`, `windows`, `android` or `iOS`; defaults to the platform this runs on. */
  platform?: string;
  /** Ask about one command only, with an explanation of the answer. */
  command?: string;
}

/**
 * What a window (or webview, or remote page) may call in a loaded project: the commands allowed
 * with their scopes and the capabilities granting them, and the commands denied. Uses the
 * capabilities the build uses (`project.activeCapabilities`) and the project's catalog.
 */
export function resolveAccess(project: Project, question: AccessQuestion): AccessResult {
  if (typeof question?.window !== "string")
    throw new OptionError(
      `window: expected a window label, got ${JSON.stringify(question?.window) ?? "nothing"}`,
    );
  for (const name of ["webview", "url", "command"] as const) requireString(name, question[name]);
  const platform =
    question.platform === undefined
      ? runningPlatform()
      : normalizePlatform("platform", question.platform);
  const model = resolve({
    capabilities: project.activeCapabilities,
    catalog: project.catalog,
    platform,
  });
  return resolveModelAccess(model, {
    window: question.window,
    ...(question.webview === undefined ? {} : { webview: question.webview }),
    origin: question.url === undefined ? LOCAL_ORIGIN : { kind: "remote", url: question.url },
    ...(question.command === undefined ? {} : { command: question.command }),
  });
}

function isLintResult(input: LintResult | readonly Diagnostic[]): input is LintResult {
  return !Array.isArray(input);
}
