import { removeArrayItem } from "../../core/fix/edits.js";
import { expandIdentifier, qualifiedIdentifier } from "../engine/index.js";
import { TARGETS, type PermissionEntry } from "../model/types.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "redundant-permission",
  description:
    "Report permissions already granted by a set listed in the same capability (`core:default` with `core:window:allow-title`, `shell:default` with `shell:allow-open`).",
  category: "style",
  defaultSeverity: "warning",
  fixable: true,
  messages: { redundant: '"{{permission}}" is already granted by "{{grantedBy}}"{{via}} in this capability' },
  check(context) {
    // Leaf sets depend only on the identifier and the platform, so each is computed once.
    const cache = new Map<string, Map<string, Set<string>>>();
    const leavesOf = (identifier: string, platform: string) => {
      let byPlatform = cache.get(identifier);
      if (!byPlatform) cache.set(identifier, (byPlatform = new Map()));
      let leaves = byPlatform.get(platform);
      if (!leaves) {
        leaves = new Set(
          expandIdentifier(context.catalog, identifier)
            .leaves.filter((leaf) => leaf.permission.platforms === undefined || leaf.permission.platforms.includes(platform))
            .map((leaf) => qualifiedIdentifier(leaf.key, leaf.name)),
        );
        byPlatform.set(platform, leaves);
      }
      return leaves;
    };
    const chainTo = (identifier: string, leaf: string) =>
      expandIdentifier(context.catalog, identifier).leaves.find((l) => qualifiedIdentifier(l.key, l.name) === leaf)?.chain;
    // Whether an identifier's leaves differ by platform; most do not, and then one platform answers.
    const platformDependent = (identifier: string) =>
      expandIdentifier(context.catalog, identifier).leaves.some((leaf) => leaf.permission.platforms !== undefined);
    // A set (or default) reaches its leaves through itself: a one-member set (`shell:default`, which is
    // `shell:allow-open`) still covers the permission it holds.
    const isSet = (identifier: string) => expandIdentifier(context.catalog, identifier).leaves.some((leaf) => leaf.chain.length > 1);
    /**
     * Which candidates are covered, and by which, as [entry, cover] indices: it depends only on the
     * identifiers and the platforms, so capabilities written alike (copies, one per window) share one answer.
     */
    const decided = new Map<string, Array<[number, number]>>();
    const decide = (identifiers: readonly string[], platforms: readonly string[]): Array<[number, number]> => {
      const key = `${platforms.join(",")}\u0000${identifiers.join("\u0000")}`;
      let covered = decided.get(key);
      if (covered) return covered;
      covered = [];
      // Only sets can cover another entry.
      const sets: number[] = [];
      identifiers.forEach((identifier, i) => {
        if (isSet(identifier) && platforms.some((platform) => leavesOf(identifier, platform).size > 0)) sets.push(i);
      });
      if (sets.length > 0) {
        identifiers.forEach((identifier, i) => {
          // The covering set must cover it on every platform the capability is active on.
          const cover = sets.find(
            (other) =>
              other !== i &&
              identifiers[other] !== identifier &&
              platforms.every((platform) => {
                const mine = leavesOf(identifier, platform);
                const theirs = leavesOf(identifiers[other]!, platform);
                // Equal leaves: the set covers a plain permission, not another set (neither is the redundant one).
                if (mine.size === 0 || theirs.size < mine.size || (theirs.size === mine.size && isSet(identifier))) return false;
                for (const leaf of mine) if (!theirs.has(leaf)) return false;
                return true;
              }),
          );
          if (cover !== undefined) covered!.push([i, cover]);
        });
      }
      decided.set(key, covered);
      return covered;
    };
    for (const capability of context.capabilities) {
      const active = TARGETS.filter((p) => capability.platforms === undefined || capability.platforms.some((item) => item.value === p));
      if (active.length === 0) continue;
      const candidates = capability.permissions.filter((entry) => !hasScope(entry));
      const anyDependent = candidates.some((entry) => platformDependent(entry.identifier));
      const platforms = anyDependent ? active : active.slice(0, 1);
      for (const [index, coverIndex] of decide(
        candidates.map((entry) => entry.identifier),
        platforms,
      )) {
        const entry = candidates[index]!;
        const cover = candidates[coverIndex]!;
        // A single permission deep inside a set: show the way down (core:default › core:window:default › …).
        const mine = [...leavesOf(entry.identifier, platforms[0]!)];
        const chain = mine.length === 1 ? chainTo(cover.identifier, mine[0]!) : undefined;
        const via = chain && chain.length > 2 ? ` (${chain.join(" › ")})` : "";
        context.report({
          at: capability.source,
          path: entry.extended ? [...entry.path, "identifier"] : entry.path,
          messageId: "redundant",
          // The stylish reporter groups a capability's many redundant entries into one finding by `capability`.
          data: { capability: capability.identifier, permission: entry.identifier, grantedBy: cover.identifier, via },
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
