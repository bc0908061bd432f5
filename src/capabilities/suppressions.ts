import type { Suppression } from "../core/suppressions.js";
import type { Capability } from "./model/types.js";

/** The capability field that lists rule ids to silence inside that capability; the host ignores it. */
export const SUPPRESSION_FIELD = "caplint-disable";

export function collectSuppressions(capabilities: readonly Capability[], raw: (c: Capability) => Record<string, unknown>): Suppression[] {
  const out: Suppression[] = [];
  for (const capability of capabilities) {
    const list = raw(capability)[SUPPRESSION_FIELD];
    if (!Array.isArray(list)) continue;
    const scope = { absolutePath: capability.source.absolutePath, path: capability.source.path, label: `capability "${capability.identifier}"` };
    list.forEach((ruleId, index) => {
      if (typeof ruleId === "string") out.push({ scope, ruleId, path: [...capability.source.path, SUPPRESSION_FIELD, index], used: false });
    });
  }
  return out;
}
