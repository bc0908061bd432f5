import type { ResolvedCommand, ResolvedModel } from "../engine/index.js";
import type { GlobalScopeContribution } from "../engine/model.js";
import { labelMatches } from "../engine/match/glob.js";
import { work } from "../work.js";
import { compareStrings } from "../../core/diagnostics.js";
import type { Catalog } from "../catalog/catalog.js";
import type { Spelling } from "../catalog/brand.js";
import { PlatformMerge, type PlatformGroup } from "./platforms.js";

/** One effective grant: a command callable from a context by windows or webviews matching a pattern. */
export interface Grant {
  command: string;
  /** `local` or a remote URL pattern. */
  context: string;
  /** `window` or `webview` pattern. */
  target: "window" | "webview";
  pattern: string;
  /** The allow entries behind it. */
  entries: ResolvedCommand[];
}

export interface AccessDiff {
  /** Granted by the new side and not covered by the old side. */
  added: Grant[];
  /** Granted by the old side and not covered by the new side. */
  removed: Grant[];
}

/**
 * Compares what two resolved models let windows call. A grant of the new side counts as old access
 * when the old side grants the same command in the same context to a pattern that covers it; patterns
 * are compared soundly (a new glob is covered only by the same glob or by a `*`-only glob that matches
 * it as text), so broadening is always reported and equivalent rewrites are not. Denies are global,
 * as at run time: a command denied on one side grants nothing there.
 */
export function diffAccess(oldModel: ResolvedModel, newModel: ResolvedModel): AccessDiff {
  // Both sides in the new side's spelling of the brand word: renaming `host_version` to `tauri_version` grants nothing new.
  const spell = (command: string) => newModel.catalog.spellCommand(command);
  return grantChanges(sideOf(oldModel, spell), sideOf(newModel, spell));
}

function grantChanges(before: Side, after: Side): AccessDiff {
  return {
    added: after.grants.filter(
      (grant) => !before.grantPatterns.get(grantGroup(grant))?.covers(grant.pattern),
    ),
    removed: before.grants.filter(
      (grant) => !after.grantPatterns.get(grantGroup(grant))?.covers(grant.pattern),
    ),
  };
}

// Window and webview patterns are kept apart: `windows: ["x"]` covers child webviews of window x,
// `webviews: ["x"]` covers webviews labelled x in any window; neither implies the other.
const grantGroup = (grant: { command: string; context: string; target: string }) =>
  JSON.stringify([grant.command, grant.context, grant.target]);

/** A grant with the platforms it is new (or gone) on. */
export interface PlatformGrant {
  item: Grant;
  platforms: string[];
  /** For new access: what kind of access it is (see `accessKinds`). */
  kinds?: AccessKind[];
}

/**
 * What new access amounts to, for `diff --fail-on`: a command no window could call before; a remote
 * origin no grant named before; or a wider scope: a command that was callable, now by more windows or
 * webviews or from more pages, or with more of its scope allowed (or less denied).
 */
export const ACCESS_KINDS = ["commands", "origins", "scopes"] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

function accessKinds(grant: Grant, before: Side): AccessKind[] {
  const kinds: AccessKind[] = [];
  if (!before.commands.has(grant.command)) kinds.push("commands");
  if (grant.context !== "local" && !before.contexts.has(grant.context)) kinds.push("origins");
  return kinds.length ? kinds : ["scopes"];
}

/**
 * A scope value newly allowed, or no longer denied: on a command's own scope for the windows or
 * webviews of one grant (`scope: "command"`), or on a plugin's global scope, which every command of
 * that plugin reads in every window (`scope: "global"`, host-acl-semantics §3.4).
 */
export type ScopeChange = CommandScopeChange | GlobalScopeChange;

export interface CommandScopeChange {
  scope: "command";
  command: string;
  /** The manifest key of the permission that carries the value (`fs`, `__app-acl__`). */
  plugin: string;
  change: "allowed" | "no longer denied";
  /** The scope value, as written (JSON). */
  value: unknown;
  /** Who is affected: the grant's context and window or webview pattern. */
  context: string;
  target: "window" | "webview";
  pattern: string;
  /** The entry that allows it (new side) or denied it (old side). */
  entry: ResolvedCommand;
}

