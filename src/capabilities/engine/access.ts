/**
 * Access questions over a resolved model, answered as the host's `RuntimeAuthority` does
 * (host-acl-semantics §3.7–3.9):
 *
 * 1. A command with any deny entry is denied for every window, webview and origin: upstream tests
 *    only whether a deny entry exists (`.is_some()` on the lookup) and never consults its patterns.
 * 2. Otherwise it is allowed when some allow entry's context covers the origin and some webview
 *    pattern matches the webview label or some window pattern matches the window label.
 */
import type { Manifest, PermissionSetDef } from "../catalog/types.js";
import { compileLabelPattern, globMatchingWork } from "./match/glob.js";
import { FatalError } from "../../core/errors.js";
import { LOCAL_ORIGIN, type Origin } from "./match/origin.js";
import { MAX_SET_DEPTH } from "./expand.js";
import {
  compareCodePoints,
  qualifiedIdentifier,
  type ResolvedCommand,
  type ResolvedModel,
  type ScopeLists,
} from "./model.js";
import { catalogKeyOf, parseCommandName } from "./command-name.js";
import { plural } from "../../core/wording.js";
import { describeRelease, REMOTE_APP_COMMANDS_CHECKED_SINCE } from "../catalog/versions.js";

/**
 * Characters the matrix may compare between glob patterns and labels (each pair costs about pattern +
 * label length, `globMatchingWork()`): every pattern meets every label, so 1,000 patterns of 1,000
 * characters against 1,000 such labels took 47 s. Real apps compare a few thousand characters.
 */
const MAX_MATRIX_MATCHING_WORK = 50_000_000;

export interface AccessQuery {
  window: string;
  /** The calling webview; in an ordinary webview window it has the window's label, the default. */
  webview?: string;
  /** Defaults to the app's own (local) origin. */
  origin?: Origin;
  /** Restricts the answer to one command and adds an explanation. */
  command?: string;
}

export interface AllowedCommand {
  command: string;
  /** Allow entries that match this window/webview and origin. */
  grantedBy: ResolvedCommand[];
  /** The command scope the host hands the command: allow and deny lists of all granting entries, concatenated. */
  scope: ScopeLists;
  /** The plugin's global scope, shared by every window, when it has one. */
  globalScope?: ScopeLists;
}

export interface DeniedCommand {
  command: string;
  deniedBy: ResolvedCommand[];
  /** Allow entries that would grant the command here if it were not denied. */
  overriddenGrants: ResolvedCommand[];
}

/** `unchecked`: the host lets the call through without looking at the ACL (an app command from local pages when the app defines no permissions). */
export type Verdict = "allowed" | "unchecked" | "denied" | "not-allowed-here" | "not-granted";

export interface CommandExplanation {
  command: string;
  /** How the host's messages name it: `window.close`, `fs.read_file`, or the bare app command. */
  displayName: string;
  /** Manifest key of the command's plugin (`core:window`, `fs`, `__app-acl__`), when the catalog has it. */
  key?: string;
  verdict: Verdict;
  /** Matching allow entries (for `denied`, the ones the deny overrides). */
  grantedBy: ResolvedCommand[];
  deniedBy: ResolvedCommand[];
  /** Every allow entry of the command, whatever window or origin it covers. */
  allowEntries: ResolvedCommand[];
  /** Catalog permissions that enable the command, for `not-granted`. */
  associatedPermissions: string[];
  pluginFound: boolean;
  /**
   * Whether the host checks this command at all: plugin commands always; app commands only when the
   * app defines permissions, or (from tauri 2.11.1, the release the app locks) when called from a remote origin.
   */
  enforced: boolean;
  /** `allowed on: [windows: "main-*", URL: local], …`, the host's summary of `allowEntries`. */
  allowedOn: string;
  /** `capability: X, permission: Y || …` for the entries behind the verdict. */
  referencedBy: string;
  /** The host's debug-build error text for this call (for `allowed`, a sentence in the same style). */
  message: string;
}

export interface AccessResult {
  window: string;
  webview: string;
  origin: Origin;
  /** Identifiers of the active capabilities that cover this webview and origin. */
  capabilities: string[];
  allowed: AllowedCommand[];
  /** Commands denied here; denies are global, so this is every denied command. */
  denied: DeniedCommand[];
  explanation?: CommandExplanation;
}

/** Per-capability answers for one (window, webview, origin), computed once and reused per entry. */
class CoverageIndex {
  private readonly labels: boolean[];
  private readonly contexts: boolean[][];

