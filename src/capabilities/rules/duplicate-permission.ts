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
    for (const capability of context.capabilities) {
      const seen = new Map<string, PermissionEntry>();
      for (const entry of capability.permissions) {
        const key = duplicateKey(entry, context.catalog.spellIdentifier(entry.identifier));
        const first = seen.get(key);
        if (!first) {
          seen.set(key, entry);
          continue;
        }
        const index = capability.permissions.indexOf(first);
        context.report({
          at: capability.source,
          path: entry.path,
          messageId: "duplicate",
          data: { identifier: entry.identifier, index },
          hint: "remove this entry",
          fix: (document) =>
            removeArrayItem(document, entry.path, `remove duplicate "${entry.identifier}"`),
        });
      }
    }
  },
});

/**
 * A string and a scope-less object with the same identifier grant the same thing (either spelling of the
 * brand word too); scoped objects differ by scope.
 */
function duplicateKey(entry: PermissionEntry, identifier: string): string {
  const scoped =
    (entry.allow !== undefined && entry.allow !== null) ||
    (entry.deny !== undefined && entry.deny !== null);
  return scoped
    ? JSON.stringify([identifier, entry.allow ?? null, entry.deny ?? null])
    : identifier;
}
