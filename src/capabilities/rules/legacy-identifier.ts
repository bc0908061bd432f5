import { replaceStringValue } from "../../core/fix/edits.js";
import { spellIdentifier, spellingOfIdentifier, type Spelling } from "../catalog/brand.js";
import type { Catalog } from "../catalog/catalog.js";
import type { Project } from "../load/project.js";
import { legacyRename } from "./support/legacy.js";
import { forEachJudgedEntry } from "./support/entry-identifiers.js";
import { buildImpactOf } from "./support/platform-build.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "legacy-identifier",
  description:
    "Disallow pre-release and v1-style permission names (`window:allow-close`, `fs.exists`, `fs:exists`) that Tauri's build rejects.",
  category: "correctness",
  defaultSeverity: "error",
  scope: "document",
  fixable: true,
  messages: {
    renamed:
      'legacy permission identifier "{{identifier}}": the build rejects this name, it is now "{{renamed}}"{{note}}',
    spelling:
      'permission "{{identifier}}" spells the brand word "{{written}}": this app\'s framework crate only knows "{{renamed}}"{{note}}',
  },
  async check(context) {
    // The build rejects the name only where the capability is active (as for unknown-permission).
    const impactOf = buildImpactOf(context);
    // Apps repeat the same identifiers across capabilities and files: each is looked up and worded
    // once (rules/support/entry-identifiers.ts).
    const evidence = spellingEvidence(context.project, context.catalog);
    forEachJudgedEntry(
      context.entries(),
      (identifier) => legacyName(identifier, context) ?? otherSpelling(identifier, evidence),
      ({ renamed, hint, messageId, written }, capability, entry, path) => {
        const impact = impactOf(capability);
        context.report({
          at: capability.source,
          path,
          messageId,
          demote: impact.demote,
          data: {
            identifier: entry.identifier,
            renamed,
            written: written ?? "",
            note: impact.note,
          },
          hint,
          fix: (document) => replaceStringValue(document, path, renamed, `rename to "${renamed}"`),
        });
      },
    );
  },
});

interface Rename {
  renamed: string;
  hint: string;
  messageId: "renamed" | "spelling";
  written?: Spelling;
}

function legacyName(identifier: string, context: { catalog: Catalog }): Rename | undefined {
  const renamed = legacyRename(identifier, context.catalog);
  return renamed === undefined
    ? undefined
    : {
        renamed,
        hint: `rename it to "${renamed}" (${reasons(identifier, renamed).join("; ")})`,
        messageId: "renamed",
      };
}

/** Both spellings are known to the catalog; only the crate the app really builds with decides. */
function otherSpelling(
  identifier: string,
  evidence: SpellingEvidence | undefined,
): Rename | undefined {
  const written = spellingOfIdentifier(identifier);
  if (!evidence || !written || written === evidence.spelling) return undefined;
  const renamed = spellIdentifier(identifier, evidence.spelling);
  return {
    renamed,
    hint: `rename it to "${renamed}" (${evidence.reason})`,
    messageId: "spelling",
    written,
  };
}

function reasons(old: string, renamed: string): string[] {
  const out: string[] = [];
  if (renamed.startsWith("core:") && !old.startsWith("core:"))
    out.push('core permissions moved under "core:" in 2.0');
  if (old.includes(".")) out.push('the separator is ":"');
  const base = (id: string) => id.slice(id.lastIndexOf(":") + 1);
  if (base(renamed).startsWith("allow-") && !base(old.replace(".", ":")).startsWith("allow-")) {
    out.push('a command is granted by its "allow-" permission');
  }
  return out;
}

/**
 * How the framework crate this app builds with spells its brand word, and the file that shows it: the
 * Cargo files name the crate itself, a generated manifest was written by it. No evidence: both stay accepted.
 */
interface SpellingEvidence {
  spelling: Spelling;
  reason: string;
}

function spellingEvidence(project: Project, catalog: Catalog): SpellingEvidence | undefined {
  const framework = project.versions?.crates.get("core");
  if (framework && (framework.crate === "tauri" || framework.crate === "host")) {
    const verb = framework.source === "Cargo.lock" ? "locks" : "depends on";
    return {
      spelling: framework.crate,
      reason: `${framework.file ?? framework.source} ${verb} the ${framework.crate} crate`,
    };
  }
  const provenance = catalog.provenanceOf("core:app");
  if (catalog.spellingFixed && provenance?.origin === "manifest") {
    return {
      spelling: catalog.spelling,
      reason:
        `the generated manifest ${provenance.file ?? ""} spells it "${catalog.spelling}"`.replace(
          "  ",
          " ",
        ),
    };
  }
  return undefined;
}
