import { sortMapKeys } from "../engine/normalize.js";
import type { ScopeValue } from "../model/types.js";
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
    for (let i = 0; i < entries.length; i++) {
      const { capability, entry } = entries[i]!;
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