  constructor(model: ResolvedModel, window: string, webview: string, origin: Origin) {
    this.labels = model.capabilities.map((capability) => capability.matchesLabels(window, webview));
    this.contexts = model.capabilities.map((capability) =>
      capability.contexts.map((_, i) => capability.contextMatches(i, origin)),
    );
  }

  covers(entry: ResolvedCommand): boolean {
    return (
      this.labels[entry.capabilityIndex] === true &&
      this.contexts[entry.capabilityIndex]?.[entry.contextIndex] === true
    );
  }

  coversCapability(index: number): boolean {
    return this.labels[index] === true && this.contexts[index]!.some(Boolean);
  }
}

export function resolveAccess(model: ResolvedModel, query: AccessQuery): AccessResult {
  const webview = query.webview ?? query.window;
  const origin = query.origin ?? LOCAL_ORIGIN;
  const coverage = new CoverageIndex(model, query.window, webview, origin);
  const only = query.command === undefined ? undefined : model.catalog.spellCommand(query.command);

  const allowed: AllowedCommand[] = [];
  const denied: DeniedCommand[] = [];
  const commands = only !== undefined ? [only] : sortedCommands(model);
  for (const command of commands) {
    const grants = (model.allowed.get(command) ?? []).filter((entry) => coverage.covers(entry));
    const denies = model.denied.get(command) ?? [];
    if (denies.length > 0) denied.push({ command, deniedBy: denies, overriddenGrants: grants });
    else if (grants.length > 0) allowed.push(allowedCommand(model, command, grants));
  }

  const result: AccessResult = {
    window: query.window,
    webview,
    origin,
    capabilities: model.capabilities
      .filter((c) => coverage.coversCapability(c.index))
      .map((c) => c.capability.identifier),
    allowed,
    denied,
  };
  if (only !== undefined)
    result.explanation = explain(
      model,
      only,
      query.window,
      webview,
      origin,
      allowed[0]?.grantedBy ?? denied[0]?.overriddenGrants ?? [],
    );
  return result;
}

function allowedCommand(
  model: ResolvedModel,
  command: string,
  grants: ResolvedCommand[],
): AllowedCommand {
  const scope: ScopeLists = { allow: [], deny: [] };
  for (const grant of grants) {
    for (const value of grant.scope?.allow ?? []) scope.allow.push(value);
    for (const value of grant.scope?.deny ?? []) scope.deny.push(value);
  }
  const result: AllowedCommand = { command, grantedBy: grants, scope };
  const global = model.globalScope.get(grants[0]!.key);
  if (global) result.globalScope = { allow: global.allow, deny: global.deny };
  return result;
}

function sortedCommands(model: ResolvedModel): string[] {
  return [...new Set([...model.allowed.keys(), ...model.denied.keys()])].sort(compareCodePoints);
}

// ---------------------------------------------------------------------------------------------
// Explanations in the words of the host's debug build (authority.rs, resolve_access_message)

function originText(origin: Origin): string {
  if (origin.kind === "local") return "local";
  try {
    return new URL(origin.url).href;
  } catch {
    return origin.url;
  }
}

/** The host's `Origin` display: `local`, or `remote: <url>`; its deny message prints the origin so. */
function originDisplay(origin: Origin): string {
  return origin.kind === "local" ? "local" : `remote: ${originText(origin)}`;
}

function contextText(entry: ResolvedCommand): string {
  return entry.context.kind === "local" ? "URL: local" : `URL: ${entry.context.url}`;
}

export function formatAllowedOn(entries: readonly ResolvedCommand[]): string {
  if (entries.length === 0) return "command not allowed on any window/webview/URL context";
  const items = entries.map((entry) => {
    let text = "[";
    if (entry.windows.length) text += `windows: ${entry.windows.map((w) => `"${w}"`).join(", ")}, `;
    if (entry.webviews.length)
      text += `webviews: ${entry.webviews.map((w) => `"${w}"`).join(", ")}, `;
    return `${text}${contextText(entry)}]`;
  });
  return `allowed on: ${items.join(", ")}`;
}

export function formatReferences(entries: readonly ResolvedCommand[]): string {
  return entries
    .map((entry) => `capability: ${entry.provenance.capability}, permission: ${entry.permission}`)
    .join(" || ");
}