export interface GlobalScopeChange {
  scope: "global";
  plugin: string;
  change: "allowed" | "no longer denied";
  value: unknown;
  /** The capability entry that contributes the value: on the new side when allowed, on the old side when no longer denied. */
  contribution: GlobalScopeContribution;
}

/** A scope change with the platforms it holds on. */
export interface PlatformScopeChange {
  item: ScopeChange;
  platforms: string[];
}

/** Where one scope value is attached on one side: per command, context, target and value, the patterns of the entries carrying it. */
type ScopeSites = Map<
  string,
  { patterns: Map<string, { value: unknown; entry: ResolvedCommand }>; cover: CoveringPatterns }
>;

/** What one side grants, indexed once for every comparison: one pass over its allow entries and global scopes. */
interface Side {
  grants: Grant[];
  /** The patterns granted per command, context and target (`grantGroup`). */
  grantPatterns: Map<string, CoveringPatterns>;
  /** Commands granted, and remote origins named by a grant. */
  commands: Set<string>;
  contexts: Set<string>;
  /** Each granted command's window and webview patterns, local and remote apart: who may still call it. */
  callers: Map<string, CallerPatterns>;
  /** Allow and deny values of command scopes, keyed by `siteKey`. */
  allow: ScopeSites;
  deny: ScopeSites;
  /** Manifest keys with at least one granted command: the plugins whose global scope is read at run time. */
  pluginsCalled: Set<string>;
  /** Global scope values by manifest key, canonical JSON → first contribution carrying it. */
  globalAllow: Map<string, Map<string, { value: unknown; contribution: GlobalScopeContribution }>>;
  globalDeny: Map<string, Map<string, { value: unknown; contribution: GlobalScopeContribution }>>;
}

const siteKey = (command: string, context: string, target: string, value: string) =>
  JSON.stringify([command, context, target, value]);
const callerKey = (command: string, context: string) =>
  JSON.stringify([command, context === "local"]);

function sideOf(model: ResolvedModel, spell: (command: string) => string): Side {
  const side: Side = {
    grants: grantsOf(model, spell),
    grantPatterns: new Map(),
    commands: new Set(),
    contexts: new Set(),
    callers: new Map(),
    allow: new Map(),
    deny: new Map(),
    pluginsCalled: new Set(),
    globalAllow: new Map(),
    globalDeny: new Map(),
  };
  for (const grant of side.grants) {
    side.commands.add(grant.command);
    side.contexts.add(grant.context);
    const group = grantGroup(grant);
    let patterns = side.grantPatterns.get(group);
    if (!patterns) side.grantPatterns.set(group, (patterns = new CoveringPatterns()));
    patterns.add(grant.pattern);
    let callers = side.callers.get(callerKey(grant.command, grant.context));
    if (!callers)
      side.callers.set(callerKey(grant.command, grant.context), (callers = new CallerPatterns()));
    callers.add(grant.pattern);
    for (const entry of grant.entries) {
      side.pluginsCalled.add(entry.key);
      for (const kind of ["allow", "deny"] as const) {
        for (const value of entry.scope?.[kind] ?? []) {
          const key = siteKey(grant.command, grant.context, grant.target, canonicalJson(value));
          let sites = side[kind].get(key);
          if (!sites)
            side[kind].set(key, (sites = { patterns: new Map(), cover: new CoveringPatterns() }));
          if (sites.patterns.has(grant.pattern)) continue;
          sites.patterns.set(grant.pattern, { value, entry });
          sites.cover.add(grant.pattern);
        }
      }
    }
  }
  for (const [plugin, global] of model.globalScope) {
    for (const contribution of global.contributions) {
      for (const kind of ["allow", "deny"] as const) {
        const byValue = kind === "allow" ? side.globalAllow : side.globalDeny;
        let values = byValue.get(plugin);
        if (!values)
          byValue.set(
            plugin,
            (values = new Map<string, { value: unknown; contribution: GlobalScopeContribution }>()),
          );
        for (const value of contribution.scope[kind]) {
          const key = canonicalJson(value);
          if (!values.has(key)) values.set(key, { value, contribution });
        }
      }
    }
  }
  return side;
}

/** Whether every label `pattern` matches gets the value from `sites` (the same pattern, or one that covers it). */
function coveredBy(sites: ScopeSites, key: string, pattern: string): boolean {
  return sites.get(key)?.cover.covers(pattern) ?? false;
}

