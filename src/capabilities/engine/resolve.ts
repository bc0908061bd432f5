/**
 * Capability resolution, following the host's `Resolved::resolve` (host-acl-semantics §3.1–3.4 and the
 * conformance corpus rules): every active capability's permission entries are expanded into leaf
 * permissions, and each leaf yields command entries (one per command and context) or, when it has
 * no commands, a contribution to its plugin's global scope.
 *
 * Where the host would abort the build (unknown set member, invalid glob) or overflow its stack (set
 * cycles), the engine records a problem and carries on with what it can resolve.
 */
import { Catalog } from "../catalog/catalog.js";
import { checkIdentifier } from "../catalog/identifier.js";
import { APP_KEY, type Manifest, type PermissionDef, type PermissionSetDef } from "../catalog/types.js";
import type { Severity } from "../../core/diagnostics.js";
import type { JsonPath } from "../../core/location.js";
import { valuesOf, type Capability, type ModelItem, type ScopeValue } from "../model/types.js";
import { compileLabelPattern } from "./match/glob.js";
import { compileRemotePattern, type Origin } from "./match/origin.js";
import { work } from "./work.js";

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
  /** Index into `ResolvedModel.commandScopes`, or null when the leaf and entry carry no scope. */
  scopeId: number | null;
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
  patternProblems: PatternProblem[];
  /** Whether a calling webview is covered: some webview pattern matches its label, or some window pattern its window's. */
  matchesLabels(window: string, webview: string): boolean;
  /** Whether context `contextIndex` covers the origin. */
  contextMatches(contextIndex: number, origin: Origin): boolean;
}

export type ResolutionRule = "set-cycle" | "unknown-set-member" | "invalid-set-member" | "default-without-set" | "set-too-large" | "unresolved";

export interface ResolutionProblem {
  ruleId: ResolutionRule;
  severity: Severity;
  message: string;
  capability: string;
  file: string;
  /** Path of the capability's permission entry that led to the problem. */
  path: JsonPath;
  /** The capability entry's identifier. */
  identifier: string;
  /** Identifiers from the entry down to where the problem is. */
  chain: string[];
  /** The set (qualified identifier) the problem is in, for problems inside sets. */
  set?: string;
  suggestions?: string[];
}

export interface ResolvedModel {
  platform: string;
  catalog: Catalog;
  /** Active capabilities in identifier order. */
  capabilities: ResolvedCapability[];
  /** Capabilities whose `platforms` exclude this platform. */
  inactive: Capability[];
  allowed: Map<string, ResolvedCommand[]>;
  denied: Map<string, ResolvedCommand[]>;
  /** Command scopes by scope id. */
  commandScopes: ScopeLists[];
  globalScope: Map<string, GlobalScope>;
  problems: ResolutionProblem[];
}

export interface ResolveInput {
  capabilities: readonly Capability[];
  catalog: Catalog;
  /** Target platform, spelled as in `platforms` (`linux`, `macOS`, `windows`, `android`, `iOS`). */
  platform: string;
}

/**
 * More leaves than this from one entry means sets include each other over and over, unless the
 * catalog itself is that large: a flat set of 10,001 distinct permissions is linear in its input.
 * The bound is the larger of this and the number of permissions and set members the catalog lists.
 */
export const MAX_LEAVES_PER_ENTRY = 10_000;

/** Sets nested deeper than this are not resolved: the walk is recursive, and real sets nest a few levels. */
export const MAX_SET_DEPTH = 256;

/**
 * Set walks one entry may take. A set on a cycle cannot be memoised (its expansion depends on where
 * the walk entered the cycle), so a cycle reached through members listed twice would take exponential time.
 */
const MAX_SET_WALKS_PER_ENTRY = 10_000;

/** Permissions, sets and set members a catalog lists: what an expansion without repetition can reach. */
function catalogSize(catalog: Catalog): number {
  let size = 0;
  for (const key of catalog.keys()) {
    const manifest = catalog.get(key)!;
    size += Object.keys(manifest.permissions).length + (manifest.default_permission?.permissions.length ?? 0) + 1;
    for (const set of Object.values(manifest.permission_sets)) size += set.permissions.length + 1;
  }
  return size;
}

