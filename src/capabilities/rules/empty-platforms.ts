import { TARGETS } from "../model/types.js";
import { quoteList } from "../../core/did-you-mean.js";
import { defineRule } from "./types.js";
import { field, syntaxOf } from "../../core/source/syntax.js";

export default defineRule({
  id: "empty-platforms",
  description: "Disallow `platforms: []`, which makes a capability active on no platform.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  scope: "document",
  messages: {
    noPlatform: 'capability "{{capability}}" has "platforms": [], so it is active on no platform',
  },
  check(context) {
    for (const capability of context.capabilities) {
      // As written: `[7]` is no empty list but a wrongly typed item, the schema's finding.
      if (capability.written.listLengths.platforms !== 0) continue;
      context.report({
        at: capability.source,
        path: [...capability.source.path, "platforms"],
        messageId: "noPlatform",
        data: { capability: capability.identifier },
        // Removing the field flips the capability from nowhere to everywhere: a decision, not a safe fix.
        hint: `remove ${field("platforms", [], syntaxOf(capability.source))} to target every platform, or list the ones it is for: ${quoteList(TARGETS, "and")}`,
      });
    }
  },
});
