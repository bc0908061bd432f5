import type { Capability } from "../model/types.js";
import { defineRule, type RuleContext } from "./types.js";

export default defineRule({
  id: "duplicate-capability",
  description: "Disallow two capabilities with the same identifier, in one file or across files (the build fails).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: { duplicate: 'capability identifier "{{identifier}}" is also declared at {{others}}' },
  check(context) {
    const byId = new Map<string, Capability[]>();
    for (const capability of context.capabilities) {
      byId.set(capability.identifier, [...(byId.get(capability.identifier) ?? []), capability]);
    }
    for (const [identifier, group] of byId) {
      if (group.length < 2) continue;
      for (const capability of group) {
        const others = group.filter((c) => c !== capability).map((c) => where(context, c));
        context.report({
          at: capability.source,
          path: [...capability.source.path, "identifier"],
          messageId: "duplicate",
          data: { identifier, others: others.join(", ") },
          hint: "give each capability a unique identifier, or merge them",
        });
      }
    }
  },
});

function where(context: RuleContext, capability: Capability): string {
  const document = context.document(capability.source);
  const line = document?.locate([...capability.source.path, "identifier"]).range.start.line ?? 1;
  return `${capability.source.file}:${line}`;
}
