import type { ResolvedCommand, ResolvedModel } from "../engine/index.js";
import type { CommandEntries } from "../engine/model.js";
import { compareStrings } from "../../core/diagnostics.js";
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
  const oldGrants = grantsOf(oldModel, spell);
  const newGrants = grantsOf(newModel, spell);
  return {
    added: newGrants.filter((grant) => !covered(grant, oldGrants)),
    removed: oldGrants.filter((grant) => !covered(grant, newGrants)),
  };
}

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

function accessKinds(grant: Grant, oldGrants: readonly Grant[]): AccessKind[] {
  const kinds: AccessKind[] = [];
  if (!oldGrants.some((old) => old.command === grant.command)) kinds.push("commands");
  if (grant.context !== "local" && !oldGrants.some((old) => old.context === grant.context)) kinds.push("origins");
  return kinds.length ? kinds : ["scopes"];
}

/** A scope value a command newly allows, or no longer denies, on a command both sides grant. */
export interface ScopeChange {
  command: string;
  change: "allowed" | "no longer denied";
  /** The scope value, as written (JSON). */
  value: unknown;
  /** The entry that allows it (new side) or denied it (old side). */
  entry: ResolvedCommand;
}

/** A scope change with the platforms it holds on. */
export interface PlatformScopeChange {
  item: ScopeChange;
  platforms: string[];
}

/**
 * Scope values the new side allows for a command and the old side did not, and values the old side
 * denied and the new side does not: the same command reaching more files, URLs or programs. Only for
 * commands both sides grant (a new command is new access already). Per-entry scopes; a value is
 * compared as canonical JSON.
 */
function scopeChanges(oldModel: ResolvedModel, newModel: ResolvedModel): ScopeChange[] {
  const spell = (command: string) => newModel.catalog.spellCommand(command);
  const values = (entries: CommandEntries, side: "allow" | "deny") => {
    const byCommand = new Map<string, Map<string, { value: unknown; entry: ResolvedCommand }>>();
    for (const [name, list] of entries) {
      const command = spell(name);
      for (const entry of list) {
        for (const value of entry.scope?.[side] ?? []) {
          const known = byCommand.get(command) ?? new Map<string, { value: unknown; entry: ResolvedCommand }>();
          const key = canonicalJson(value);
          if (!known.has(key)) known.set(key, { value, entry });
          byCommand.set(command, known);
        }
      }
    }
    return byCommand;
  };
  const granted = (model: ResolvedModel) => new Set([...model.allowed.keys()].filter((name) => !(model.denied.get(name) ?? []).length).map(spell));
  const both = new Set([...granted(newModel)].filter((command) => granted(oldModel).has(command)));
  const changes: ScopeChange[] = [];
  const oldAllowed = values(oldModel.allowed, "allow");
  for (const [command, allowed] of values(newModel.allowed, "allow")) {
    if (!both.has(command)) continue;
    for (const [key, { value, entry }] of allowed) if (!oldAllowed.get(command)?.has(key)) changes.push({ command, change: "allowed", value, entry });
  }
  const newDenied = values(newModel.allowed, "deny");
  for (const [command, denied] of values(oldModel.allowed, "deny")) {
    if (!both.has(command)) continue;
    for (const [key, { value, entry }] of denied) if (!newDenied.get(command)?.has(key)) changes.push({ command, change: "no longer denied", value, entry });
  }
  return changes;
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
  for (const old of before) {
    for (const current of after) {
      const platforms = old.platforms.filter((p) => current.platforms.includes(p));
      if (platforms.length === 0) continue;
      const diff = diffAccess(old.model, current.model);
      const oldGrants = diff.added.length ? grantsOf(old.model, (command) => current.model.catalog.spellCommand(command)) : [];
      for (const grant of diff.added) {
        const key = grantKey(grant);
        added.add(key, grant, platforms);
        const known = kinds.get(key) ?? new Set<AccessKind>();
        for (const kind of accessKinds(grant, oldGrants)) known.add(kind);
        kinds.set(key, known);
      }
      for (const grant of diff.removed) removed.add(grantKey(grant), grant, platforms);
      for (const change of scopeChanges(old.model, current.model)) scopes.add(scopeKey(change), change, platforms);
    }
  }
  const ordered = (merge: PlatformMerge<Grant>) => merge.values().sort((a, b) => compareStrings(grantKey(a.item), grantKey(b.item)));
  return {
    added: ordered(added).map((grant) => ({ ...grant, kinds: ACCESS_KINDS.filter((kind) => kinds.get(grantKey(grant.item))?.has(kind)) })),
    removed: ordered(removed),
    scopes: scopes.values().sort((a, b) => compareStrings(scopeKey(a.item), scopeKey(b.item))),
  };
}

function scopeKey(change: ScopeChange): string {
  return JSON.stringify([change.command, change.change, canonicalJson(change.value)]);
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

function covered(grant: Grant, others: readonly Grant[]): boolean {
  // Window and webview patterns are kept apart: `windows: ["x"]` covers child webviews of window x,
  // `webviews: ["x"]` covers webviews labelled x in any window; neither implies the other.
  return others.some(
    (other) =>
      other.command === grant.command && other.context === grant.context && other.target === grant.target && patternCovers(other.pattern, grant.pattern),
  );
}

/** Whether every label matching `inner` also matches `outer`, judged conservatively. */
export function patternCovers(outer: string, inner: string): boolean {
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
  if (!text.startsWith(first) || !text.endsWith(last) || first.length + last.length > text.length) return false;
  let position = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = text.indexOf(part, position);
    if (found < 0 || found + part.length > end) return false;
    position = found + part.length;
  }
  return true;
}
