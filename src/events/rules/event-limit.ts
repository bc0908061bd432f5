import { codePoints } from "../event-values.js";
import { SERVER_EVENT_TYPES, SERVER_EVENTS, type EventDef } from "../definitions.js";
import { defineRule, type EventListener, type StreamListeners } from "./types.js";

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
    const listeners: StreamListeners = {};
    for (const type of SERVER_EVENT_TYPES) {
      const definition: EventDef = SERVER_EVENTS[type];
      const limited = Object.entries(definition.fields).flatMap(([field, def]) => (def.maxChars === undefined ? [] : [[field, def.maxChars] as const]));
      if (limited.length === 0) continue;
      const listener: EventListener = (event) => {
        for (const [field, limit] of limited) {
          const value = event[field];
          // Not a string is event-field's finding; UTF-16 length bounds the code points from above.
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
      };
      listeners[type] = listener;
    }
    on(listeners);
  },
});
