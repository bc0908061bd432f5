import { loadVersionHistory } from "../catalog/versions.js";
import { dangerousGrants } from "../dangers/index.js";
import { isCoreDefaultSet, judgedFrontend, unusedEntries } from "./support/frontend.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "unused-permission",
  description:
    "Suggest removing grants that no reachable call of the app's frontend uses (least privilege).",
  category: "suspicious",
  defaultSeverity: "suggestion",
  fixable: false,
  messages: {
    unused:
      '"{{permission}}" grants {{count}} to {{capability}}, but no reachable call of the frontend uses {{them}}',
  },
  async check(context) {
    const access = await judgedFrontend(context);
    if (!access) return;
    const history = await loadVersionHistory();
    // A dangerous grant nothing uses is unused-dangerous-permission's (a warning), not a suggestion here too.
    const dangerous = new Set<string>();
    for (const model of (await context.resolution()).models)
      for (const found of await dangerousGrants(model))
        dangerous.add(
          `${found.capability.source.absolutePath}\u0000${JSON.stringify(found.grant.provenance.path)}`,
        );
    for (const { capability, entry, granted } of unusedEntries(access, (plugin) =>
      history.has(plugin),
    )) {
      if (dangerous.has(`${capability.source.absolutePath}\u0000${JSON.stringify(entry.path)}`))
        continue;
      // The template's core sets: a finding on every app that narrows nothing worth the risk (isCoreDefaultSet says why).
      // `caplint least-privilege` still lists them among the unused grants, for who wants the minimal set.
      if (isCoreDefaultSet(entry.identifier)) continue;
      context.report({
        at: capability.source,
        path: entry.path,
        messageId: "unused",
        data: {
          permission: entry.identifier,
          count: granted.length === 1 ? `"${granted[0]}"` : `${granted.length} commands`,
          capability: `capability "${capability.identifier}"`,
          them: granted.length === 1 ? "it" : "any of them",
        },
        hint: `remove "${entry.identifier}"`,
      });
    }
  },
});
