import { quoteList } from "../../core/did-you-mean.js";
import { quote } from "../text.js";
import { fieldPropertyListeners } from "./support.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "unknown-result-type",
  description: "tool_done.result_type other than string or json (clients show it as plain text).",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    unknownResultType:
      '"{{field}}" of {{object}} is {{value}}, which clients do not know and show as plain text',
  },
  check({ on, report }) {
    // The fields whose values clients know a fixed few of (the definitions' `known`).
    on(
      fieldPropertyListeners(
        (def) => def.known,
        (event, type, open) => {
          for (const [field, known] of open) {
            const value = event[field];
            // Not a string is event-field's finding.
            if (typeof value !== "string" || known.includes(value)) continue;
            report({
              messageId: "unknownResultType",
              data: { field, object: type, value: quote(value) },
              hint: `use ${quoteList(known)}, or omit it for plain text`,
              field,
            });
          }
        },
      ),
    );
  },
});
