/**
 * The resolved data model and its vocabulary: what resolution produces (host-acl-semantics §3.3–3.4),
 * the structured problems it meets on the way, and the names the host gives commands and permissions.
 */
import type { Catalog } from "../catalog/catalog.js";
import { APP_KEY } from "../catalog/types.js";
import type { JsonPath } from "../../core/location.js";
import type { Capability, ScopeValue } from "../model/types.js";
import type { Origin } from "./match/origin.js";

/** Where an entry applies: the app's own pages, or remote pages matching a `remote.urls` pattern. */
export type Context = { kind: "local" } | { kind: "remote"; url: string };

export interface ScopeLists {
  allow: ScopeValue[];
  deny: ScopeValue[];
}

/** Why an entry exists: which capability entry, through which sets, produced it. */
export interface EntryProvenance {
  capability: string;
  file: string;
  /** Path of the permission entry (string or object form) inside `file`. */
  path: JsonPath;
  /**
   * Identifiers from the capability entry down to the leaf, e.g. `core:default`, `core:window:default`,
   * `core:window:allow-title`. Shared by every entry expanded from the same identifier: do not mutate.
   */
  chain: string[];
}

/** One allowed or denied command entry: per capability, leaf permission, command and context. */
export interface ResolvedCommand {
  /** IPC command name as invoked: `plugin:fs|read_file`, `plugin:window|close`, `my_command`. */
  command: string;
  /** Manifest key of the leaf permission (`fs`, `core:window`, `__app-acl__`). */
  key: string;
  /** The leaf permission's own identifier inside its manifest, as the host's debug messages print it. */
  permission: string;
  context: Context;
  /** Sorted copies of the capability's patterns. */
  windows: readonly string[];
  webviews: readonly string[];
  /**
   * The entry's extra scope followed by the leaf's own, or null when neither has one. One object per
   * capability entry and leaf: every command and context of that leaf shares it.
   */
  scope: ScopeLists | null;
  /** Index into `ResolvedModel.capabilities`. */
  capabilityIndex: number;
  /** Index into that capability's `contexts`. */
  contextIndex: number;
  provenance: EntryProvenance;
}

export interface GlobalScopeContribution {
  key: string;
  scope: ScopeLists;
  provenance: EntryProvenance;
}

export interface GlobalScope extends ScopeLists {
  contributions: GlobalScopeContribution[];
}

export interface PatternProblem {
  field: "windows" | "webviews" | "remote.urls";
  /** The pattern's own place in its document (the model's item path, not an index into a filtered list). */
  path: JsonPath;
  pattern: string;
  message: string;
}

/** A capability active on the platform, with its patterns compiled once. */
export interface ResolvedCapability {
  capability: Capability;
  index: number;
  windows: readonly string[];
  webviews: readonly string[];
  contexts: readonly Context[];
  /** Invalid patterns; they match nothing. Remote patterns flagged unsafe still match (see origin.ts). */
  patternProblems: readonly PatternProblem[];
  /** Whether a calling webview is covered: some webview pattern matches its label, or some window pattern its window's. */
  matchesLabels(window: string, webview: string): boolean;
  /** Whether context `contextIndex` covers the origin. */
  contextMatches(contextIndex: number, origin: Origin): boolean;
}

/** Why a set walk was refused: a set graph that multiplies out, or one too deep to follow. */
export type SetLimit =
  | { kind: "leaves"; count: number; limit: number }
  | { kind: "depth"; limit: number }
  | { kind: "walks"; limit: number };

/**
 * What went wrong while expanding one identifier, as data: the rules word it. Where the host would
 * abort the build (unknown or invalid set member, a set cycle) or warn, the engine records the problem
 * and carries on with what it can resolve.
 */
