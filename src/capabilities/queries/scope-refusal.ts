/**
 * `caplint explain` for the refusals users meet after the ACL's: a plugin that allowed the command
 * but not the path, URL or program it was called with. The texts are the plugins' own, as each
 * release words them (tauri-apps/plugins-workspace, `plugins/<name>/src/error.rs`):
 * - fs: `forbidden path: {path}` (`Error::PathForbidden`, every 2.x release); debug builds of later
 *   releases add `, maybe it is not allowed on the scope for `allow-…` permission in your capability file`;
 * - http: `url not allowed on the configured scope: {url}` (`Error::UrlNotAllowed`);
 * - shell: `program not allowed on the configured shell scope: {program}` (`Error::ProgramNotAllowed`,
 *   for a program no scope entry names or whose arguments fail its validators);
 * - opener (2.2 on): `Not allowed to open path {path}[ with {app}]`, `Not allowed to open url {url}[ with {app}]`;
 * - the asset protocol (the host itself, `protocol/asset.rs`, debug builds' console):
 *   `asset protocol not configured to allow the path: {path}`.
 * The scope each checks is the one the host hands the command (host-acl-semantics §3.4): the command
 * scopes of the grants that match the calling window, then the plugin's global scope.
 */
import type {
  ResolvedModel,
  ResolvedCommand,
  Origin,
  CommandExplanation,
  EntryProvenance,
} from "../engine/index.js";
import { resolveAccess, commandName, qualifiedIdentifier } from "../engine/index.js";
import { labelMatches } from "../engine/match/glob.js";
import { remoteUrlMatches } from "../engine/match/origin.js";
import { escapePathGlob, pathGlobMatches } from "../engine/match/path-glob.js";
import type { Project } from "../load/project.js";
import type { JsonPath } from "../../core/location.js";
import { isPlainObject } from "../../core/json.js";
import {
  expandScopePath,
  homeOfPath,
  isWindowsPath,
  pathWithVariable,
  type PathHome,
} from "./fs-variables.js";
import { nearMissWindowPatterns, smallestPermission, type NearMissWindow } from "./explain.js";
import type { PlatformGroup } from "./platforms.js";

export type ScopePlugin = "fs" | "http" | "shell" | "opener" | "asset";

/** A plugin's scope refusal, read from a pasted text. */
export interface ScopeRefusal {
  plugin: ScopePlugin;
  /** What was refused: a file path, a URL, or the program name given to `Command.create`. */
  subject: string;
  subjectKind: "path" | "url" | "program";
  /** The fs permission a debug build names (`allow-read-text-file`): it tells the command. */
  permission?: string;
  /** opener's `with`: the application asked to open it. */
  with?: string;
  /** The refusal sentence as found. */
  text: string;
}

