import { nearest, quoteList } from "../../core/did-you-mean.js";
import { APP_KEY } from "../catalog/types.js";
import { classifyIdentifier, type IdentifierVerdict } from "./support/classify.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "unknown-plugin",
  description: "Report permission identifiers whose plugin no known manifest defines, so they cannot be checked.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noAppPermissions: 'app permission "{{identifier}}" cannot be checked: no app permissions are known',
    unknownPlugin: 'unknown plugin "{{plugin}}" in "{{identifier}}": no manifest defines it',
  },
  check(context) {
    const reported = new Set<string>();
    const suggestions = new Map<string, string[]>();
    let plugins: string[] | undefined;
    // Apps repeat the same identifiers across capabilities and files: each is classified once.
    const verdicts = new Map<string, IdentifierVerdict>();
    for (const { capability, entry } of context.entries()) {
      let verdict = verdicts.get(entry.identifier);
      if (!verdict) verdicts.set(entry.identifier, (verdict = classifyIdentifier(entry.identifier, context.catalog)));
      if (verdict.kind !== "unknown-plugin") continue;
      // A dependency of the build that caplint could not read: said once, in a note, not per use.
      if (verdict.key !== undefined && context.project.build?.plugins.has(verdict.key)) continue;
      const path = entry.extended ? [...entry.path, "identifier"] : entry.path;
      if (verdict.key === undefined) {
        context.report({
          at: capability.source,
          path,
          messageId: "noAppPermissions",
          data: { identifier: entry.identifier },
          hint: "point caplint at the app's permission files with --permissions src-tauri/permissions, or at its generated manifest with --manifest",
        });
        continue;
      }
      const lowerCase = entry.identifier.toLowerCase();
      if (lowerCase !== entry.identifier && context.catalog.isKnownIdentifier(lowerCase)) {
        // "Core:Default" is core:default in capitals, not a plugin that sounds like "store"; the build
        // fails on it ("unknown ACL for Core"), so it is an error, not an unknown third-party plugin.
        context.report({
          at: capability.source,
          path,
          messageId: "unknownPlugin",
          data: { plugin: verdict.key, identifier: entry.identifier },
          hint: `did you mean "${lowerCase}"? Identifiers are case-sensitive`,
          escalate: true,
        });
        continue;
      }
      // The same unknown plugin is usually named by many entries: its suggestions are worked out once.
      let similar = suggestions.get(verdict.key);
      if (!similar)
        suggestions.set(
          verdict.key,
          (similar = nearest(verdict.key, (plugins ??= context.catalog.keys().filter((k) => k !== APP_KEY && !k.startsWith("core"))), 2)),
        );
      const once = reported.has(verdict.key) ? "" : " (build the app once to generate src-tauri/gen/schemas/acl-manifests.json)";
      reported.add(verdict.key);
      context.report({
        at: capability.source,
        path,
        messageId: "unknownPlugin",
        data: { plugin: verdict.key, identifier: entry.identifier },
        hint: similar.length
          ? `did you mean plugin ${quoteList(similar)}? Otherwise give caplint the plugin's manifest with --manifest FILE${once}`
          : `give caplint the plugin's manifest with --manifest FILE or --plugins DIR${once}`,
      });
    }
  },
});
