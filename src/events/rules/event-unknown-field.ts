import { defineLineRule } from "./types.js";

/** Reported by the definitions' walk (src/events/check-fields.ts): each field the definition does not list. */
export default defineLineRule({
  id: "event-unknown-field",
  description: "A field the spec does not list for the event type (or the envelope).",
  category: "suspicious",
  defaultSeverity: "warning",
  messages: {
    unknownField: "unknown field {{key}} in {{object}}",
  },
});
