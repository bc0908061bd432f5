/**
 * The conformance corpus's normalized form of a resolution (fixtures/conformance/README.md,
 * "Normalized expected format"): command entries without provenance, scopes inlined, scope maps
 * with sorted keys as the host's `BTreeMap`-based `Value` prints them.
 */
import type { ScopeValue } from "../model/types.js";
import {
  compareCodePoints,
  type CommandEntries,
  type ResolvedModel,
  type ScopeLists,
} from "./model.js";

export interface NormalizedEntry {
  context: "local" | { remote: string };
  windows: string[];
  webviews: string[];
  scope: ScopeLists | null;
}

export interface NormalizedModel {
  allowed: Record<string, NormalizedEntry[]>;
  denied: Record<string, NormalizedEntry[]>;
  globalScope: Record<string, ScopeLists>;
}

export function normalize(model: ResolvedModel): NormalizedModel {
  return {
    allowed: normalizeCommands(model.allowed),
    denied: normalizeCommands(model.denied),
    globalScope: Object.fromEntries(
      [...model.globalScope.entries()]
        .sort(([a], [b]) => compareCodePoints(a, b))
        .map(([key, scope]) => [key, normalizeScope(scope)]),
    ),
  };
}

function normalizeCommands(commands: CommandEntries): Record<string, NormalizedEntry[]> {
  return Object.fromEntries(
    [...commands.entries()]
      .sort(([a], [b]) => compareCodePoints(a, b))
      .map(([command, entries]) => [
        command,
        entries.map((entry): NormalizedEntry => ({
          context: entry.context.kind === "local" ? "local" : { remote: entry.context.url },
          windows: [...entry.windows],
          webviews: [...entry.webviews],
          scope: entry.scope && normalizeScope(entry.scope),
        })),
      ]),
  );
}

function normalizeScope(scope: ScopeLists): ScopeLists {
  return { allow: scope.allow.map(sortMapKeys), deny: scope.deny.map(sortMapKeys) };
}

/** Plain JSON with object keys in code-point order; arrays keep their order. */
export function sortMapKeys(value: ScopeValue): ScopeValue {
  if (Array.isArray(value)) return value.map(sortMapKeys);
  if (isPlainRecord(value)) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => compareCodePoints(a, b))
        .map(([key, item]) => [key, sortMapKeys(item)]),
    );
  }
  return value;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
