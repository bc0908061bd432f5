/**
 * What the frontend rules share: the judgement of the frontend's calls (computed once per run), and
 * how a call, its windows and the fix are worded.
 */
import { wordList } from "../../../core/did-you-mean.js";
import type { Range } from "../../../core/location.js";
import { TARGETS } from "../../model/types.js";
import {
  frontendAccess,
  hasFrontend,
  type CallJudgement,
  type FrontendAccess,
} from "../../queries/frontend-access.js";
import type { FrontendCall } from "../../frontend/scan.js";
import type { Capability } from "../../model/types.js";
import type { SourceDocument } from "../../../core/source/document.js";
import type { RuleContext } from "../types.js";
import type { AppBuild } from "../../load/build.js";
import { parseCommandName } from "../../engine/command-name.js";

const judged = new WeakMap<object, FrontendAccess>();

/** The frontend's calls judged against this run's resolution; undefined when the frontend was not scanned. */
export async function judgedFrontend(context: RuleContext): Promise<FrontendAccess | undefined> {
  const project = context.project;
  if (!hasFrontend(project)) return undefined;
  const resolution = await context.resolution();
  let access = judged.get(resolution);
  if (!access) judged.set(resolution, (access = frontendAccess(project, resolution)));
  return access;
}

/** The place of a call in its file, for `report({ span })`. */
export function callSpan(call: FrontendCall): { range: Range; offset: number; length: number } {
  return {
    range: {
      start: { line: call.line, column: call.column },
      end: { line: call.endLine, column: call.endColumn },
    },
    offset: call.start,
    length: call.end - call.start,
  };
}

/** `invoke("save_note")`, `Window.setTitle()`, `data-tauri-drag-region`: the call as the code writes it. */
export function callText(call: FrontendCall): string {
  if (call.trigger) return call.trigger;
  const name = call.member.replace("#", ".");
  return call.argument !== undefined && call.member === "invoke"
    ? `invoke(${JSON.stringify(call.argument)})`
    : `${name}()`;
}

/** `window "main"`, `windows "main" and "settings"`, or every local window when the page is not known. */
export function windowsText(windows: readonly string[]): string {
  if (windows.length === 1 && windows[0] === "*") return "every window";
  const quoted = windows.map((window) => `"${window}"`);
  return `${windows.length === 1 ? "window" : "windows"} ${wordList(quoted)}`;
}

/** Why the host refuses a call, in the words findings and the editor's hover use. */
export function refusalReason(verdict: string): string {
  return verdict === "denied"
    ? "a capability denies it (a deny applies to every window)"
    : verdict === "not-allowed-here"
      ? "it is granted to other windows only"
      : "no capability grants it";
}

/** ` on macOS and iOS`, or nothing when every platform resolved (one when none differs) refuses it. */
export function platformsText(platforms: readonly string[], resolved: readonly string[]): string {
  return resolved.every((platform) => platforms.includes(platform))
    ? ""
    : ` on ${wordList(TARGETS.filter((target) => platforms.includes(target)))}`;
}

/**
 * The fix in the capability file's own syntax: the entry to add (a string, or an object with a scope
 * placeholder when the plugin takes a scope) and where.
 */
export function addPermissionHint(
  judgement: CallJudgement,
  permission: string,
  document: SourceDocument | undefined,
  capability: Capability | undefined,
): string {
  const entry = permissionEntryText(
    judgement,
    permission,
    capability?.source.absolutePath.endsWith(".toml") ?? false,
  );
  if (!capability) {
    const windows = judgement.refusals
      .map((refusal) => refusal.window)
      .filter((window) => window !== "*");
    return `add ${entry} to a capability for ${windows.length ? wordList(windows.map((w) => `"${w}"`)) : "the windows that load this page"} (no local capability covers ${windows.length === 1 ? "it" : "them"})`;
  }
  const where = document?.locate([...capability.source.path, "permissions"]).range.start.line;
  return `add ${entry} to "permissions" of capability "${capability.identifier}" in ${capability.source.file}${where ? `:${where}` : ""}`;
}

/**
 * The permission entry to add for a refused call, in JSON or TOML: the identifier, or an object with a
 * scope shaped by the plugin's scope (the call's literal argument, else a placeholder) when it takes one.
 * The same text the hint shows and the language server's quick fix writes.
 */
