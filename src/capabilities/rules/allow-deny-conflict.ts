import { samePath } from "../../core/location.js";
import { entryPath } from "../model/capability.js";
import { entryOf } from "./support/engine-helpers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "allow-deny-conflict",
  description:
    "Report permissions a capability grants outright and also denies: the deny wins and the allow is dead.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    deadAllow:
      '"{{allow}}" allows {{command}}, but "{{deny}}" in the same capability denies it: the deny wins, this allow is dead',
  },
  async check(context) {
    const resolution = await context.resolution();
    // Each denied command once per set of platforms it resolves alike on, not once per platform model.
    for (const { model, command } of resolution.deniedCommandSets()) {
      const denies = model.denied.get(command)!;
      const deniesByCapability = new Map<number, typeof denies>();
      for (const deny of denies) {
        const same = deniesByCapability.get(deny.capabilityIndex);
        if (same) same.push(deny);
        else deniesByCapability.set(deny.capabilityIndex, [deny]);
      }
      // Only capabilities that deny the command can hold a dead allow: their allows are the only ones made.
      for (const allow of [...deniesByCapability.keys()].flatMap((capabilityIndex) =>
        model.allowsIn(command, capabilityIndex),
      )) {
        const sameCapability = deniesByCapability.get(allow.capabilityIndex)!;
        // A set minus a deny ("core:default" with "core:window:deny-title") is how a capability
        // carves a command out of a set: that is intended. The allow is dead when it was written
        // out on its own, or when its entry also denies it.
        const deny = sameCapability.find(
          (d) =>
            allow.provenance.chain.length === 1 ||
            samePath(d.provenance.path, allow.provenance.path),
        );
        if (!deny) continue;
        const source = entryOf(model, allow);
        if (!source) continue;
        context.report({
          at: source.capability.source,
          path: entryPath(source.capability, allow.provenance.path),
          messageId: "deadAllow",
          data: {
            allow: allow.provenance.chain.join(" › "),
            command,
            deny: deny.provenance.chain.join(" › "),
          },
          hint: "remove the allow, or the deny if the command should be callable",
        });
      }
    }
  },
});
