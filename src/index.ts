/**
 * caplint's library API (`import { loadProject, lint, format } from "caplint"`).
 * Everything exported here is public; internal modules may change between versions.
 */
import { terminalSafe } from "./core/terminal-text.js";
import { reporterContext } from "./core/reporters/context.js";
import { toolVersion } from "./core/tool.js";
import { runningPlatform } from "./capabilities/model/platform.js";
import { summarize, type Diagnostic } from "./core/diagnostics.js";
import { LOCAL_ORIGIN, resolve, resolveAccess as resolveModelAccess, type AccessResult } from "./capabilities/engine/index.js";
import type { LintResult } from "./capabilities/lint.js";
import type { Project } from "./capabilities/load/project.js";
import { REPORTER_NAMES, loadReporter, type ReporterName } from "./core/reporters/index.js";
import { RULES_BY_ID } from "./registry.js";
import { readForCodeFrame } from "./core/source/read.js";
import { normalizePlatform, OptionError, requireString } from "./capabilities/library-options.js";

export { lint, type LintOptions, type LintResult } from "./capabilities/lint.js";
export { loadProject, type AppConfig, type LoadOptions, type LoadProblem, type Project, type WindowDecl } from "./capabilities/load/project.js";
export { RULES, RULES_BY_ID } from "./registry.js";
export { FatalError, UsageError } from "./core/errors.js";
export type { Rule } from "./capabilities/rules/types.js";
export type { DomainName, RuleCategory, RuleMeta } from "./core/rule.js";
export { summarize } from "./core/diagnostics.js";
export type { Diagnostic, Fix, LintSummary, RuleSetting, Severity } from "./core/diagnostics.js";
export type { JsonPath, Position, Range, TextEdit } from "./core/location.js";
export { TARGETS } from "./capabilities/model/types.js";
export type { Capability, CapabilitySource, PermissionEntry, Target } from "./capabilities/model/types.js";
export { REPORTER_NAMES, type ReporterName } from "./core/reporters/index.js";
export type { AccessResult, AllowedCommand, CommandExplanation, DeniedCommand, Origin } from "./capabilities/engine/index.js";

// Chat event streams (`caplint events`): the streaming validator, its rules, the schema and the types.
export { createEventValidator, type EventDiagnostic, type EventSeverity, type EventSummary, type EventValidator, type EventValidatorOptions } from "./events/validator.js";
export { EVENT_RULES, type EventRuleId, type EventRuleMeta } from "./events/rules.js";
export { eventsJsonSchema } from "./events/schema.js";
export { SERVER_EVENT_TYPES } from "./events/definitions.js";
export type { ClientMessage, GlobalEvent, InboundDataMessage, ServerEvent, ServerEventOf, ServerEventType } from "./events/types.js";

/** The installed caplint's version. */
export const VERSION: string = toolVersion();

export interface FormatOptions {
  /** Folder the diagnostics' file names are relative to (SARIF's %SRCROOT%); usually `project.cwd`. */
  cwd: string;
  /** ANSI colours in `stylish` output; off by default. */
  color?: boolean;
  /** Text of a file for `stylish` code frames; by default the file is read from disk. */
  sourceText?: (absolutePath: string) => string | undefined;
}

/**
 * Renders lint results in one of the CLI's formats (`stylish`, `compact`, `json`, `sarif`,
 * `github`): the same text `caplint check --format <name>` prints.
 */
export async function format(input: LintResult | readonly Diagnostic[], name: ReporterName, options: FormatOptions): Promise<string> {
  if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
    throw new TypeError(`unknown format "${String(name)}": expected one of ${REPORTER_NAMES.join(", ")}`);
  }
  const diagnostics = isLintResult(input) ? input.diagnostics : input;
  const files = isLintResult(input) ? input.files : new Set(diagnostics.map((d) => d.file)).size;
  const reporter = await loadReporter(name);
  // The same terminal-safe layer as the CLI: control characters from files are escaped (JSON keeps the values).
  return terminalSafe(reporter(
    { diagnostics, summary: summarize(diagnostics, files), notes: isLintResult(input) ? (input.notes ?? []) : [] },
    await reporterContext({ cwd: options.cwd, color: options.color ?? false, isTTY: false, env: {}, rules: RULES_BY_ID, sourceText: options.sourceText ?? readForCodeFrame }),
  ));
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
  if (typeof question?.window !== "string") throw new OptionError(`window: expected a window label, got ${JSON.stringify(question?.window) ?? "nothing"}`);
  for (const name of ["webview", "url", "command"] as const) requireString(name, question[name]);
  const platform = question.platform === undefined ? runningPlatform() : normalizePlatform("platform", question.platform);
  const model = resolve({ capabilities: project.activeCapabilities, catalog: project.catalog, platform });
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
