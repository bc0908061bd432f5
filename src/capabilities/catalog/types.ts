/** Shapes of a generated `acl-manifests.json` (host-acl-semantics §1.6). */

export interface PermissionCommands {
  allow: string[];
  deny: string[];
}

export interface PermissionDef {
  identifier: string;
  description?: string;
  version?: number;
  commands: PermissionCommands;
  scope?: { allow?: unknown[]; deny?: unknown[] };
  platforms?: string[];
}

export interface PermissionSetDef {
  identifier: string;
  description: string;
  permissions: string[];
  /** The permission file (absolute path) whose definition the build uses; absent for generated and built-in manifests. */
  definedIn?: string;
  /** Where in that file: the set's index in its `set` list. */
  definedAtIndex?: number;
}

export interface Manifest {
  default_permission: PermissionSetDef | null;
  permissions: Record<string, PermissionDef>;
  permission_sets: Record<string, PermissionSetDef>;
  global_scope_schema: unknown;
}

export type AclManifests = Record<string, Manifest>;

/** The manifest key of the app's own permissions. */
export const APP_KEY = "__app-acl__";

/** `build`: a plugin the app's build defines itself (inlined in build.rs, or a `path` dependency's folder). */
export type ManifestOrigin = "builtin" | "manifest" | "plugins-dir" | "app-permissions" | "build";

export interface ManifestProvenance {
  origin: ManifestOrigin;
  /** File or folder it came from (relative POSIX path), when not built in. */
  file?: string;
}
