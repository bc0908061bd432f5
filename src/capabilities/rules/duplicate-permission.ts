import { removeArrayItem } from "../../core/fix/edits.js";
import type { Catalog } from "../catalog/catalog.js";
import type { PermissionEntry } from "../model/types.js";
import { capabilityStart, entryIdentifiers, hasScopeList } from "./support/entry-identifiers.js";
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
    const entries = context.entries();
    const index = entryIdentifiers(entries);
    const spelling = spellingNumbers(index.identifiers, catalog);
    // A plain entry's key is its spelling's number: the capability (a stamp) in which each spelling
    // was last seen and the index of its first entry there, no map cleared and filled per capability.
    const seenIn = new Int32Array(spelling.count).fill(-1);
    const firstIndex = new Int32Array(spelling.count);
    // Scoped entries (and any capability not in the entries list) are keyed by text, as before:
    // made once and cleared per capability; the index of each key's first entry.
    const firstAt = new Map<string, number>();
    const capabilities = context.capabilities;
    for (let c = 0; c < capabilities.length; c++) {
      const capability = capabilities[c]!;
      const permissions = capability.permissions;
      if (permissions.length < 2) continue;
      const start = capabilityStart(index, entries, capability);
      if (firstAt.size > 0) firstAt.clear();
      for (let e = 0; e < permissions.length; e++) {
        const entry = permissions[e]!;
        let first: number | undefined;
        const number = start === undefined ? -1 : index.numberOf[start + e]!;
        const spelled = number >= 0 ? spelling.numberOf[number]! : -1;
        if (spelled >= 0 && !hasScopeList(entry)) {
          if (seenIn[spelled] !== c) {
            seenIn[spelled] = c;
            firstIndex[spelled] = e;
            continue;
          }
          first = firstIndex[spelled]!;
        } else {
          const identifier =
            number >= 0 ? spelling.texts[number]! : catalog.spellIdentifier(entry.identifier);
          const key = hasScopeList(entry) ? scopedKey(entry, identifier) : identifier;
          first = firstAt.get(key);
          if (first === undefined) {
            firstAt.set(key, e);
            continue;
          }
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

/**
 * Each identifier's spelling (either spelling of the brand word is one key) and a number per distinct
 * spelling, by identifier number; -1 for a spelling a scoped key could equal (`["…`), which stays
 * keyed by its text so that it meets such a key exactly as before.
 */
function spellingNumbers(
  identifiers: readonly string[],
  catalog: Catalog,
): { texts: string[]; numberOf: Int32Array; count: number } {
  const texts: string[] = [];
  const numberOf = new Int32Array(identifiers.length);
  const numbers = new Map<string, number>();
  for (let n = 0; n < identifiers.length; n++) {
    const spelled = catalog.spellIdentifier(identifiers[n]!);
    texts.push(spelled);
    if (spelled.startsWith("[")) {
      numberOf[n] = -1;
      continue;
    }
    let number = numbers.get(spelled);
    if (number === undefined) numbers.set(spelled, (number = numbers.size));
    numberOf[n] = number;
  }
  return { texts, numberOf, count: numbers.size };
}

/**
 * A string and a scope-less object with the same identifier grant the same thing (either spelling of the
 * brand word too): their key is the identifier. Scoped objects differ by scope.
 */
function scopedKey(entry: PermissionEntry, identifier: string): string {
  return JSON.stringify([identifier, entry.allow ?? null, entry.deny ?? null]);
}
