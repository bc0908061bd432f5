import { removeArrayItem } from "../../core/fix/edits.js";
import { expanderFor, expandIdentifier, qualifiedIdentifier } from "../engine/index.js";
import { TARGETS, type Capability, type PermissionEntry } from "../model/types.js";
import type { Catalog } from "../catalog/catalog.js";
import {
  capabilityStart,
  entryIdentifiers,
  hasScopeList,
  identifierPath,
} from "./support/entry-identifiers.js";
import { defineRule } from "./types.js";
import { work } from "../work.js";

/** What the rule needs to know of one identifier, worked out once however many entries name it. */
interface Granted {
  /** One number per identifier: capabilities are compared by the numbers of what they list. */
  id: number;
  /** Its expansion's leaves, with the platforms each holds on. */
  leaves: ReadonlyArray<{
    id: string;
    platforms: readonly string[] | undefined;
    chain: readonly string[];
  }>;
  /**
   * A set (or default) reaches its leaves through itself: a one-member set (`shell:default`, which is
   * `shell:allow-open`) still covers the permission it holds.
   */
  isSet: boolean;
  /** Whether its leaves differ by platform; most do not, and then one platform answers. */
  platformDependent: boolean;
  /** Qualified leaf identifiers by index into TARGETS, made on first use. */
  byPlatform: Array<ReadonlySet<string> | undefined>;
  /** Per index into TARGETS, whether a set covers this identifier there, by that set. */
  coveredBy: Array<Map<Granted, boolean> | undefined>;
  /** The ` (a › b › c)` shown when this set covers a single permission, by that permission. */
  via: Map<string, string>;
}

export default defineRule({
  id: "redundant-permission",
  description:
    "Report permissions already granted by a set listed in the same capability (`core:default` with `core:window:allow-title`, `shell:default` with `shell:allow-open`).",
  category: "style",
  // True every time, and it changes nothing at run time: shown apart from problems.
  defaultSeverity: "suggestion",
  fixable: true,
  scope: "document",
  messages: {
    redundant: '"{{permission}}" is already granted by "{{grantedBy}}"{{via}} in this capability',
  },
  check(context) {
    const grantedOf = grantedLookup(context.catalog);
    /**
     * Which candidates are covered, and by which, as entry and cover indices one after the other (flat:
     * no pair array per finding, no iterator to walk them): it depends only on the identifiers and the
     * platforms, so capabilities written alike (copies, one per window) share one answer.
     */
    const decided = new Map<number, Decision[]>();
    const decide = (
      granted: readonly Granted[],
      platforms: readonly number[],
      grantedHash: number,
    ): Decision => {
      // Filed by a number mixed from the identifiers' numbers and the platforms, compared in full on a
      // hit: no key string made (and hashed) per capability.
      let hash = grantedHash;
      for (let p = 0; p < platforms.length; p++) hash = (Math.imul(hash, 31) + platforms[p]!) | 0;
      let alike = decided.get(hash);
      if (alike === undefined) decided.set(hash, (alike = []));
      for (let d = 0; d < alike.length; d++)
        if (sameDecision(alike[d]!, granted, platforms)) return alike[d]!;
      // Worked out apart: most capabilities find their decision above, so the optimiser compiles
      // this lookup with the feedback of hits only, and a new decision no longer deoptimises it.
      const decision = newDecision(granted, platforms);
      alike.push(decision);
      return decision;
    };
    // Each entry's identifier by number (rules/support/entry-identifiers.ts): what it grants is read
    // from an array, filled on first use, instead of looked up by its text per entry.
    const entryList = context.entries();
    const index = entryIdentifiers(entryList);
    const grantedByNumber = new Array<Granted | undefined>(index.identifiers.length).fill(
      undefined,
    );
    const capabilities = context.capabilities;
    for (let k = 0; k < capabilities.length; k++) {
      const capability = capabilities[k]!;
      const active = activePlatforms(capability);
      if (active.length === 0) continue;
      // Plain loops into fresh arrays: the arrays `filter` and `map` return differ in elements kind
      // (by length, and between the builtin and the optimiser's inlined copy), and each new kind
      // seen here threw away the optimised `decide` and this loop (wrong map) and compiled them again.
      const candidates: PermissionEntry[] = [];
      const granted: Granted[] = [];
      let platformDependent = false;
      let grantedHash = 0;
      const entries = capability.permissions;
      const start = capabilityStart(index, entryList, capability);
      for (let e = 0; e < entries.length; e++) {
        const entry = entries[e]!;
        if (hasScopeList(entry)) continue;
        let known: Granted;
        if (start === undefined) known = grantedOf(entry.identifier);
        else {
          const number = index.numberOf[start + e]!;
          known = grantedByNumber[number] ??= grantedOf(entry.identifier);
        }
        candidates.push(entry);
        granted.push(known);
        grantedHash = (Math.imul(grantedHash, 31) + known.id) | 0;
        if (known.platformDependent) platformDependent = true;
      }
      const platforms = platformDependent ? active : ONLY[active[0]!]!;
      const decision = decide(granted, platforms, grantedHash);
      const covered = decision.covered;
      // Worded once per decision: capabilities decided alike name the same identifiers.
      const words = (decision.words ??= wordsOf(decision, candidates));
      for (let c = 0; c < covered.length; c += 2) {
        const entry = candidates[covered[c]!]!;
        const cover = candidates[covered[c + 1]!]!;
        const { via, item, fixTitle } = words[c >> 1]!;
        context.report({
          at: capability.source,
          path: identifierPath(entry),
          messageId: "redundant",
          data: {
            capability: capability.identifier,
            permission: entry.identifier,
            grantedBy: cover.identifier,
            via,
          },
          hint: "remove it",
          // A capability's many redundant entries read as one finding in stylish output.
          group: {
            key: capability.identifier,
            atLeast: 3,
            item,
            message:
              '{{count}} permissions are already granted by sets in capability "{{capability}}": {{list}}',
            hint: "remove them; --fix removes all {{count}}",
            data: { capability: capability.identifier },
          },
          fix: (document) => removeArrayItem(document, entry.path, fixTitle),
        });
      }
    }
  },
});

