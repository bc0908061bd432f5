import type { Capability } from "../capabilities/model/types.js";
import type { JsonPath } from "./location.js";

/** The capability field that lists rule ids to silence inside that capability; the host ignores it. */
export const SUPPRESSION_FIELD = "caplint-disable";

export interface Suppression {
  capability: Capability;
  ruleId: string;
  /** Path of this id inside the file, for reporting it when unused. */
  path: JsonPath;
  used: boolean;
}

export function collectSuppressions(capabilities: readonly Capability[], raw: (c: Capability) => Record<string, unknown>): Suppression[] {
  const out: Suppression[] = [];
  for (const capability of capabilities) {
    const list = raw(capability)[SUPPRESSION_FIELD];
    if (!Array.isArray(list)) continue;
    list.forEach((ruleId, index) => {
      if (typeof ruleId === "string") out.push({ capability, ruleId, path: [...capability.source.path, SUPPRESSION_FIELD, index], used: false });
    });
  }
  return out;
}

/** The suppression that covers a finding: same file, inside the capability, naming its rule. */
export function findSuppression(suppressions: readonly Suppression[], ruleId: string, absolutePath: string, path: JsonPath): Suppression | undefined {
  return suppressions.find(
    (s) => s.ruleId === ruleId && s.capability.source.absolutePath === absolutePath && isPrefix(s.capability.source.path, path),
  );
}

function isPrefix(prefix: JsonPath, path: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((key, index) => path[index] === key);
}
