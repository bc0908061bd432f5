/**
 * Hover: on a permission, what it allows and denies on each platform, its scope, the set it expands
 * to and which windows get it through this capability; on a window label, its capabilities and how
 * many commands it may call; on a `remote.urls` pattern, a URL it matches and one it does not.
 */
import { Catalog, type TopLevelLookup } from "../capabilities/catalog/catalog.js";
import { compileRemotePattern, labelMatches } from "../capabilities/engine/index.js";
import type { Project } from "../capabilities/load/project.js";
import {
  TARGETS,
  valuesOf,
  type Capability,
  type PermissionEntry,
} from "../capabilities/model/types.js";
import { expandPermission } from "../capabilities/queries/permissions.js";
import { uncheckedRemoteAppCommands } from "../capabilities/queries/explain.js";
import { resolveAccess } from "../index.js";
import { commandList } from "./completion.js";
import { appLabels, type Place } from "./places.js";
import { plural } from "../core/wording.js";

export function hoverText(project: Project, place: Place): string {
  switch (place.kind) {
    case "permission":
      return permissionHover(project, place.capability, place.entry);
    case "label":
      return labelHover(project, place.label);
    case "url":
      return urlHover(project, place.pattern, place.capability);
  }
}

function platformsOf(capability: Capability): string[] {
  return capability.platforms === undefined ? [...TARGETS] : valuesOf(capability.platforms);
}

function permissionHover(project: Project, capability: Capability, entry: PermissionEntry): string {
  const catalog = project.catalog;
  const parts = Catalog.keyOf(entry.identifier);
  const found = parts && catalog.lookupTopLevel(parts.key, parts.base);
  const out: string[] = [];
  if (!parts || !found)
    return `\`${entry.identifier}\`: no permission of this app's build has this identifier`;
  const locked = catalog.lockedVersionOf(parts.key);
  const origin = catalog.provenanceOf(parts.key);
  const kind =
    found.kind === "permission"
      ? "permission"
      : found.kind === "set"
        ? "permission set"
        : "default permission set";
  const from = locked
    ? `${locked.crate} ${locked.version}`
    : origin?.file
      ? origin.file
      : origin?.origin === "builtin"
        ? "built-in catalog"
        : "";
  out.push(`**\`${entry.identifier}\`** · ${kind}${from ? ` · ${from}` : ""}`);
  const description =
    found.kind === "permission" ? found.permission.description : found.set?.description;
  if (description) out.push(description);

  // One line per group of platforms with the same answer.
  const groups = new Map<string, { platforms: string[]; allows: string[]; denies: string[] }>();
  for (const platform of platformsOf(capability)) {
    const { allows, denies } = expandPermission(catalog, platform, entry.identifier);
    const key = JSON.stringify([allows, denies]);
    const group = groups.get(key);
    if (group) group.platforms.push(platform);
    else groups.set(key, { platforms: [platform], allows, denies });
  }
  for (const { platforms, allows, denies } of groups.values()) {
    const on = groups.size === 1 ? "" : ` on ${platforms.join(", ")}`;
    // A deny-* permission is described by what it denies, not as "allows no command".
    if (allows.length || !denies.length)
      out.push(
        `**Allows${on}:** ${allows.length ? `${plural(allows.length, "command")}: ${commandList(allows)}` : "no command"}`,
      );
    if (denies.length) out.push(`**Denies${on}:** ${commandList(denies)}`);
  }
  const scope = scopeOf(catalog, parts.key, found);
  if (scope.allow.length)
    out.push(`**Scope allows:** \`${JSON.stringify(scope.allow).slice(0, 300)}\``);
  if (scope.deny.length)
    out.push(`**Scope denies:** \`${JSON.stringify(scope.deny).slice(0, 300)}\``);
  if (entry.allow?.length)
    out.push(`**This entry's scope allows:** \`${JSON.stringify(entry.allow).slice(0, 300)}\``);
  if (entry.deny?.length)
    out.push(`**This entry's scope denies:** \`${JSON.stringify(entry.deny).slice(0, 300)}\``);
  if (found.kind !== "permission" && found.set)
    out.push(
      `**Expands to:** ${found.set.permissions.map((p) => `\`${p}\``).join(", ") || "nothing"}`,
    );

  const windows = appLabels(project).filter((label) =>
    capability.windows.some((w) => labelMatches(w.value, label)),
  );
  const webviews = appLabels(project).filter((label) =>
    capability.webviews.some((w) => labelMatches(w.value, label)),
  );
  const who = [
    ...windows.map((w) => `window \`${w}\``),
    ...webviews.map((w) => `webview \`${w}\``),
  ];
  const origins = capability.remote?.urls.length
    ? ` (and remote pages matching ${capability.remote.urls.map((u) => `\`${u.value}\``).join(", ")})`
    : "";
  const active = project.activeCapabilities.includes(capability);
  out.push(
    active
      ? `**Through capability \`${capability.identifier}\`:** ${who.length ? who.join(", ") : "no known window"}${origins}`
      : `Capability \`${capability.identifier}\` is not used by the build (tauri.conf.json lists others)`,
  );
  return out.join("\n\n");
}