function explain(
  model: ResolvedModel,
  command: string,
  window: string,
  webview: string,
  origin: Origin,
  grants: ResolvedCommand[],
): CommandExplanation {
  const { plugin, name } = parseCommandName(command);
  const catalog = model.catalog;
  const key = catalogKeyOf(plugin, catalog);
  const manifest = key === undefined ? undefined : catalog.get(key);
  const displayName = plugin === undefined ? name : `${plugin}.${name}`;
  const allowEntries = model.allowed.get(command) ?? [];
  const deniedBy = model.denied.get(command) ?? [];
  const associatedPermissions =
    manifest && key !== undefined ? permissionsEnabling(manifest, key, name) : [];
  const enforced =
    plugin !== undefined ||
    catalog.hasAppPermissions ||
    (origin.kind === "remote" && catalog.checksRemoteAppCommands);

  let verdict: Verdict;
  let message: string;
  let referencedBy: string;
  if (!enforced) {
    verdict = "unchecked";
    referencedBy = formatReferences(grants);
    message =
      origin.kind === "remote"
        ? `${displayName} is not checked by ${catalog.framework}: the app defines no permissions and ${describeRelease(catalog.hostRelease!)} checks app commands from remote pages only from ${REMOTE_APP_COMMANDS_CHECKED_SINCE} on, so the remote page ${originText(origin)} may call its command ${displayName} in any window (the app must register it)`
        : `${displayName} is not checked by ${catalog.framework}: the app defines no permissions, so any window may call its own command ${displayName} from local pages (the app must register it; ${catalog.checksRemoteAppCommands ? "from a remote origin it would be checked" : `at ${describeRelease(catalog.hostRelease!)} remote pages may call it too: ${catalog.framework} checks them from ${REMOTE_APP_COMMANDS_CHECKED_SINCE} on`})`;
  } else if (deniedBy.length > 0) {
    verdict = "denied";
    referencedBy = formatReferences(deniedBy);
    message = `${displayName} explicitly denied on origin ${originDisplay(origin)}\n\nreferenced by: ${referencedBy}`;
  } else if (grants.length > 0) {
    verdict = "allowed";
    referencedBy = formatReferences(grants);
    message = `${displayName} allowed on window "${window}", webview "${webview}", URL: ${originText(origin)}\n\nreferenced by: ${referencedBy}`;
  } else if (allowEntries.length > 0) {
    verdict = "not-allowed-here";
    referencedBy = formatReferences(allowEntries);
    message = `${displayName} not allowed on window "${window}", webview "${webview}", URL: ${originText(origin)}\n\n${formatAllowedOn(allowEntries)}\n\nreferenced by: ${referencedBy}`;
  } else {
    verdict = "not-granted";
    referencedBy = "";
    const detail = !manifest
      ? "Plugin not found"
      : associatedPermissions.length
        ? `Permissions associated with this command: ${associatedPermissions.join(", ")}`
        : "Command not found";
    message = `${displayName} not allowed. ${detail}`;
  }

  const explanation: CommandExplanation = {
    command,
    displayName,
    verdict,
    grantedBy: grants,
    deniedBy,
    allowEntries,
    associatedPermissions,
    pluginFound: manifest !== undefined,
    enforced,
    allowedOn: formatAllowedOn(allowEntries),
    referencedBy,
    message,
  };
  if (key !== undefined) explanation.key = key;
  return explanation;
}

/**
 * Identifiers in `key`'s manifest that enable `command`: the default set, sets and permissions, as
 * the host lists them (same manifest only). Unlike the host, which prints the runtime plugin name,
 * they are qualified with the manifest key so they can be pasted into a capability.
 */
function permissionsEnabling(manifest: Manifest, key: string, command: string): string[] {
  const enabling = new Map<PermissionSetDef, boolean>();
  // Sets nested deeper than the resolver follows enable nothing (and would overflow the stack here).
  const setEnables = (set: PermissionSetDef, depth = 0): boolean => {
    const known = enabling.get(set);
    if (known !== undefined) return known;
    if (depth >= MAX_SET_DEPTH) return false;
    enabling.set(set, false); // a set reached again while being checked adds nothing (and cannot loop)
    let result = false;
    for (const member of set.permissions) {
      if (member === "default")
        result =
          !!manifest.default_permission && setEnables(manifest.default_permission, depth + 1);
      else if (Object.prototype.hasOwnProperty.call(manifest.permission_sets, member))
        result = setEnables(manifest.permission_sets[member]!, depth + 1);
      else if (Object.prototype.hasOwnProperty.call(manifest.permissions, member))
        result = manifest.permissions[member]!.commands.allow.includes(command);
      if (result) break;
    }
    enabling.set(set, result);
    return result;
  };
  const names: string[] = [];
  if (manifest.default_permission && setEnables(manifest.default_permission)) names.push("default");
  for (const set of Object.values(manifest.permission_sets))
    if (setEnables(set)) names.push(set.identifier);
  for (const permission of Object.values(manifest.permissions))
    if (permission.commands.allow.includes(command)) names.push(permission.identifier);
  return names.sort(compareCodePoints).map((name) => qualifiedIdentifier(key, name));
}

