import { nearest, quoteList } from "../../core/did-you-mean.js";
import { APP_KEY } from "../catalog/types.js";
import { classifyIdentifier, type IdentifierVerdict } from "./support/classify.js";
import { defineRule, type RuleContext } from "./types.js";
import { shippedTargets } from "../load/build.js";
import { TARGETS, valuesOf, type Capability } from "../model/types.js";
import { wordList } from "../../core/did-you-mean.js";

export default defineRule({
  id: "unknown-plugin",
  description:
    "Report permission identifiers whose plugin no known manifest defines, so they cannot be checked.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noAppPermissions:
      'app permission "{{identifier}}" cannot be checked: no app permissions are known',
    unknownPlugin: 'unknown plugin "{{plugin}}" in "{{identifier}}": no manifest defines it',
    notInBuild:
      'unknown plugin "{{plugin}}" in "{{identifier}}": no dependency of the app provides it, so the {{build}} fails ("unknown ACL for {{plugin}}")',
  },
  check(context) {
    const reported = new Set<string>();
    const suggestions = new Map<string, string[]>();
    let plugins: string[] | undefined;
    // Apps repeat the same identifiers across capabilities and files: each is classified once.
    const verdicts = new Map<string, IdentifierVerdict>();
    const entries = context.entries();
    for (let i = 0; i < entries.length; i++) {
      const { capability, entry } = entries[i]!;
      let verdict = verdicts.get(entry.identifier);
      if (!verdict)
        verdicts.set(
          entry.identifier,
          (verdict = classifyIdentifier(entry.identifier, context.catalog)),
        );
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
      const failing = buildsWithout(context, capability);
      if (failing) {
        // Every dependency is known (registry, git, path, inlined): no build can define this key.
        context.report({
          at: capability.source,
          path,
          messageId: "notInBuild",
          data: {
            plugin: verdict.key,
            identifier: entry.identifier,
            build: failing.build,
            targets: failing.targets,
          },
          hint: existingKeysHint(verdict.key, failing.keys, entry.identifier),
          escalate: true,
        });
        continue;
      }
      // The same unknown plugin is usually named by many entries: its suggestions are worked out once.
      let similar = suggestions.get(verdict.key);
      if (!similar)
        suggestions.set(
          verdict.key,
          (similar = nearest(
            verdict.key,
            (plugins ??= context.catalog
              .keys()
              .filter((k) => k !== APP_KEY && !k.startsWith("core"))),
            2,
          )),
        );
      const once = reported.has(verdict.key)
        ? ""
        : " (build the app once to generate src-tauri/gen/schemas/acl-manifests.json)";
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

/**
 * The builds that fail on a plugin key no dependency provides, when caplint knows every dependency
 * of the app (its Cargo.toml or lock was read, and every path dependency with it): the capability's
 * targets the app ships, and the plugin keys those builds do have. Undefined when some dependency
 * could not be read (it may define the key) or the capability applies to no target the app ships.
 */
function buildsWithout(
  context: RuleContext,
  capability: Capability,
): { build: string; targets: string[]; keys: string[] } | undefined {
  const build = context.project.build;
  if (!build) return undefined;
  // A path dependency caplint could not read (outside the repository, not checked out) may be the plugin.
  for (const plugin of build.plugins.values())
    if (plugin.source.kind === "path" && !context.catalog.has(plugin.key)) return undefined;
  const shipped = shippedTargets(build, context.capabilities);
  const named =
    capability.platforms === undefined ? undefined : new Set(valuesOf(capability.platforms));
  const asked = new Set(context.platforms);
  const targets = TARGETS.filter(
    (target) => shipped.get(target)?.certain && asked.has(target) && (!named || named.has(target)),
  );
  if (targets.length === 0) return undefined;
  const keys = [...build.plugins.values()]
    .filter((plugin) => targets.some((target) => plugin.presence[target] !== "no"))
    .map((plugin) => plugin.key);
  for (const key of context.catalog.keys())
    if (
      key !== APP_KEY &&
      !key.startsWith("core") &&
      context.catalog.provenanceOf(key)?.origin !== "builtin"
    )
      keys.push(key);
  const shippedCount = TARGETS.filter((target) => shipped.get(target)?.certain).length;
  return {
    build: targets.length === shippedCount ? "build" : `${wordList(targets)} build`,
    targets,
    keys: [...new Set(keys)].sort(),
  };
}

/** Did-you-mean among the keys the build has: the nearest, else all of them when they are few. */
function existingKeysHint(key: string, keys: string[], identifier: string): string {
  const similar = nearest(key, keys, 2);
  const named = similar.length ? similar : keys.length <= 8 ? keys : [];
  const base = identifier.slice(identifier.lastIndexOf(":") + 1);
  if (named.length === 0)
    return `add the plugin that defines "${key}" to the app's Cargo.toml, or remove "${identifier}"`;
  const lead = similar.length ? "did you mean" : "the build's plugins are";
  return `${lead} ${quoteList(named)}${similar.length === 1 ? ` ("${similar[0]}:${base}")` : ""}? Otherwise add the plugin that defines "${key}" to the app's Cargo.toml, or remove "${identifier}"`;
}
