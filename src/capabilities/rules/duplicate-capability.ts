import type { Capability } from "../model/types.js";
import { defineRule, type RuleContext } from "./types.js";

export default defineRule({
  id: "duplicate-capability",
  description:
    "Disallow two capabilities with the same identifier, in one file or across files (the build fails).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: { duplicate: 'capability identifier "{{identifier}}" is also declared at {{others}}' },
  check(context) {
    const byId = new Map<string, Capability[]>();
    for (const capability of context.capabilities) {
      const group = byId.get(capability.identifier);
      if (group) group.push(capability);
      else byId.set(capability.identifier, [capability]);
    }
    for (const [identifier, group] of byId) {
      if (group.length < 2) continue;
      // Each place is located once, and a finding names a few of the others: linear however large the group.
      const places = group.map((capability) => where(context, capability));
      group.forEach((capability, index) => {
        const others: string[] = [];
        for (let i = 0; i < places.length && others.length < SHOWN; i++)
          if (i !== index) others.push(places[i]!);
        const more = group.length - 1 - others.length;
        context.report({
          at: capability.source,
          path: [...capability.source.path, "identifier"],
          messageId: "duplicate",
          data: { identifier, others: others.join(", ") + (more > 0 ? ` and ${more} more` : "") },
          hint: "give each capability a unique identifier, or merge them",
        });
      });
    }
  },
});

/** How many of the other places a finding names. */
const SHOWN = 5;

function where(context: RuleContext, capability: Capability): string {
  const document = context.document(capability.source);
  const line = document?.locate([...capability.source.path, "identifier"]).range.start.line ?? 1;
  return `${capability.source.file}:${line}`;
}
