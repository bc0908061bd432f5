import { checkIdentifier, correctIdentifier } from "../catalog/identifier.js";
import { replaceStringValue } from "../../core/fix/edits.js";
import type { Catalog } from "../catalog/catalog.js";
import { forEachJudgedEntry } from "./support/entry-identifiers.js";
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
    // Each distinct identifier is checked and worded once (rules/support/entry-identifiers.ts).
    forEachJudgedEntry(
      context.entries(),
      (identifier) => judge(identifier, context.catalog),
      ({ problem, hint, spelled }, capability, entry, path) =>
        context.report({
          at: capability.source,
          path,
          messageId: "invalid",
          data: { identifier: entry.identifier, problem },
          hint,
          // Only a spelling that names a known permission is safe to apply unattended.
          fix:
            spelled !== undefined
              ? (document) => replaceStringValue(document, path, spelled, `rename to "${spelled}"`)
              : undefined,
        }),
    );
  },
});

/** What invalid-identifier says about an identifier, wherever it is granted. */
interface Invalid {
  problem: string;
  hint: string;
  /** The respelling that names a known permission: the fix's. */
  spelled: string | undefined;
}

/** The finding about `identifier` but for its place; undefined when its syntax is valid. */
function judge(identifier: string, catalog: Catalog): Invalid | undefined {
  const result = checkIdentifier(identifier);
  if (result.ok) return undefined;
  // `fs.exists` and the like are v1 names: legacy-identifier reports them with their rename.
  if (legacyRename(identifier, catalog) !== undefined) return undefined;
  const spelled = correctIdentifier(identifier);
  const known = spelled !== undefined && catalog.isKnownIdentifier(spelled);
  // When the plain respelling names nothing, the catalog's nearest identifier is the better hint.
  const corrected = known ? spelled : (catalog.suggest(spelled ?? identifier, 1)[0] ?? spelled);
  return {
    problem: result.message,
    hint: corrected
      ? `write "${corrected}"`
      : "use letters, digits, inner hyphens and ':' separators, e.g. \"fs:allow-read-file\"",
    spelled: known ? spelled : undefined,
  };
}
