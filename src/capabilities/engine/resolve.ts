/**
 * Capability resolution, following the host's `Resolved::resolve` (host-acl-semantics §3.1–3.4 and the
 * conformance corpus rules): every active capability's permission entries are expanded into leaf
 * permissions, and each leaf yields command entries (one per command and context) or, when it has
 * no commands, a contribution to its plugin's global scope.
 *
 * The host resolves for one target platform. caplint resolves once for every platform asked: a
 * capability and a leaf permission each hold on a set of platforms (a bitmask), and a platform's
 * model is a view that keeps what holds on it. Command entries are indexed on demand: a view builds
 * the entries of a command when someone asks for that command, so a check that looks at denied and
 * dangerous commands never builds the other hundreds of thousands.
 */
import type { Catalog } from "../catalog/catalog.js";
import {
  valuesOf,
  type Capability,
  type ModelItem,
  type PermissionEntry,
  type ScopeValue,
} from "../model/types.js";
import { expanderFor, type Expansion, type Leaf } from "./expand.js";
import { compileLabelPattern } from "./match/glob.js";
import { compileRemotePattern, type Origin } from "./match/origin.js";
import {
  compareCodePoints,
  type Context,
  type EntryProvenance,
  type GlobalScope,
  type GlobalScopeContribution,
  type PatternProblem,
  type ResolutionProblem,
  type ResolvedCapability,
  type ResolvedModel,
  type ScopeLists,
} from "./model.js";
import {
  everyPlatform,
  firstPlatform,
  holdsOn,
  platformNames,
  platformSetOf,
  splitAlike,
  splitBy,
  type PlatformSet,
} from "./platform-set.js";
import { work } from "../work.js";
import {
  ModelCore,
  PlatformModel,
  type GrantLeaves,
  type PlatformSource,
} from "./platform-model.js";

export interface ResolveInput {
  capabilities: readonly Capability[];
  catalog: Catalog;
  /** Target platform, spelled as in `platforms` (`linux`, `macOS`, `windows`, `android`, `iOS`). */
  platform: string;
}

export interface ResolveAllInput {
  capabilities: readonly Capability[];
  catalog: Catalog;
  /** Target platforms, each spelled as in `platforms`. */
  platforms: readonly string[];
}

/** The host's resolution on one platform. */
export function resolve(input: ResolveInput): ResolvedModel {
  return new Resolution({
    capabilities: input.capabilities,
    catalog: input.catalog,
    platforms: [input.platform],
  }).models[0]!;
}

/** Resolves once for several platforms: `models` holds one view per platform, in the order asked. */
export function resolveAll(input: ResolveAllInput): Resolution {
  return new Resolution(input);
}

/** A distinct platform model, with what the distinct models before it already settled (`Resolution.modelsToJudge`). */
export interface ModelToJudge {
  model: ResolvedModel;
  /** The distinct models before it, each with whether it resolves a plugin's global scope like this one. */
  earlier: ReadonlyArray<{ model: ResolvedModel; sameGlobalScope(key: string): boolean }>;
  /** Whether one earlier model resolves all these commands, and these plugins' global scopes, like this one: it found what there is to find about them. */
  settled(commands: Iterable<string>, globalScopes?: Iterable<string>): boolean;
}

/** The provenance and command scope of one leaf of a grant, shared by every platform model. */
interface SharedLeaf {
  provenance: EntryProvenance;
  scope: ScopeLists | null;
}

/** Where a command appears: leaf `leaf` of `expansion` lists it. */
interface CommandSite {
  expansion: Expansion;
  leaf: number;
}

/**
 * No sites, as an empty list of the same elements kind as the lists of sites (objects): an empty
 * literal is a list of small integers, another kind, which optimised loops over sites would meet as
 * a new map and be thrown away for (made by emptying a one-item list, whose kind stays).
 */
const NO_SITES: readonly CommandSite[] = (() => {
  const list: CommandSite[] = [
    { expansion: { leaves: [], problems: [], scopeOnly: [], denies: false }, leaf: 0 },
  ];
  list.pop();
  return list;
})();

export class Resolution implements PlatformSource {
  readonly catalog: Catalog;
  readonly platforms: readonly string[];
  /** Capabilities active on at least one platform, in identifier order, each with its platform bits. */
  readonly capabilities: ReadonlyArray<{ resolved: ResolvedCapability; on: PlatformSet }>;
  /** Capabilities in identifier order that are inactive on some platform, with the platforms they are active on. */
  private readonly partlyInactive: Array<{ capability: Capability; on: PlatformSet }> = [];
  /**
   * The grants whose expansion has problems, in grant order: a problem object (with the entry's path)
   * is made only when someone asks for its kind. A check asks for a few kinds (set cycles, unknown
   * set members, a default without a set), and an app's unknown identifiers, thousands of
   * "unresolved" problems that unknown-plugin and unknown-permission report from the entries
   * themselves, were made for nothing and kept for the run.
   */
  private readonly grantsWithProblems: number[] = [];
  /** The grants whose expansion has command-less leaves (global scope contributions), in grant order. */
  private readonly grantsWithScopeOnly: number[] = [];
  private everyProblem: ResolutionProblem[] | undefined;
  readonly models: ResolvedModel[];
  /**
   * The grants (one per permission entry of an active capability) as parallel lists, not an object
   * each: they live for the whole run, and most are never looked at one by one. Commands walk
   * thousands of grants and need only their capabilities.
   */
  private readonly grantCapabilities: number[] = [];
  private readonly grantEntries: PermissionEntry[] = [];
  private readonly grantExpansions: Expansion[] = [];
  /** Per platform bit, which capabilities can hold entries there (active, with a context), made on first use. */
  private readonly entryHolders: Uint8Array[] = [];
  /** Grant indices per expansion: the entries that name one identifier. */
  private readonly grantsOf = new Map<Expansion, number[]>();
  private readonly leafBits = new Map<Leaf, PlatformSet>();
  /** Per platform bit, the shared data of its model, and the distinct model that rules judge it on. */
  private readonly coreOfBit: ModelCore[] = [];
  private readonly distinctModelOfBit: ResolvedModel[];
  private sites:
    { allow: Map<string, CommandSite[]>; deny: Map<string, CommandSite[]> } | undefined;
  /** Per grant and leaf, the provenance and command scope every entry of that leaf shares. */
  private readonly shared: Array<Array<SharedLeaf | undefined> | undefined> = [];
  /** Where each capability's grants start in `grants`, plus one past the end. */
  private readonly firstGrant: number[] = [];
  private readonly allowedByExpansion = new Map<Expansion, Array<string[] | undefined>>();