// ---------------------------------------------------------------------------------------------
// Who can call a command

export interface WhoCanResult {
  command: string;
  /** Every allow entry: capability, patterns, context and provenance. */
  allowedBy: ResolvedCommand[];
  deniedBy: ResolvedCommand[];
  /** True when any deny exists: then no window can call it, whatever `allowedBy` says. */
  deniedEverywhere: boolean;
}

export function whoCan(model: ResolvedModel, asked: string): WhoCanResult {
  const command = model.catalog.spellCommand(asked);
  const deniedBy = model.denied.get(command) ?? [];
  return {
    command,
    allowedBy: model.allowed.get(command) ?? [],
    deniedBy,
    deniedEverywhere: deniedBy.length > 0,
  };
}

// ---------------------------------------------------------------------------------------------
// Window × command matrix

export type CellState = "granted" | "denied" | "none";

export interface MatrixCell {
  state: CellState;
  /** Allow entries covering the window and origin (for `denied`, the overridden ones). */
  grantedBy: ResolvedCommand[];
  deniedBy: ResolvedCommand[];
}

export interface MatrixRow {
  window: string;
  /** Active capabilities covering the window (as its own webview) and the origin. */
  capabilities: string[];
  /** Commands the window can call. */
  granted: string[];
  /** Commands some capability grants the window but a deny blocks. */
  overridden: string[];
}

/**
 * Which commands each window can call from one origin. Built in time linear in capabilities ×
 * windows (label patterns are tested once per capability and window, never per command) plus
 * bitset unions over the command list; cell provenance is computed on demand.
 */
export class AccessMatrix {
  readonly commands: string[];
  readonly rows: MatrixRow[];
  /** Commands denied everywhere. */
  readonly denied: string[];
  private readonly rowCapabilities: Uint8Array[];
  private readonly contextCoverage: boolean[][];

