/**
 * Set expansion (host-acl-semantics §3.2): a capability entry's identifier becomes the leaf
 * permissions it grants, through nested permission sets, memoised per catalog. What an entry grants
 * depends only on its identifier, never on the capability listing it or the platform.
 */
import { BoundedMemo } from "../../core/bounded-memo.js";
import { Catalog } from "../catalog/catalog.js";
import { checkIdentifier } from "../catalog/identifier.js";
import {
  APP_KEY,
  type Manifest,
  type PermissionDef,
  type PermissionSetDef,
} from "../catalog/types.js";
import { commandName, qualifiedIdentifier, type ExpansionProblem, type SetLimit } from "./model.js";
import { work } from "../work.js";

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
    size +=
      Object.keys(manifest.permissions).length +
      (manifest.default_permission?.permissions.length ?? 0) +
      1;
    for (const set of Object.values(manifest.permission_sets)) size += set.permissions.length + 1;
  }
  return size;
}

/** Thrown out of a walk that went too deep or too long; the entry gets a set-too-large problem. */
class WalkRefused extends Error {
  constructor(readonly limit: SetLimit) {
    super(limit.kind);
  }
}

/** A leaf permission an identifier expands to. */
export interface Leaf {
  key: string;
  name: string;
  permission: PermissionDef;
  /** Shared between every entry with the same identifier; never mutated. */
  chain: string[];
  /** IPC names of `permission.commands`. */
  allowCommands: string[];
  denyCommands: string[];
}

/** What one identifier expands to; shared by every entry that names it. */
export interface Expansion {
  leaves: Leaf[];
  problems: ExpansionProblem[];
  /** Indices of the leaves without commands: they add to their plugin's global scope. */
  scopeOnly: number[];
  /** Whether some leaf denies a command. */
  denies: boolean;
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

function expansionOf(leaves: Leaf[], problems: ExpansionProblem[]): Expansion {
  const scopeOnly: number[] = [];
  let denies = false;
  leaves.forEach((leaf, i) => {
    if (leaf.allowCommands.length === 0 && leaf.denyCommands.length === 0) scopeOnly.push(i);
    denies ||= leaf.denyCommands.length > 0;
  });
  return { leaves, problems, scopeOnly, denies };
}

/** A chain of identifiers as a shared linked list: prefixing a whole expansion costs one node per leaf. */
type Chain = { id: string; rest: Chain } | undefined;

const chainToArray = (chain: Chain): string[] => {
  const ids: string[] = [];
  for (let node = chain; node; node = node.rest) ids.push(node.id);
  return ids;
};

interface ChainedLeaf {
  key: string;
  name: string;
  permission: PermissionDef;
  /** Relative to the set being expanded: starts with the member that led to the leaf. */
  chain: Chain;
}

type UnchainedProblem = ExpansionProblem extends infer P
  ? P extends ExpansionProblem
    ? Omit<P, "chain">
    : never
  : never;

interface ChainedProblem {
  problem: UnchainedProblem;
  chain: Chain;
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
  | {
      kind: "set";
      key: string;
      name: string;
      id: string;
      manifest: Manifest;
      set: PermissionSetDef;
    };

const expanders = new WeakMap<Catalog, SetExpander>();
/**
 * Expanders by catalog content (`Catalog.contentKey`): an expansion depends only on the definitions,
 * so the apps of a run whose catalogs hold the same manifests share one (every app of a monorepo
 * expanded `core:default` and the rest anew). Bounded for the language server's long sessions.
 */
const sharedExpanders = new BoundedMemo<string, SetExpander>(64);

/** The catalog's expander: expansions are memoised for as long as the catalog (or one like it) lives. */
export function expanderFor(catalog: Catalog): SetExpander {
  let expander = expanders.get(catalog);
  if (!expander) {
    // Over a copy: a catalog changed later (a caller's own) must not change what the others are answered.
    expander = sharedExpanders.get(catalog.contentKey(), () => {
      work.expandersMade++;
      return new SetExpander(catalog.copy());
    });
    expanders.set(catalog, expander);
  }
  return expander;
}

/**
 * The leaf permissions an identifier expands to, before platform filtering, memoised per catalog:
 * what an entry grants depends only on its identifier, not on the capability listing it.
 */
export function expandIdentifier(
  catalog: Catalog,
  identifier: string,
): {
  leaves: ReadonlyArray<{
    key: string;
    name: string;
    permission: PermissionDef;
    chain: readonly string[];
  }>;
  problems: readonly ExpansionProblem[];
} {
  return expanderFor(catalog).expandEntry(identifier);
}

/** Expands capability entries into leaf permissions, memoising each set's expansion. */
export class SetExpander {
  private readonly entries = new Map<string, Expansion>();
  private readonly memo = new Map<string, SetExpansion>();
  private readonly counts = new Map<string, number>();
  private readonly inProgress: string[] = [];
  /** The qualified identifiers of `inProgress`, for cycle loops. */
  private readonly inProgressIds: string[] = [];
  private walks = 0;
  private limits: { leaves: number; walks: number } | undefined;

  constructor(private readonly catalog: Catalog) {}