  constructor(input: ResolveAllInput) {
    const { catalog, platforms } = input;
    this.catalog = catalog;
    this.platforms = platforms;
    const expander = expanderFor(catalog);
    const ordered = [...input.capabilities].sort((a, b) =>
      compareCodePoints(a.identifier, b.identifier),
    );
    const all = everyPlatform(platforms.length);
    const capabilities: Array<{ resolved: ResolvedCapability; on: PlatformSet }> = [];
    for (const capability of ordered) {
      // A platform config may load the capability on some targets only (its own list of capabilities).
      const on =
        platformSetOf(capability.platforms && valuesOf(capability.platforms), platforms) &
        platformSetOf(capability.configPlatforms, platforms);
      if (on !== all) this.partlyInactive.push({ capability, on });
      if (on === 0) continue;
      const index = capabilities.length;
      capabilities.push(new ActiveCapability(prepareCapability(capability, index), on));
      this.firstGrant.push(this.grantEntries.length);
      // Indexed loops: this runs once, mostly before the optimiser compiles it, and a for-of step
      // allocates there (an iterator per entry and a result per step).
      const entries = capability.permissions;
      for (let e = 0; e < entries.length; e++) {
        const entry = entries[e]!;
        const expansion = expander.expandEntry(entry.identifier);
        if (expansion.problems.length > 0) this.grantsWithProblems.push(this.grantEntries.length);
        if (expansion.scopeOnly.length > 0) this.grantsWithScopeOnly.push(this.grantEntries.length);
        let users = this.grantsOf.get(expansion);
        if (!users) this.grantsOf.set(expansion, (users = NO_GRANTS.slice()));
        users.push(this.grantEntries.length);
        this.grantCapabilities.push(index);
        this.grantEntries.push(entry);
        this.grantExpansions.push(expansion);
      }
    }
    this.firstGrant.push(this.grantEntries.length);
    this.capabilities = capabilities;
    // Platforms on which every capability and every granted leaf permission is alike resolve alike:
    // they share one model's data (entries, global scope), and rules need to look at one of them.
    const signatures = platforms.map((_, bit) => this.signatureOf(bit));
    const cores = this.coreOfBit;
    this.models = platforms.map((platform, bit) => {
      const same = signatures.indexOf(signatures[bit]!);
      const core = same < bit ? cores[same]! : new ModelCore(this, bit);
      cores[bit] = core;
      return new PlatformModel(core, platform);
    });
    this.distinctModelOfBit = platforms.map(
      (_, bit) => this.models[signatures.indexOf(signatures[bit]!)]!,
    );
    this.distinctModels = this.models.filter(
      (model, bit) => this.distinctModelOfBit[bit] === model,
    );
  }

  /** Problems of every capability entry, each once, with the platforms it holds on. */
  get problems(): ResolutionProblem[] {
    return (this.everyProblem ??= this.problemsOf());
  }

  /**
   * The problems of these kinds (every kind when none is given), in the order of `problems`: each
   * call makes its own, so a rule that reports some kinds makes no object for the others.
   */
  problemsOf(kinds?: ReadonlyArray<ResolutionProblem["kind"]>): ResolutionProblem[] {
    const made: ResolutionProblem[] = [];
    let namesOf: number | undefined;
    let names: readonly string[] = [];
    for (const grant of this.grantsWithProblems) {
      const problems = this.grantExpansions[grant]!.problems;
      const entry = this.grantEntries[grant]!;
      const index = this.grantCapabilities[grant]!;
      const { resolved, on } = this.capabilities[index]!;
      for (let p = 0; p < problems.length; p++) {
        const problem = problems[p]!;
        if (kinds !== undefined && !kinds.includes(problem.kind)) continue;
        work.problemsMade++;
        // The capability's platforms as names, shared by its problems.
        if (namesOf !== index) {
          namesOf = index;
          names = platformNames(on, this.platforms);
        }
        made.push({
          ...problem,
          capability: resolved.capability.identifier,
          file: resolved.capability.source.file,
          path: entry.path,
          identifier: entry.identifier,
          platforms: names,
        });
      }
    }
    return made;
  }

  /**
   * One model per group of platforms that resolve alike, in platform order: a rule that reports what
   * it finds in each model sees every difference between platforms, and each finding once per group.
   */
  readonly distinctModels: ResolvedModel[];

