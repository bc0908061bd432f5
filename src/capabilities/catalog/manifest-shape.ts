import type { JsonPath } from "../../core/location.js";
import type { AclManifests, Manifest, PermissionDef, PermissionSetDef } from "./types.js";

/**
 * Shape checks for the permission definitions caplint reads from a repository: a generated
 * `acl-manifests.json` and permission files. The host's serde refuses a definition with a missing
 * or mistyped field, so each one is a finding at its place; the definition is kept in a well-typed
 * form (a missing list read as empty) or left out, so the rest of the catalog still works and no
 * later stage meets a `null` where it expects a list.
 */
export interface ShapeProblem {
  path: JsonPath;
  message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
const typeName = (value: unknown) =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "an array"
      : typeof value === "object"
        ? "an object"
        : `a ${typeof value}`;

class Checker {
  readonly problems: ShapeProblem[] = [];

  /** A list of strings; `optional` lists may be missing (read as empty). */
  strings(value: unknown, path: JsonPath, what: string, optional = false): string[] {
    if (value === undefined && optional) return [];
    if (!Array.isArray(value)) {
      this.problems.push({
        path,
        message: `${what} must be a list of strings, found ${value === undefined ? "nothing" : typeName(value)}`,
      });
      return [];
    }
    const out: string[] = [];
    value.forEach((item, index) => {
      if (typeof item === "string") out.push(item);
      else
        this.problems.push({
          path: [...path, index],
          message: `${what} must hold strings, found ${typeName(item)}`,
        });
    });
    return out;
  }