/**
 * Scope values that reach more on the new side, per platform pair, compared as canonical JSON:
 * - on a command's own scope, per grant: a value allowed to windows (or webviews) of a pattern that
 *   the old side did not allow it to (neither on a pattern covering it nor in the plugin's old global
 *   scope), and a value denied to a pattern on the old side that no covering pattern of the new side
 *   denies (nor the new global scope) while the command stays callable there. Per grant and not per
 *   command because the host builds a command's scope from the entries that match the calling window:
 *   a deny moved to another window's capability, or an allow copied to one, widens what a window
 *   reaches although the command as a whole lists the same values.
 * - on a plugin's global scope: a value the new side allows and the old did not, or the old side
 *   denied and the new does not.
 * Only for commands both sides grant (a new command is new access already).
 */
function scopeChanges(before: Side, after: Side): ScopeChange[] {
  const changes: ScopeChange[] = [];
  for (const [key, { patterns }] of after.allow) {
    for (const [pattern, { value, entry }] of patterns) {
      const [command, context, target, canonical] = JSON.parse(key) as [
        string,
        string,
        "window" | "webview",
        string,
      ];
      if (
        !before.commands.has(command) ||
        coveredBy(before.allow, key, pattern) ||
        before.globalAllow.get(entry.key)?.has(canonical)
      )
        continue;
      changes.push({
        scope: "command",
        command,
        plugin: entry.key,
        change: "allowed",
        value,
        context,
        target,
        pattern,
        entry,
      });
    }
  }
  for (const [key, { patterns }] of before.deny) {
    for (const [pattern, { value, entry }] of patterns) {
      const [command, context, target, canonical] = JSON.parse(key) as [
        string,
        string,
        "window" | "webview",
        string,
      ];
      if (
        !after.commands.has(command) ||
        coveredBy(after.deny, key, pattern) ||
        after.globalDeny.get(entry.key)?.has(canonical)
      )
        continue;
      // Windows the old deny applied to that can no longer call the command lost nothing to it.
      const reached =
        after.grantPatterns.get(grantGroup({ command, context, target }))?.covers(pattern) ||
        after.callers.get(callerKey(command, context))?.mayShareCallers(pattern);
      if (!reached) continue;
      changes.push({
        scope: "command",
        command,
        plugin: entry.key,
        change: "no longer denied",
        value,
        context,
        target,
        pattern,
        entry,
      });
    }
  }
  // Global scope is read by the plugin's commands only: with none of them callable on the new side, a
  // wider global scope reaches nothing at run time, and a gate must not fail on it (severity contract).
  // A plugin whose commands become callable is reported for those commands, and for its global scope.
  for (const [plugin, values] of after.globalAllow) {
    if (!after.pluginsCalled.has(plugin)) continue;
    for (const [canonical, { value, contribution }] of values)
      if (!before.globalAllow.get(plugin)?.has(canonical))
        changes.push({ scope: "global", plugin, change: "allowed", value, contribution });
  }
  for (const [plugin, values] of before.globalDeny) {
    if (!after.pluginsCalled.has(plugin)) continue;
    for (const [canonical, { value, contribution }] of values)
      if (!after.globalDeny.get(plugin)?.has(canonical))
        changes.push({ scope: "global", plugin, change: "no longer denied", value, contribution });
  }
  return changes;
}

/**
 * The window and webview patterns that grant one command in local pages (or in remote ones: remote
 * URL patterns are assumed to overlap), for "may a window matched by this pattern still call it?".
 * Window and webview patterns are compared with each other too: a window's only webview carries its
 * label. Glob against glob is judged by their literal ends only (an overlap is assumed unless they
 * disagree). Patterns are indexed by their literal head, so a question looks only at patterns whose
 * head agrees with its own, not at every grant of the command.
 */
class CallerPatterns {
  private readonly known = new Set<string>();
  /** Literal head (up to the first `*`, `?` or `[`) → patterns with that head; a literal is its own head. */
  private readonly byHead = new Map<string, string[]>();
  private readonly globHeadLengths = new Set<number>();
  /** Every head, sorted on first use: the patterns whose head extends a given one are a contiguous run. */
  private sortedHeads: string[] | undefined;

