import { quoteList } from "../../core/did-you-mean.js";
import { SERVER_EVENT_TYPES, SERVER_EVENTS, type EventDef } from "../definitions.js";
import { quote } from "../text.js";
import { defineRule, type EventListener, type StreamListeners } from "./types.js";

export default defineRule({
  id: "unknown-result-type",
  description: "tool_done.result_type other than string or json (clients show it as plain text).",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    unknownResultType: '"{{field}}" of {{object}} is {{value}}, which clients do not know and show as plain text',
  },
  check({ on, report }) {
    // The fields whose values clients know a fixed few of (the definitions' `known`).
    const listeners: StreamListeners = {};
    for (const type of SERVER_EVENT_TYPES) {
      const definition: EventDef = SERVER_EVENTS[type];
      const open = Object.entries(definition.fields).flatMap(([field, def]) => (def.known === undefined ? [] : [[field, def.known] as const]));
      if (open.length === 0) continue;
      const listener: EventListener = (event) => {
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
      };
      listeners[type] = listener;
    }
    on(listeners);
  },
});
