import { defineLineRule } from "./types.js";

/** Reported by the definitions' walk (src/events/check-fields.ts): the line's `type`. */
export default defineLineRule({
  id: "event-type",
  description: "Every event has a type the spec lists.",
  category: "correctness",
  defaultSeverity: "error",
  messages: {
    missing: 'event has no "type"',
    notAString: '"type" must be a string, got {{got}}',
    unknown: "unknown event type {{type}}",
    unknownClientType: "unknown client message type {{type}}",
  },
});
