import { entryIsAt } from "../../model/capability.js";
import type { ResolvedCommand, ResolvedModel } from "../../engine/index.js";
import type { Capability, ModelItem, PermissionEntry } from "../../model/types.js";
import type { JsonPath } from "../../../core/location.js";

/** The capability entry a resolved command came from. */
export function entryOf(
  model: ResolvedModel,
  command: ResolvedCommand,
): { capability: Capability; entry: PermissionEntry } | undefined {
  const capability = model.capabilities[command.capabilityIndex]?.capability;
  const entry = capability && entryAt(capability, command.provenance.path);
  return capability && entry ? { capability, entry } : undefined;
}

/** The entry of `capability` written at `path` (a grant's provenance), if it has one. */
export function entryAt(capability: Capability, path: JsonPath): PermissionEntry | undefined {
  return capability.permissions.find((e) => entryIsAt(e, path));
}

/** `windows "main", "main-*"; webviews "x"` for messages. */
export function describeTargets(capability: Pick<Capability, "windows" | "webviews">): string {
  const parts: string[] = [];
  const quoted = (items: readonly ModelItem[]) => items.map((item) => `"${item.value}"`).join(", ");
  if (capability.windows.length) parts.push(`windows ${quoted(capability.windows)}`);
  if (capability.webviews.length) parts.push(`webviews ${quoted(capability.webviews)}`);
  return parts.join("; ") || "no window";
}