  /**
   * The distinct models in platform order, each with what the models before it settled: the one place
   * a rule's per-platform pass learns which findings it would only repeat. A later model that resolves
   * a command (and its plugin's global scope) like an earlier one gives the same findings about it, so
   * a rule judges each difference between platforms once; the linter still drops any finding repeated
   * word for word.
   */
  modelsToJudge(): ModelToJudge[] {
    return this.distinctModels.map((model, index) => {
      const earlier = this.distinctModels.slice(0, index).map((before) => ({
        model: before,
        sameGlobalScope: (key: string) =>
          this.sameGlobalScope(key, before.platform, model.platform),
      }));
      const settled = (commands: Iterable<string>, globalScopes: Iterable<string> = []) =>
        earlier.some((before) => {
          for (const command of commands)
            if (!this.sameCommand(command, before.model.platform, model.platform)) return false;
          for (const key of globalScopes) if (!before.sameGlobalScope(key)) return false;
          return true;
        });
      return { model, earlier, settled };
    });
  }

  /**
   * Every command something denies on some platform, once per set of those platforms on which its
   * allow and deny grants are alike (`sameCommand`), with the model the set is judged on
   * (`modelFor`): what a rule that judges denied commands one at a time looks at. One pass over the
   * commands, not one per platform model: a command alike on every platform is one set. Made once
   * per resolution, in the order the expansions that deny them were first granted.
   */
  deniedCommandSets(): ReadonlyArray<{ command: string; on: PlatformSet; model: ResolvedModel }> {
    if (!this.denialSets) {
      this.denialSets = [];
      for (const command of this.commandSites().deny.keys()) {
        work.commandsListed++;
        const denied = this.deniedOn(command);
        if (denied === 0) continue;
        const pattern = this.commandPatternOf(command);
        for (const on of splitAlike(denied, (bit) => pattern[bit]!))
          this.denialSets.push({ command, on, model: this.modelFor(on) });
      }
    }
    return this.denialSets;
  }

  private denialSets: Array<{ command: string; on: PlatformSet; model: ResolvedModel }> | undefined;

  /** Which capabilities and granted leaves hold on the platform of bit `bit`, as a string that equal platforms share. */
  private signatureOf(bit: number): string {
    const held = (on: number) => (on & (1 << bit) ? "1" : "0");
    let signature = this.partlyInactive.map((c) => held(c.on)).join("");
    signature += "|";
    for (const expansion of this.grantsOf.keys())
      for (const leaf of expansion.leaves)
        if (leaf.permission.platforms !== undefined) signature += held(this.leafOn(leaf));
    return signature;
  }

  /** The model a set of platforms is judged on: the distinct model of its first platform. */
  modelFor(on: PlatformSet): ResolvedModel {
    return this.distinctModelOfBit[firstPlatform(on)]!;
  }

  /** Where capability `index` (into `capabilities`) is in the capabilities of `modelFor(on)`; -1 when it is inactive there. */
  indexIn(on: PlatformSet, index: number): number {
    return this.coreOfBit[firstPlatform(on)]!.localIndexOf(index);
  }

  /**
   * The platforms capability `index` is active on, split into the sets on which its own grants of
   * `commands` and whether anything denies the commands it grants are alike, in platform order; none
   * when it grants none of the commands. On each set the capability has the same effective grants of
   * these commands: a rule judges the set once, on `modelFor(set)`, instead of once per platform model.
   */
  alikeFor(index: number, commands: readonly string[]): PlatformSet[] {
    const { on } = this.capabilities[index]!;
    // Two platforms are alike when every leaf set and denial set below holds on both or on neither:
    // the capability's platforms are split by each set in turn, with no key made per platform.
    let alike: PlatformSet[] | undefined;
    const [first, end] = this.grantRange(index);
    for (const command of commands) {
      const leavesOf = this.allowLeavesOf(command);
      let grants = false;
      for (let grant = first; grant < end; grant++) {
        const leaves = leavesOf.get(this.grantExpansions[grant]!);
        if (!leaves) continue;
        grants = true;
        alike ??= [on];
        for (const leaf of leaves) splitBy(alike, leaf);
      }
      if (grants) splitBy(alike!, this.deniedOn(command));
    }
    if (alike === undefined) return [];
    // In the order of each set's first platform.
    return alike.length === 1 ? alike : alike.sort((a, b) => firstPlatform(a) - firstPlatform(b));
  }

  /** The capabilities (indices into `capabilities`, in order) with an entry whose expansion allows `command` on some platform. */
  grantersOf(command: string): number[] {
    const found = new Set<number>();
    for (const expansion of this.allowLeavesOf(command).keys())
      for (const grant of this.grantsOf.get(expansion)!) found.add(this.grantCapabilities[grant]!);
    return [...found].sort((a, b) => a - b);
  }

  /** The platforms on which something denies `command`: an active capability with a context holds a deny of it there. */
  deniedOn(command: string): PlatformSet {
    // The lookup alone: rules' hot loops ask this per grant, and the optimiser inlines what is here
    // into them; the walk runs once per command, in its own function.
    const set = this.denials.get(command);
    return set === undefined ? this.denialsOf(command) : set;
  }

  private denialsOf(command: string): PlatformSet {
    let set = 0;
    for (const site of this.sitesOf("deny", command)) {
      const leaf = this.leafOn(site.expansion.leaves[site.leaf]!);
      for (const grant of this.grantsOf.get(site.expansion)!) {
        const { resolved, on } = this.capabilities[this.grantCapabilities[grant]!]!;
        if (resolved.contexts.length > 0) set |= on & leaf;
      }
    }
    this.denials.set(command, set);
    return set;
  }

  private readonly denials = new Map<string, PlatformSet>();
  private readonly allowLeaves = new Map<string, Map<Expansion, PlatformSet[]>>();