/**
 * What each identifier grants, by the catalog's expander: it depends only on the definitions, so the
 * apps of a run whose catalogs hold the same ones (one expander) share it, as they share expansions.
 */
const grantedLookups = new WeakMap<object, (identifier: string) => Granted>();

/** What each identifier grants, memoised: entries draw on a few hundred identifiers. */
function grantedLookup(catalog: Catalog): (identifier: string) => Granted {
  const expander = expanderFor(catalog);
  let lookup = grantedLookups.get(expander);
  if (!lookup) grantedLookups.set(expander, (lookup = newGrantedLookup(catalog)));
  return lookup;
}

function newGrantedLookup(catalog: Catalog): (identifier: string) => Granted {
  const known = new Map<string, Granted>();
  return (identifier) => {
    let granted = known.get(identifier);
    if (!granted) {
      const leaves: Array<Granted["leaves"][number]> = [];
      let isSet = false;
      let platformDependent = false;
      for (const leaf of expandIdentifier(catalog, identifier).leaves) {
        const platforms = leaf.permission.platforms;
        leaves.push({ id: qualifiedIdentifier(leaf.key, leaf.name), platforms, chain: leaf.chain });
        if (leaf.chain.length > 1) isSet = true;
        if (platforms !== undefined) platformDependent = true;
      }
      granted = {
        id: known.size,
        leaves,
        isSet,
        platformDependent,
        byPlatform: perTarget(),
        coveredBy: perTarget(),
        via: new Map(),
      };
      known.set(identifier, granted);
    }
    return granted;
  };
}

/** The qualified identifiers of the leaves that hold on platform TARGETS[platform]. */
function leavesOn(granted: Granted, platform: number): ReadonlySet<string> {
  const known = granted.byPlatform[platform];
  if (known) return known;
  const name = TARGETS[platform]!;
  const leaves = new Set<string>();
  for (let l = 0; l < granted.leaves.length; l++) {
    const leaf = granted.leaves[l]!;
    if (leaf.platforms === undefined || leaf.platforms.includes(name)) leaves.add(leaf.id);
  }
  granted.byPlatform[platform] = leaves;
  return leaves;
}

/** Whether set `theirs` grants every leaf `mine` grants on platform TARGETS[platform]; asked once per pair. */
function coveredOn(mine: Granted, theirs: Granted, platform: number): boolean {
  const known = (mine.coveredBy[platform] ??= new Map<Granted, boolean>());
  let covered = known.get(theirs);
  if (covered === undefined) {
    const leaves = leavesOn(mine, platform);
    const theirLeaves = leavesOn(theirs, platform);
    // Equal leaves: the set covers a plain permission, not another set (neither is the redundant one).
    covered =
      leaves.size > 0 &&
      (theirLeaves.size > leaves.size || (theirLeaves.size === leaves.size && !mine.isSet));
    if (covered)
      for (const leaf of leaves)
        if (!theirLeaves.has(leaf)) {
          covered = false;
          break;
        }
    known.set(theirs, covered);
  }
  return covered;
}

