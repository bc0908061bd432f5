import type { Suppression } from "../core/suppressions.js";
import type { Capability } from "./model/types.js";

export function collectSuppressions(capabilities: readonly Capability[]): Suppression[] {
  const out: Suppression[] = [];
  for (const capability of capabilities) {
    const scope = {
      absolutePath: capability.source.absolutePath,
      path: capability.source.path,
      label: `capability "${capability.identifier}"`,
    };
    for (const item of capability.written.suppressions)
      out.push({ scope, ruleId: item.value, path: item.path, used: false });
  }
  return out;
}