  /** The platforms of each leaf that allows `command`, by the expansion it belongs to. */
  private allowLeavesOf(command: string): Map<Expansion, PlatformSet[]> {
    let byExpansion = this.allowLeaves.get(command);
    if (!byExpansion) {
      byExpansion = new Map();
      for (const site of this.sitesOf("allow", command)) {
        const set = this.leafOn(site.expansion.leaves[site.leaf]!);
        const sets = byExpansion.get(site.expansion);
        if (sets) sets.push(set);
        else byExpansion.set(site.expansion, [set]);
      }
      this.allowLeaves.set(command, byExpansion);
    }
    return byExpansion;
  }

  /** The platforms a leaf permission holds on. */
  leafOn(leaf: Leaf): PlatformSet {
    let bits = this.leafBits.get(leaf);
    if (bits === undefined)
      this.leafBits.set(leaf, (bits = platformSetOf(leaf.permission.platforms, this.platforms)));
    return bits;
  }

  /** Capabilities inactive on the platform of bit `bit`, in identifier order. */
  inactiveOn(bit: number): Capability[] {
    return this.partlyInactive.filter((c) => !(c.on & (1 << bit))).map((c) => c.capability);
  }

  /**
   * Grants of a command on one platform, in the host's order (capability, entry, leaf, then the
   * command's place in the leaf). Only the expansions that list the command are visited.
   */
  grantsOfCommand(side: "allow" | "deny", command: string, bit: number): GrantLeaves {
    // An expansion's sites are adjacent and in leaf order (commandSites walks each expansion's leaves in
    // turn), and a grant has one expansion: the host's order is the grants in order, each with its sites.
    const expansions: Expansion[] = [];
    const leavesOf: number[][] = [];
    for (const site of this.sitesOf(side, command)) {
      if (!(this.leafOn(site.expansion.leaves[site.leaf]!) & (1 << bit))) continue;
      if (expansions[expansions.length - 1] === site.expansion)
        leavesOf[leavesOf.length - 1]!.push(site.leaf);
      else {
        expansions.push(site.expansion);
        leavesOf.push([site.leaf]);
      }
    }
    const holders = this.entryHoldersOn(bit);
    const slots = expansions.length;
    // Each grant with the expansion's slot folded in (grant × slots + slot), so that one numeric sort
    // merges the expansions' grants, which are each in order already.
    const keys: number[] = [];
    let count = 0;
    // Indexed loops: a command can have thousands of grants, and a for-of step allocated a result
    // object each (5.6 MB on bench row 2) where the optimiser had not removed it.
    for (let slot = 0; slot < slots; slot++) {
      const grants = this.grantsOf.get(expansions[slot]!)!;
      const leaves = leavesOf[slot]!.length;
      for (let g = 0; g < grants.length; g++) {
        const grant = grants[g]!;
        if (!holders[this.grantCapabilities[grant]!]) continue;
        keys.push(grant * slots + slot);
        count += leaves;
      }
    }
    const ordered = slots > 1 ? new Float64Array(keys).sort() : keys;
    const found: GrantLeaves = { grants: new Int32Array(count), leaves: new Int32Array(count) };
    let n = 0;
    for (let k = 0; k < ordered.length; k++) {
      const key = ordered[k]!;
      const slot = key % slots;
      const grant = (key - slot) / slots;
      const leaves = leavesOf[slot]!;
      for (let l = 0; l < leaves.length; l++) {
        found.grants[n] = grant;
        found.leaves[n++] = leaves[l]!;
      }
    }
    return found;
  }

  /**
   * The capabilities (indices into `capabilities`, ascending) that hold an allow grant of `command` on
   * the platform of bit `bit`: the capabilities of `grantsOfCommand("allow", …)`, found without making
   * and sorting its list of grants (denied commands are granted by most of an app's capabilities).
   */
  allowersOn(command: string, bit: number): number[] {
    const holders = this.entryHoldersOn(bit);
    const found: number[] = [];
    // An expansion's grants are in order, so one expansion gives its capabilities in order; more are
    // merged by one numeric sort of their distinct capabilities.
    let expansions = 0;
    let last: Expansion | undefined;
    const seen = (this.allowerMarks ??= new Uint8Array(this.capabilities.length));
    for (const site of this.sitesOf("allow", command)) {
      if (site.expansion === last) continue;
      if (!(this.leafOn(site.expansion.leaves[site.leaf]!) & (1 << bit))) continue;
      last = site.expansion;
      expansions++;
      const grants = this.grantsOf.get(site.expansion)!;
      for (let g = 0; g < grants.length; g++) {
        const capability = this.grantCapabilities[grants[g]!]!;
        if (!holders[capability] || seen[capability]) continue;
        seen[capability] = 1;
        found.push(capability);
      }
    }
    for (let i = 0; i < found.length; i++) seen[found[i]!] = 0;
    return expansions > 1 ? Array.from(Int32Array.from(found).sort()) : found;
  }

  /** Marks of capabilities met, all clear between calls of `allowersOn`. */
  private allowerMarks: Uint8Array | undefined;

