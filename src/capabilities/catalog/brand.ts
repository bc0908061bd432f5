/**
 * The framework's brand word. The spec writes it `host`, real apps and their generated manifests write
 * `tauri`; both name the same permissions and command. Only `core:app`'s version command carries the word
 * (acl-history `brandWord.ids`, host-acl-semantics §8), so the mapping is a fixed list, never a blind
 * text replacement: an app's own `get_tauri_info` command keeps its name.
 */
import type { Manifest, PermissionSetDef } from "./types.js";

export type Spelling = "host" | "tauri";
export const SPELLINGS: readonly Spelling[] = ["host", "tauri"];

/**
 * The framework as answers name it in prose: "Tauri" in an app spelled `tauri` (the normal case), the
 * spec's "the host" in an app spelled `host`. Fits where "the host" stood ("Tauri ignores it", "Tauri's build").
 */
export function frameworkName(spelling: Spelling): string {
  return spelling === "tauri" ? "Tauri" : "the host";
}

/** The manifest key whose names carry the brand word. */
const BRAND_KEY = "core:app";
const BRAND_PLUGIN = "app";
const brandName = (action: "allow" | "deny", spelling: Spelling) => `${action}-${spelling}-version`;
const brandCommand = (spelling: Spelling) => `${spelling}_version`;
/** Prefixes the build refuses: a crate name, not a plugin key. */
export const RESERVED_PREFIXES = SPELLINGS.map((spelling) => `${spelling}-plugin-`);

const NAME = /^(allow|deny)-(host|tauri)-version$/;

/** A `core:app` permission name (`allow-tauri-version`) in `to`'s spelling; other names unchanged. */
export function spellName(key: string, name: string, to: Spelling): string {
  if (key !== BRAND_KEY) return name;
  const match = NAME.exec(name);
  return match ? brandName(match[1] as "allow" | "deny", to) : name;
}

/** A permission name of `key` in the spelling it is not written in (`allow-host-version` → `allow-tauri-version`), when it carries the brand word. */
export function otherSpellingName(key: string, name: string): string | undefined {
  if (key !== BRAND_KEY) return undefined;
  const match = NAME.exec(name);
  return match
    ? brandName(match[1] as "allow" | "deny", match[2] === "host" ? "tauri" : "host")
    : undefined;
}

/** A full identifier (`core:app:allow-tauri-version`) in `to`'s spelling. */
export function spellIdentifier(identifier: string, to: Spelling): string {
  if (!identifier.startsWith(`${BRAND_KEY}:`)) return identifier;
  return `${BRAND_KEY}:${spellName(BRAND_KEY, identifier.slice(BRAND_KEY.length + 1), to)}`;
}

/** A command as invoked (`plugin:app|tauri_version`) in `to`'s spelling. */
export function spellCommand(command: string, to: Spelling): string {
  const other = to === "host" ? "tauri" : "host";
  return command === `plugin:${BRAND_PLUGIN}|${brandCommand(other)}`
    ? `plugin:${BRAND_PLUGIN}|${brandCommand(to)}`
    : command;
}

/**
 * A message's quoted names (`"core:app:allow-host-version"`, `"allow-host-version"`, `"host_version"`) in
 * `to`'s spelling: only whole quoted names of the brand list change, never other text.
 */
export function spellQuotedNames(message: string, to: Spelling): string {
  return message.replace(
    /"((?:core:app:)?(?:allow|deny)-(?:host|tauri)-version|(?:host|tauri)_version)"/g,
    (_whole, name: string) =>
      name.includes("_")
        ? `"${brandCommand(to)}"`
        : name.startsWith("core:")
          ? `"${spellIdentifier(name, to)}"`
          : `"${spellName(BRAND_KEY, name, to)}"`,
  );
}

/** The spelling an identifier is written in, when it carries the brand word. */
export function spellingOfIdentifier(identifier: string): Spelling | undefined {
  if (!identifier.startsWith(`${BRAND_KEY}:`)) return undefined;
  return NAME.exec(identifier.slice(BRAND_KEY.length + 1))?.[2] as Spelling | undefined;
}

/** The spelling a manifest of `key` uses, when it defines the brand permissions. */
export function spellingOfManifest(key: string, manifest: Partial<Manifest>): Spelling | undefined {
  if (key !== BRAND_KEY || !manifest.permissions) return undefined;
  for (const spelling of SPELLINGS)
    if (Object.prototype.hasOwnProperty.call(manifest.permissions, brandName("allow", spelling)))
      return spelling;
  return undefined;
}

/** The spelling most of the identifiers written use, each counted as often as it is written (ties and none: undefined). */
export function majoritySpelling(written: ReadonlyMap<string, number>): Spelling | undefined {
  let host = 0;
  let tauri = 0;
  for (const [identifier, times] of written) {
    const spelling = spellingOfIdentifier(identifier);
    if (spelling === "host") host += times;
    else if (spelling === "tauri") tauri += times;
  }
  return host > tauri ? "host" : tauri > host ? "tauri" : undefined;
}

/**
 * A manifest with every brand-bearing name in `to`'s spelling: `core:app`'s permissions and command,
 * and set members naming them from any manifest. Returns the same object when nothing changes.
 */
export function spellManifest(key: string, manifest: Manifest, to: Spelling): Manifest {
  const member = (name: string) =>
    name.includes(":") ? spellIdentifier(name, to) : spellName(key, name, to);
  const spellSet = (set: PermissionSetDef): PermissionSetDef => {
    // Only a brand name changes (`…-host-version`, `…-tauri-version`): most sets hold none.
    if (!set.permissions.some((name) => name.includes("-version"))) return set;
    const permissions = set.permissions.map(member);
    return permissions.some((name, i) => name !== set.permissions[i])
      ? { ...set, permissions }
      : set;
  };
  let changed = false;
  // Only core:app's permissions carry the brand word: every other key's stay as they are.
  let permissions = manifest.permissions;
  if (key === BRAND_KEY) {
    permissions = {};
    const command = (c: string) =>
      c === brandCommand("host") || c === brandCommand("tauri") ? brandCommand(to) : c;
    for (const [name, permission] of Object.entries(manifest.permissions)) {
      const spelled = spellName(key, name, to);
      let def = permission;
      const allow = permission.commands.allow.map(command);
      const deny = permission.commands.deny.map(command);
      if (
        spelled !== name ||
        allow.some((c, i) => c !== permission.commands.allow[i]) ||
        deny.some((c, i) => c !== permission.commands.deny[i])
      ) {
        def = {
          ...permission,
          identifier: spellName(key, permission.identifier, to),
          commands: { allow, deny },
        };
        if (permission.description !== undefined)
          def.description = permission.description.replace(
            /\b(host|tauri)_version\b/g,
            brandCommand(to),
          );
      }
      if (spelled !== name || def !== permission) changed = true;
      permissions[spelled] = def;
    }
  }
  const permissionSets: Record<string, PermissionSetDef> = {};
  for (const [name, set] of Object.entries(manifest.permission_sets)) {
    const spelled = spellSet(set);
    if (spelled !== set) changed = true;
    permissionSets[name] = spelled;
  }
  const defaultPermission = manifest.default_permission && spellSet(manifest.default_permission);
  if (defaultPermission !== manifest.default_permission) changed = true;
  if (!changed) return manifest;
  return {
    ...manifest,
    default_permission: defaultPermission,
    permissions,
    permission_sets: permissionSets,
  };
}
