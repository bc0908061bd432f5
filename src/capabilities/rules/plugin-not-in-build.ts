import { wordList } from "../../core/did-you-mean.js";
import { Catalog } from "../catalog/catalog.js";
import { loadVersionHistory } from "../catalog/versions.js";
import { shippedTargets, type BuildDependency, type Presence } from "../load/build.js";
import type { BuildTarget } from "../load/cfg.js";
import { TARGETS, valuesOf, type Capability } from "../model/types.js";
import { identifierPath } from "./support/entry-identifiers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "plugin-not-in-build",
  description:
    "Disallow permissions of a plugin that the app's build for a target it ships does not have (the build fails on them).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    notDependency:
      'plugin "{{plugin}}" is not in the {{build}}: {{absence}}, so "{{identifier}}" fails it',
    notOnTarget:
      'plugin "{{plugin}}" is not in the {{targets}} build ({{crate}} is a dependency only under {{tables}}), but capability "{{capability}}" grants "{{identifier}}" there',
    notOnSuggestedTarget:
      'plugin "{{plugin}}" is not in the {{targets}} build ({{crate}} is a dependency only under {{tables}}): if the app ships for {{targets}}, capability "{{capability}}" granting "{{identifier}}" there fails that build',
    onlyWithFeature:
      'plugin "{{plugin}}" is in the build only with feature "{{feature}}" ({{crate}} is optional and off by default): "{{identifier}}" fails a build with the default features',
  },
  async check(context) {
    const build = context.project.build;
    if (!build) return;
    const history = await loadVersionHistory();
    const shipped = shippedTargets(build, context.capabilities);
    const asked = new Set(context.platforms);
    for (const capability of context.capabilities) {
      const targets = targetsOf(capability).filter(
        (target) => shipped.has(target) && asked.has(target),
      );
      if (targets.length === 0) continue;
      // The first entry of each plugin a capability grants stands for all of them: the build stops at one.
      const seen = new Set<string>();
      for (const entry of capability.permissions) {
        const key = Catalog.keyOf(entry.identifier)?.key;
        if (
          key === undefined ||
          seen.has(key) ||
          key.startsWith("core") ||
          !key ||
          key === "__app-acl__"
        )
          continue;
        seen.add(key);
        const plugin = build.plugins.get(key);
        const official = history.has(key);
        if (!plugin && !official) continue;
        const presence = (target: BuildTarget): Presence =>
          plugin ? plugin.presence[target] : "no";
        // A target that certainly ships is judged alone; one only suggested (a Cargo table) is warned about when it is all there is.
        const allMissing = targets.filter((target) => presence(target) === "no");
        const certainMissing = allMissing.filter((target) => shipped.get(target)!.certain);
        const missing = certainMissing.length ? certainMissing : allMissing;
        const gated = targets.filter((target) => presence(target) === "feature");
        const crate = plugin?.crate ?? history.crateOf(key) ?? `tauri-plugin-${key}`;
        const at = { at: capability.source, path: identifierPath(entry) };
        const shippedTargetsList = TARGETS.filter((target) => shipped.get(target)?.certain);
        if (missing.length > 0 && !plugin) {
          context.report({
            ...at,
            messageId: "notDependency",
            data: {
              plugin: key,
              build:
                missing.length === shippedTargetsList.length
                  ? "build"
                  : `${wordList(missing)} build`,
              absence:
                build.kind === "Cargo.toml"
                  ? `${build.file} has no ${crate} dependency`
                  : `${build.file} holds no ${crate}`,
              identifier: entry.identifier,
            },
            hint:
              build.kind === "Cargo.toml"
                ? `add ${crate} to [dependencies] in ${build.file} (cargo add ${crate}), or remove "${entry.identifier}"`
                : `add ${crate} to the app's Cargo.toml and rebuild the lock (cargo add ${crate}), or remove "${entry.identifier}"`,
          });
        } else if (missing.length > 0 && plugin) {
          const having = TARGETS.filter((target) => plugin.presence[target] !== "no");
          // Which evidence decided that the target ships, for programs (JSON) and in the hint.
          const because = shipped.get(missing[0]!)!;
          const certain = certainMissing.length > 0;
          const evidence = missing
            .map(
              (target) =>
                `${target}: ${
                  shipped
                    .get(target)!
                    .evidence.map((piece) => piece.says)
                    .join("; ") || "desktop"
                }`,
            )
            .join(" | ");
          context.report({
            ...at,
            ...(certain ? {} : { demote: true }),
            messageId: certain ? "notOnTarget" : "notOnSuggestedTarget",
            data: {
              plugin: key,
              targets: wordList(missing),
              crate,
              tables: tablesText(plugin),
              capability: capability.identifier,
              identifier: entry.identifier,
              evidence,
            },
            hint: certain
              ? `limit capability "${capability.identifier}" to the platforms that have the plugin (${platformsText(having, capability)}), or declare ${crate} for ${wordList(missing)} too${because.says === "desktop" ? "" : ` (${missing[0]} ships because ${because.says})`}`
              : `${missing[0]} may ship (${because.says}; no committed gen project, platform config, CI job or capability says it does): limit capability "${capability.identifier}" to ${platformsText(having, capability)}, or declare ${crate} for ${wordList(missing)} too`,
          });
        } else if (gated.length > 0 && plugin) {
          const feature = plugin.feature ?? "?";
          context.report({
            ...at,
            demote: true,
            messageId: "onlyWithFeature",
            data: { plugin: key, feature, crate, identifier: entry.identifier },
            hint: `add "${feature}" to default = [...] under [features] in ${build.file}, or make sure every build passes --features ${feature}`,
          });
        }
      }
    }
  },
});

function targetsOf(capability: Capability): BuildTarget[] {
  if (capability.platforms === undefined) return [...TARGETS];
  const named = new Set(valuesOf(capability.platforms));
  return TARGETS.filter((target) => named.has(target));
}

function tablesText(plugin: BuildDependency): string {
  return wordList([...new Set(plugin.tables)].map((table) => `[${table}]`)).replace(
    / and /g,
    " or ",
  );
}

function platformsText(having: readonly BuildTarget[], capability: Capability): string {
  const current =
    capability.platforms === undefined ? undefined : new Set(valuesOf(capability.platforms));
  const kept = current ? having.filter((target) => current.has(target)) : having;
  return `"platforms": ${JSON.stringify(kept)}`;
}