  /**
   * The allow grants of `command` in capability `capabilityIndex` on the platform of bit `bit`: that
   * capability's part of `grantsOfCommand("allow", …)`, found by walking its own grants against the
   * command's sites. Undefined when that walk would exceed {@link OWN_GRANT_WALK} steps (a capability
   * of many entries, a command in many permissions): the caller lists the command's grants once
   * instead, so a call stays bounded however the two grow.
   */
  allowGrantsIn(command: string, capabilityIndex: number, bit: number): GrantLeaves | undefined {
    const grants: number[] = [];
    const leaves: number[] = [];
    const sites = this.sitesOf("allow", command);
    const first = this.firstGrant[capabilityIndex]!;
    const end = this.firstGrant[capabilityIndex + 1]!;
    if ((end - first) * sites.length > OWN_GRANT_WALK) return undefined;
    work.ownGrantPairs += (end - first) * sites.length;
    if (this.entryHoldersOn(bit)[capabilityIndex]) {
      for (let g = first; g < end; g++) {
        const expansion = this.grantExpansions[g]!;
        // A grant has one expansion, whose sites are adjacent and in leaf order: the host's order.
        for (let s = 0; s < sites.length; s++) {
          const site = sites[s]!;
          if (site.expansion !== expansion) continue;
          if (!(this.leafOn(expansion.leaves[site.leaf]!) & (1 << bit))) continue;
          grants.push(g);
          leaves.push(site.leaf);
        }
      }
    }
    return { grants: Int32Array.from(grants), leaves: Int32Array.from(leaves) };
  }

  /** Which capabilities can hold command entries on the platform of bit `bit`, by index. */
  private entryHoldersOn(bit: number): Uint8Array {
    let holders = this.entryHolders[bit];
    if (!holders) {
      holders = this.entryHolders[bit] = new Uint8Array(this.capabilities.length);
      // As upstream, a capability without contexts leaves no key behind, so it cannot deny either.
      this.capabilities.forEach(
        ({ resolved, on }, i) =>
          (holders![i] = on & (1 << bit) && resolved.contexts.length > 0 ? 1 : 0),
      );
    }
    return holders;
  }

  /** The capability (index into `capabilities`) of grant `index`. */
  capabilityOfGrant(index: number): number {
    return this.grantCapabilities[index]!;
  }

  /** Every command with an entry on one platform, in the order the host's maps first see them. */
  commandsOn(side: "allow" | "deny", bit: number): string[] {
    // The host meets an identifier's commands at its first grant that holds entries, and an identifier
    // met again adds none: each distinct expansion is walked once, in the order of those first grants.
    const holders = this.entryHoldersOn(bit);
    const firstMet: Array<{ grant: number; expansion: Expansion }> = [];
    for (const [expansion, grants] of this.grantsOf) {
      if (side === "deny" && !expansion.denies) continue;
      const grant = grants.find((g) => holders[this.grantCapabilities[g]!]);
      if (grant !== undefined) firstMet.push({ grant, expansion });
    }
    firstMet.sort((a, b) => a.grant - b.grant);
    const seen = new Set<string>();
    for (const { expansion } of firstMet) {
      for (const leaf of expansion.leaves) {
        if (!(this.leafOn(leaf) & (1 << bit))) continue;
        for (const command of side === "allow" ? leaf.allowCommands : leaf.denyCommands)
          seen.add(command);
      }
    }
    work.commandsListed += seen.size;
    return [...seen];
  }

  grantExpansion(index: number): Expansion {
    return this.grantExpansions[index]!;
  }

  private readonly commandPatterns = new Map<string, number[]>();
  private globalPatterns: Map<string, number[]> | undefined;

  /**
   * Whether a command's allow and deny grants are the same on two of the resolved platforms: then every
   * entry of it is the same on both, and so is whatever a rule finds about it (`modelsToJudge`).
   */
  sameCommand(command: string, platformA: string, platformB: string): boolean {
    return this.samePlatforms(this.commandPatternOf(command), platformA, platformB);
  }

  /** Per platform bit, which of the distinct masks of a command's allow and deny grants hold there. */
  private commandPatternOf(command: string): readonly number[] {
    let pattern = this.commandPatterns.get(command);
    if (!pattern) {
      const masks = new Set<number>();
      // With every capability active on every platform, a grant's mask is its leaf's platforms: the
      // grants (most of an app's capabilities, for a core command) need no walk.
      const everywhere = this.partlyInactive.length === 0;
      const all = everyPlatform(this.platforms.length);
      for (const side of ["allow", "deny"] as const) {
        for (const site of this.sitesOf(side, command)) {
          const leafBits = this.leafOn(site.expansion.leaves[site.leaf]!);
          if (everywhere) {
            masks.add(all & leafBits);
            continue;
          }
          for (const grant of this.grantsOf.get(site.expansion)!)
            masks.add(this.capabilities[this.grantCapabilities[grant]!]!.on & leafBits);
        }
      }
      pattern = this.bitPatterns(masks);
      this.commandPatterns.set(command, pattern);
    }
    return pattern;
  }

  /** Whether the global scope of manifest `key` is the same on two of the resolved platforms. */
  sameGlobalScope(key: string, platformA: string, platformB: string): boolean {
    const pattern = this.globalPatternOf(key);
    return pattern === undefined || this.samePlatforms(pattern, platformA, platformB);
  }

  /** Per platform bit, which of the global scope's distinct contributions hold there; undefined when nothing contributes to it. */
  private globalPatternOf(key: string): readonly number[] | undefined {
    if (!this.globalPatterns) {
      const masksByKey = new Map<string, Set<number>>();
      for (const { contribution, on } of this.globalContributions()) {
        let masks = masksByKey.get(contribution.key);
        if (!masks) masksByKey.set(contribution.key, (masks = new Set()));
        masks.add(on);
      }
      this.globalPatterns = new Map(
        [...masksByKey].map(([k, masks]) => [k, this.bitPatterns(masks)]),
      );
    }
    return this.globalPatterns.get(key);
  }

  /** Per platform bit, which of the distinct masks hold it: two platforms with equal patterns see the same grants. */
  private bitPatterns(masks: ReadonlySet<number>): number[] {
    return this.platforms.map((_, bit) => {
      let pattern = 0;
      let i = 0;
      for (const mask of masks) pattern |= (mask & (1 << bit) ? 1 : 0) * 2 ** i++;
      return pattern;
    });
  }