  constructor(
    private readonly model: ResolvedModel,
    readonly windows: readonly string[],
    readonly origin: Origin,
  ) {
    this.commands = sortedCommands(model);
    const commandIndex = new Map(this.commands.map((command, i) => [command, i]));
    const words = Math.ceil(this.commands.length / 32);
    const deniedBits = new Uint32Array(words);
    this.denied = [];
    for (const [command, entries] of model.denied) {
      if (entries.length === 0) continue;
      const i = commandIndex.get(command)!;
      deniedBits[i >>> 5]! |= 1 << (i & 31);
    }
    for (let i = 0; i < this.commands.length; i++)
      if (deniedBits[i >>> 5]! & (1 << (i & 31))) this.denied.push(this.commands[i]!);

    // What each capability grants from this origin, as a bitset over commands.
    const capabilities = model.capabilities;
    this.contextCoverage = capabilities.map((capability) =>
      capability.contexts.map((_, i) => capability.contextMatches(i, origin)),
    );
    // Every context of a capability has the same commands, so a capability that covers the origin
    // grants the union of its entries' command lists; a list shared by many entries is made into bits once.
    const coversOrigin = this.contextCoverage.map((contexts) => contexts.some(Boolean));
    const grants = new Array<Uint32Array | undefined>(capabilities.length);
    const listBits = new Map<readonly string[], Uint32Array>();
    for (const capability of capabilities) {
      if (!coversOrigin[capability.index]) continue;
      for (const list of model.allowedCommandLists(capability.index)) {
        if (list.length === 0) continue;
        let bits = listBits.get(list);
        if (!bits) {
          bits = new Uint32Array(words);
          for (const command of list) {
            const i = commandIndex.get(command)!;
            bits[i >>> 5]! |= 1 << (i & 31);
          }
          listBits.set(list, bits);
        }
        const granted = (grants[capability.index] ??= new Uint32Array(words));
        for (let w = 0; w < words; w++) granted[w]! |= bits[w]!;
      }
    }
    const granting = capabilities.filter((capability) => grants[capability.index] !== undefined);

    // Capabilities with the same pattern lists share one answer per window: number each distinct
    // (windows, webviews) pair once. A row's label is both window and webview label, so a pair covers
    // it when any of its patterns matches, and each distinct pattern is tested once per window.
    const signatureIds = new Map<string, number>();
    const patternIds = new Map<string, number>();
    const signaturePatterns: Int32Array[] = [];
    const signatures = capabilities.map((capability) => {
      const signature = JSON.stringify([capability.windows, capability.webviews]);
      let id = signatureIds.get(signature);
      if (id === undefined) {
        signatureIds.set(signature, (id = signatureIds.size));
        const ids = [...capability.windows, ...capability.webviews].map((pattern) => {
          let patternId = patternIds.get(pattern);
          if (patternId === undefined) patternIds.set(pattern, (patternId = patternIds.size));
          return patternId;
        });
        signaturePatterns.push(Int32Array.from(ids));
      }
      return id;
    });
    const matchers = [...patternIds.keys()].map((pattern) => compileLabelPattern(pattern));
    const labelResults = new Int8Array(signatureIds.size);
    const patternResults = new Int8Array(patternIds.size);
    const workAtStart = globMatchingWork();
    const coversLabel = (signature: number, label: string): boolean => {
      for (const patternId of signaturePatterns[signature]!) {
        if (patternResults[patternId] === -1) {
          if (globMatchingWork() - workAtStart > MAX_MATRIX_MATCHING_WORK)
            throw new FatalError(
              `comparing ${plural(patternIds.size, "window pattern")} with ${plural(windows.length, "label")} reached the limit of ${MAX_MATRIX_MATCHING_WORK.toLocaleString("en-US")} characters compared (long glob patterns against long labels); ask about fewer windows with --window`,
            );
          const compiled = matchers[patternId]!;
          patternResults[patternId] = compiled.ok && compiled.match(label) ? 1 : 0;
        }
        if (patternResults[patternId] === 1) return true;
      }
      return false;
    };

    this.rowCapabilities = [];
    this.rows = windows.map((window) => {
      labelResults.fill(-1);
      patternResults.fill(-1);
      const covering = new Uint8Array(capabilities.length);
      const rowBits = new Uint32Array(words);
      const names: string[] = [];
      for (const capability of capabilities) {
        const signature = signatures[capability.index]!;
        if (labelResults[signature] === -1)
          labelResults[signature] = coversLabel(signature, window) ? 1 : 0;
        if (labelResults[signature] === 0 || !coversOrigin[capability.index]) continue;
        covering[capability.index] = 1;
        names.push(capability.capability.identifier);
      }
      for (const capability of granting) {
        if (!covering[capability.index]) continue;
        const bits = grants[capability.index]!;
        for (let w = 0; w < words; w++) rowBits[w]! |= bits[w]!;
      }
      const granted: string[] = [];
      const overridden: string[] = [];
      for (let w = 0; w < words; w++) {
        const word = rowBits[w]!;
        if (word === 0) continue;
        for (let bit = 0; bit < 32; bit++) {
          if (!(word & (1 << bit))) continue;
          const command = this.commands[w * 32 + bit]!;
          (deniedBits[w]! & (1 << bit) ? overridden : granted).push(command);
        }
      }
      this.rowCapabilities.push(covering);
      return { window, capabilities: names, granted, overridden };
    });
  }

  /** The state of one cell with the entries behind it; `window` must be one of the matrix's windows. */
  cell(window: string, command: string): MatrixCell {
    const row = this.windows.indexOf(window);
    if (row < 0) throw new RangeError(`window ${JSON.stringify(window)} is not in the matrix`);
    const covering = this.rowCapabilities[row]!;
    const grantedBy = (this.model.allowed.get(command) ?? []).filter(
      (entry) =>
        covering[entry.capabilityIndex] === 1 &&
        this.contextCoverage[entry.capabilityIndex]![entry.contextIndex],
    );
    const deniedBy = this.model.denied.get(command) ?? [];
    const state: CellState =
      deniedBy.length > 0 ? "denied" : grantedBy.length > 0 ? "granted" : "none";
    return { state, grantedBy, deniedBy };
  }

  toJSON() {
    return {
      origin: this.origin,
      windows: this.windows,
      commands: this.commands,
      denied: this.denied,
      rows: this.rows,
    };
  }
}

export function accessMatrix(
  model: ResolvedModel,
  windows: readonly string[],
  origin: Origin = LOCAL_ORIGIN,
): AccessMatrix {
  return new AccessMatrix(model, windows, origin);
}
