import {
  compareVersions,
  historyCatalogOf,
  loadVersionHistory,
  parseVersion,
} from "../catalog/versions.js";
import { parseCommandName } from "../engine/command-name.js";
import { expandIdentifier } from "../engine/expand.js";
import { labelMatches } from "../engine/match/glob.js";
import { jsApiModule } from "../frontend/js-api.js";
import { valuesOf } from "../model/types.js";
import { callSpan, callText, judgedFrontend } from "./support/frontend.js";
import { defineRule } from "./types.js";

/** `@tauri-apps/plugin-dialog/sub` → `@tauri-apps/plugin-dialog`. */
const packageOf = (specifier: string) => specifier.split("/").slice(0, 2).join("/");

export default defineRule({
  id: "frontend-version-skew",
  description:
    "Warn when the locked JS package of an official plugin invokes a command the locked crate grants through no permission, or no longer (not yet) through the permission the app uses.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    lacks:
      '{{call}} ({{package}} {{jsVersion}}, {{jsFrom}}) invokes "{{command}}", which {{crate}} {{crateVersion}} ({{crateFrom}}) grants through no permission: "{{permission}}" granted it {{when}}',
    moved:
      '{{call}} ({{package}} {{jsVersion}}, {{jsFrom}}) invokes "{{command}}", which "{{permission}}" grants from {{crate}} {{from}}; {{crateFrom}} {{locks}} {{crateVersion}}, where it grants {{grantsThere}}',
  },
  async check(context) {
    const access = await judgedFrontend(context);
    const jsVersions = access?.scan.jsVersions;
    if (!access || !jsVersions) return;
    const history = await loadVersionHistory();
    const catalog = context.project.catalog;
    const seen = new Set<string>();
    for (const judgement of access.judgements) {
      const call = judgement.call;
      // A command the app's own code names (`invoke("plugin:…")`) is not the package's doing.
      if (call.member === "invoke" || call.trigger !== undefined || judgement.key === undefined)
        continue;
      const js = jsVersions.get(packageOf(call.specifier));
      const locked = catalog.lockedVersionOf(judgement.key);
      const manifest = catalog.get(judgement.key);
      if (!js || !locked || locked.source === "newest" || !manifest) continue;
      const key = `${call.file}\u0000${call.start}\u0000${judgement.command}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const { plugin, name } = parseCommandName(judgement.command);
      const invoked = (command: string) =>
        `"${plugin === undefined ? command : `plugin:${plugin}|${command}`}"`;
      const historyCatalog = historyCatalogOf(judgement.key);
      const changes = history
        .commandChanges(historyCatalog)
        .sort((a, b) => compareVersions(a.from, b.from));
      const jsVersion = jsApiModule(call.specifier, js.version)?.version ?? js.version;
      const base = {
        call: callText(call),
        package: packageOf(call.specifier),
        jsVersion,
        jsFrom: js.from,
        command: judgement.command,
        crate: locked.crate,
        crateVersion: locked.version,
        crateFrom: locked.file ?? locked.source,
        locks: locked.source === "Cargo.lock" ? "locks" : "asks for",
      };
      const hint = alignHint(locked.crate, locked.version, packageOf(call.specifier), jsVersion);
      const grantedAtLocked = Object.values(manifest.permissions).some((permission) =>
        permission.commands.allow.includes(name),
      );
      if (!grantedAtLocked) {
        // Version skew only when some release's permission granted it: otherwise no release ever did.
        const earlier = changes.find((change) => change.allow.includes(name));
        if (!earlier) continue;
        const next = changes.find(
          (change) =>
            change.identifier === earlier.identifier &&
            compareVersions(change.from, earlier.from) > 0,
        );
        const when = next
          ? `from ${earlier.from} until before ${next.from}`
          : `from ${earlier.from}`;
        context.report({
          at: { absolutePath: call.file },
          path: [],
          span: callSpan(call),
          messageId: "lacks",
          data: { ...base, permission: catalog.spellIdentifier(earlier.identifier), when },
          hint,
        });
        continue;
      }
      if (judgement.refusals.length === 0) continue;
      // Refused: does a permission the window's capabilities list grant it in another release?
      const windows = judgement.refusals.map((refusal) => refusal.window);
      for (const use of access.entries) {
        const patterns = valuesOf(use.capability.windows);
        if (
          !windows.some(
            (window) => window === "*" || patterns.some((pattern) => labelMatches(pattern, window)),
          )
        )
          continue;
        const leaves = expandIdentifier(catalog, use.entry.identifier).leaves.filter(
          (leaf) => leaf.key === judgement.key,
        );
        const moved = leaves
          .map((leaf) => {
            const id = catalog.spellIdentifier(`${leaf.key}:${leaf.name}`);
            const change = changes.find(
              (c) => catalog.spellIdentifier(c.identifier) === id && c.allow.includes(name),
            );
            return change && !leaf.permission.commands.allow.includes(name)
              ? { id, change, now: leaf.permission.commands.allow }
              : undefined;
          })
          .find((found) => found !== undefined);
        if (!moved) continue;
        context.report({
          at: { absolutePath: call.file },
          path: [],
          span: callSpan(call),
          messageId: "moved",
          data: {
            ...base,
            permission: moved.id,
            from: moved.change.from,
            grantsThere: moved.now.length ? moved.now.map(invoked).join(", ") : "nothing",
          },
          hint,
        });
        break;
      }
    }
  },
});

/** Both sides at one release: the crate updated, or the JS package installed at the crate's minor release. */
function alignHint(
  crate: string,
  crateVersion: string,
  jsPackage: string,
  jsVersion: string,
): string {
  const parsed = parseVersion(crateVersion);
  const series = parsed ? `~${parsed.major}.${parsed.minor}.0` : crateVersion;
  const newer = compareVersions(jsVersion, crateVersion) > 0;
  return newer
    ? `update the crate to the JS package's release (cargo update -p ${crate}), or install ${jsPackage}@${series}`
    : `install the JS package of the crate's release (${jsPackage}@${series}), or lock ${crate} at ${jsVersion} in Cargo.lock`;
}