export type ExpansionProblem = { chain: string[] } & (
  | {
      kind: "set-cycle";
      set: string;
      /** The sets around the loop, first and last the same. */ loop: string[];
    }
  | { kind: "unknown-set-member"; set: string; member: string; suggestions: string[] }
  | {
      kind: "invalid-set-member";
      set: string;
      member: string;
      /** The identifier grammar's explanation. */ reason: string;
    }
  /** `<key>:default` of a manifest without a default set; `set` when a set lists it. */
  | { kind: "default-without-set"; key: string; set?: string }
  | { kind: "set-too-large"; set: string; limit: SetLimit }
  /** A top-level identifier that names nothing; other rules report these, with their own wording. */
  | {
      kind: "unresolved";
      reason: "invalid-identifier" | "unknown-plugin" | "no-app-permissions" | "unknown-permission";
      key?: string;
      base?: string;
    }
);

export type ResolutionProblemKind = ExpansionProblem["kind"];

/** An expansion problem where a capability entry meets it, with the platforms it holds on. */
export type ResolutionProblem = ExpansionProblem & {
  capability: string;
  file: string;
  /** Path of the capability's permission entry that led to the problem. */
  path: JsonPath;
  /** The capability entry's identifier. */
  identifier: string;
  /** The resolved platforms on which the capability is active (the problem is the same on each). */
  platforms: readonly string[];
};

/** Allow or deny entries by command, materialised on demand: only the commands asked about cost anything. */
export interface CommandEntries extends Iterable<[string, ResolvedCommand[]]> {
  /** The command's entries, or undefined when it has none. */
  get(command: string): ResolvedCommand[] | undefined;
  has(command: string): boolean;
  /** The number of commands with entries. */
  readonly size: number;
  keys(): Iterable<string>;
  values(): Iterable<ResolvedCommand[]>;
  entries(): Iterable<[string, ResolvedCommand[]]>;
}

/** The host's resolution for one platform. */
export interface ResolvedModel {
  platform: string;
  catalog: Catalog;
  /** Active capabilities in identifier order. */
  capabilities: ResolvedCapability[];
  /** Capabilities whose `platforms` exclude this platform. */
  inactive: Capability[];
  allowed: CommandEntries;
  denied: CommandEntries;
  globalScope: ReadonlyMap<string, GlobalScope>;
  problems: ResolutionProblem[];
  /**
   * The commands each permission entry of capability `capabilityIndex` allows (every context of the
   * capability has them all), one list per entry; entries naming the same identifier share one list.
   */
  allowedCommandLists(capabilityIndex: number): ReadonlyArray<readonly string[]>;
  /**
   * The capabilities (indices into `capabilities`, in order) that allow `command`: what `allowed.get`
   * tells about who, without making an entry per grant and context.
   */
  allowers(command: string): readonly number[];
  /** The allow entries of `command` in one capability, as `allowed.get` lists them. */
  allowsIn(command: string, capabilityIndex: number): ResolvedCommand[];
}

/**
 * Code-point order, which is the byte order of the host's Rust `String` sorting. Code units are
 * compared first: below the surrogates (U+D800) a unit is its code point, and the common prefix of
 * the two strings is the same code points, so the first differing units decide, with the code
 * points' difference. Only a difference at a surrogate or above needs the code-point walk (a
 * surrogate pair sorts after U+E000-U+FFFF, which code units would put after it). The walk for
 * every comparison cost bench row 6's sort of 20,000 identifiers 2-4 times as much.
 */
export function compareCodePoints(a: string, b: string): number {
  const shorter = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    return x < 0xd800 && y < 0xd800 ? x - y : compareByCodePointWalk(a, b);
  }
  return a.length - b.length;
}

function compareByCodePointWalk(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** The IPC name of a command of manifest `key` (§3.3). */
export function commandName(key: string, command: string): string {
  if (key === APP_KEY) return command;
  if (key.startsWith("core:")) return `plugin:${key.slice("core:".length)}|${command}`;
  return `plugin:${key}|${command}`;
}

/** How a permission of manifest `key` is written in a capability. */
export function qualifiedIdentifier(key: string, name: string): string {
  return key === APP_KEY ? name : `${key}:${name}`;
}
