import type { Catalog } from "../catalog/catalog.js";
import { APP_KEY } from "../catalog/types.js";
import { resolve } from "../engine/index.js";
import { toCapability } from "../model/capability.js";
import { plural } from "../../core/wording.js";

export interface PermissionListing {
  identifier: string;
  kind: "default" | "set" | "permission";
  plugin: string;
  description: string;
  /** Direct members, for sets and defaults. */
  members?: string[];
  /** IPC commands it allows and denies once expanded (on the given platform). */
  allows: string[];
  denies: string[];
  /** Whether it only feeds the plugin's global scope. */
  scopeOnly: boolean;
  platforms?: string[];
}

/** Every permission and set of one plugin (or all), with the commands each expands to. */
export function listPermissions(
  catalog: Catalog,
  platform: string,
  plugin?: string,
): PermissionListing[] {
  const keys = plugin === undefined ? catalog.keys() : [plugin];
  const out: PermissionListing[] = [];
  for (const key of keys) {
    const manifest = catalog.get(key);
    if (!manifest) continue;
    const prefix = key === APP_KEY ? "" : `${key}:`;
    const entry = (
      identifier: string,
      kind: PermissionListing["kind"],
      description: string,
      extra: Partial<PermissionListing>,
    ) => {
      const expanded = expandPermission(catalog, platform, identifier);
      out.push({ identifier, kind, plugin: key, description, ...expanded, ...extra });
    };
    if (manifest.default_permission) {
      entry(`${prefix}default`, "default", manifest.default_permission.description, {
        members: manifest.default_permission.permissions,
      });
    }
    for (const set of Object.values(manifest.permission_sets))
      entry(`${prefix}${set.identifier}`, "set", set.description, { members: set.permissions });
    for (const permission of Object.values(manifest.permissions)) {
      entry(
        `${prefix}${permission.identifier}`,
        "permission",
        permission.description ?? "",
        permission.platforms ? { platforms: permission.platforms } : {},
      );
    }
  }
  return out;
}

/** The IPC commands a permission or set allows and denies on a platform, once expanded as a capability entry would be. */
export function expandPermission(
  catalog: Catalog,
  platform: string,
  identifier: string,
): Pick<PermissionListing, "allows" | "denies" | "scopeOnly"> {
  const probe = toCapability(
    { path: [], value: { identifier: "caplint-probe", windows: ["*"], permissions: [identifier] } },
    { file: "", absolutePath: "" },
  )!;
  const model = resolve({ capabilities: [probe], catalog, platform });
  return {
    allows: [...model.allowed.keys()].sort(),
    denies: [...model.denied.keys()].sort(),
    scopeOnly: model.allowed.size === 0 && model.denied.size === 0 && model.globalScope.size > 0,
  };
}

/**
 * What a permission does, counted: "allows 3 commands", "denies 1 command", "allows 2 commands,
 * denies 1 command"; a `deny-*` permission is described by what it denies, never as "allows 0 commands".
 */
export function grantCounts(allows: readonly unknown[], denies: readonly unknown[]): string {
  const parts = [
    allows.length ? `allows ${plural(allows.length, "command")}` : "",
    denies.length ? `denies ${plural(denies.length, "command")}` : "",
  ].filter(Boolean);
  return parts.join(", ") || "allows no command";
}