  object(value: unknown, path: JsonPath, what: string): Record<string, unknown> | undefined {
    if (isObject(value)) return value;
    this.problems.push({
      path,
      message: `${what} must be an object, found ${value === undefined ? "nothing" : typeName(value)}`,
    });
    return undefined;
  }
}

/** An `acl-manifests.json` value: plugin key → manifest. */
export function checkAclManifests(value: unknown): {
  manifests: AclManifests;
  problems: ShapeProblem[];
} {
  const checker = new Checker();
  const manifests: AclManifests = {};
  const root = checker.object(value, [], "an acl-manifests.json file");
  for (const [key, raw] of Object.entries(root ?? {})) {
    const manifest = checkMember(checker, key, raw);
    if (manifest) manifests[key] = manifest;
  }
  return { manifests, problems: checker.problems };
}

/**
 * One member of an `acl-manifests.json` object (`key` → its manifest), checked alone: what
 * {@link checkAclManifests} makes of it and says about it (problem paths start at `key`).
 */
export function checkAclManifest(
  key: string,
  raw: unknown,
): { manifest: Manifest | undefined; problems: ShapeProblem[] } {
  const checker = new Checker();
  return { manifest: checkMember(checker, key, raw), problems: checker.problems };
}

function checkMember(checker: Checker, key: string, raw: unknown): Manifest | undefined {
  const manifest = checker.object(raw, [key], `manifest "${key}"`);
  return manifest ? checkManifest(checker, manifest, [key], key) : undefined;
}

function checkManifest(
  checker: Checker,
  raw: Record<string, unknown>,
  base: JsonPath,
  key: string,
): Manifest {
  const manifest: Manifest = {
    default_permission: null,
    permissions: {},
    permission_sets: {},
    global_scope_schema: raw.global_scope_schema ?? null,
  };
  if (raw.default_permission !== undefined && raw.default_permission !== null) {
    const set = checker.object(
      raw.default_permission,
      [...base, "default_permission"],
      `the default permission of "${key}"`,
    );
    if (set)
      manifest.default_permission = checkSet(
        checker,
        set,
        [...base, "default_permission"],
        "default",
      );
  }
  const permissions =
    raw.permissions === undefined
      ? {}
      : checker.object(raw.permissions, [...base, "permissions"], `"permissions" of "${key}"`);
  for (const [name, def] of Object.entries(permissions ?? {})) {
    const path = [...base, "permissions", name];
    const object = checker.object(def, path, `permission "${key}:${name}"`);
    if (object)
      manifest.permissions[name] = checkPermission(checker, object, path, `${key}:${name}`);
  }
  const sets =
    raw.permission_sets === undefined
      ? {}
      : checker.object(
          raw.permission_sets,
          [...base, "permission_sets"],
          `"permission_sets" of "${key}"`,
        );
  for (const [name, def] of Object.entries(sets ?? {})) {
    const path = [...base, "permission_sets", name];
    const object = checker.object(def, path, `permission set "${key}:${name}"`);
    if (object) manifest.permission_sets[name] = checkSet(checker, object, path, name);
  }
  return manifest;
}

function checkSet(
  checker: Checker,
  raw: Record<string, unknown>,
  path: JsonPath,
  name: string,
): PermissionSetDef {
  return {
    identifier: typeof raw.identifier === "string" ? raw.identifier : name,
    description: typeof raw.description === "string" ? raw.description : "",
    permissions: checker.strings(
      raw.permissions,
      [...path, "permissions"],
      `"permissions" of set "${name}"`,
    ),
  };
}

function checkPermission(
  checker: Checker,
  raw: Record<string, unknown>,
  path: JsonPath,
  id: string,
): PermissionDef {
  const commands =
    checker.object(raw.commands, [...path, "commands"], `"commands" of permission "${id}"`) ?? {};
  const def: PermissionDef = {
    identifier:
      typeof raw.identifier === "string" ? raw.identifier : id.slice(id.lastIndexOf(":") + 1),
    commands: {
      allow: checker.strings(
        commands.allow,
        [...path, "commands", "allow"],
        `"commands.allow" of permission "${id}"`,
      ),
      deny: checker.strings(
        commands.deny,
        [...path, "commands", "deny"],
        `"commands.deny" of permission "${id}"`,
      ),
    },
  };
  if (typeof raw.description === "string") def.description = raw.description;
  if (typeof raw.version === "number") def.version = raw.version;
  if (raw.scope !== undefined && raw.scope !== null) {
    const scope = checker.object(raw.scope, [...path, "scope"], `"scope" of permission "${id}"`);
    if (scope) {
      const kept: NonNullable<PermissionDef["scope"]> = {};
      for (const side of ["allow", "deny"] as const) {
        if (scope[side] === undefined || scope[side] === null) continue;
        if (Array.isArray(scope[side])) kept[side] = scope[side];
        else
          checker.problems.push({
            path: [...path, "scope", side],
            message: `"scope.${side}" of permission "${id}" must be a list, found ${typeName(scope[side])}`,
          });
      }
      if (kept.allow || kept.deny) def.scope = kept;
    }
  }
  if (raw.platforms !== undefined && raw.platforms !== null)
    def.platforms = checker.strings(
      raw.platforms,
      [...path, "platforms"],
      `"platforms" of permission "${id}"`,
    );
  return def;
}

/** A permission file (`[default]`, `[[set]]`, `[[permission]]`): the problems only; the folding stays in permission-files.ts. */
export function checkPermissionFile(value: unknown): ShapeProblem[] {
  const checker = new Checker();
  const root = checker.object(value, [], "a permission file");
  if (!root) return checker.problems;
  if (root.default !== undefined) {
    const set = checker.object(root.default, ["default"], "[default]");
    if (set)
      checker.strings(set.permissions, ["default", "permissions"], `"permissions" of [default]`);
  }
  const list = (field: "set" | "permission") => {
    if (root[field] === undefined) return [];
    if (Array.isArray(root[field])) return root[field] as unknown[];
    checker.problems.push({
      path: [field],
      message: `[[${field}]] must be a list of tables, found ${typeName(root[field])}`,
    });
    return [];
  };
  list("set").forEach((raw, index) => {
    const set = checker.object(raw, ["set", index], "a [[set]]");
    if (!set) return;
    if (typeof set.identifier !== "string")
      checker.problems.push({
        path: ["set", index, "identifier"],
        message: `a [[set]] needs a string "identifier", found ${typeName(set.identifier)}`,
      });
    checker.strings(
      set.permissions,
      ["set", index, "permissions"],
      `"permissions" of set ${JSON.stringify(set.identifier)}`,
    );
  });
  list("permission").forEach((raw, index) => {
    const permission = checker.object(raw, ["permission", index], "a [[permission]]");
    if (!permission) return;
    const id = typeof permission.identifier === "string" ? permission.identifier : undefined;
    if (id === undefined)
      checker.problems.push({
        path: ["permission", index, "identifier"],
        message: `a [[permission]] needs a string "identifier", found ${typeName(permission.identifier)}`,
      });
    if (permission.commands === undefined) return;
    const commands = checker.object(
      permission.commands,
      ["permission", index, "commands"],
      `"commands" of permission ${JSON.stringify(id)}`,
    );
    if (!commands) return;
    for (const side of ["allow", "deny"] as const)
      checker.strings(
        commands[side],
        ["permission", index, "commands", side],
        `"commands.${side}" of permission ${JSON.stringify(id)}`,
        true,
      );
  });
  return checker.problems;
}