  /** The refusal bounds, linear in the catalog: only a set graph that multiplies out reaches them. */
  private get bounds(): { leaves: number; walks: number } {
    if (!this.limits) {
      const size = catalogSize(this.catalog);
      this.limits = {
        leaves: Math.max(MAX_LEAVES_PER_ENTRY, size),
        walks: Math.max(MAX_SET_WALKS_PER_ENTRY, size),
      };
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
    if (!expansion)
      this.entries.set(identifier, (expansion = this.expandEntryUncached(identifier)));
    return expansion;
  }

  private expandEntryUncached(written: string): Expansion {
    // Either spelling of the brand word names the same permission; chains show the project's.
    const identifier = this.catalog.spellIdentifier(written);
    const parts = Catalog.keyOf(identifier);
    if (!parts) return unresolved(identifier, { reason: "invalid-identifier" });
    const manifest = this.catalog.get(parts.key);
    if (!manifest)
      return unresolved(
        identifier,
        parts.key === APP_KEY
          ? { reason: "no-app-permissions" }
          : { reason: "unknown-plugin", key: parts.key },
      );
    let setName: string;
    let set: PermissionSetDef;
    if (parts.base === "default") {
      if (!manifest.default_permission)
        return expansionOf(
          [],
          [{ kind: "default-without-set", key: parts.key, chain: [identifier] }],
        );
      [setName, set] = ["default", manifest.default_permission];
    } else if (own(manifest.permission_sets, parts.base)) {
      [setName, set] = [parts.base, manifest.permission_sets[parts.base]!];
    } else {
      const permission = own(manifest.permissions, parts.base);
      if (permission)
        return expansionOf([toLeaf(parts.key, parts.base, permission, [identifier])], []);
      return unresolved(identifier, {
        reason: "unknown-permission",
        key: parts.key,
        base: parts.base,
      });
    }

    const id = qualifiedIdentifier(parts.key, setName);
    const refused = (limit: SetLimit): Expansion =>
      expansionOf([], [{ kind: "set-too-large", set: id, limit, chain: [identifier] }]);
    let expansion: SetExpansion;
    try {
      this.walks = 0;
      // Count first: a set graph that multiplies out (sets including each other twice, many levels
      // deep) would otherwise take exponential time and memory, as it does upstream.
      const count = this.countLeaves(parts.key, manifest, setName, set);
      // The bounds are never below the fixed ones: the catalog is sized only past those.
      if (count > MAX_LEAVES_PER_ENTRY && count > this.bounds.leaves)
        return refused({ kind: "leaves", count, limit: this.bounds.leaves });
      expansion = this.expandSet(parts.key, manifest, setName, set);
    } catch (error) {
      if (!(error instanceof WalkRefused)) throw error;
      this.inProgress.length = 0;
      this.inProgressIds.length = 0;
      return refused(error.limit);
    }
    return expansionOf(
      expansion.leaves.map((leaf) =>
        toLeaf(leaf.key, leaf.name, leaf.permission, [identifier, ...chainToArray(leaf.chain)]),
      ),
      expansion.problems.map(({ problem, chain }) => ({
        ...problem,
        chain: [identifier, ...chainToArray(chain)],
      })),
    );
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
    if (depth >= MAX_SET_DEPTH) throw new WalkRefused({ kind: "depth", limit: MAX_SET_DEPTH });
    if (++this.walks > MAX_SET_WALKS_PER_ENTRY && this.walks > this.bounds.walks)
      throw new WalkRefused({ kind: "walks", limit: this.bounds.walks });
  }

  /** Leaves a set expands to, before platform filtering; a set met again inside itself counts 0. */
  private countLeaves(
    key: string,
    manifest: Manifest,
    name: string,
    set: PermissionSetDef,
    visiting = new Set<string>(),
  ): number {
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
  private expandSet(
    key: string,
    manifest: Manifest,
    name: string,
    set: PermissionSetDef,
  ): SetExpansion {
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
        problems: [{ problem: { kind: "set-cycle", set: id, loop }, chain: undefined }],
      };
    }

    this.inProgress.push(memoKey);
    this.inProgressIds.push(id);
    const result: SetExpansion = { leaves: [], problems: [], cyclic: false };
    const seenProblems = new Set<string>();
    const addProblem = (problem: UnchainedProblem, chain: Chain) => {
      const identity = JSON.stringify(problem);
      if (seenProblems.has(identity)) return;
      seenProblems.add(identity);
      result.problems.push({ problem, chain });
    };

    for (const member of set.permissions) {
      const found = this.lookupMember(key, manifest, member);
      switch (found.kind) {
        case "invalid":
          addProblem(
            { kind: "invalid-set-member", set: id, member, reason: found.message },
            undefined,
          );
          break;
        case "missing": {
          const suggestions = this.catalog.suggest(
            member.includes(":") || key === APP_KEY ? member : qualifiedIdentifier(key, member),
          );
          addProblem({ kind: "unknown-set-member", set: id, member, suggestions }, undefined);
          break;
        }
        case "default-without-set":
          addProblem(
            { kind: "default-without-set", key: found.key, set: id },
            { id: found.id, rest: undefined },
          );
          break;
        case "permission":
          work.setMembers++;
          result.leaves.push({
            key: found.key,
            name: found.name,
            permission: found.permission,
            chain: { id: found.id, rest: undefined },
          });
          break;
        case "set": {
          const nested = this.expandSet(found.key, found.manifest, found.name, found.set);
          result.cyclic ||= nested.cyclic;
          work.setMembers += nested.leaves.length;
          for (const leaf of nested.leaves)
            result.leaves.push({ ...leaf, chain: { id: found.id, rest: leaf.chain } });
          for (const { problem, chain } of nested.problems)
            addProblem(problem, { id: found.id, rest: chain });
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

function unresolved(
  identifier: string,
  detail: Omit<Extract<ExpansionProblem, { kind: "unresolved" }>, "kind" | "chain">,
): Expansion {
  return expansionOf([], [{ kind: "unresolved", ...detail, chain: [identifier] }]);
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
