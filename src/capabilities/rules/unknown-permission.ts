import type { Catalog } from "../catalog/catalog.js";
import type { Project } from "../load/project.js";
import { compareVersions } from "../catalog/versions.js";
import { quoteList } from "../../core/did-you-mean.js";
import { classifyIdentifier } from "./support/classify.js";
import { forEachJudgedEntry } from "./support/entry-identifiers.js";
import { legacyRename } from "./support/legacy.js";
import { buildImpactOf } from "./support/platform-build.js";
import { defineRule } from "./types.js";
import { work } from "../work.js";

export default defineRule({
  id: "unknown-permission",
  description:
    "Disallow permission identifiers that the plugin's manifest does not define (the build fails on them).",
  category: "correctness",
  defaultSeverity: "error",
  scope: "document",
  fixable: false,
  messages: {
    unknown: 'unknown permission "{{identifier}}": {{problem}}{{note}}',
    notYetAdded: '"{{identifier}}" is not in {{release}}; it was {{added}}',
    removed: '"{{identifier}}" is not in {{release}}; it was removed after {{until}}',
  },
  async check(context) {
    // Build validation only checks capabilities active on the target: one inactive on every platform
    // this run covers (`--platform linux` and a macOS-only capability) does not break that build.
    const impactOf = buildImpactOf(context);
    // Apps repeat the same identifiers across capabilities and files: each is judged once (undefined:
    // no finding), and the entries are walked by their identifier's number
    // (rules/support/entry-identifiers.ts); only the capability's impact and the entry's place are per entry.
    forEachJudgedEntry(
      context.entries(),
      (identifier) => judge(identifier, context),
      (judgement, capability, entry, path) => {
        if (judgement.versioned) {
          context.report({ at: capability.source, path, ...judgement.versioned });
          return;
        }
        const { problem, fromGit, hint } = judgement;
        const impact = impactOf(capability);
        context.report({
          at: capability.source,
          path,
          demote: impact.demote || fromGit !== undefined,
          messageId: "unknown",
          data: {
            identifier: entry.identifier,
            problem,
            note: fromGit ? `${impact.note}; ${fromGit}` : impact.note,
          },
          hint,
        });
      },
    );
  },
});

/** What unknown-permission says about an identifier, wherever it is granted. */
interface Judged {
  /** The finding of an identifier another release has, whole. */
  versioned: ReturnType<typeof versionFinding>;
  problem: string;
  fromGit: string | undefined;
  /** The hint of its unknown-permission finding, worded once. */
  hint: string;
}

/** The finding about `identifier`, but for its place and capability; undefined when there is none. */
function judge(
  identifier: string,
  context: { catalog: Catalog; project: Project },
): Judged | undefined {
  work.identifiersJudged++;
  const verdict = classifyIdentifier(identifier, context.catalog);
  if (verdict.kind !== "unknown-permission") return undefined;
  // A known pre-release name is legacy-identifier's finding, with its rename.
  if (legacyRename(identifier, context.catalog) !== undefined) return undefined;
  const suggestions = context.catalog.suggest(identifier);
  const fromGit =
    verdict.key === undefined
      ? undefined
      : gitSource(context.project, context.catalog, verdict.key);
  const versioned =
    verdict.key === undefined || fromGit
      ? undefined
      : versionFinding(context.catalog, verdict.key, verdict.base, identifier, suggestions);
  const problem =
    verdict.key?.startsWith("core:") && !context.catalog.has(verdict.key)
      ? `${context.catalog.framework} has no core area "${verdict.key.slice(5)}"`
      : verdict.key === undefined
        ? `the app has no permission or set "${verdict.base}" of its own`
        : `plugin "${verdict.key}" has no permission or set "${verdict.base}"`;
  const hint = suggestions.length
    ? `did you mean ${quoteList(suggestions)}?`
    : `list what exists with: caplint permissions ${verdict.key ?? ""}`.trimEnd();
  return { versioned, problem, fromGit, hint };
}

/**
 * Why the catalog cannot speak for a plugin the app builds from git (a fork, a branch): the release's
 * catalog was used, and a committed manifest did not define the plugin. Undefined otherwise.
 */
function gitSource(project: Project, catalog: Catalog, key: string): string | undefined {
  const plugin = project.build?.plugins.get(key);
  if (plugin?.source.kind !== "git" || catalog.provenanceOf(key)?.origin !== "builtin")
    return undefined;
  return `${plugin.crate} comes from git (${plugin.source.url}), whose permissions may differ from the release's`;
}

/**
 * An identifier that some other release of the plugin (or of the host) has: the message names the
 * release the app uses and when the identifier was added or removed.
 */
function versionFinding(
  catalog: Catalog,
  key: string,
  base: string,
  identifier: string,
  suggestions: string[],
) {
  const facts = catalog.versionFacts(key, base);
  if (!facts || facts.existence !== false) return undefined;
  const { locked, entry } = facts;
  const release = `${locked.crate} ${locked.version}`;
  if (compareVersions(locked.version, entry.since) < 0 || entry.until === null) {
    const added = entry.sinceAfter
      ? `added after ${entry.sinceAfter} (${entry.since} has it)`
      : `added in ${entry.since}`;
    return {
      messageId: "notYetAdded" as const,
      data: { identifier, release, added },
      hint: `upgrade to ≥ ${entry.since} (cargo update -p ${locked.crate}), or remove it`,
    };
  }
  return {
    messageId: "removed" as const,
    data: { identifier, release, until: entry.until },
    hint: suggestions.length ? `did you mean ${quoteList(suggestions)}?` : "remove it",
  };
}
