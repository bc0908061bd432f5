import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { Catalog } from "../../../src/capabilities/catalog/catalog.js";
import type {
  AclManifests,
  Manifest,
  PermissionDef,
} from "../../../src/capabilities/catalog/types.js";
import { manifestFromPermissionFiles } from "../../../src/capabilities/load/permission-files.js";
import { capabilityObjects, toCapability } from "../../../src/capabilities/model/capability.js";
import type { Capability } from "../../../src/capabilities/model/types.js";

export const CONFORMANCE_DIR = fileURLToPath(
  new URL("../../../fixtures/conformance/", import.meta.url),
);

export function readJson<T>(relative: string): T {
  return JSON.parse(readFileSync(path.join(CONFORMANCE_DIR, relative), "utf8")) as T;
}

/** One manifest per plugin folder, keyed by the folder name, from its permission files in name order. */
export function loadConformancePlugins(plugins: readonly string[]): AclManifests {
  const manifests: AclManifests = {};
  for (const plugin of plugins) {
    const folder = path.join(CONFORMANCE_DIR, "plugins", plugin);
    const files = readdirSync(folder)
      .filter((name) => name.endsWith(".toml"))
      .sort();
    manifests[plugin] = manifestFromPermissionFiles(
      files.map((name) => {
        const absolutePath = path.join(folder, name);
        return { value: parseToml(readFileSync(absolutePath, "utf8")), absolutePath };
      }),
    );
  }
  return manifests;
}

const CAPABILITY_FILE = /^cap.*\.(json|json5|toml)$/;

/** The capabilities of a fixture folder (`cap*` files only), failing on a duplicate identifier as the host does. */
export function loadConformanceCapabilities(fixture: string): Capability[] {
  const folder = path.join(CONFORMANCE_DIR, "fixtures", fixture);
  const capabilities: Capability[] = [];
  for (const name of readdirSync(folder)
    .filter((n) => CAPABILITY_FILE.test(n))
    .sort()) {
    const absolutePath = path.join(folder, name);
    const text = readFileSync(absolutePath, "utf8");
    const value = name.endsWith(".toml") ? parseToml(text) : JSON.parse(text);
    for (const object of capabilityObjects(value)) {
      const capability = toCapability(object, {
        file: `fixtures/${fixture}/${name}`,
        absolutePath,
      });
      if (!capability) throw new Error(`${name}: capability without identifier`);
      if (capabilities.some((c) => c.identifier === capability.identifier))
        throw new Error(`capability with identifier \`${capability.identifier}\` already exists`);
      capabilities.push(capability);
    }
  }
  return capabilities;
}

/** A catalog built from hand-written manifests, for the engine's own cases. */
export function catalogOf(manifests: AclManifests): Catalog {
  return new Catalog().add(manifests, { origin: "plugins-dir" });
}

export function manifest(parts: {
  permissions?: Record<string, Partial<PermissionDef> & { allow?: string[]; deny?: string[] }>;
  sets?: Record<string, string[]>;
  default?: string[];
}): Manifest {
  const permissions: Record<string, PermissionDef> = {};
  for (const [identifier, def] of Object.entries(parts.permissions ?? {})) {
    const { allow = [], deny = [], ...rest } = def;
    permissions[identifier] = { identifier, commands: { allow, deny }, ...rest };
  }
  const permission_sets = Object.fromEntries(
    Object.entries(parts.sets ?? {}).map(([identifier, members]) => [
      identifier,
      { identifier, description: "", permissions: members },
    ]),
  );
  return {
    default_permission: parts.default
      ? { identifier: "default", description: "", permissions: parts.default }
      : null,
    permissions,
    permission_sets,
    global_scope_schema: null,
  };
}

let counter = 0;

/** A capability as `toCapability` builds it from the object written with these fields, for the engine's own cases. */
export function capability(fields: {
  identifier: string;
  description?: string;
  local?: boolean;
  /** Lists as written: items that are no string are dropped by the model, as in a file. */
  windows?: unknown[];
  webviews?: unknown[];
  remote?: { urls: unknown[] };
  platforms?: unknown[];
  permissions: Array<
    string | { identifier: string; allow?: unknown[] | null; deny?: unknown[] | null }
  >;
  file?: string;
}): Capability {
  const { file = `capabilities/${fields.identifier}.json`, ...object } = fields;
  return toCapability(
    { path: [], value: object },
    { file, absolutePath: `/virtual/${file}#${counter++}` },
  )!;
}

/** Canonical JSON: object keys sorted, so entries can be compared as multisets. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeysDeep(value));
}

function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeysDeep((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
