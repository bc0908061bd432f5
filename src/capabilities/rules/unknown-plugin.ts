import { nearest, quoteList, SuggestionPool } from "../../core/did-you-mean.js";
import { APP_KEY } from "../catalog/types.js";
import { classifyIdentifier } from "./support/classify.js";
import { forEachJudgedEntry } from "./support/entry-identifiers.js";
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
    /** The known plugin keys, lowercased once: every unknown key is compared with them all. */
    let plugins: SuggestionPool | undefined;
    /** The hint of an unknown plugin's finding, by plugin and by whether it is the key's first. */
    const hints = new Map<string, { first: string; later: string }>();
    // Apps repeat the same identifiers across capabilities and files: each is classified once
    // (rules/support/entry-identifiers.ts).
    forEachJudgedEntry(
      context.entries(),
      (identifier) => judgeUnknownPlugin(identifier, context),
      (judged, capability, entry, path) => {
        const key = judged.key;
        if (key === undefined) {
          context.report({
            at: capability.source,
            path,
            messageId: "noAppPermissions",
            data: { identifier: entry.identifier },
            hint: "point caplint at the app's permission files with --permissions src-tauri/permissions, or at its generated manifest with --manifest",
          });
          return;
        }
        if (judged.lowerCase !== undefined) {
          // "Core:Default" is core:default in capitals, not a plugin that sounds like "store"; the build
          // fails on it ("unknown ACL for Core"), so it is an error, not an unknown third-party plugin.
          context.report({
            at: capability.source,
            path,
            messageId: "unknownPlugin",
            data: { plugin: key, identifier: entry.identifier },
            hint: `did you mean "${judged.lowerCase}"? Identifiers are case-sensitive`,
            escalate: true,
          });
          return;
        }
        const failing = buildsWithout(context, capability);
        if (failing) {
          // Every dependency is known (registry, git, path, inlined): no build can define this key.
          context.report({
            at: capability.source,
            path,
            messageId: "notInBuild",
            data: {
              plugin: key,
              identifier: entry.identifier,
              build: failing.build,
              targets: failing.targets,
            },
            hint: existingKeysHint(key, failing.keys, entry.identifier),
            escalate: true,
          });
          return;
        }
        // The same unknown plugin is usually named by many entries: its suggestions and hint are worked
        // out once (the first finding of a key says how to generate the manifests, the later ones not).
        let hint = hints.get(key);
        if (hint === undefined) {
          plugins ??= new SuggestionPool(
            context.catalog.keys().filter((k) => k !== APP_KEY && !k.startsWith("core")),
          );
          hints.set(key, (hint = unknownPluginHints(nearest(key, plugins, 2))));
        }
        const first = !reported.has(key);
        reported.add(key);
        context.report({
          at: capability.source,
          path,
          messageId: "unknownPlugin",
          data: { plugin: key, identifier: entry.identifier },
          hint: first ? hint.first : hint.later,
        });
      },
    );
  },
});

/** What unknown-plugin says about an identifier whose plugin no manifest defines, wherever it is granted. */
interface UnknownPlugin {
  /** The plugin key; undefined for an app permission while no app permissions are known. */
  key: string | undefined;
  /** The identifier in lower case, when it differs and the catalog knows it (a capitalised known identifier). */
  lowerCase: string | undefined;
}

/**
 * The unknown plugin an identifier names, wherever it is granted; undefined when it names none this
 * rule reports.
 */
function judgeUnknownPlugin(identifier: string, context: RuleContext): UnknownPlugin | undefined {
  const verdict = classifyIdentifier(identifier, context.catalog);
  if (verdict.kind !== "unknown-plugin") return undefined;
  // A dependency of the build that caplint could not read: said once, in a note, not per use.
  if (verdict.key !== undefined && context.project.build?.plugins.has(verdict.key))
    return undefined;
  const lowerCase = verdict.key === undefined ? identifier : identifier.toLowerCase();
  return {
    key: verdict.key,
    lowerCase:
      lowerCase !== identifier && context.catalog.isKnownIdentifier(lowerCase)
        ? lowerCase
        : undefined,
  };
}

/** The hints of an unknown plugin's findings with these suggestions: the first of its key's, the later ones. */
function unknownPluginHints(similar: string[]): { first: string; later: string } {
  const hint = (once: string) =>
    similar.length
      ? `did you mean plugin ${quoteList(similar)}? Otherwise give caplint the plugin's manifest with --manifest FILE${once}`
      : `give caplint the plugin's manifest with --manifest FILE or --plugins DIR${once}`;
  return {
    first: hint(" (build the app once to generate src-tauri/gen/schemas/acl-manifests.json)"),
    later: hint(""),
  };
}

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
