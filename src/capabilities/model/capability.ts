import type { JsonPath } from "../../core/location.js";
import { isPlainObject } from "../../core/json.js";
import type { Capability, CapabilitySource, PermissionEntry } from "./types.js";

export type FileForm = "single" | "list" | "wrapped";

/** The fields the format defines; the host ignores any other (and rejects a repeated one of these). */
export const CAPABILITY_FIELDS = ["identifier", "description", "remote", "local", "windows", "webviews", "permissions", "platforms"] as const;
export const REMOTE_FIELDS = ["urls"] as const;
export const PERMISSION_ENTRY_FIELDS = ["identifier", "allow", "deny"] as const;
export const WRAPPED_FILE_FIELDS = ["capabilities"] as const;

export interface CapabilityObject {
  path: JsonPath;
  value: Record<string, unknown>;
}


/** The form a parsed file takes, decided like the host does: array, object with `capabilities`, other object. */
export function fileForm(value: unknown): FileForm | undefined {
  if (Array.isArray(value)) return "list";
  if (isPlainObject(value)) return Object.prototype.hasOwnProperty.call(value, "capabilities") ? "wrapped" : "single";
  return undefined;
}

/** Every capability object of a file, with its path; items that are not objects are skipped. */
export function capabilityObjects(value: unknown): CapabilityObject[] {
  const form = fileForm(value);
  const out: CapabilityObject[] = [];
  const collect = (items: unknown, base: JsonPath) => {
    if (!Array.isArray(items)) return;
    items.forEach((item, index) => {
      if (isPlainObject(item)) out.push({ path: [...base, index], value: item });
    });
  };
  if (form === "list") collect(value, []);
  else if (form === "wrapped") collect((value as Record<string, unknown>).capabilities, ["capabilities"]);
  else if (form === "single") out.push({ path: [], value: value as Record<string, unknown> });
  return out;
}

/**
 * A typed capability from a raw object. Lenient: a field of the wrong type is dropped (the schema
 * stage reports it), so rules always see well-typed data. Returns undefined without a string identifier.
 */
export function toCapability(object: CapabilityObject, source: Omit<CapabilitySource, "path">): Capability | undefined {
  const raw = object.value;
  if (typeof raw.identifier !== "string") return undefined;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);
  const capability: Capability = {
    identifier: raw.identifier,
    description: typeof raw.description === "string" ? raw.description : "",
    local: typeof raw.local === "boolean" ? raw.local : true,
    windows: strings(raw.windows),
    webviews: strings(raw.webviews),
    permissions: toEntries(raw.permissions, [...object.path, "permissions"]),
    source: { ...source, path: object.path },
  };
  if (isPlainObject(raw.remote) && Array.isArray(raw.remote.urls)) capability.remote = { urls: strings(raw.remote.urls) };
  if (Array.isArray(raw.platforms)) capability.platforms = strings(raw.platforms);
  return capability;
}

function toEntries(value: unknown, base: JsonPath): PermissionEntry[] {
  if (!Array.isArray(value)) return [];
  const entries: PermissionEntry[] = [];
  value.forEach((item, index) => {
    const path = [...base, index];
    if (typeof item === "string") entries.push({ identifier: item, extended: false, path });
    else if (isPlainObject(item) && typeof item.identifier === "string") {
      const entry: PermissionEntry = { identifier: item.identifier, extended: true, path };
      if ("allow" in item) entry.allow = Array.isArray(item.allow) ? item.allow : null;
      if ("deny" in item) entry.deny = Array.isArray(item.deny) ? item.deny : null;
      entries.push(entry);
    }
  });
  return entries;
}
