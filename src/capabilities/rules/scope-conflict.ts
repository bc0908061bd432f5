import { sortMapKeys } from "../engine/normalize.js";
import type { ScopeValue } from "../model/types.js";
import { scopedEntryIndexes } from "./support/entry-identifiers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "scope-conflict",
  description:
    "Disallow a scope value listed in both `allow` and `deny` of one permission entry: deny wins, so the allow is dead.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  scope: "document",
  messages: {
    deniedToo:
      'scope value {{value}} of "{{identifier}}" is also in "deny" (item {{denyIndex}}): deny wins, so this allow grants nothing',
  },
  check(context) {
    const entries = context.entries();
    // Only entries with a scope list can list a value in both (a shared index of them).
    const scoped = scopedEntryIndexes(entries);
    for (let s = 0; s < scoped.length; s++) {
      const { capability, entry } = entries[scoped[s]!]!;
      if (!Array.isArray(entry.allow) || !Array.isArray(entry.deny) || entry.deny.length === 0)
        continue;
      const denied = entry.deny.map(canonicalJson);
      entry.allow.forEach((value, index) => {
        const denyIndex = denied.indexOf(canonicalJson(value));
        if (denyIndex < 0) return;
        context.report({
          at: capability.source,
          path: [...entry.path, "allow", index],
          messageId: "deniedToo",
          data: { value: preview(value), identifier: entry.identifier, denyIndex },
          hint: 'remove it from "allow", or from "deny" if it should be allowed',
        });
      });
    }
  },
});

/** Deep-equal JSON values get the same text, whatever their key order. */
function canonicalJson(value: ScopeValue): string {
  return JSON.stringify(sortMapKeys(value));
}

const MAX_PREVIEW = 80;

function preview(value: ScopeValue): string {
  const text = JSON.stringify(value);
  return text.length > MAX_PREVIEW ? `${text.slice(0, MAX_PREVIEW - 1)}…` : text;
}
