import { entryOf } from "./engine-helpers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "allow-deny-conflict",
  description: "Report commands that one capability both allows and denies: the deny wins and the allow is dead.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  async check(context) {
    for (const model of await context.resolutions()) {
      for (const [command, denies] of model.denied) {
        for (const allow of model.allowed.get(command) ?? []) {
          const deny = denies.find((d) => d.capabilityIndex === allow.capabilityIndex);
          const source = entryOf(model, allow);
          if (!deny || !source) continue;
          context.report({
            at: source.capability.source,
            path: allow.provenance.path,
            message: `"${allow.provenance.chain.join(" › ")}" allows ${command}, but "${deny.provenance.chain.join(" › ")}" in the same capability denies it: the deny wins, this allow is dead`,
            hint: "remove the allow, or the deny if the command should be callable",
          });
        }
      }
    }
  },
});
