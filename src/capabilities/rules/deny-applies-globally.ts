import type { Context, ResolvedCommand, ResolvedModel } from "../engine/index.js";
import type { Capability } from "../model/types.js";
import { entryPath } from "../model/capability.js";
import { describeTargets, entryOf } from "./support/engine-helpers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "deny-applies-globally",
  description: "Report denies that block a command another capability allows for other windows: the host ignores a deny's windows and origins.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    globalDeny:
      'deny of {{command}} in capability "{{capability}}" ({{reach}}) also blocks it for {{others}}: the host applies a deny to every window, webview and origin',
  },
  async check(context) {
    for (const model of (await context.resolution()).distinctModels) {
      for (const [command, denies] of model.denied) {
        // One allow per capability is enough to judge and name it.
        const allowers = new Map<number, ResolvedCommand>();
        for (const allow of model.allowed.get(command) ?? []) if (!allowers.has(allow.capabilityIndex)) allowers.set(allow.capabilityIndex, allow);
        if (allowers.size === 0) continue;
        const groups = groupByReach(model, allowers);
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
          if (!victims) victimsByCapability.set(deny.capabilityIndex, (victims = victimsOf(model, deny, groups)));
          if (victims.count === 0) continue;
          // A few names, so that one deny among thousands of capabilities stays a one-line finding.
          const names = victims.first.map((allow) => {
            const capability = model.capabilities[allow.capabilityIndex]!.capability;
            return `"${capability.identifier}" (${describeReach(capability)})`;
          });
          if (victims.count > names.length) names.push(`${victims.count - names.length} more`);
          context.report({
            at: source.capability.source,
            path: entryPath(source.capability, deny.provenance.path),
            messageId: "globalDeny",
            data: {
              command,
              capability: source.capability.identifier,
              reach: describeReach(source.capability),
              others: `${victims.count > 1 ? "capabilities" : "capability"} ${names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0]}`,
            },
            hint: "to keep the command from some windows, leave it out of their capabilities instead of denying it",
          });
        }
      }
    }
  },
});

/** How many names a finding shows before "N more". */
const NAMED = 3;

/** Allowing capabilities that reach the same windows, webviews and origins: `covers` judges them alike. */
interface ReachGroup {
  /** Their allows, in the order of the command's allowers. */
  allows: ResolvedCommand[];
  /** Their places in that order. */
  order: number[];
  capabilities: ReadonlySet<number>;
}

interface Victims {
  count: number;
  /** The first few, in the order of the command's allowers. */
  first: ResolvedCommand[];
}

function groupByReach(model: ResolvedModel, allowers: ReadonlyMap<number, ResolvedCommand>): ReachGroup[] {
  const groups = new Map<string, ReachGroup & { capabilities: Set<number> }>();
  let order = 0;
  for (const [capabilityIndex, allow] of allowers) {
    const key = reachKey(model.capabilities[capabilityIndex]!);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { allows: [], order: [], capabilities: new Set() }));
    group.allows.push(allow);
    group.order.push(order++);
    group.capabilities.add(capabilityIndex);
  }
  return [...groups.values()];
}

/**
 * The allowing capabilities a deny blocks that it was not aimed at: other capabilities whose reach the
 * deny's own does not cover. Linear in the number of reach groups, not of allowers.
 */
function victimsOf(model: ResolvedModel, deny: ResolvedCommand, groups: readonly ReachGroup[]): Victims {
  let count = 0;
  const candidates: Array<{ order: number; allow: ResolvedCommand }> = [];
  for (const group of groups) {
    if (covers(model, deny, group.allows[0]!)) continue;
    const own = group.capabilities.has(deny.capabilityIndex);
    count += group.allows.length - (own ? 1 : 0);
    let taken = 0;
    for (let i = 0; i < group.allows.length && taken < NAMED; i++) {
      if (group.allows[i]!.capabilityIndex === deny.capabilityIndex) continue;
      candidates.push({ order: group.order[i]!, allow: group.allows[i]! });
      taken++;
    }
  }
  candidates.sort((a, b) => a.order - b.order);
  return { count, first: candidates.slice(0, NAMED).map((c) => c.allow) };
}

const reachKeys = new WeakMap<object, string>();

/** What `covers` looks at of an allowing capability, as one string. */
function reachKey(capability: ResolvedModel["capabilities"][number]): string {
  let key = reachKeys.get(capability);
  if (key === undefined) {
    key = JSON.stringify([capability.windows, capability.webviews, capability.contexts.map(contextKey)]);
    reachKeys.set(capability, key);
  }
  return key;
}

/** Windows and webviews, and the origins when they are not just the app's own pages. */
function describeReach(capability: Capability): string {
  const urls = (capability.remote?.urls ?? []).map((url) => `"${url.value}"`).join(", ");
  const origins = urls ? (capability.local ? `; local and remote ${urls}` : `; remote ${urls} only`) : capability.local ? "" : "; no origin";
  return describeTargets(capability) + origins;
}

/**
 * A deny whose own windows, webviews and origins already include everything the allow reaches blocks
 * nothing it was not aimed at (a `windows: ["*"]` lockdown, or a deny with the allow's very targets).
 */
function covers(model: ResolvedModel, deny: ResolvedCommand, allow: ResolvedCommand): boolean {
  const a = model.capabilities[allow.capabilityIndex]!;
  const d = reachOf(model.capabilities[deny.capabilityIndex]!);
  const labels = d.everyLabel || (a.windows.every((w) => d.windows.has(w)) && a.webviews.every((w) => d.webviews.has(w)));
  return labels && a.contexts.every((c) => d.origins.has(contextKey(c)));
}

interface Reach {
  everyLabel: boolean;
  windows: ReadonlySet<string>;
  webviews: ReadonlySet<string>;
  origins: ReadonlySet<string>;
}

const reaches = new WeakMap<object, Reach>();
const contextKey = (c: Context) => (c.kind === "local" ? "local" : `remote ${c.url}`);

/** What a denying capability reaches, computed once per capability rather than once per allow it is compared with. */
function reachOf(capability: ResolvedModel["capabilities"][number]): Reach {
  let reach = reaches.get(capability);
  if (!reach) {
    const all = (patterns: readonly string[]) => patterns.includes("*") || patterns.includes("**");
    reach = {
      everyLabel: all(capability.windows) || all(capability.webviews),
      windows: new Set(capability.windows),
      webviews: new Set(capability.webviews),
      origins: new Set(capability.contexts.map(contextKey)),
    };
    reaches.set(capability, reach);
  }
  return reach;
}