  private samePlatforms(pattern: readonly number[], platformA: string, platformB: string): boolean {
    const a = this.platforms.indexOf(platformA);
    const b = this.platforms.indexOf(platformB);
    return a >= 0 && b >= 0 && pattern[a] === pattern[b];
  }

  /** Where capability `capabilityIndex`'s grants are in `grants`: [first, one past the last). */
  grantRange(capabilityIndex: number): [number, number] {
    return [this.firstGrant[capabilityIndex]!, this.firstGrant[capabilityIndex + 1]!];
  }

  /**
   * The commands each permission entry of a capability allows on one platform, one list per entry;
   * entries naming the same identifier share the list (the matrix unions each distinct list once).
   */
  allowedCommandLists(capabilityIndex: number, bit: number): Array<readonly string[]> {
    const lists: Array<readonly string[]> = [];
    for (
      let g = this.firstGrant[capabilityIndex]!;
      g < this.firstGrant[capabilityIndex + 1]!;
      g++
    ) {
      const expansion = this.grantExpansions[g]!;
      let perBit = this.allowedByExpansion.get(expansion);
      if (!perBit) this.allowedByExpansion.set(expansion, (perBit = []));
      let list = perBit[bit];
      if (!list) {
        list = perBit[bit] = [];
        for (const leaf of expansion.leaves)
          if (this.leafOn(leaf) & (1 << bit))
            for (const command of leaf.allowCommands) list.push(command);
      }
      lists.push(list);
    }
    return lists;
  }

  /** The provenance and command scope of one leaf of a grant, made once however many commands and platforms ask. */
  sharedOf(grantIndex: number, leafIndex: number): SharedLeaf {
    // The lookup alone: the optimiser inlines this into the hot loops that ask (the dangers module's
    // grant walk, the global contributions); making one runs once per leaf, in its own function.
    return this.shared[grantIndex]?.[leafIndex] ?? this.makeShared(grantIndex, leafIndex);
  }

  private makeShared(grantIndex: number, leafIndex: number): SharedLeaf {
    const perLeaf = (this.shared[grantIndex] ??= []);
    const entry = this.grantEntries[grantIndex]!;
    const leaf = this.grantExpansions[grantIndex]!.leaves[leafIndex]!;
    return (perLeaf[leafIndex] = {
      provenance: provenanceOf(
        this.capabilities[this.grantCapabilities[grantIndex]!]!.resolved.capability,
        entry,
        leaf,
      ),
      scope:
        Array.isArray(entry.allow) || Array.isArray(entry.deny)
          ? scopeListsOf(entry, leaf)
          : this.leafScopeOf(leaf),
    });
  }

  /**
   * The scope lists of a leaf granted by an entry without lists of its own: one object per leaf, shared
   * by every entry naming its identifier (an app's copies of a capability, its platform files), so
   * what rules work out per scope object (the dangers module's broad values) is worked out once.
   */
  private leafScopeOf(leaf: Leaf): ScopeLists | null {
    let scope = this.leafScopes.get(leaf);
    if (scope === undefined) this.leafScopes.set(leaf, (scope = scopeListsOf(NO_LISTS, leaf)));
    return scope;
  }

  private readonly leafScopes = new Map<Leaf, ScopeLists | null>();

  /** The global scope contributions on one platform: command-less leaves, in the host's order. */
  globalScopeOn(bit: number): Map<string, GlobalScope> {
    const scopes = new Map<string, GlobalScope>();
    for (const { contribution, on } of this.globalContributions()) {
      if (!holdsOn(on, bit)) continue;
      let global = scopes.get(contribution.key);
      if (!global)
        scopes.set(contribution.key, (global = { allow: [], deny: [], contributions: [] }));
      for (const value of contribution.scope.allow) global.allow.push(value);
      for (const value of contribution.scope.deny) global.deny.push(value);
      global.contributions.push(contribution);
    }
    return scopes;
  }

  private contributions:
    Array<{ contribution: GlobalScopeContribution; on: PlatformSet }> | undefined;
  private contributionsByKey:
    Map<string, Array<{ contribution: GlobalScopeContribution; on: PlatformSet }>> | undefined;

  /**
   * The contributions to the global scope of manifest `key`, each with the platforms it holds on, in
   * the host's order: what every platform model's scope of `key` is made of, as one list.
   */
  globalContributionsOf(
    key: string,
  ): ReadonlyArray<{ contribution: GlobalScopeContribution; on: PlatformSet }> {
    if (!this.contributionsByKey) {
      this.contributionsByKey = new Map();
      for (const held of this.globalContributions()) {
        const list = this.contributionsByKey.get(held.contribution.key);
        if (list) list.push(held);
        else this.contributionsByKey.set(held.contribution.key, [held]);
      }
    }
    return this.contributionsByKey.get(key) ?? [];
  }

  /**
   * Every global scope contribution of every platform, with the platforms it holds on, in the host's
   * order: made once, not once per platform model, and shared by the models (and what rules cache per
   * contribution scope).
   */
  private globalContributions(): ReadonlyArray<{
    contribution: GlobalScopeContribution;
    on: PlatformSet;
  }> {
    // The lookup alone: every platform model asks, and a function whose one-time loop made it hot was
    // compiled twice (on-stack for the loop, then whole for the later calls); the walk is its own.
    return (this.contributions ??= this.walkGlobalContributions());
  }

