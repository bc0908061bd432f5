import type { ResolvedCommand, ResolvedModel } from "../engine/index.js";
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
}

/**
 * `diffAccess` on every platform both sides were resolved for: a change can grant access on one
 * platform only (a capability with `platforms`), so each grant carries the platforms it is new on.
 */
export function diffAccessOnPlatforms(before: readonly PlatformGroup[], after: readonly PlatformGroup[]): { added: PlatformGrant[]; removed: PlatformGrant[] } {
  const added = new PlatformMerge<Grant>();
  const removed = new PlatformMerge<Grant>();
  for (const old of before) {
    for (const current of after) {
      const platforms = old.platforms.filter((p) => current.platforms.includes(p));
      if (platforms.length === 0) continue;
      const diff = diffAccess(old.model, current.model);
      for (const grant of diff.added) added.add(grantKey(grant), grant, platforms);
      for (const grant of diff.removed) removed.add(grantKey(grant), grant, platforms);
    }
  }
  const ordered = (merge: PlatformMerge<Grant>) => merge.values().sort((a, b) => compareStrings(grantKey(a.item), grantKey(b.item)));
  return { added: ordered(added), removed: ordered(removed) };
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
