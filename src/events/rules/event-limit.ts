import { codePoints } from "../event-values.js";
import { fieldPropertyListeners } from "./support.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "event-limit",
  description: "Labels and previews stay within the spec's limits, counted in Unicode code points.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    tooLong: '"{{field}}" of {{object}} is {{length}} characters long; the limit is {{limit}}',
  },
  check({ on, report }) {
    on(
      fieldPropertyListeners(
        (def) => def.maxChars,
        (event, type, limited) => {
          for (const [field, limit] of limited) {
            const value = event[field];
            // Not a string is event-field's finding; the UTF-16 length bounds the code points from above.
            if (typeof value !== "string" || value.length <= limit) continue;
            const length = codePoints(value);
            if (length <= limit) continue;
            report({
              messageId: "tooLong",
              data: { field, object: type, length, limit },
              hint: `truncate it to ${limit} characters (Unicode code points)`,
              field,
            });
          }
        },
      ),
    );
  },
});
