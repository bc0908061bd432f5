import { removeArrayItem } from "../../core/fix/edits.js";
import type { PermissionEntry } from "../model/types.js";
import { defineRule } from "./types.js";

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
    for (const capability of context.capabilities) {
      const entries = capability.permissions;
      if (entries.length < 2) continue;
      firstAt.clear();
      for (let index = 0; index < entries.length; index++) {
        const entry = entries[index]!;
        const identifier = catalog.spellIdentifier(entry.identifier);
        const key = isScoped(entry) ? scopedKey(entry, identifier) : identifier;
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