/** The scope a permission carries, or the scopes of a set's members (sets within sets included, each once). */
function scopeOf(
  catalog: Catalog,
  key: string,
  found: TopLevelLookup,
): { allow: unknown[]; deny: unknown[] } {
  const scope = { allow: [] as unknown[], deny: [] as unknown[] };
  const seen = new Set<string>();
  const visit = (lookup: TopLevelLookup | undefined) => {
    if (!lookup) return;
    if (lookup.kind === "permission") {
      scope.allow.push(...(lookup.permission.scope?.allow ?? []));
      scope.deny.push(...(lookup.permission.scope?.deny ?? []));
      return;
    }
    for (const member of lookup.set?.permissions ?? []) {
      if (seen.has(member) || seen.size > 1_000) continue;
      seen.add(member);
      visit(catalog.lookupTopLevel(key, member));
    }
  };
  visit(found);
  return scope;
}

function labelHover(project: Project, label: string): string {
  const capabilities = project.activeCapabilities.filter(
    (capability) =>
      capability.windows.some((w) => labelMatches(w.value, label)) ||
      capability.webviews.some((w) => labelMatches(w.value, label)),
  );
  const out = [`**Window \`${label}\`**`];
  out.push(
    capabilities.length
      ? `**Capabilities:** ${capabilities.map((c) => `\`${c.identifier}\``).join(", ")}`
      : "No capability the build uses covers it.",
  );
  const counts = new Map<number, string[]>();
  for (const platform of TARGETS) {
    const count = resolveAccess(project, { window: label, platform }).allowed.length;
    counts.set(count, [...(counts.get(count) ?? []), platform]);
  }
  const parts = [...counts].map(
    ([count, platforms]) =>
      `${plural(count, "command")}${counts.size === 1 ? "" : ` on ${platforms.join(", ")}`}`,
  );
  out.push(`**May call** (its own pages): ${parts.join("; ")}`);
  return out.join("\n\n");
}

function urlHover(project: Project, pattern: string, capability: Capability): string {
  const compiled = compileRemotePattern(pattern);
  if (!compiled.ok)
    return `**\`${pattern}\`**: not a pattern ${project.catalog.framework} accepts: ${compiled.message}`;
  const { match, miss } = exampleUrls(pattern, (url) => compiled.test(url));
  const out = [`**Remote URL pattern \`${pattern}\`**`];
  out.push(match ? `**Matches:** \`${match}\`` : "No example URL found that it matches.");
  if (miss) out.push(`**Does not match:** \`${miss}\``);
  // The remote-app-commands rule's exposure, said where the reader looks at the pages it lets in.
  const unchecked = uncheckedRemoteAppCommands(project.catalog);
  const targets = [...valuesOf(capability.windows), ...valuesOf(capability.webviews)];
  if (unchecked && project.activeCapabilities.includes(capability) && targets.length > 0)
    out.push(
      `**Exposed:** pages it matches in ${targets.map((label) => `\`${label}\``).join(", ")} may call every app command, not checked by ${project.catalog.framework}: ${unchecked}`,
    );
  return out.join("\n\n");
}

/** A URL the pattern matches (its wildcards and named groups filled in) and a close one it does not. */
export function exampleUrls(
  pattern: string,
  test: (url: string) => boolean,
): { match?: string; miss?: string } {
  const filled = pattern
    .replace(/:\*/g, ":8080")
    .replace(/\*\./g, "app.")
    .replace(/\/\*/g, "/index.html")
    .replace(/:[A-Za-z_]\w*/g, (name, at: number, whole: string) =>
      whole.slice(0, at).includes("//") ? "value" : name,
    )
    .replace(/\*/g, "x")
    .replace(/[()?+{}]/g, "");
  const match = [filled, `${filled}/`, `${filled.replace(/\/$/, "")}/index.html`].find((url) =>
    safeTest(test, url),
  );
  if (!match) return {};
  let parsed: URL | undefined;
  try {
    parsed = new URL(match);
  } catch {
    return { match };
  }
  const candidates: string[] = [];
  const host = new URL(match);
  host.hostname = "attacker.example";
  candidates.push(host.href);
  const scheme = new URL(match);
  scheme.protocol = parsed.protocol === "https:" ? "http:" : "https:";
  candidates.push(scheme.href);
  const miss = candidates.find((url) => !safeTest(test, url));
  return miss === undefined ? { match } : { match, miss };
}

function safeTest(test: (url: string) => boolean, url: string): boolean {
  try {
    return test(url);
  } catch {
    return false;
  }
}
