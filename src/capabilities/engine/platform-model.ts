/**
 * One platform's view of a resolution (src/capabilities/engine/resolve.ts): the model rules and
 * queries read. Platforms that resolve alike share one `ModelCore`; its command entries are built per
 * command on first use (`LazyEntries`), so a check that looks at a few commands never builds the rest.
 */
import type { Catalog } from "../catalog/catalog.js";
import type { Capability } from "../model/types.js";
import type { Expansion } from "./expand.js";
import type { PlatformSet } from "./platform-set.js";
import { work } from "../work.js";
import type {
  CommandEntries,
  EntryProvenance,
  GlobalScope,
  ResolutionProblem,
  ResolvedCapability,
  ResolvedCommand,
  ResolvedModel,
  ScopeLists,
} from "./model.js";

/** A command's grants as parallel lists: grant `grants[i]` has it through its leaf `leaves[i]`. */
export interface GrantLeaves {
  grants: Int32Array;
  leaves: Int32Array;
}

/**
 * Where a capability's grants are in a command's grants: `[from, to)` of `found`, given the
 * capability's range of grant indices (`grantRange`). A capability's grants are one range of grant
 * indices and a command's grants are in order, so a binary search finds the start: a lookup costs
 * the capability's own grants, not all of the command's.
 */
export function grantsWithin(found: GrantLeaves, [first, end]: [number, number]): [number, number] {
  const grants = found.grants;
  let low = 0;
  let high = grants.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (grants[mid]! < first) low = mid + 1;
    else high = mid;
  }
  let stop = low;
  while (stop < grants.length && grants[stop]! < end) stop++;
  return [low, stop];
}

/** What a platform's view reads from the resolution of every platform (`Resolution` is one). */
export interface PlatformSource {
  readonly catalog: Catalog;
  readonly platforms: readonly string[];
  readonly capabilities: ReadonlyArray<{ resolved: ResolvedCapability; on: PlatformSet }>;
  readonly problems: readonly ResolutionProblem[];
  inactiveOn(bit: number): Capability[];
  globalScopeOn(bit: number): Map<string, GlobalScope>;
  commandsOn(side: "allow" | "deny", bit: number): string[];
  allowedCommandLists(capabilityIndex: number, bit: number): Array<readonly string[]>;
  grantsOfCommand(side: "allow" | "deny", command: string, bit: number): GrantLeaves;
  allowersOn(command: string, bit: number): number[];
  allowGrantsIn(command: string, capabilityIndex: number, bit: number): GrantLeaves | undefined;
  capabilityOfGrant(index: number): number;
  grantRange(capabilityIndex: number): [number, number];
  /** What the identifier of grant `index` (one permission entry of an active capability) expands to. */
  grantExpansion(index: number): Expansion;
  sharedOf(
    grantIndex: number,
    leafIndex: number,
  ): { provenance: EntryProvenance; scope: ScopeLists | null };
}

/** The data of one platform's model, shared by platforms that resolve alike; entries are built per command on first use. */
export class ModelCore {
  readonly catalog: Catalog;
  readonly capabilities: ResolvedCapability[] = [];
  readonly allowed: LazyEntries;
  readonly denied: LazyEntries;
  private inactiveCache: Capability[] | undefined;
  private globalCache: Map<string, GlobalScope> | undefined;
  private problemsCache: ResolutionProblem[] | undefined;
  /** Index into `capabilities` by index into the resolution's capabilities. */
  private readonly localIndex: Int32Array;
  /** Index into the resolution's capabilities by index into `capabilities`. */
  private readonly globalIndex: number[] = [];

  constructor(
    private readonly resolution: PlatformSource,
    private readonly bit: number,
  ) {
    this.catalog = resolution.catalog;
    this.localIndex = new Int32Array(resolution.capabilities.length).fill(-1);
    resolution.capabilities.forEach(({ resolved, on }, i) => {
      if (!(on & (1 << bit))) return;
      this.localIndex[i] = this.capabilities.length;
      this.globalIndex.push(i);
      this.capabilities.push(
        resolution.platforms.length === 1
          ? resolved
          : { ...resolved, index: this.capabilities.length },
      );
    });
    this.allowed = new LazyEntries(this, "allow");
    this.denied = new LazyEntries(this, "deny");
  }

  get inactive(): Capability[] {
    return (this.inactiveCache ??= this.resolution.inactiveOn(this.bit));
  }

  /** Where capability `resolutionIndex` (into the resolution's capabilities) is in `capabilities`; -1 when inactive here. */
  localIndexOf(resolutionIndex: number): number {
    return this.localIndex[resolutionIndex] ?? -1;
  }

  get globalScope(): Map<string, GlobalScope> {
    return (this.globalCache ??= this.resolution.globalScopeOn(this.bit));
  }

  get problems(): ResolutionProblem[] {
    const platform = this.resolution.platforms[this.bit]!;
    return (this.problemsCache ??= this.resolution.problems.filter((p) =>
      p.platforms.includes(platform),
    ));
  }

  commands(side: "allow" | "deny"): string[] {
    return this.resolution.commandsOn(side, this.bit);
  }

  allowedCommandLists(capabilityIndex: number): ReadonlyArray<readonly string[]> {
    return this.resolution.allowedCommandLists(this.globalIndex[capabilityIndex]!, this.bit);
  }

