import type { JsonPath } from "../../../core/location.js";
import type { ResolvedCommand, ResolvedModel } from "../../engine/index.js";
import type { Capability, PermissionEntry } from "../../model/types.js";

/** The capability entry a resolved command came from. */
export function entryOf(model: ResolvedModel, command: ResolvedCommand): { capability: Capability; entry: PermissionEntry } | undefined {
  const capability = model.capabilities[command.capabilityIndex]?.capability;
  const entry = capability?.permissions.find((e) => samePath(e.path, command.provenance.path));
  return capability && entry ? { capability, entry } : undefined;
}

export function samePath(a: JsonPath, b: JsonPath): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}

/** `windows "main", "main-*"; webviews "x"` for messages. */
export function describeTargets(capability: { windows: readonly string[]; webviews: readonly string[] }): string {
  const parts: string[] = [];
  if (capability.windows.length) parts.push(`windows ${capability.windows.map((w) => `"${w}"`).join(", ")}`);
  if (capability.webviews.length) parts.push(`webviews ${capability.webviews.map((w) => `"${w}"`).join(", ")}`);
  return parts.join("; ") || "no window";
}

/** The last identifier of a provenance chain: the leaf permission, qualified. */
export function leafOf(command: ResolvedCommand): string {
  return command.provenance.chain[command.provenance.chain.length - 1] ?? command.permission;
}

/**
 * Where to report on a permission entry: the identifier of an object entry, as the identifier rules
 * do (TOML documents can only locate strings and keys, so an inline table would point at `permissions`).
 */
export function entryPath(capability: Capability, path: JsonPath): JsonPath {
  const entry = capability.permissions.find((e) => samePath(e.path, path));
  return entry?.extended ? [...path, "identifier"] : path;
}
