import { removeArrayItem } from "../../core/fix/edits.js";
import type { PermissionEntry } from "../model/types.js";
import { defineRule } from "./types.js";

/** In `pendingScoped`: the identifier's scoped entries have their keys in `firstAt` already. */
const KEYED = -1;

export default defineRule({
  id: "duplicate-permission",
  description:
    "Report a permission granted twice in one capability (Tauri accepts repeats; editors using the schema flag them).",
  category: "suspicious",
  // A repeat grants nothing more: it changes nothing at run time.
  defaultSeverity: "suggestion",
  fixable: true,
  scope: "document",
  messages: { duplicate: 'permission "{{identifier}}" is already listed at entry {{index}}' },
  check(context) {
    const catalog = context.catalog;
    // Made once and cleared per capability; the index of each key's first entry (no `indexOf` per repeat).
    const firstAt = new Map<string, number>();
    /**
     * A scoped entry's key is its scope written out (`JSON.stringify`), needed only when another
     * scoped entry names the same identifier: until then the first one waits here, by identifier.
     */
    const pendingScoped = new Map<string, number>();
    for (const capability of context.capabilities) {
      const entries = capability.permissions;
      if (entries.length < 2) continue;
      firstAt.clear();
      pendingScoped.clear();
      // A plain identifier that looks like a scoped key (`["a",…]`) could equal one: every scoped key is
      // made at once from then on, so a pending entry is never missed.
      let keyEveryScope = false;
      for (let index = 0; index < entries.length; index++) {
        const entry = entries[index]!;
        const identifier = catalog.spellIdentifier(entry.identifier);
        let key = identifier;
        if (isScoped(entry)) {
          if (!keyEveryScope) {
            const pending = pendingScoped.get(identifier);
            if (pending === undefined) {
              pendingScoped.set(identifier, index);
              continue;
            }
            if (pending !== KEYED) {
              firstAt.set(scopedKey(entries[pending]!, identifier), pending);
              pendingScoped.set(identifier, KEYED);
            }
          }
          key = scopedKey(entry, identifier);
        } else if (!keyEveryScope && identifier.startsWith("[")) {
          keyEveryScope = true;
          for (const [pendingIdentifier, pending] of pendingScoped)
            if (pending !== KEYED)
              firstAt.set(scopedKey(entries[pending]!, pendingIdentifier), pending);
        }
        const first = firstAt.get(key);
        if (first === undefined) {
          firstAt.set(key, index);
          continue;
        }
        context.report({
          at: capability.source,
          path: entry.path,
          messageId: "duplicate",
          data: { identifier: entry.identifier, index: first },
          hint: "remove this entry",
          fix: (document) =>
            removeArrayItem(document, entry.path, `remove duplicate "${entry.identifier}"`),
        });
      }
    }
  },
});

function isScoped(entry: PermissionEntry): boolean {
  return (
    (entry.allow !== undefined && entry.allow !== null) ||
    (entry.deny !== undefined && entry.deny !== null)
  );
}

/**
 * A string and a scope-less object with the same identifier grant the same thing (either spelling of the
 * brand word too): their key is the identifier. Scoped objects differ by scope.
 */
function scopedKey(entry: PermissionEntry, identifier: string): string {
  return JSON.stringify([identifier, entry.allow ?? null, entry.deny ?? null]);
}