  private walkGlobalContributions(): Array<{
    contribution: GlobalScopeContribution;
    on: PlatformSet;
  }> {
    const contributions: Array<{ contribution: GlobalScopeContribution; on: PlatformSet }> = [];
    // Only the grants with command-less leaves, listed as the grants were filed (most grants have none).
    const grants = this.grantsWithScopeOnly;
    for (let g = 0; g < grants.length; g++) {
      const grantIndex = grants[g]!;
      work.globalScopeGrantsWalked++;
      const expansion = this.grantExpansions[grantIndex]!;
      const scopeOnly = expansion.scopeOnly;
      const capabilityOn = this.capabilities[this.grantCapabilities[grantIndex]!]!.on;
      for (let i = 0; i < scopeOnly.length; i++) {
        const leafIndex = scopeOnly[i]!;
        const leaf = expansion.leaves[leafIndex]!;
        const on = capabilityOn & this.leafOn(leaf);
        if (on === 0) continue;
        const { provenance, scope } = this.sharedOf(grantIndex, leafIndex);
        contributions.push({
          contribution: { key: leaf.key, scope: scope ?? { allow: [], deny: [] }, provenance },
          on,
        });
      }
    }
    return contributions;
  }

  /** Which expansions list each command, built once on first use from the distinct identifiers granted. */
  /**
   * The sites of `command` on one side; {@link NO_SITES} when there are none (a fresh `[]` per miss was
   * of another elements kind than the lists, and threw away the optimised loops over them: wrong map).
   */
  private sitesOf(side: "allow" | "deny", command: string): readonly CommandSite[] {
    return this.commandSites()[side].get(command) ?? NO_SITES;
  }

  private commandSites(): { allow: Map<string, CommandSite[]>; deny: Map<string, CommandSite[]> } {
    if (!this.sites) {
      const allow = new Map<string, CommandSite[]>();
      const deny = new Map<string, CommandSite[]>();
      const add = (map: Map<string, CommandSite[]>, command: string, site: CommandSite) => {
        const list = map.get(command);
        if (list) list.push(site);
        else map.set(command, [site]);
      };
      for (const expansion of this.grantsOf.keys()) {
        expansion.leaves.forEach((leaf, i) => {
          for (const command of leaf.allowCommands) add(allow, command, { expansion, leaf: i });
          for (const command of leaf.denyCommands) add(deny, command, { expansion, leaf: i });
        });
      }
      this.sites = { allow, deny };
    }
    return this.sites;
  }
}

/**
 * The entry's extra scope comes first, then the leaf's own; null when neither side has a list. Copied
 * by indexed loops, not spreads: each spread is an iterator loop with its own exception edges in the
 * optimised graph of whatever inlines this (`makeShared`, run once per leaf).
 */
function scopeListsOf(
  entry: Pick<PermissionEntry, "allow" | "deny">,
  leaf: Leaf,
): ScopeLists | null {
  const entryAllow = Array.isArray(entry.allow) ? entry.allow : undefined;
  const entryDeny = Array.isArray(entry.deny) ? entry.deny : undefined;
  const own = leaf.permission.scope;
  const ownAllow = own?.allow;
  const ownDeny = own?.deny;
  if (!entryAllow && !entryDeny && !ownAllow && !ownDeny) return null;
  return { allow: joined(entryAllow, ownAllow), deny: joined(entryDeny, ownDeny) };
}

/** An entry without scope lists of its own. */
const NO_LISTS: Pick<PermissionEntry, "allow" | "deny"> = Object.freeze({});

/** A new list of `first`'s values then `second`'s. */
function joined(
  first: readonly ScopeValue[] | undefined,
  second: readonly unknown[] | undefined,
): ScopeValue[] {
  const out: ScopeValue[] = [];
  if (first) for (let i = 0; i < first.length; i++) out.push(first[i]);
  if (second) for (let i = 0; i < second.length; i++) out.push(second[i]);
  return out;
}

function provenanceOf(capability: Capability, entry: PermissionEntry, leaf: Leaf): EntryProvenance {
  return {
    capability: capability.identifier,
    file: capability.source.file,
    path: entry.path,
    chain: leaf.chain,
  };
}

/**
 * A capability as the resolution holds it. Its label and origin tests are compiled on first use: a
 * check never asks them (the access queries do), and two closures over five lists each (1 KB a
 * capability, 20 MB of bench row 6's 20,000) lived for the whole run. The tests are own properties
 * whose functions are shared, so a copy (`{ ...resolved, index }`, a platform's view) keeps them.
 */
interface PreparedCapability extends ResolvedCapability {
  /** Made by the first `matchesLabels` or `contextMatches` call. */
  tests: CompiledTests | undefined;
}

interface CompiledTests {
  windows: ReadonlyArray<(label: string) => boolean>;
  webviews: ReadonlyArray<(label: string) => boolean>;
  contexts: ReadonlyArray<(origin: Origin) => boolean>;
}

/** What most capabilities share: no webviews, no pattern problems, the local context alone. */
const NO_PATTERNS: readonly string[] = Object.freeze([]);
const NO_PATTERN_PROBLEMS: readonly PatternProblem[] = Object.freeze([]);
const LOCAL_CONTEXT: Context = Object.freeze({ kind: "local" });
const NO_CONTEXTS: readonly Context[] = Object.freeze([]);
const LOCAL_ONLY: readonly Context[] = Object.freeze([LOCAL_CONTEXT]);

function prepareCapability(capability: Capability, index: number): ResolvedCapability {
  const urls = capability.remote?.urls ?? NO_ITEMS;
  return new Prepared(
    capability,
    index,
    valuesOf(capability.windows).sort(compareCodePoints),
    capability.webviews.length === 0
      ? NO_PATTERNS
      : valuesOf(capability.webviews).sort(compareCodePoints),
    urls.length === 0
      ? capability.local
        ? LOCAL_ONLY
        : NO_CONTEXTS
      : contextsOf(capability, urls),
    patternProblemsOf(capability, urls),
  );
}

