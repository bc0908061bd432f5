import type { ResolvedCommand, ResolvedModel } from "../engine/index.js";
import { describeTargets, entryOf } from "./engine-helpers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "deny-applies-globally",
  description: "Report denies that block a command another capability allows for other windows: the host ignores a deny's windows and origins.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  async check(context) {
    for (const model of await context.resolutions()) {
      for (const [command, denies] of model.denied) {
        for (const deny of denies) {
          const source = entryOf(model, deny);
          if (!source) continue;
          const victims = new Map<number, ResolvedCommand>();
          for (const allow of model.allowed.get(command) ?? []) {
            if (allow.capabilityIndex !== deny.capabilityIndex && !sameReach(model, allow, deny)) victims.set(allow.capabilityIndex, allow);
          }
          if (victims.size === 0) continue;
          const names = [...victims.values()].map((allow) => {
            const capability = model.capabilities[allow.capabilityIndex]!.capability;
            return `"${capability.identifier}" (${describeTargets(capability)})`;
          });
          context.report({
            at: source.capability.source,
            path: deny.provenance.path,
            message: `deny of ${command} in capability "${source.capability.identifier}" (${describeTargets(source.capability)}) also blocks it for capability ${names.join(", ")}: the host applies a deny to every window, webview and origin`,
            hint: "to keep the command from some windows, leave it out of their capabilities instead of denying it",
          });
        }
      }
    }
  },
});

/** A deny aimed at exactly the same windows, webviews and origins as the allow blocks nothing extra. */
function sameReach(model: ResolvedModel, allow: ResolvedCommand, deny: ResolvedCommand): boolean {
  const a = model.capabilities[allow.capabilityIndex]!;
  const d = model.capabilities[deny.capabilityIndex]!;
  const same = (x: readonly unknown[], y: readonly unknown[]) => JSON.stringify(x) === JSON.stringify(y);
  return same(a.windows, d.windows) && same(a.webviews, d.webviews) && same(a.contexts, d.contexts);
}
