import type { ManifestDifference } from "../catalog/manifest-compare.js";
import { defineRule } from "./types.js";

/** Releases named in one finding before "and N more". */
const SHOWN_RELEASES = 3;

export default defineRule({
  id: "manifest-mismatch",
  description:
    "Disallow a committed acl-manifests.json whose official plugins differ from the built-in catalog of the locked release in a way no release explains (an edited build output); a file an older build wrote is one warning, and so is each definition no release writes that changes caplint's answers.",
  category: "security",
  // An edited build output that hides what the app grants (CWE-345: insufficient verification of data authenticity).
  security: { severity: 7.5, cwe: [345] },
  defaultSeverity: "error",
  fixable: false,
  messages: {
    differs: 'plugin "{{plugin}}": {{difference}}',
    answers:
      'plugin "{{plugin}}": {{difference}}; the build writes its own, and caplint answers with both definitions',
    stale:
      "written by a build with other releases ({{written}}), not edited: {{count}} {{differences}} from the locked {{releases}}, each one what such a release generates; the build rewrites this file",
  },
  check(context) {
    // The comparison runs when the manifest is loaded (the catalog takes the union of both definitions there).
    const staleByFile = new Map<string, Array<ManifestDifference & { absolutePath: string }>>();
    for (const difference of context.project.manifestDifferences ?? []) {
      if (difference.explainedBy !== undefined) {
        const list = staleByFile.get(difference.absolutePath) ?? [];
        list.push(difference);
        staleByFile.set(difference.absolutePath, list);
        continue;
      }
      if (difference.noRelease) {
        // The build regenerates the file, so no build changes: what changes is caplint's answers (the union).
        context.report({
          at: { absolutePath: difference.absolutePath },
          path: difference.path,
          target: "key",
          demote: true,
          messageId: "answers",
          hint: "the app grants what the release defines; caplint's answers (access, matrix, resolve, check) count this definition too, so they may grant more than the build does, until you rebuild the app and commit its file",
          data: { plugin: difference.key, difference: difference.message },
        });
        continue;
      }
      context.report({
        at: { absolutePath: difference.absolutePath },
        path: difference.path,
        target: "key",
        messageId: "differs",
        hint: difference.notInRelease
          ? "the build regenerates this file from the plugin's release, which lacks it: a capability that names it fails the build; rebuild and commit the result"
          : "the build regenerates this file: rebuild the app and commit the result; caplint answers with the union of both definitions until then",
        data: {
          plugin: difference.key,
          permission: difference.name,
          difference: difference.message,
        },
      });
    }
    // A stale file is one finding: every difference is what an earlier release wrote, so the fix is one rebuild.
    for (const [absolutePath, differences] of staleByFile) {
      const written = [...new Set(differences.map((d) => d.explainedBy!))];
      const shown =
        written.length > SHOWN_RELEASES
          ? `${written.slice(0, SHOWN_RELEASES).join(", ")} and ${written.length - SHOWN_RELEASES} more`
          : written.join(", ");
      context.report({
        at: { absolutePath },
        path: differences[0]!.path,
        target: "key",
        demote: true,
        messageId: "stale",
        hint: "run the build and commit the acl-manifests.json it writes; until then caplint answers with the union of this file and the locked releases, so an answer may grant more than the build will",
        data: {
          written: shown,
          count: String(differences.length),
          differences: differences.length === 1 ? "difference" : "differences",
          releases: written.length === 1 ? "release" : "releases",
        },
      });
    }
  },
});