  private readonly allowSites = new Map<string, GrantLeaves>();
  private readonly allowerCache = new Map<string, number[]>();

  /** The command's allow grants on this platform, in the host's order; made once per command. */
  private allowGrants(command: string): GrantLeaves {
    let found = this.allowSites.get(command);
    if (!found)
      this.allowSites.set(
        command,
        (found = this.resolution.grantsOfCommand("allow", command, this.bit)),
      );
    return found;
  }

  allowers(command: string): readonly number[] {
    let allowers = this.allowerCache.get(command);
    if (!allowers) {
      // From the expansions' grants, not the command's grant list (local indices keep the order).
      allowers = this.resolution
        .allowersOn(command, this.bit)
        .map((capability) => this.localIndex[capability]!);
      this.allowerCache.set(command, allowers);
    }
    return allowers;
  }

  allowsIn(command: string, capabilityIndex: number): ResolvedCommand[] {
    const global = this.globalIndex[capabilityIndex];
    if (global === undefined) return [];
    // Without the command's grants listed, the capability's own grants are walked (a few dozen)
    // rather than every grant of the command listed and sorted.
    const own = this.allowSites.has(command)
      ? undefined
      : this.resolution.allowGrantsIn(command, global, this.bit);
    if (own) return this.entriesOf(command, own, 0, own.grants.length);
    const found = this.allowGrants(command);
    const [from, to] = grantsWithin(found, this.resolution.grantRange(global));
    return this.entriesOf(command, found, from, to);
  }

  entries(side: "allow" | "deny", command: string): ResolvedCommand[] {
    const found =
      side === "allow"
        ? this.allowGrants(command)
        : this.resolution.grantsOfCommand(side, command, this.bit);
    return this.entriesOf(command, found, 0, found.grants.length);
  }

  /** The entries of grants `from` to `to` (exclusive) of a command's grants. */
  private entriesOf(
    command: string,
    found: GrantLeaves,
    from: number,
    to: number,
  ): ResolvedCommand[] {
    const entries: ResolvedCommand[] = [];
    for (let i = from; i < to; i++) {
      const grantIndex = found.grants[i]!;
      const leafIndex = found.leaves[i]!;
      const leaf = this.resolution.grantExpansion(grantIndex).leaves[leafIndex]!;
      const capability =
        this.capabilities[this.localIndex[this.resolution.capabilityOfGrant(grantIndex)]!]!;
      const { provenance, scope } = this.resolution.sharedOf(grantIndex, leafIndex);
      for (let contextIndex = 0; contextIndex < capability.contexts.length; contextIndex++) {
        entries.push({
          command,
          key: leaf.key,
          permission: leaf.name,
          context: capability.contexts[contextIndex]!,
          windows: capability.windows,
          webviews: capability.webviews,
          scope,
          capabilityIndex: capability.index,
          contextIndex,
          provenance,
        });
      }
    }
    work.resolvedEntries += entries.length;
    return entries;
  }
}

/** One platform's model: the shared data of its group of alike platforms, under its own name. */
export class PlatformModel implements ResolvedModel {
  constructor(
    private readonly core: ModelCore,
    readonly platform: string,
  ) {}

  get catalog(): Catalog {
    return this.core.catalog;
  }

  get capabilities(): ResolvedCapability[] {
    return this.core.capabilities;
  }

  get inactive(): Capability[] {
    return this.core.inactive;
  }

  get allowed(): CommandEntries {
    return this.core.allowed;
  }

  get denied(): CommandEntries {
    return this.core.denied;
  }

  get globalScope(): Map<string, GlobalScope> {
    return this.core.globalScope;
  }

  get problems(): ResolutionProblem[] {
    return this.core.problems;
  }

  allowedCommandLists(capabilityIndex: number): ReadonlyArray<readonly string[]> {
    return this.core.allowedCommandLists(capabilityIndex);
  }

  allowers(command: string): readonly number[] {
    return this.core.allowers(command);
  }

  allowsIn(command: string, capabilityIndex: number): ResolvedCommand[] {
    return this.core.allowsIn(command, capabilityIndex);
  }
}

/**
 * A read-only map from command to entries that builds each command's list on first `get`. Iterating
 * it builds every list: queries that show everything pay for everything, rules that ask for a few
 * commands pay for those.
 */
class LazyEntries implements CommandEntries {
  private readonly built = new Map<string, ResolvedCommand[]>();
  private names: string[] | undefined;

  constructor(
    private readonly model: ModelCore,
    private readonly side: "allow" | "deny",
  ) {}

  private commands(): string[] {
    return (this.names ??= this.model.commands(this.side));
  }

  get(command: string): ResolvedCommand[] | undefined {
    let entries = this.built.get(command);
    if (!entries) {
      entries = this.model.entries(this.side, command);
      this.built.set(command, entries);
    }
    return entries.length ? entries : undefined;
  }

  has(command: string): boolean {
    return this.get(command) !== undefined;
  }

  get size(): number {
    return this.commands().length;
  }

  *keys(): Generator<string> {
    yield* this.commands();
  }

  *values(): Generator<ResolvedCommand[]> {
    for (const command of this.commands()) yield this.get(command)!;
  }

  *entries(): Generator<[string, ResolvedCommand[]]> {
    for (const command of this.commands()) yield [command, this.get(command)!];
  }

  [Symbol.iterator](): Generator<[string, ResolvedCommand[]]> {
    return this.entries();
  }
}
