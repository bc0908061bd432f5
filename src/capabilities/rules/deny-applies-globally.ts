import type { Context, ResolvedModel } from "../engine/index.js";
import type { Capability } from "../model/types.js";
import { entryPath } from "../model/capability.js";
import { wordList } from "../../core/did-you-mean.js";
import { describeTargets, entryOf } from "./support/engine-helpers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "deny-applies-globally",
  description:
    "Report denies that block a command another capability allows for other windows: Tauri ignores a deny's windows and origins.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    globalDeny:
      'deny of {{command}} in capability "{{capability}}" ({{reach}}) also blocks it for {{others}}: {{framework}} applies a deny to every window, webview and origin',
  },
  async check(context) {
    const resolution = await context.resolution();
    // A deny that blocks the same capabilities on two sets of platforms is one finding, reported on the
    // first: per denying capability, the entries and commands with what they were found to block.
    const reported = new Map<Capability, Set<string>>();
    // Each denied command once per set of platforms it resolves alike on, not once per platform model.
    for (const { model, command } of resolution.deniedCommandSets()) {
      const denies = model.denied.get(command)!;
      // Who allows it is enough to judge and name them: no allow entries are made.
      const allowers = model.allowers(command);
      if (allowers.length === 0) continue;
      // Most commands are denied by a few capabilities: each looks at every allower once. Many
      // denies of one command share an index of the allowers, so the work stays linear.
      const denying = new Set(denies.map((deny) => deny.capabilityIndex)).size;
      let reachIndex: ReachIndex | undefined;
      // Who a deny blocks depends on its capability only: worked out once per denying capability.
      const victimsByCapability = new Map<number, Victims>();
      // A deny entry exists per context; one finding per capability entry is enough.
      const seen = new Set<string>();
      for (const deny of denies) {
        const key = `${deny.capabilityIndex}\u0000${JSON.stringify(deny.provenance.path)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const source = entryOf(model, deny);
        if (!source) continue;
        let victims = victimsByCapability.get(deny.capabilityIndex);
        if (!victims) {
          victims =
            denying <= SCANNED_DENIES
              ? scanVictims(model, deny.capabilityIndex, allowers)
              : victimsOf(
                  model,
                  deny.capabilityIndex,
                  (reachIndex ??= indexReach(model, allowers)),
                );
          victimsByCapability.set(deny.capabilityIndex, victims);
        }
        if (victims.count === 0) continue;
        // A few names, so that one deny among thousands of capabilities stays a one-line finding.
        const names = victims.first.map((capabilityIndex) => {
          const capability = model.capabilities[capabilityIndex]!.capability;
          return `"${capability.identifier}" (${describeReach(capability)})`;
        });
        if (victims.count > names.length) names.push(`${victims.count - names.length} more`);
        const others = `${victims.count > 1 ? "capabilities" : "capability"} ${wordList(names)}`;
        let before = reported.get(source.capability);
        if (!before) reported.set(source.capability, (before = new Set()));
        const finding = `${JSON.stringify(deny.provenance.path)}\u0000${command}\u0000${others}`;
        if (before.has(finding)) continue;
        before.add(finding);
        context.report({
          at: source.capability.source,
          path: entryPath(source.capability, deny.provenance.path),
          messageId: "globalDeny",
          data: {
            command,
            capability: source.capability.identifier,
            reach: describeReach(source.capability),
            framework: context.catalog.framework,
            others,
          },
          hint: "to keep the command from some windows, leave it out of their capabilities instead of denying it",
        });
      }
    }
  },
});

/** How many names a finding shows before "N more". */
const NAMED = 3;

/** Up to this many capabilities denying one command, each scans the allowers instead of sharing an index of them. */
const SCANNED_DENIES = 8;

/** Allowing capabilities that reach the same windows, webviews and origins: `covers` judges them alike. */
interface ReachGroup {
  /** Their capabilities, in the order of the command's allowers. */
  members: number[];
  /** Their places in that order. */
  order: number[];
  /** The origins they are granted on, as `contextKey`s. */
  origins: readonly string[];
}

/** Allowing capabilities as reach groups, indexed so that a deny finds the few it may cover without visiting all. */
interface ReachIndex {
  /** In the order of their first allower. */
  groups: ReachGroup[];
  total: number;
  groupOf: Map<number, ReachGroup>;
  /** A deny covers a group only on every label of it: groups are filed under their first window, else their first webview. */
  byFirstWindow: Map<string, ReachGroup[]>;
  byFirstWebview: Map<string, ReachGroup[]>;
  unlabelled: ReachGroup[];
  /** For a deny on every label (`*`), only origins decide: groups by their origins, in order, with their sizes. */
  byOrigins: Map<string, { origins: readonly string[]; groups: ReachGroup[]; size: number }>;
}

interface Victims {
  count: number;
  /** The first few capabilities, in the order of the command's allowers. */
  first: number[];
}

function indexReach(model: ResolvedModel, allowers: readonly number[]): ReachIndex {
  const byKey = new Map<string, ReachGroup>();
  const index: ReachIndex = {
    groups: [],
    total: 0,
    groupOf: new Map(),
    byFirstWindow: new Map(),
    byFirstWebview: new Map(),
    unlabelled: [],
    byOrigins: new Map(),
  };
  const file = (map: Map<string, ReachGroup[]>, key: string, group: ReachGroup) => {
    const list = map.get(key);
    if (list) list.push(group);
    else map.set(key, [group]);
  };
  for (const capabilityIndex of allowers) {
    const capability = model.capabilities[capabilityIndex]!;
    const key = reachKey(capability);
    let group = byKey.get(key);
    if (!group) {
      byKey.set(
        key,
        (group = { members: [], order: [], origins: capability.contexts.map(contextKey) }),
      );
      index.groups.push(group);
      if (capability.windows.length) file(index.byFirstWindow, capability.windows[0]!, group);
      else if (capability.webviews.length)
        file(index.byFirstWebview, capability.webviews[0]!, group);
      else index.unlabelled.push(group);
      const originsKey = JSON.stringify(group.origins);
      let bucket = index.byOrigins.get(originsKey);
      if (!bucket)
        index.byOrigins.set(originsKey, (bucket = { origins: group.origins, groups: [], size: 0 }));
      bucket.groups.push(group);
    }
    group.members.push(capabilityIndex);
    group.order.push(index.total++);
    index.groupOf.set(capabilityIndex, group);
  }
  for (const bucket of index.byOrigins.values())
    for (const group of bucket.groups) bucket.size += group.members.length;
  return index;
}

/**
 * The allowing capabilities a deny blocks that it was not aimed at: other capabilities whose reach the
 * deny's own does not cover. Only the groups filed under the deny's own labels can be covered, so the
 * work is in those and in the first few groups, not in every allower.
 */
function victimsOf(model: ResolvedModel, denying: number, index: ReachIndex): Victims {
  const own = index.groupOf.get(denying);
  const candidates: Array<{ order: number; capabilityIndex: number }> = [];
  /** Takes the first few victims of groups in order, skipping covered ones, until enough groups gave some. */
  const take = (groups: readonly ReachGroup[], isCovered: (group: ReachGroup) => boolean) => {
    let productive = 0;
    for (const group of groups) {
      if (productive === NAMED) break;
      if (isCovered(group)) continue;
      let taken = 0;
      for (let i = 0; i < group.members.length && taken < NAMED; i++) {
        if (group.members[i] === denying) continue;
        candidates.push({ order: group.order[i]!, capabilityIndex: group.members[i]! });
        taken++;
      }
      if (taken > 0) productive++;
    }
  };
  let count: number;
  const reach = reachOf(model.capabilities[denying]!);
  if (reach.everyLabel) {
    // Labels are all covered: a group is covered when the deny's origins include all of its own.
    const coveredOrigins = (origins: readonly string[]) =>
      origins.every((origin) => reach.origins.has(origin));
    count = 0;
    for (const bucket of index.byOrigins.values()) {
      if (coveredOrigins(bucket.origins)) continue;
      count += bucket.size;
      take(bucket.groups, () => false);
    }
    if (own && !coveredOrigins(own.origins)) count--;
  } else {
    const covered = new Set<ReachGroup>();
    const judge = (groups: readonly ReachGroup[] | undefined) => {
      for (const group of groups ?? [])
        if (covers(reach, model.capabilities[group.members[0]!]!)) covered.add(group);
    };
    for (const window of reach.windows) judge(index.byFirstWindow.get(window));
    for (const webview of reach.webviews) judge(index.byFirstWebview.get(webview));
    judge(index.unlabelled);
    count = index.total;
    for (const group of covered) count -= group.members.length;
    if (own && !covered.has(own)) count--;
    take(index.groups, (group) => covered.has(group));
  }
  candidates.sort((a, b) => a.order - b.order);
  return { count, first: candidates.slice(0, NAMED).map((c) => c.capabilityIndex) };
}

/**
 * By the model's capability: each platform model has its own resolved copy of a capability, but the
 * windows, webviews and contexts the engine prepares are the capability's own (the same on every
 * platform), so one key serves every model.
 */
const reachKeys = new WeakMap<Capability, string>();

/** What `covers` looks at of an allowing capability, as one string. */
function reachKey(capability: ResolvedModel["capabilities"][number]): string {
  let key = reachKeys.get(capability.capability);
  if (key === undefined) {
    key = JSON.stringify([
      capability.windows,
      capability.webviews,
      capability.contexts.map(contextKey),
    ]);
    reachKeys.set(capability.capability, key);
  }
  return key;
}

/** Windows and webviews, and the origins when they are not just the app's own pages. */
function describeReach(capability: Capability): string {
  const urls = (capability.remote?.urls ?? []).map((url) => `"${url.value}"`).join(", ");
  const origins = urls
    ? capability.local
      ? `; local and remote ${urls}`
      : `; remote ${urls} only`
    : capability.local
      ? ""
      : "; no origin";
  return describeTargets(capability) + origins;
}

/**
 * The allowing capabilities a deny blocks that it was not aimed at, by looking at each: what
 * `victimsOf` finds through the index (the allowers it does not cover, the first few in order).
 */
function scanVictims(model: ResolvedModel, denying: number, allowers: readonly number[]): Victims {
  const reach = reachOf(model.capabilities[denying]!);
  const victims: Victims = { count: 0, first: [] };
  for (const allowing of allowers) {
    if (allowing === denying || covers(reach, model.capabilities[allowing]!)) continue;
    victims.count++;
    if (victims.first.length < NAMED) victims.first.push(allowing);
  }
  return victims;
}

/**
 * A deny whose own windows, webviews and origins already include everything the allow reaches blocks
 * nothing it was not aimed at (a `windows: ["*"]` lockdown, or a deny with the allow's very targets).
 */
function covers(deny: Reach, allowing: ResolvedModel["capabilities"][number]): boolean {
  // Plain loops: a deny is compared with every allower of its command.
  if (!deny.everyLabel) {
    for (const window of allowing.windows) if (!deny.windows.has(window)) return false;
    for (const webview of allowing.webviews) if (!deny.webviews.has(webview)) return false;
  }
  for (const context of allowing.contexts) if (!deny.origins.has(contextKey(context))) return false;
  return true;
}

interface Reach {
  everyLabel: boolean;
  windows: ReadonlySet<string>;
  webviews: ReadonlySet<string>;
  origins: ReadonlySet<string>;
}

/** By the model's capability, as `reachKeys`: a deny's reach is the same on every platform. */
const reaches = new WeakMap<Capability, Reach>();
const contextKey = (c: Context) => (c.kind === "local" ? "local" : `remote ${c.url}`);

/** What a denying capability reaches, computed once per capability rather than once per allow it is compared with. */
function reachOf(capability: ResolvedModel["capabilities"][number]): Reach {
  let reach = reaches.get(capability.capability);
  if (!reach) {
    const all = (patterns: readonly string[]) => patterns.includes("*") || patterns.includes("**");
    reach = {
      everyLabel: all(capability.windows) || all(capability.webviews),
      windows: new Set(capability.windows),
      webviews: new Set(capability.webviews),
      origins: new Set(capability.contexts.map(contextKey)),
    };
    reaches.set(capability.capability, reach);
  }
  return reach;
}