  add(pattern: string): void {
    if (this.known.has(pattern)) return;
    this.known.add(pattern);
    const head = literalHead(pattern);
    const patterns = this.byHead.get(head);
    if (patterns) patterns.push(pattern);
    else this.byHead.set(head, [pattern]);
    if (head !== pattern) this.globHeadLengths.add(head.length);
    this.sortedHeads = undefined;
  }

  mayShareCallers(pattern: string): boolean {
    const head = literalHead(pattern);
    // Patterns whose head is a prefix of this one's: globs that may match what this pattern matches.
    for (const length of this.globHeadLengths) {
      if (length > head.length) continue;
      for (const other of this.byHead.get(head.slice(0, length)) ?? [])
        if (mayOverlap(other, pattern)) return true;
    }
    if (head === pattern) return this.known.has(pattern);
    // This pattern is a glob: patterns whose head extends its head (literals included) may be matched by it.
    const heads = (this.sortedHeads ??= [...this.byHead.keys()].sort());
    for (let i = firstAtLeast(heads, head); i < heads.length && heads[i]!.startsWith(head); i++)
      for (const other of this.byHead.get(heads[i]!)!) if (mayOverlap(other, pattern)) return true;
    return false;
  }
}

const literalHead = (pattern: string) => {
  const wildcard = pattern.search(/[*?[]/);
  return wildcard < 0 ? pattern : pattern.slice(0, wildcard);
};

/** Whether some label may match both patterns: exactly when one is a literal, by their literal ends when both are globs. */
function mayOverlap(a: string, b: string): boolean {
  work.patternComparisons++;
  if (a === b) return true;
  const literal = (glob: string) => !/[*?[]/.test(glob);
  if (literal(b)) return labelMatches(a, b);
  if (literal(a)) return labelMatches(b, a);
  const tail = (glob: string) =>
    glob.slice(Math.max(glob.lastIndexOf("*"), glob.lastIndexOf("?"), glob.lastIndexOf("]")) + 1);
  const [headA, headB, tailA, tailB] = [literalHead(a), literalHead(b), tail(a), tail(b)];
  return (
    (headA.startsWith(headB) || headB.startsWith(headA)) &&
    (tailA.endsWith(tailB) || tailB.endsWith(tailA))
  );
}

/** The index of the first of the sorted `values` not below `value`. */
function firstAtLeast(values: readonly string[], value: string): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * `diffAccess` on every platform both sides were resolved for: a change can grant access on one
 * platform only (a capability with `platforms`), so each grant carries the platforms it is new on.
 */
export function diffAccessOnPlatforms(
  before: readonly PlatformGroup[],
  after: readonly PlatformGroup[],
): { added: PlatformGrant[]; removed: PlatformGrant[]; scopes: PlatformScopeChange[] } {
  const added = new PlatformMerge<Grant>();
  const removed = new PlatformMerge<Grant>();
  const scopes = new PlatformMerge<ScopeChange>();
  const kinds = new Map<string, Set<AccessKind>>();
  // Each group indexed once per spelling of the brand word (both sides are compared in the new side's).
  const sides = new Map<PlatformGroup, Map<Spelling, Side>>();
  const sideFor = (group: PlatformGroup, catalog: Catalog) => {
    let bySpelling = sides.get(group);
    if (!bySpelling) sides.set(group, (bySpelling = new Map<Spelling, Side>()));
    let side = bySpelling.get(catalog.spelling);
    if (!side)
      bySpelling.set(
        catalog.spelling,
        (side = sideOf(group.model, (command) => catalog.spellCommand(command))),
      );
    return side;
  };
  for (const old of before) {
    for (const current of after) {
      const platforms = old.platforms.filter((p) => current.platforms.includes(p));
      if (platforms.length === 0) continue;
      const [oldSide, newSide] = [
        sideFor(old, current.model.catalog),
        sideFor(current, current.model.catalog),
      ];
      const diff = grantChanges(oldSide, newSide);
      for (const grant of diff.added) {
        const key = grantKey(grant);
        added.add(key, grant, platforms);
        const known = kinds.get(key) ?? new Set<AccessKind>();
        for (const kind of accessKinds(grant, oldSide)) known.add(kind);
        kinds.set(key, known);
      }
      for (const grant of diff.removed) removed.add(grantKey(grant), grant, platforms);
      for (const change of scopeChanges(oldSide, newSide))
        scopes.add(scopeKey(change), change, platforms);
    }
  }
  const ordered = (merge: PlatformMerge<Grant>) =>
    merge.values().sort((a, b) => compareStrings(grantKey(a.item), grantKey(b.item)));
  return {
    added: ordered(added).map((grant) => ({
      ...grant,
      kinds: ACCESS_KINDS.filter((kind) => kinds.get(grantKey(grant.item))?.has(kind)),
    })),
    removed: ordered(removed),
    scopes: scopes.values().sort((a, b) => compareStrings(scopeKey(a.item), scopeKey(b.item))),
  };
}

function scopeKey(change: ScopeChange): string {
  const where =
    change.scope === "global"
      ? [change.plugin]
      : [change.command, change.context, change.target, change.pattern];
  return JSON.stringify([change.scope, ...where, change.change, canonicalJson(change.value)]);
}

function grantKey(grant: Grant): string {
  return JSON.stringify([grant.command, grant.context, grant.target, grant.pattern]);
}

function grantsOf(model: ResolvedModel, spell: (command: string) => string): Grant[] {
  const grants = new Map<string, Grant>();
  for (const [name, entries] of model.allowed) {
    if ((model.denied.get(name) ?? []).length > 0) continue;
    const command = spell(name);
    for (const entry of entries) {
      const context = entry.context.kind === "local" ? "local" : entry.context.url;
      for (const [target, patterns] of [
        ["window", entry.windows],
        ["webview", entry.webviews],
      ] as const) {
        for (const pattern of patterns) {
          const key = JSON.stringify([command, context, target, pattern]);
          const grant = grants.get(key) ?? { command, context, target, pattern, entries: [] };
          grant.entries.push(entry);
          grants.set(key, grant);
        }
      }
    }
  }
  return [...grants.values()].sort(
    (a, b) =>
      compareStrings(a.command, b.command) ||
      compareStrings(a.context, b.context) ||
      compareStrings(a.target, b.target) ||
      compareStrings(a.pattern, b.pattern),
  );
}

/**
 * Window or webview patterns, indexed for "does one of them cover this pattern?" (`patternCovers`):
 * the patterns themselves in a set, and the `*`-only globs by their literal head, so that a lookup
 * tries only the globs whose head starts the pattern instead of every pattern of the other side.
 */
class CoveringPatterns {
  private readonly exact = new Set<string>();
  private readonly starGlobsByHead = new Map<string, string[]>();
  private readonly headLengths = new Set<number>();

  add(pattern: string): void {
    if (this.exact.has(pattern)) return;
    this.exact.add(pattern);
    // A literal, or a glob with `?` or a class, covers only itself (see patternCovers).
    if (!pattern.includes("*") || /[?[\]]/.test(pattern)) return;
    const head = pattern.slice(0, pattern.indexOf("*"));
    const globs = this.starGlobsByHead.get(head);
    if (globs) globs.push(pattern);
    else this.starGlobsByHead.set(head, [pattern]);
    this.headLengths.add(head.length);
  }

  covers(pattern: string): boolean {
    if (this.exact.has(pattern)) return true;
    for (const length of this.headLengths) {
      if (length > pattern.length) continue;
      for (const glob of this.starGlobsByHead.get(pattern.slice(0, length)) ?? [])
        if (patternCovers(glob, pattern)) return true;
    }
    return false;
  }
}

/** Whether every label matching `inner` also matches `outer`, judged conservatively. */
function patternCovers(outer: string, inner: string): boolean {
  work.patternComparisons++;
  if (outer === inner) return true;
  if (/[?[\]]/.test(outer)) return false;
  return starGlobMatches(outer, inner);
}

/** `*`-only glob matching in linear time: literal segments found greedily in order. */
function starGlobMatches(glob: string, text: string): boolean {
  const parts = glob.split("*");
  if (parts.length === 1) return glob === text;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!text.startsWith(first) || !text.endsWith(last) || first.length + last.length > text.length)
    return false;
  let position = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, position);
    if (found < 0 || found + part.length > end) return false;
    position = found + part.length;
  }
  return true;
}
