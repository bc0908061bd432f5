import { quoteList } from "../../core/did-you-mean.js";
import { classifyIdentifier } from "./support/classify.js";
import { legacyRename } from "./support/legacy.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "unknown-permission",
  description: "Disallow permission identifiers that the plugin's manifest does not define (the build fails on them).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  check(context) {
    for (const { capability, entry } of context.entries()) {
      const verdict = classifyIdentifier(entry.identifier, context.catalog);
      if (verdict.kind !== "unknown-permission") continue;
      // A known pre-release name is legacy-identifier's finding, with its rename.
      if (legacyRename(entry.identifier, context.catalog) !== undefined) continue;
      const suggestions = context.catalog.suggest(entry.identifier);
      const owner = verdict.key === undefined ? "the app's own permissions" : `plugin "${verdict.key}"`;
      const problem =
        verdict.key?.startsWith("core:") && !context.catalog.has(verdict.key)
          ? `the host has no core area "${verdict.key.slice(5)}"`
          : `${owner} has no permission or set "${verdict.base}"`;
      context.report({
        at: capability.source,
        path: entry.extended ? [...entry.path, "identifier"] : entry.path,
        message: `unknown permission "${entry.identifier}": ${problem}`,
        hint: suggestions.length
          ? `did you mean ${quoteList(suggestions)}?`
          : `list what exists with: caplint permissions ${verdict.key ?? ""}`.trimEnd(),
      });
    }
  },
});
