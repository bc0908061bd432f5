import { isPlainObject } from "../../core/json.js";
import type { Manifest, PermissionDef, PermissionSetDef } from "../catalog/types.js";

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];

/** One parsed permission file; `absolutePath` is absent for definitions the loader generates itself. */
export interface PermissionFileContent {
  value: unknown;
  absolutePath?: string;
}

/**
 * Folds parsed permission files (`[default]`, `[[set]]`, `[[permission]]`) into one manifest, the way
 * tauri-build does: files in the given order, the last definition of an id (or of `[default]`) wins.
 * Each set remembers the file of the definition that won, so rules can place findings about it
 * without reading the disk again.
 */
export function manifestFromPermissionFiles(files: readonly PermissionFileContent[]): Manifest {
  const manifest: Manifest = {
    default_permission: null,
    permissions: {},
    permission_sets: {},
    global_scope_schema: null,
  };
  for (const { value, absolutePath } of files) {
    if (!isPlainObject(value)) continue;
    if (isPlainObject(value.default)) {
      manifest.default_permission = {
        identifier: "default",
        description:
          typeof value.default.description === "string"
            ? value.default.description
            : "Default plugin permissions.",
        permissions: strings(value.default.permissions),
      };
    }
    for (const [index, set] of (Array.isArray(value.set) ? value.set : []).entries()) {
      if (!isPlainObject(set) || typeof set.identifier !== "string") continue;
      const def: PermissionSetDef = {
        identifier: set.identifier,
        description: typeof set.description === "string" ? set.description : "",
        permissions: strings(set.permissions),
      };
      if (absolutePath !== undefined) {
        def.definedIn = absolutePath;
        def.definedAtIndex = index;
      }
      manifest.permission_sets[set.identifier] = def;
    }
    for (const permission of Array.isArray(value.permission) ? value.permission : []) {
      if (!isPlainObject(permission) || typeof permission.identifier !== "string") continue;
      const commands = isPlainObject(permission.commands) ? permission.commands : {};
      const def: PermissionDef = {
        identifier: permission.identifier,
        commands: { allow: strings(commands.allow), deny: strings(commands.deny) },
      };
      if (typeof permission.description === "string") def.description = permission.description;
      if (typeof permission.version === "number") def.version = permission.version;
      if (isPlainObject(permission.scope)) {
        const scope: NonNullable<PermissionDef["scope"]> = {};
        // An empty list is kept: upstream then gives the leaf an empty command scope rather than none.
        if (Array.isArray(permission.scope.allow)) scope.allow = permission.scope.allow;
        if (Array.isArray(permission.scope.deny)) scope.deny = permission.scope.deny;
        if (scope.allow || scope.deny) def.scope = scope;
      }
      if (Array.isArray(permission.platforms)) def.platforms = strings(permission.platforms);
      manifest.permissions[permission.identifier] = def;
    }
  }
  manifest.permissions = sortKeys(manifest.permissions);
  manifest.permission_sets = sortKeys(manifest.permission_sets);
  return manifest;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