const LINE_END = String.raw`[^\r\n]*`;
const READERS: ReadonlyArray<[RegExp, (match: RegExpExecArray) => Omit<ScopeRefusal, "text">]> = [
  [
    /forbidden path: ([^\r\n]*?)(?:, maybe it is not allowed on the scope for `([A-Za-z0-9-]+)` permission in your capability file|, maybe it is not allowed on the scope[^\r\n]*|["'`]?\s*$|["'`]?\r?\n)/,
    (m) => ({
      plugin: "fs",
      subjectKind: "path",
      subject: m[1]!,
      ...(m[2] ? { permission: m[2] } : {}),
    }),
  ],
  [
    /url not allowed on the configured scope: (\S+)/,
    (m) => ({ plugin: "http", subjectKind: "url", subject: trimQuoted(m[1]!) }),
  ],
  [
    /program not allowed on the configured shell scope: ([^\r\n]+)/,
    (m) => ({ plugin: "shell", subjectKind: "program", subject: trimQuoted(m[1]!) }),
  ],
  [
    /Not allowed to open url (\S+)(?: with ([^\r\n"'`]+))?/,
    (m) => ({
      plugin: "opener",
      subjectKind: "url",
      subject: trimQuoted(m[1]!),
      ...(m[2] ? { with: m[2].trim() } : {}),
    }),
  ],
  [
    new RegExp(
      String.raw`Not allowed to open path (${LINE_END}?)(?: with ([^\s"'\`]+))?["'\`]?\s*(?:$|\r?\n)`,
      "m",
    ),
    (m) => ({
      plugin: "opener",
      subjectKind: "path",
      subject: m[1]!,
      ...(m[2] ? { with: m[2] } : {}),
    }),
  ],
  [
    /asset protocol not configured to allow the path: ([^\r\n]+)/,
    (m) => ({ plugin: "asset", subjectKind: "path", subject: trimQuoted(m[1]!) }),
  ],
];

/** Quotes and sentence punctuation around a value pasted from a console. */
function trimQuoted(value: string): string {
  return value.trim().replace(/["'`,;)\]]+$/, "");
}

export function parseScopeRefusal(text: string): ScopeRefusal | undefined {
  for (const [pattern, read] of READERS) {
    const match = pattern.exec(text);
    if (match && match[1]) return { ...read(match), text: match[0].trim() };
  }
  return undefined;
}

/** The IPC commands that check this scope, in the order tried. */
export function scopeCommands(refusal: ScopeRefusal, explicit?: string): string[] {
  if (explicit) return [explicit];
  switch (refusal.plugin) {
    case "fs":
      return refusal.permission
        ? [commandName("fs", refusal.permission.replace(/^allow-/, "").replace(/-/g, "_"))]
        : [];
    case "http":
      return ["plugin:http|fetch"];
    case "shell":
      return ["plugin:shell|execute", "plugin:shell|spawn"];
    case "opener":
      return [refusal.subjectKind === "url" ? "plugin:opener|open_url" : "plugin:opener|open_path"];
    case "asset":
      return [];
  }
}

/** One scope entry the plugin read for the call, and what caplint makes of it. */
export interface CheckedEntry {
  list: "allow" | "deny";
  value: unknown;
  /** `command`: a grant's own scope for this window; `global`: the plugin's global scope (every window); `config`: tauri.conf.json. */
  scopeOf: "command" | "global" | "config";
  capability?: string;
  chain?: string[];
  file: string;
  path: JsonPath;
  /** The line of the value in `file`, or of the entry that carries it (a permission's own scope is in its manifest). */
  line: number;
  /** Undefined when caplint cannot decide (a folder variable it cannot place on that platform). */
  matches: boolean | undefined;
  why?: string;
}

export interface ScopeVerdict {
  platforms: string[];
  /** The command the ACL was asked about, and its answer; absent for the asset protocol. */
  command?: string;
  acl?: CommandExplanation;
  checked: CheckedEntry[];
  /** `denied`: a deny matches; `allowed`: an allow matches and no deny; `refused`: no allow matches; `unknown`: some entry could not be judged. */
  scope: "allowed" | "refused" | "denied" | "unknown" | "not-reached";
}

export interface ScopeSuggestion {
  /** The entry to add: a permission entry with the narrowest scope, or (asset protocol) a config value; null when an entry is to be changed instead. */
  entry: unknown;
  /** Where: the capability that grants the command to the window, or the app config. */
  addTo?: { capability?: string; file: string; line: number; field: string };
  reason: string;
  notes: string[];
}

export interface ScopeExplanation {
  refusal: ScopeRefusal;
  window: string;
  webview: string;
  origin: Origin;
  verdicts: ScopeVerdict[];
  suggestion?: ScopeSuggestion;
  nearMissWindows: NearMissWindow[];
  notes: string[];
}

type LineOf = (file: string, path: JsonPath) => number;

export interface ScopeQuery {
  window: string;
  webview: string;
  origin: Origin;
  /** `--command`, for an fs text that names no permission. */
  command?: string;
}

/**
 * The scope the plugin checked for this window, per platform, and the narrowest entry that would let
 * the path, URL or program through.
 */
export function explainScopeRefusal(
  project: Project,
  groups: readonly PlatformGroup[],
  refusal: ScopeRefusal,
  query: ScopeQuery,
  lineOf: LineOf,
): ScopeExplanation {
  const notes: string[] = [];
  const candidates = scopeCommands(refusal, query.command);
  if (refusal.plugin === "fs" && candidates.length === 0)
    notes.push(
      "the message names no permission (a release build, or an fs release before the debug hint): every fs command's scope of this window is read, and the entry proposed goes to the fs plugin's global scope (fs:scope), which every fs command reads",
    );
  const where = refusal.subjectKind === "path" ? homeOfPath(refusal.subject) : undefined;
  const identifier = appIdentifier(project);
  // A path names its platform by its shape: a Linux home path is not looked up on Windows.
  const shapeOf = refusal.subjectKind === "path" ? pathPlatforms(refusal.subject) : undefined;
  const askedShape = shapeOf?.filter((platform) =>
    groups.some((g) => g.platforms.includes(platform)),
  );
  if (shapeOf && askedShape!.length === 0)
    notes.push(
      `the path is a ${shapeOf.join(" or ")} path, and the platforms asked do not include ${shapeOf.length > 1 ? "them" : "it"}: answering for the platforms asked`,
    );
  else if (shapeOf)
    notes.push(
      `the path is a ${askedShape!.join(" or ")} path: answering for ${askedShape!.length > 1 ? "those platforms" : "that platform"}`,
    );
  const verdicts: ScopeVerdict[] = [];
  for (const group of groups) {
    for (const platform of group.platforms) {
      if (askedShape?.length && !askedShape.includes(platform)) continue;
      const verdict = verdictOn(
        project,
        group.model,
        platform,
        refusal,
        candidates,
        query,
        where,
        identifier,
        lineOf,
      );
      const key = JSON.stringify({ ...verdict, platforms: [], acl: verdict.acl?.message });
      const same = verdicts.find(
        (v) => JSON.stringify({ ...v, platforms: [], acl: v.acl?.message }) === key,
      );
      if (same) same.platforms.push(platform);
      else verdicts.push(verdict);
    }
  }
  const nearMissWindows = nearMissWindowPatterns(
    project,
    groups,
    query.window,
    query.webview,
    candidates[0],
    lineOf,
  );
  const explanation: ScopeExplanation = { refusal, ...query, verdicts, nearMissWindows, notes };
  // Where the ACL refuses the command everywhere, the ACL's answer (explain's own) carries the entry.
  if (verdicts.some((v) => v.scope !== "allowed" && v.scope !== "not-reached"))
    explanation.suggestion = suggestEntry(
      project,
      refusal,
      verdicts,
      candidates,
      identifier,
      lineOf,
    );
  return explanation;
}

/** The platforms a path can come from, by its shape; undefined when any could. */
function pathPlatforms(path: string): string[] | undefined {
  if (isWindowsPath(path)) return ["windows"];
  const where = homeOfPath(path);
  if (where) return [where.platform];
  if (/^\/(data\/(user|data)|storage\/emulated|sdcard)\//.test(path)) return ["android"];
  if (/^\/(private\/)?var\/mobile\//.test(path)) return ["iOS"];
  return undefined;
}

export function appIdentifier(project: Project): string | undefined {
  const value = project.config?.document.ok ? project.config.document.value : undefined;
  return isPlainObject(value) && typeof value.identifier === "string"
    ? value.identifier
    : undefined;
}

/** `plugins.fs.requireLiteralLeadingDot` as the app's config sets it (a platform config wins on its platform). */
function configuredLeadingDot(project: Project, platform: string): boolean | undefined {
  const documents = [
    ...(project.config?.platformConfigs
      .filter((p) => p.platform === platform)
      .map((p) => p.document) ?? []),
    ...(project.config ? [project.config.document] : []),
  ];
  for (const document of documents) {
    const plugins =
      document.ok && isPlainObject(document.value) ? document.value.plugins : undefined;
    const fs = isPlainObject(plugins) ? plugins.fs : undefined;
    if (isPlainObject(fs) && typeof fs.requireLiteralLeadingDot === "boolean")
      return fs.requireLiteralLeadingDot;
  }
  return undefined;
}

/** The host's default: wildcards skip dot-files everywhere but Windows (`tauri::scope::fs`, `cfg!(unix)`). */
export function defaultLiteralLeadingDot(platform: string): boolean {
  return platform !== "windows";
}

function verdictOn(
  project: Project,
  model: ResolvedModel,
  platform: string,
  refusal: ScopeRefusal,
  candidates: readonly string[],
  query: ScopeQuery,
  where: PathHome | undefined,
  identifier: string | undefined,
  lineOf: LineOf,
): ScopeVerdict {
  const checked: CheckedEntry[] = [];
  const leadingDot =
    refusal.plugin === "fs"
      ? (configuredLeadingDot(project, platform) ?? defaultLiteralLeadingDot(platform))
      : refusal.plugin === "asset"
        ? (assetLeadingDot(project) ?? defaultLiteralLeadingDot(platform))
        : defaultLiteralLeadingDot(platform);
  const judge = (value: unknown) =>
    judgeEntry(refusal, value, { where, identifier, leadingDot, platform });
  if (refusal.plugin === "asset") {
    for (const entry of assetScopeEntries(project))
      checked.push({
        ...entry,
        line: lineOf(entry.file, entry.path),
        scopeOf: "config",
        ...judge(entry.value),
      });
    return { platforms: [platform], checked, scope: scopeOutcome(checked) };
  }
  // The fs text without a permission: every fs command granted here reads its own scope and the global one.
  const commands = candidates.length
    ? candidates
    : [...model.allowed.keys()].filter((command) => command.startsWith("plugin:fs|"));
  let acl: CommandExplanation | undefined;
  let command = commands[0];
  const granted: ResolvedCommand[] = [];
  for (const candidate of commands) {
    const explanation = resolveAccess(model, {
      window: query.window,
      webview: query.webview,
      origin: query.origin,
      command: candidate,
    }).explanation!;
    if (explanation.verdict === "allowed") {
      if (acl?.verdict !== "allowed") {
        acl = explanation;
        command = candidate;
      }
      granted.push(...explanation.grantedBy);
    } else acl ??= explanation;
  }
  const seen = new Set<string>();
  const add = (
    list: "allow" | "deny",
    values: readonly unknown[] | null | undefined,
    scopeOf: "command" | "global",
    provenance: EntryProvenance,
    listPath: JsonPath,
  ) => {
    (values ?? []).forEach((value, index) => {
      const key = `${provenance.file}\0${JSON.stringify(listPath)}\0${list}\0${index}\0${JSON.stringify(value)}`;
      if (seen.has(key)) return;
      seen.add(key);
      const path = [...listPath, list, index];
      checked.push({
        list,
        value,
        scopeOf,
        capability: provenance.capability,
        chain: provenance.chain,
        file: provenance.file,
        path,
        line: lineOf(provenance.file, path),
        ...judge(value),
      });
    });
  };
  for (const entry of granted)
    if (entry.scope)
      for (const list of ["allow", "deny"] as const)
        add(list, entry.scope[list], "command", entry.provenance, entry.provenance.path);
  const key = refusal.plugin;
  for (const contribution of model.globalScope.get(key)?.contributions ?? [])
    for (const list of ["allow", "deny"] as const)
      add(
        list,
        contribution.scope[list],
        "global",
        contribution.provenance,
        contribution.provenance.path,
      );
  const reached = granted.length > 0;
  return {
    platforms: [platform],
    ...(command ? { command } : {}),
    ...(acl ? { acl } : {}),
    checked,
    scope: reached ? scopeOutcome(checked) : "not-reached",
  };
}

function scopeOutcome(checked: readonly CheckedEntry[]): ScopeVerdict["scope"] {
  if (checked.some((entry) => entry.list === "deny" && entry.matches === true)) return "denied";
  if (checked.some((entry) => entry.list === "allow" && entry.matches === true)) return "allowed";
  return checked.some((entry) => entry.matches === undefined) ? "unknown" : "refused";
}

interface JudgeContext {
  where: PathHome | undefined;
  identifier: string | undefined;
  leadingDot: boolean;
  platform: string;
}

/** Whether one scope value lets the subject through, and why not when it nearly does. */
function judgeEntry(
  refusal: ScopeRefusal,
  value: unknown,
  context: JudgeContext,
): { matches: boolean | undefined; why?: string } {
  const object = isPlainObject(value) ? value : undefined;
  switch (refusal.subjectKind) {
    case "path": {
      const pattern =
        typeof value === "string"
          ? value
          : typeof object?.path === "string"
            ? object.path
            : undefined;
      if (pattern === undefined) return { matches: false, why: "not a path entry" };
      if (refusal.plugin === "opener" && !applicationMatches(object?.app, refusal.with))
        return { matches: false, why: applicationWhy(refusal.with) };
      return judgePath(pattern, refusal.subject, context);
    }
    case "url": {
      const pattern = typeof object?.url === "string" ? object.url : undefined;
      if (pattern === undefined) return { matches: false, why: "not a url entry" };
      if (refusal.plugin === "opener") {
        if (!applicationMatches(object?.app, refusal.with))
          return { matches: false, why: applicationWhy(refusal.with) };
        // The opener's url scope is a glob over the whole URL (glob::Pattern, default options).
        return { matches: labelMatches(pattern, refusal.subject) };
      }
      return { matches: remoteUrlMatches(pattern, refusal.subject) };
    }
    case "program": {
      const name = typeof object?.name === "string" ? object.name : undefined;
      if (name !== refusal.subject) return { matches: false };
      return {
        matches: false,
        why: `names this program: its arguments failed the entry's ${describeArgs(object?.args)} (a debug build prints which one on the app's console: "Scoped command argument at position …")`,
      };
    }
  }
}

function describeArgs(args: unknown): string {
  if (args === true)
    return "args (any are allowed, so the call's shape was refused: a sidecar flag or an unexpected format)";
  if (args === undefined || args === false) return "args (none allowed: the call passed some)";
  return `args ${JSON.stringify(args)}`;
}

/** opener's `app`: absent = only without `with`; true/false = any or none; a name = that application. */
function applicationMatches(app: unknown, requested: string | undefined): boolean {
  if (app === undefined || app === null || app === "default") return requested === undefined;
  if (typeof app === "boolean") return app;
  return typeof app === "string" && app === requested;
}

function applicationWhy(requested: string | undefined): string {
  return requested === undefined
    ? "its app does not allow the default application"
    : `its app does not allow opening with ${JSON.stringify(requested)}`;
}

function judgePath(
  pattern: string,
  subject: string,
  context: JudgeContext,
): { matches: boolean | undefined; why?: string } {
  const windows = context.where?.platform === "windows" || isWindowsPath(subject);
  const hasVariable = /^(\$[A-Z]+|~)(?=[\\/]|$)/.test(pattern);
  const expanded = hasVariable
    ? context.where
      ? expandScopePath(pattern, context.where, context.identifier)
      : undefined
    : pattern;
  if (expanded === undefined)
    return {
      matches: undefined,
      why: context.where
        ? `caplint cannot place ${/^\S+?(?=[\\/]|$)/.exec(pattern)![0]} on ${context.where.platform}${context.identifier === undefined ? " (tauri.conf.json has no identifier)" : ""}`
        : "the path is not under a user's home folder, so caplint cannot place the variable",
    };
  const subjectPath = windows ? subject.replace(/\\/g, "/") : subject;
  const options = { literalLeadingDot: context.leadingDot, windows };
  if (pathGlobMatches(expanded, subjectPath, options)) return { matches: true };
  if (
    context.leadingDot &&
    pathGlobMatches(expanded, subjectPath, { ...options, literalLeadingDot: false })
  )
    return {
      matches: false,
      why: `its wildcards skip names that start with a dot on ${context.platform} (requireLiteralLeadingDot)`,
    };
  if (pathGlobMatches(expanded, subjectPath, { ...options, literalSeparator: false }))
    return { matches: false, why: "a `*` stays in one folder; `**` reaches into sub-folders" };
  return { matches: false };
}

/** The asset protocol's scope in the app config: `app.security.assetProtocol.scope` (a list, or `{ allow, deny }`). */
function assetScopeEntries(
  project: Project,
): Array<{ list: "allow" | "deny"; value: unknown; file: string; path: JsonPath }> {
  const document = project.config?.document;
  const asset = document?.ok
    ? valueAtPath(document.value, ["app", "security", "assetProtocol"])
    : undefined;
  if (!isPlainObject(asset) || !document) return [];
  const base: JsonPath = ["app", "security", "assetProtocol", "scope"];
  const scope = asset.scope;
  const entries: Array<{ list: "allow" | "deny"; value: unknown; file: string; path: JsonPath }> =
    [];
  const push = (list: "allow" | "deny", values: unknown, path: JsonPath) => {
    if (Array.isArray(values))
      values.forEach((value, index) =>
        entries.push({ list, value, file: document.file, path: [...path, index] }),
      );
  };
  if (Array.isArray(scope)) push("allow", scope, base);
  else if (isPlainObject(scope)) {
    push("allow", scope.allow, [...base, "allow"]);
    push("deny", scope.deny, [...base, "deny"]);
  }
  return entries;
}

function assetLeadingDot(project: Project): boolean | undefined {
  const document = project.config?.document;
  const scope = document?.ok
    ? valueAtPath(document.value, ["app", "security", "assetProtocol", "scope"])
    : undefined;
  return isPlainObject(scope) && typeof scope.requireLiteralLeadingDot === "boolean"
    ? scope.requireLiteralLeadingDot
    : undefined;
}

function assetEnabled(project: Project): boolean {
  const document = project.config?.document;
  return document?.ok
    ? valueAtPath(document.value, ["app", "security", "assetProtocol", "enable"]) === true
    : false;
}

function valueAtPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) current = isPlainObject(current) ? current[key] : undefined;
  return current;
}

/** The narrowest scope value for the subject, in the plugin's own scope syntax. */
export function narrowestScopeValue(
  refusal: ScopeRefusal,
  identifier: string | undefined,
): Record<string, unknown> | string {
  const app = refusal.with === undefined ? {} : { app: refusal.with };
  switch (refusal.plugin) {
    case "fs":
    case "asset":
    case "opener": {
      if (refusal.subjectKind === "url") return { url: escapePathGlob(refusal.subject), ...app };
      const path = escapePathGlob(pathWithVariable(refusal.subject, identifier));
      return refusal.plugin === "asset" ? path : { path, ...app };
    }
    case "http":
      return { url: exactUrlPattern(refusal.subject) };
    case "shell":
      return { name: refusal.subject, cmd: refusal.subject };
  }
}

/**
 * The URL as an http scope pattern that matches it and little else: its origin and path (the plugin
 * widens an unwritten query and fragment to any), URLPattern's special characters escaped. A URL
 * that does not read back as a match gets its origin with `/*` instead.
 */
function exactUrlPattern(subject: string): string {
  let url: URL;
  try {
    url = new URL(subject);
  } catch {
    return subject;
  }
  const escape = (text: string) => text.replace(/[*:(){}+?\\]/g, (c) => `\\${c}`);
  const exact = `${url.protocol}//${escape(url.host)}${escape(url.pathname)}`;
  return remoteUrlMatches(exact, subject) ? exact : `${url.protocol}//${url.host}/*`;
}

function suggestEntry(
  project: Project,
  refusal: ScopeRefusal,
  verdicts: readonly ScopeVerdict[],
  candidates: readonly string[],
  identifier: string | undefined,
  lineOf: LineOf,
): ScopeSuggestion {
  const notes: string[] = [];
  const value = narrowestScopeValue(refusal, identifier);
  const denies = verdicts.flatMap((v) =>
    v.checked.filter((entry) => entry.list === "deny" && entry.matches === true),
  );
  if (denies.length)
    notes.push(
      "a deny entry matches: the plugin refuses whatever the allows say, so narrow or remove that deny first",
    );
  if (refusal.plugin === "asset") {
    const file = project.config?.document.file ?? "src-tauri/tauri.conf.json";
    if (!assetEnabled(project))
      notes.push("the asset protocol also needs app.security.assetProtocol.enable = true");
    return {
      entry: value,
      addTo: {
        file,
        line: lineOf(file, ["app", "security", "assetProtocol"]),
        field: "app.security.assetProtocol.scope",
      },
      reason: "the asset protocol reads only the scope in the app config (no capability grants it)",
      notes: [...notes, ...pathNotes(refusal, value, verdicts)],
    };
  }
  const reached = verdicts.filter((v) => v.scope !== "not-reached");
  const grant = reached.flatMap((v) => v.acl?.grantedBy ?? [])[0];
  const command = reached.find((v) => v.command)?.command ?? candidates[0];
  const manifest = project.catalog.get(refusal.plugin);
  const name = command?.split("|")[1];
  const permission = manifest && name ? smallestPermission(manifest, name) : undefined;
  const identifierOfEntry = permission
    ? qualifiedIdentifier(refusal.plugin, permission.identifier)
    : `${refusal.plugin}:scope`;
  const entry = { identifier: identifierOfEntry, allow: [value] };
  const reason = permission
    ? `"${identifierOfEntry}" with this scope lets ${name} reach ${refusal.subjectKind === "program" ? "this program" : `this ${refusal.subjectKind}`} for the windows of that capability only`
    : `"${refusal.plugin}:scope" adds the ${refusal.subjectKind} to the ${refusal.plugin} plugin's global scope, which every ${refusal.plugin} command of every window reads`;
  const named = verdicts
    .flatMap((v) => v.checked)
    .find(
      (entry) =>
        entry.list === "allow" &&
        refusal.plugin === "shell" &&
        isPlainObject(entry.value) &&
        entry.value.name === refusal.subject,
    );
  if (named) {
    // The shell plugin takes the first entry with the name: a second one would never be read.
    return {
      entry: null,
      addTo: { capability: named.capability!, file: named.file, line: named.line, field: "args" },
      reason: `the scope already names "${refusal.subject}": widen the "args" of that entry so the call's arguments pass (fixed strings must be equal; each { "validator" } is a regex the whole argument must match), or change the call`,
      notes,
    };
  }
  if (refusal.plugin === "shell")
    notes.push(
      `"cmd" is the program the entry runs: put the executable's name or path there if it differs from "${refusal.subject}", and list the arguments the call passes ("args": fixed strings, or { "validator": "<regex>" } for each one that varies)`,
    );
  if (refusal.plugin === "http")
    notes.push(
      "the pattern matches this URL with any query; end it with /* to allow the paths below it too",
    );
  notes.push(...pathNotes(refusal, value, verdicts));
  const suggestion: ScopeSuggestion = { entry, reason, notes };
  if (grant) {
    const permissionsPath = grant.provenance.path.slice(0, -1);
    suggestion.addTo = {
      capability: grant.provenance.capability,
      file: grant.provenance.file,
      line: lineOf(grant.provenance.file, permissionsPath),
      field: "permissions",
    };
  }
  return suggestion;
}

function pathNotes(
  refusal: ScopeRefusal,
  value: unknown,
  verdicts: readonly ScopeVerdict[],
): string[] {
  if (refusal.subjectKind !== "path") return [];
  const notes: string[] = [];
  const written =
    typeof value === "string" ? value : String((value as Record<string, unknown>).path);
  const slash = written.lastIndexOf("/");
  // A folder wildcard would not reach a dot-file where leading dots must be literal: no such advice then.
  const dotted = written.split("/").some((part, index) => index > 0 && part.startsWith("."));
  if (slash > 0 && !dotted)
    notes.push(
      `for every file of that folder (not its sub-folders) write ${written.slice(0, slash)}/*; for the folder and everything below it, ${written.slice(0, slash)}/**`,
    );
  if (
    verdicts.some((v) => v.checked.some((entry) => entry.why?.includes("requireLiteralLeadingDot")))
  ) {
    const option =
      refusal.plugin === "asset"
        ? "app.security.assetProtocol.scope.requireLiteralLeadingDot"
        : "plugins.fs.requireLiteralLeadingDot";
    notes.push(
      `a literal name always matches, dot or not; making the wildcards reach dot-files instead (${option}: false in tauri.conf.json${refusal.plugin === "opener" ? ", which the opener plugin does not read" : ""}) opens every dot-file (SSH keys, shell profiles) under every wildcard of the scope`,
    );
  }
  return notes;
}
