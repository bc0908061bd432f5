import type { JsonPath } from "../../core/location.js";

export const TARGETS = ["linux", "macOS", "windows", "android", "iOS"] as const;
export type Target = (typeof TARGETS)[number];

export function isTarget(value: unknown): value is Target {
  return typeof value === "string" && (TARGETS as readonly string[]).includes(value);
}

/** A scope value: any JSON value. */
export type ScopeValue = unknown;

export interface PermissionEntry {
  identifier: string;
  /** Extended scope; `undefined` when the key is absent, `null` when explicitly null. */
  allow?: ScopeValue[] | null;
  deny?: ScopeValue[] | null;
  /** True for the object form `{identifier, allow?, deny?}`. */
  extended: boolean;
  /** Path of the entry inside its document. */
  path: JsonPath;
}

export interface Capability {
  identifier: string;
  description: string;
  remote?: { urls: string[] };
  local: boolean;
  windows: string[];
  webviews: string[];
  permissions: PermissionEntry[];
  /** `undefined` (absent or null) = every platform; `[]` = none. */
  platforms?: string[];
  /** Where it was declared. */
  source: CapabilitySource;
}

export interface CapabilitySource {
  /** POSIX path relative to the working directory; for inline config capabilities the config file. */
  file: string;
  absolutePath: string;
  /** Path of the capability object inside that file. */
  path: JsonPath;
  /** Declared inline in tauri.conf.json (`app.security.capabilities`). */
  inline?: boolean;
}