export function permissionEntryText(
  judgement: CallJudgement,
  permission: string,
  toml: boolean,
): string {
  const scopeKey = judgement.scoped ? scopeKeyOf(judgement.key) : undefined;
  if (scopeKey === undefined) return JSON.stringify(permission);
  const value =
    judgement.call.argument !== undefined && judgement.call.member !== "invoke"
      ? judgement.call.argument
      : `<${scopeKey}>`;
  return toml
    ? `{ identifier = ${JSON.stringify(permission)}, allow = [{ ${scopeKey} = ${JSON.stringify(value)} }] }`
    : `{ "identifier": ${JSON.stringify(permission)}, "allow": [{ "${scopeKey}": ${JSON.stringify(value)} }] }`;
}

/** The field a scope entry of the plugin names: fs and opener paths, http URLs, shell programs. */
function scopeKeyOf(key: string | undefined): string | undefined {
  switch (key) {
    case "fs":
    case "asset":
      return "path";
    case "http":
    case "opener":
      return "url";
    case "shell":
      return "name";
    default:
      return undefined;
  }
}

/** The plugin key of an official JS package (`@tauri-apps/plugin-fs` → `fs`), `core` for `@tauri-apps/api`. */
export function pluginOfSpecifier(specifier: string): string | undefined {
  if (specifier.startsWith("@tauri-apps/api")) return "core";
  const match = /^@tauri-apps\/plugin-([a-z0-9-]+)/.exec(specifier);
  return match?.[1];
}

/**
 * The permission entries no reachable call uses, with why a grant cannot be judged: unresolved calls
 * that could use it (a command named at run time could be any), a third-party plugin whose JS was not
 * analysed. Only entries that grant commands, of local capabilities covering a window that loads the
 * frontend, are judged.
 */
export function unusedEntries(
  access: FrontendAccess,
  isOfficial: (plugin: string) => boolean,
): Array<FrontendAccess["entries"][number]> {
  // A command named at run time could be any command; a third-party package's calls were not read.
  const anyCommand = access.scan.unresolved.some(
    (call) => call.member === "invoke" || pluginOfSpecifier(call.specifier) === undefined,
  );
  // Not one call found in a frontend that has files: the entry points were most likely missed (RouteVN's
  // custom framework loads its Tauri code from a setup file no page names), so "unused" would be a guess.
  if (access.scan.calls.length === 0 && access.scan.unresolved.length === 0) return [];
  if (anyCommand || access.scan.thirdPartyPlugins.length > 0) return [];
  const unresolvedPlugins = new Set(
    access.scan.unresolved.map((call) => pluginOfSpecifier(call.specifier)),
  );
  return access.entries.filter(({ entry, used, granted }) => {
    if (granted.length === 0 || used.length > 0) return false;
    const key = entry.identifier.includes(":")
      ? entry.identifier.slice(0, entry.identifier.lastIndexOf(":"))
      : "__app__";
    const plugin = key.startsWith("core") ? "core" : key;
    if (unresolvedPlugins.has(plugin)) return false;
    // A third-party plugin's JS package was not read: its calls are not known.
    const official =
      plugin === "core" ||
      plugin === "__app__" ||
      granted.every(
        (command) =>
          !command.startsWith("plugin:") ||
          isOfficial(command.slice("plugin:".length, command.indexOf("|"))),
      );
    return official;
  });
}

/**
 * The platforms among `targets` whose build lacks the official plugin a command belongs to: there the
 * call fails with "plugin not found" (frontend-calls-unregistered-plugin says so), not with "not
 * allowed". Core commands, app commands and third-party plugins are never missing.
 */
export function pluginMissingOn(
  build: AppBuild | undefined,
  judgement: Pick<CallJudgement, "command" | "key">,
  targets: readonly string[],
  isOfficial: (plugin: string) => boolean,
): string[] {
  if (!build) return [];
  const plugin = parseCommandName(judgement.command).plugin;
  if (plugin === undefined || judgement.key?.startsWith("core") || !isOfficial(plugin)) return [];
  const entry = build.plugins.get(plugin);
  return targets.filter(
    (target) => !entry || entry.presence[target as keyof typeof entry.presence] === "no",
  );
}

/**
 * `core:default` and `core:<module>:default`: what every app template grants. They hold read-only
 * getters (`is_maximized`, `version`, `resolve_directory`) and the event channel, which the JS
 * packages use on their own (a `Window` listens to its events through `plugin:event|listen`; the
 * host's scripts close resources): a finding on them is noise on every app and narrowing them removes
 * no exposure worth the risk of breaking code the scan cannot see.
 */
export function isCoreDefaultSet(identifier: string): boolean {
  return identifier === "core:default" || /^core:[a-z-]+:default$/.test(identifier);
}