/** Thrown out of a walk that went too deep or too long; the entry gets a set-too-large problem. */
class WalkRefused extends Error {}

/** Code-point order, which is the byte order of the host's Rust `String` sorting. */
export function compareCodePoints(a: string, b: string): number {
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

const isActiveOn = (platforms: readonly string[] | undefined, platform: string) => platforms === undefined || platforms.includes(platform);

/**
 * Resolves the capabilities active on `platform`. Capabilities sharing an identifier (a build error
 * upstream, reported by the check rules) are all kept, in input order among themselves.
 */
export function resolve(input: ResolveInput): ResolvedModel {
  const { catalog, platform } = input;
  const model: ResolvedModel = {
    platform,
    catalog,
    capabilities: [],
    inactive: [],
    allowed: new Map(),
    denied: new Map(),
    commandScopes: [],
    globalScope: new Map(),
    problems: [],
  };
  const expander = new SetExpander(catalog);
  const ordered = [...input.capabilities].sort((a, b) => compareCodePoints(a.identifier, b.identifier));

  for (const capability of ordered) {
    if (!isActiveOn(capability.platforms && valuesOf(capability.platforms), platform)) {
      model.inactive.push(capability);
      continue;
    }
    const resolved = prepareCapability(capability, model.capabilities.length);
    model.capabilities.push(resolved);

    for (const entry of capability.permissions) {
      const expansion = expander.expandEntry(entry.identifier);
      const base = { capability: capability.identifier, file: capability.source.file, path: entry.path };
      for (const problem of expansion.problems) {
        model.problems.push({ ...problem, capability: capability.identifier, file: capability.source.file, path: entry.path, identifier: entry.identifier });
      }
      for (const leaf of expansion.leaves) {
        if (!isActiveOn(leaf.permission.platforms, platform)) continue;
        const provenance: EntryProvenance = { ...base, chain: leaf.chain };
        // The entry's extra scope comes first, then the leaf's own; a list exists once either side has one.
        let allow: ScopeValue[] | undefined;
        let deny: ScopeValue[] | undefined;
        if (Array.isArray(entry.allow)) allow = [...entry.allow];
        if (Array.isArray(entry.deny)) deny = [...entry.deny];
        if (leaf.permission.scope?.allow) allow = [...(allow ?? []), ...leaf.permission.scope.allow];
        if (leaf.permission.scope?.deny) deny = [...(deny ?? []), ...leaf.permission.scope.deny];
        if (leaf.allowCommands.length === 0 && leaf.denyCommands.length === 0) {
          const scope: ScopeLists = { allow: allow ?? [], deny: deny ?? [] };
          let global = model.globalScope.get(leaf.key);
          if (!global) model.globalScope.set(leaf.key, (global = { allow: [], deny: [], contributions: [] }));
          for (const value of scope.allow) global.allow.push(value);
          for (const value of scope.deny) global.deny.push(value);
          global.contributions.push({ key: leaf.key, scope, provenance });
          continue;
        }

        let scope: ScopeLists | null = null;
        let scopeId: number | null = null;
        if (allow || deny) {
          scope = { allow: allow ?? [], deny: deny ?? [] };
          scopeId = model.commandScopes.push(scope) - 1;
        }
        // As upstream, a capability without contexts leaves no key behind, so it cannot deny either.
        if (resolved.contexts.length === 0) continue;
        const make = (command: string, contextIndex: number): ResolvedCommand => ({
          command,
          key: leaf.key,
          permission: leaf.name,
          context: resolved.contexts[contextIndex]!,
          windows: resolved.windows,
          webviews: resolved.webviews,
          scopeId,
          scope,
          capabilityIndex: resolved.index,
          contextIndex,
          provenance,
        });
        for (const command of leaf.allowCommands) addEntries(model.allowed, command, resolved.contexts.length, make);
        for (const command of leaf.denyCommands) addEntries(model.denied, command, resolved.contexts.length, make);
      }
    }
  }
  return model;
}

function addEntries(list: Map<string, ResolvedCommand[]>, command: string, contexts: number, make: (command: string, contextIndex: number) => ResolvedCommand) {
  let entries = list.get(command);
  if (!entries) list.set(command, (entries = []));
  for (let contextIndex = 0; contextIndex < contexts; contextIndex++) entries.push(make(command, contextIndex));
  work.resolvedEntries += contexts;
}

function prepareCapability(capability: Capability, index: number): ResolvedCapability {
  const windows = valuesOf(capability.windows).sort(compareCodePoints);
  const webviews = valuesOf(capability.webviews).sort(compareCodePoints);
  const contexts: Context[] = [];
  if (capability.local) contexts.push({ kind: "local" });
  const urls = capability.remote?.urls ?? [];
  for (const url of urls) contexts.push({ kind: "remote", url: url.value });

  const patternProblems: PatternProblem[] = [];
  const compileLabels = (field: "windows" | "webviews", patterns: readonly ModelItem[]) => {
    const matchers: Array<(label: string) => boolean> = [];
    for (const { value: pattern, path } of patterns) {
      const compiled = compileLabelPattern(pattern);
      if (compiled.ok) matchers.push(compiled.match);
      else patternProblems.push({ field, path, pattern, message: compiled.message });
    }
    return matchers;
  };
  const windowMatchers = compileLabels("windows", capability.windows);
  const webviewMatchers = compileLabels("webviews", capability.webviews);

  const contextTests = contexts.map((context, i): ((origin: Origin) => boolean) => {
    if (context.kind === "local") return (origin) => origin.kind === "local";
    const compiled = compileRemotePattern(context.url, { allowUnsafe: true });
    const strict = compileRemotePattern(context.url);
    if (!strict.ok) patternProblems.push({ field: "remote.urls", path: urls[i - (capability.local ? 1 : 0)]!.path, pattern: context.url, message: strict.message });
    if (!compiled.ok) return () => false;
    return (origin) => origin.kind === "remote" && compiled.test(origin.url);
  });

  return {
    capability,
    index,
    windows,
    webviews,
    contexts,
    patternProblems,
    matchesLabels: (window, webview) => webviewMatchers.some((match) => match(webview)) || windowMatchers.some((match) => match(window)),
    contextMatches: (contextIndex, origin) => contextTests[contextIndex]?.(origin) ?? false,
  };
}

// ---------------------------------------------------------------------------------------------
// Set expansion (§3.2)

/** A chain of identifiers as a shared linked list: prefixing a whole expansion costs one node per leaf. */
type Chain = { id: string; rest: Chain } | undefined;

const chainToArray = (chain: Chain): string[] => {
  const ids: string[] = [];
  for (let node = chain; node; node = node.rest) ids.push(node.id);
  return ids;
};

interface Leaf {
  key: string;
  name: string;
  permission: PermissionDef;
  /** Shared between every entry with the same identifier; never mutated. */
  chain: string[];
  /** IPC names of `permission.commands`. */
  allowCommands: string[];
  denyCommands: string[];
}

function toLeaf(key: string, name: string, permission: PermissionDef, chain: string[]): Leaf {
  return {
    key,
    name,
    permission,
    chain,
    allowCommands: permission.commands.allow.map((command) => commandName(key, command)),
    denyCommands: permission.commands.deny.map((command) => commandName(key, command)),
  };
}

interface ChainedLeaf {
  key: string;
  name: string;
  permission: PermissionDef;
  /** Relative to the set being expanded: starts with the member that led to the leaf. */
  chain: Chain;
}

type ExpansionProblem = Omit<ResolutionProblem, "capability" | "file" | "path" | "identifier">;

interface ChainedProblem {
  problem: Omit<ExpansionProblem, "chain">;
  chain: Chain;
}

interface Expansion {
  leaves: Leaf[];
  problems: ExpansionProblem[];
}

interface SetExpansion {
  leaves: ChainedLeaf[];
  /** Each distinct problem once, with the first chain that reached it (set graphs can be diamonds). */
  problems: ChainedProblem[];
  /** The expansion met a set already being expanded; its result depends on where it started. */
  cyclic: boolean;
}

/** What a set member refers to, with the host's inside-a-set lookup order: default, permission, set. */
type MemberLookup =
  | { kind: "invalid"; message: string }
  | { kind: "missing" }
  | { kind: "default-without-set"; key: string; id: string }
  | { kind: "permission"; key: string; name: string; id: string; permission: PermissionDef }
  | { kind: "set"; key: string; name: string; id: string; manifest: Manifest; set: PermissionSetDef };

const expanders = new WeakMap<Catalog, SetExpander>();

/**
 * The leaf permissions an identifier expands to, before platform filtering, memoised per catalog:
 * what an entry grants depends only on its identifier, not on the capability listing it.
 */
export function expandIdentifier(catalog: Catalog, identifier: string): { leaves: ReadonlyArray<{ key: string; name: string; permission: PermissionDef; chain: readonly string[] }> } {
  let expander = expanders.get(catalog);
  if (!expander) expanders.set(catalog, (expander = new SetExpander(catalog)));
  return expander.expandEntry(identifier);
}

/** Expands capability entries into leaf permissions, memoising each set's expansion. */
class SetExpander {
  private readonly entries = new Map<string, Expansion>();
  private readonly memo = new Map<string, SetExpansion>();
  private readonly counts = new Map<string, number>();
  private readonly inProgress: string[] = [];
  /** The qualified identifiers of `inProgress`, for cycle messages. */
  private readonly inProgressIds: string[] = [];
  private walks = 0;
  private limits: { leaves: number; walks: number } | undefined;

  constructor(private readonly catalog: Catalog) {}

  /** The refusal bounds, linear in the catalog: only a set graph that multiplies out reaches them. */
  private get bounds(): { leaves: number; walks: number } {
    if (!this.limits) {
      const size = catalogSize(this.catalog);
      this.limits = { leaves: Math.max(MAX_LEAVES_PER_ENTRY, size), walks: Math.max(MAX_SET_WALKS_PER_ENTRY, size) };
    }
    return this.limits;
  }

  /**
   * Top-level lookup: default, then set, then permission. Chains start with the identifier as written.
   * The result depends only on the identifier (expansion always starts with nothing in progress), so
   * it is shared by every entry that names it.
   */
  expandEntry(identifier: string): Expansion {
    let expansion = this.entries.get(identifier);
    if (!expansion) this.entries.set(identifier, (expansion = this.expandEntryUncached(identifier)));
    return expansion;
  }

  private expandEntryUncached(written: string): Expansion {
    // Either spelling of the brand word names the same permission; chains show the project's.
    const identifier = this.catalog.spellIdentifier(written);
    const parts = Catalog.keyOf(identifier);
    if (!parts) return unresolved(identifier, `\`${identifier}\` is not a valid permission identifier`);
    const manifest = this.catalog.get(parts.key);
    if (!manifest) {
      return unresolved(identifier, parts.key === APP_KEY ? `unknown permission \`${identifier}\`: the app defines no permissions` : `unknown plugin \`${parts.key}\` in \`${identifier}\``);
    }
    let setName: string;
    let set: PermissionSetDef;
    if (parts.base === "default") {
      if (!manifest.default_permission) return { leaves: [], problems: [defaultWithoutSet(parts.key, [identifier])] };
      [setName, set] = ["default", manifest.default_permission];
    } else if (own(manifest.permission_sets, parts.base)) {
      [setName, set] = [parts.base, manifest.permission_sets[parts.base]!];
    } else {
      const permission = own(manifest.permissions, parts.base);
      if (permission) return { leaves: [toLeaf(parts.key, parts.base, permission, [identifier])], problems: [] };
      return unresolved(identifier, `unknown permission \`${parts.base}\` for \`${parts.key === APP_KEY ? "the app" : parts.key}\``);
    }

    const id = qualifiedIdentifier(parts.key, setName);
    const refused = (reason: string): Expansion => ({
      leaves: [],
      problems: [{ ruleId: "set-too-large", severity: "error", message: `permission set ${id} ${reason}; it was not resolved`, chain: [identifier], set: id }],
    });
    let expansion: SetExpansion;
    try {
      this.walks = 0;
      // Count first: a set graph that multiplies out (sets including each other twice, many levels
      // deep) would otherwise take exponential time and memory, as it does upstream.
      const count = this.countLeaves(parts.key, manifest, setName, set);
      if (count > this.bounds.leaves) {
        return refused(`expands to ${count.toLocaleString("en-US")} permissions (more than ${this.bounds.leaves.toLocaleString("en-US")}): its sets include each other over and over`);
      }
      expansion = this.expandSet(parts.key, manifest, setName, set);
    } catch (error) {
      if (!(error instanceof WalkRefused)) throw error;
      this.inProgress.length = 0;
      this.inProgressIds.length = 0;
      return refused(error.message);
    }
    return {
      leaves: expansion.leaves.map((leaf) => toLeaf(leaf.key, leaf.name, leaf.permission, [identifier, ...chainToArray(leaf.chain)])),
      problems: expansion.problems.map(({ problem, chain }) => ({ ...problem, chain: [identifier, ...chainToArray(chain)] })),
    };
  }

  private lookupMember(key: string, manifest: Manifest, member: string): MemberLookup {
    const check = checkIdentifier(member);
    if (!check.ok) return { kind: "invalid", message: check.message };
    // A prefixed member switches manifest only when that manifest exists; otherwise the whole
    // string is looked up in the current one (and usually not found).
    const prefix = check.parsed.prefix;
    const switched = prefix !== undefined && this.catalog.has(prefix);
    const memberKey = switched ? prefix : key;
    const memberManifest = switched ? this.catalog.get(prefix)! : manifest;
    const name = switched ? check.parsed.base : member;
    const id = qualifiedIdentifier(memberKey, name);
    if (name === "default") {
      const defaultSet = memberManifest.default_permission;
      if (!defaultSet) return { kind: "default-without-set", key: memberKey, id };
      return { kind: "set", key: memberKey, name, id, manifest: memberManifest, set: defaultSet };
    }
    const permission = own(memberManifest.permissions, name);
    if (permission) return { kind: "permission", key: memberKey, name, id, permission };
    const set = own(memberManifest.permission_sets, name);
    if (set) return { kind: "set", key: memberKey, name, id, manifest: memberManifest, set };
    return { kind: "missing" };
  }

  /** Counts one set walk at nesting `depth`; refuses the entry past the depth or walk limits. */
  private checkWalk(depth: number): void {
    if (depth >= MAX_SET_DEPTH) throw new WalkRefused(`nests sets more than ${MAX_SET_DEPTH} levels deep`);
    if (++this.walks > this.bounds.walks) {
      throw new WalkRefused(`takes more than ${this.bounds.walks.toLocaleString("en-US")} steps to expand: its sets reach a cycle over and over`);
    }
  }

  /** Leaves a set expands to, before platform filtering; a set met again inside itself counts 0. */
  private countLeaves(key: string, manifest: Manifest, name: string, set: PermissionSetDef, visiting = new Set<string>()): number {
    const memoKey = `${key}\u0000${name}`;
    const known = this.counts.get(memoKey);
    if (known !== undefined) return known;
    if (visiting.has(memoKey)) return 0;
    this.checkWalk(visiting.size);
    visiting.add(memoKey);
    let count = 0;
    let cyclic = false;
    for (const member of set.permissions) {
      const found = this.lookupMember(key, manifest, member);
      if (found.kind === "permission") count++;
      else if (found.kind === "set") {
        const nestedKey = `${found.key}\u0000${found.name}`;
        if (visiting.has(nestedKey)) cyclic = true;
        count += this.countLeaves(found.key, found.manifest, found.name, found.set, visiting);
      }
    }
    visiting.delete(memoKey);
    // Counts inside a cycle depend on where the walk entered it; only acyclic ones are reusable.
    if (!cyclic) this.counts.set(memoKey, count);
    return count;
  }

  /** Inside a set the order is default, then permission, then set; chains are relative to the set. */
  private expandSet(key: string, manifest: Manifest, name: string, set: PermissionSetDef): SetExpansion {
    const id = qualifiedIdentifier(key, name);
    const memoKey = `${key}\u0000${name}`;
    const memoised = this.memo.get(memoKey);
    if (memoised) return memoised;

    this.checkWalk(this.inProgress.length);
    const cycleStart = this.inProgress.indexOf(memoKey);
    if (cycleStart >= 0) {
      const loop = [...this.inProgressIds.slice(cycleStart), id];
      return {
        leaves: [],
        cyclic: true,
        problems: [{ problem: { ruleId: "set-cycle", severity: "error", message: `permission sets include each other in a cycle: ${loop.join(" → ")}`, set: id }, chain: undefined }],
      };
    }

    this.inProgress.push(memoKey);
    this.inProgressIds.push(id);
    const result: SetExpansion = { leaves: [], problems: [], cyclic: false };
    const seenProblems = new Set<string>();
    const addProblem = (problem: Omit<ExpansionProblem, "chain">, chain: Chain) => {
      const identity = `${problem.ruleId}\u0000${problem.set ?? ""}\u0000${problem.message}`;
      if (seenProblems.has(identity)) return;
      seenProblems.add(identity);
      result.problems.push({ problem, chain });
    };

    for (const member of set.permissions) {
      const found = this.lookupMember(key, manifest, member);
      switch (found.kind) {
        case "invalid":
          addProblem({ ruleId: "invalid-set-member", severity: "error", message: `invalid identifier \`${member}\` in permission set ${id}: ${found.message}`, set: id }, undefined);
          break;
        case "missing": {
          const suggestions = this.catalog.suggest(member.includes(":") || key === APP_KEY ? member : qualifiedIdentifier(key, member));
          const problem: Omit<ExpansionProblem, "chain"> = { ruleId: "unknown-set-member", severity: "error", message: `permission ${member} not found from set ${id}`, set: id };
          if (suggestions.length) problem.suggestions = suggestions;
          addProblem(problem, undefined);
          break;
        }
        case "default-without-set": {
          const { chain: _chain, ...problem } = defaultWithoutSet(found.key, []);
          addProblem({ ...problem, set: id }, { id: found.id, rest: undefined });
          break;
        }
        case "permission":
          work.setMembers++;
          result.leaves.push({ key: found.key, name: found.name, permission: found.permission, chain: { id: found.id, rest: undefined } });
          break;
        case "set": {
          const nested = this.expandSet(found.key, found.manifest, found.name, found.set);
          result.cyclic ||= nested.cyclic;
          work.setMembers += nested.leaves.length;
          for (const leaf of nested.leaves) result.leaves.push({ ...leaf, chain: { id: found.id, rest: leaf.chain } });
          for (const { problem, chain } of nested.problems) addProblem(problem, { id: found.id, rest: chain });
          break;
        }
      }
    }
    this.inProgress.pop();
    this.inProgressIds.pop();
    if (!result.cyclic) this.memo.set(memoKey, result);
    return result;
  }
}

function unresolved(identifier: string, message: string): Expansion {
  return { leaves: [], problems: [{ ruleId: "unresolved", severity: "error", message, chain: [identifier] }] };
}

function defaultWithoutSet(key: string, chain: string[]): ExpansionProblem {
  const id = qualifiedIdentifier(key, "default");
  const owner = key === APP_KEY ? "the app defines" : `plugin \`${key}\` has`;
  return { ruleId: "default-without-set", severity: "warning", message: `\`${id}\` grants nothing: ${owner} no default permission set`, chain };
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
