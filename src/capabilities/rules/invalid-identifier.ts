import { checkIdentifier, correctIdentifier } from "../catalog/identifier.js";
import { replaceStringValue } from "../../core/fix/edits.js";
import { legacyRename } from "./support/legacy.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "invalid-identifier",
  description:
    "Disallow permission identifiers that break Tauri's identifier syntax (the whole file then fails to load).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: true,
  scope: "document",
  messages: { invalid: 'invalid permission identifier "{{identifier}}": {{problem}}' },
  check(context) {
    const entries = context.entries();
    for (let i = 0; i < entries.length; i++) {
      const { capability, entry } = entries[i]!;
      const result = checkIdentifier(entry.identifier);
      if (result.ok) continue;
      // `fs.exists` and the like are v1 names: legacy-identifier reports them with their rename.
      if (legacyRename(entry.identifier, context.catalog) !== undefined) continue;
      const spelled = correctIdentifier(entry.identifier);
      const known = spelled !== undefined && context.catalog.isKnownIdentifier(spelled);
      // When the plain respelling names nothing, the catalog's nearest identifier is the better hint.
      const corrected = known
        ? spelled
        : (context.catalog.suggest(spelled ?? entry.identifier, 1)[0] ?? spelled);
      const path = entry.extended ? [...entry.path, "identifier"] : entry.path;
      context.report({
        at: capability.source,
        path,
        messageId: "invalid",
        data: { identifier: entry.identifier, problem: result.message },
        hint: corrected
          ? `write "${corrected}"`
          : "use letters, digits, inner hyphens and ':' separators, e.g. \"fs:allow-read-file\"",
        // Only a spelling that names a known permission is safe to apply unattended.
        fix: known
          ? (document) => replaceStringValue(document, path, spelled, `rename to "${spelled}"`)
          : undefined,
      });
    }
  },
});
