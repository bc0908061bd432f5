import { removeArrayItem } from "../diagnostics/fixes.js";
import type { ResolvedModel } from "../engine/index.js";
import type { Capability, PermissionEntry } from "../model/types.js";
import { leafOf } from "./engine-helpers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "redundant-permission",
  description: "Report permissions already granted by a set listed in the same capability (`core:default` with `core:window:allow-title`).",
  category: "style",
  defaultSeverity: "warning",
  fixable: true,
  async check(context) {
    const models = await context.resolutions();
    for (const capability of context.capabilities) {
      const perPlatform = models
        .map((model) => leafSetsOf(model, capability))
        .filter((sets): sets is Map<PermissionEntry, Set<string>> => sets !== undefined);
      if (perPlatform.length === 0) continue;
      for (const entry of capability.permissions) {
        if (hasScope(entry)) continue;
        // The covering set must cover it on every platform the capability is active on.
        const coveringSets = capability.permissions.filter(
          (other) =>
            other !== entry &&
            other.identifier !== entry.identifier &&
            !hasScope(other) &&
            perPlatform.every((sets) => {
              const mine = sets.get(entry);
              const theirs = sets.get(other);
              return mine !== undefined && mine.size > 0 && theirs !== undefined && theirs.size > mine.size && [...mine].every((leaf) => theirs.has(leaf));
            }),
        );
        const cover = coveringSets[0];
        if (!cover) continue;
        context.report({
          at: capability.source,
          path: entry.path,
          message: `"${entry.identifier}" is already granted by "${cover.identifier}" in this capability`,
          hint: "remove it",
          fix: (document) => removeArrayItem(document, entry.path, `remove "${entry.identifier}", granted by "${cover.identifier}"`),
        });
      }
    }
  },
});

function hasScope(entry: PermissionEntry): boolean {
  return (entry.allow !== undefined && entry.allow !== null) || (entry.deny !== undefined && entry.deny !== null);
}

/** Leaf permissions each entry of the capability expands to on this platform; undefined when inactive. */
function leafSetsOf(model: ResolvedModel, capability: Capability): Map<PermissionEntry, Set<string>> | undefined {
  const resolved = model.capabilities.find((c) => c.capability === capability);
  if (!resolved) return undefined;
  const byPath = new Map(capability.permissions.map((entry) => [JSON.stringify(entry.path), entry]));
  const sets = new Map<PermissionEntry, Set<string>>(capability.permissions.map((entry) => [entry, new Set<string>()]));
  const add = (path: readonly (string | number)[], leaf: string) => {
    const entry = byPath.get(JSON.stringify(path));
    if (entry) sets.get(entry)!.add(leaf);
  };
  for (const list of [model.allowed, model.denied]) {
    for (const entries of list.values()) for (const command of entries) if (command.capabilityIndex === resolved.index) add(command.provenance.path, leafOf(command));
  }
  for (const global of model.globalScope.values()) {
    for (const contribution of global.contributions) {
      if (contribution.provenance.capability === capability.identifier && contribution.provenance.file === capability.source.file) {
        add(contribution.provenance.path, contribution.provenance.chain[contribution.provenance.chain.length - 1] ?? "");
      }
    }
  }
  return sets;
}