const NO_ITEMS: readonly ModelItem[] = Object.freeze([]);

/** The most grant and site pairs `allowGrantsIn` compares before leaving it to the command's grant list. */
const OWN_GRANT_WALK = 4096;

/**
 * The local context (when the capability has it), then one per remote URL: an indexed loop, not
 * spreads of a `map`, whose inlined copies in the resolution's loop were thrown away (wrong map) at
 * a later capability with URLs.
 */
function contextsOf(capability: Capability, urls: readonly ModelItem[]): Context[] {
  // One literal holding an object, emptied when there is no local context: every capability's list
  // then starts with the same elements kind (a `[]` literal would start another).
  const contexts: Context[] = [LOCAL_CONTEXT];
  if (!capability.local) contexts.pop();
  for (let u = 0; u < urls.length; u++) contexts.push(new RemoteContext(urls[u]!.value));
  return contexts;
}

/** A remote context (a constructor's object, in the literal's order: `{ kind, url }`). */
class RemoteContext {
  readonly kind = "remote";
  url: string;

  constructor(url: string) {
    this.url = url;
  }
}

/** Copied for each expansion's list of grants: no `[]` literal's allocation site (`Prepared`). */
const NO_GRANTS: number[] = [];

/** An active capability with the platforms it is active on (a constructor's object: `Prepared`). */
class ActiveCapability {
  resolved: ResolvedCapability;
  on: PlatformSet;

  constructor(resolved: ResolvedCapability, on: PlatformSet) {
    this.resolved = resolved;
    this.on = on;
  }
}

/**
 * Made by a constructor, not a literal: it lives for the run, and V8 throws away optimised code
 * whose literal objects it decides to allocate old (model/capability.ts). Every property is its own,
 * in the literal's order, the tests' functions too, so a copy keeps them.
 */
class Prepared implements PreparedCapability {
  capability: Capability;
  index: number;
  windows: readonly string[];
  webviews: readonly string[];
  contexts: readonly Context[];
  patternProblems: readonly PatternProblem[];
  matchesLabels: PreparedCapability["matchesLabels"];
  contextMatches: PreparedCapability["contextMatches"];
  tests: CompiledTests | undefined;

  constructor(
    capability: Capability,
    index: number,
    windows: readonly string[],
    webviews: readonly string[],
    contexts: readonly Context[],
    patternProblems: readonly PatternProblem[],
  ) {
    this.capability = capability;
    this.index = index;
    this.windows = windows;
    this.webviews = webviews;
    this.contexts = contexts;
    this.patternProblems = patternProblems;
    this.matchesLabels = matchesLabels;
    this.contextMatches = contextMatches;
    this.tests = undefined;
  }
}

/** Invalid patterns of a capability, in field order (each pattern's compilation is cached per string). */
function patternProblemsOf(
  capability: Capability,
  urls: readonly ModelItem[],
): readonly PatternProblem[] {
  // Indexed loops and no list of the fields: this runs once per capability (20,000 in bench row 6),
  // mostly before the optimiser compiles it, where each for-of step allocates.
  let problems = labelPatternProblems(undefined, "windows", capability.windows);
  problems = labelPatternProblems(problems, "webviews", capability.webviews);
  // An item's path is made when asked (model/capability.ts): only for a problem.
  for (let u = 0; u < urls.length; u++) {
    const pattern = urls[u]!.value;
    const strict = compileRemotePattern(pattern);
    if (!strict.ok)
      (problems ??= []).push({
        field: "remote.urls",
        path: urls[u]!.path,
        pattern,
        message: strict.message,
      });
  }
  return problems ?? NO_PATTERN_PROBLEMS;
}

function labelPatternProblems(
  problems: PatternProblem[] | undefined,
  field: "windows" | "webviews",
  items: readonly ModelItem[],
): PatternProblem[] | undefined {
  for (let i = 0; i < items.length; i++) {
    const pattern = items[i]!.value;
    const compiled = compileLabelPattern(pattern);
    if (!compiled.ok)
      (problems ??= []).push({ field, path: items[i]!.path, pattern, message: compiled.message });
  }
  return problems;
}

function matchesLabels(this: PreparedCapability, window: string, webview: string): boolean {
  const tests = (this.tests ??= compileTests(this));
  return (
    tests.webviews.some((match) => match(webview)) || tests.windows.some((match) => match(window))
  );
}

function contextMatches(this: PreparedCapability, contextIndex: number, origin: Origin): boolean {
  const tests = (this.tests ??= compileTests(this));
  return tests.contexts[contextIndex]?.(origin) ?? false;
}

/** The capability's tests in the order it writes its patterns; invalid patterns match nothing. */
function compileTests({ capability, contexts }: PreparedCapability): CompiledTests {
  const labelTests = (patterns: readonly ModelItem[]) => {
    const tests: Array<(label: string) => boolean> = [];
    for (const { value } of patterns) {
      const compiled = compileLabelPattern(value);
      if (compiled.ok) tests.push(compiled.match);
    }
    return tests;
  };
  return {
    windows: labelTests(capability.windows),
    webviews: labelTests(capability.webviews),
    contexts: contexts.map((context): ((origin: Origin) => boolean) => {
      if (context.kind === "local") return (origin) => origin.kind === "local";
      const compiled = compileRemotePattern(context.url, { allowUnsafe: true });
      if (!compiled.ok) return () => false;
      return (origin) => origin.kind === "remote" && compiled.test(origin.url);
    }),
  };
}