/** Which of a capability's candidates (what each grants, in order) a set among them covers on every one of `platforms`. */
function newDecision(granted: readonly Granted[], platforms: readonly number[]): Decision {
  const covered: number[] = [];
  // Only sets can cover another entry. Plain indexed loops: no iterator's try/finally in the
  // optimised code.
  const sets: number[] = [];
  for (let i = 0; i < granted.length; i++) {
    const set = granted[i]!;
    if (!set.isSet) continue;
    for (let p = 0; p < platforms.length; p++) {
      if (leavesOn(set, platforms[p]!).size === 0) continue;
      sets.push(i);
      break;
    }
  }
  if (sets.length > 0) {
    for (let i = 0; i < granted.length; i++) {
      const mine = granted[i]!;
      // The first set that covers it on every platform the capability is active on.
      for (let o = 0; o < sets.length; o++) {
        const other = sets[o]!;
        const theirs = granted[other]!;
        if (other === i || theirs === mine) continue;
        let everywhere = true;
        for (let p = 0; p < platforms.length; p++) {
          if (coveredOn(mine, theirs, platforms[p]!)) continue;
          everywhere = false;
          break;
        }
        if (!everywhere) continue;
        covered.push(i, other);
        break;
      }
    }
  }
  return { granted, platforms, covered, words: undefined };
}

/** ` (a › b › c)` when the set reaches `leaf` through nested sets, else nothing. */
function viaTo(cover: Granted, leaf: string): string {
  let via = cover.via.get(leaf);
  if (via === undefined) {
    const chain = cover.leaves.find((l) => l.id === leaf)?.chain;
    via = chain && chain.length > 2 ? ` (${chain.join(" › ")})` : "";
    cover.via.set(leaf, via);
  }
  return via;
}

/**
 * One slot per target, each empty: made at full length, so that every such array has the same
 * elements kind from the start (an empty array filled at index 3 first turns holey, one filled at 0
 * does not, and code optimised for one kind was thrown away at the other).
 */
function perTarget<T>(): Array<T | undefined> {
  return new Array<T | undefined>(TARGETS.length).fill(undefined);
}

/** Which entries of a capability's candidates are covered, for the identifiers and platforms it was decided on. */
interface Decision {
  granted: readonly Granted[];
  platforms: readonly number[];
  /** Entry and cover indices one after the other. */
  covered: number[];
  /** Per covered entry, its finding's words; made with the first capability's findings. */
  words: FindingWords[] | undefined;
}

/** What a finding of a decision says beyond its capability: the same for every capability decided alike. */
interface FindingWords {
  /** The ` (a › b › c)` of a single permission deep inside the covering set. */
  via: string;
  /** The finding as an item of its capability's group. */
  item: string;
  /** What its fix says it does. */
  fixTitle: string;
}

/** The words of a decision's findings, from the candidates of a capability it was made for. */
function wordsOf(decision: Decision, candidates: readonly PermissionEntry[]): FindingWords[] {
  work.redundancyWordings++;
  const { covered, granted, platforms } = decision;
  const words: FindingWords[] = [];
  for (let c = 0; c < covered.length; c += 2) {
    const index = covered[c]!;
    const coverIndex = covered[c + 1]!;
    const mine = leavesOn(granted[index]!, platforms[0]!);
    // A single permission deep inside a set: show the way down (core:default › core:window:default › …).
    const via = mine.size === 1 ? viaTo(granted[coverIndex]!, mine.values().next().value!) : "";
    const entry = candidates[index]!.identifier;
    const cover = candidates[coverIndex]!.identifier;
    words.push({
      via,
      item: `"${entry}" (by "${cover}")`,
      fixTitle: `remove "${entry}", granted by "${cover}"`,
    });
  }
  return words;
}

/** Whether a decision was made on these very identifiers (one `Granted` each) and platforms. */
function sameDecision(
  decision: Decision,
  granted: readonly Granted[],
  platforms: readonly number[],
): boolean {
  if (decision.granted.length !== granted.length) return false;
  if (decision.platforms.length !== platforms.length) return false;
  for (let i = 0; i < granted.length; i++) if (decision.granted[i] !== granted[i]) return false;
  for (let i = 0; i < platforms.length; i++)
    if (decision.platforms[i] !== platforms[i]) return false;
  return true;
}

/** Every index into TARGETS: what most capabilities (no `platforms` list) are active on, shared. */
const EVERY_PLATFORM: readonly number[] = TARGETS.map((_, i) => i);

/** Per index into TARGETS, a list of that index alone: one platform answers for most capabilities. */
const ONLY: ReadonlyArray<readonly number[]> = TARGETS.map((_, i) => [i]);

/** Indices into TARGETS of the platforms the capability is active on. */
function activePlatforms(capability: Capability): readonly number[] {
  const listed = capability.platforms;
  if (listed === undefined) return EVERY_PLATFORM;
  // Plain loops: no closure per capability and target.
  const active: number[] = [];
  for (let i = 0; i < TARGETS.length; i++)
    for (let l = 0; l < listed.length; l++)
      if (listed[l]!.value === TARGETS[i]) {
        active.push(i);
        break;
      }
  return active;
}
