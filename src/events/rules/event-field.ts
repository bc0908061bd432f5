import { defineLineRule } from "./types.js";

/** Reported by the definitions' walk (src/events/check-fields.ts): each field of the definition. */
export default defineLineRule({
  id: "event-field",
  description:
    "Required fields are present with the right type and range (numbers as written), optional fields are omitted rather than null.",
  category: "correctness",
  defaultSeverity: "error",
  messages: {
    envelopeEvent: '"event" of the envelope must be a ServerEvent object, got {{got}}',
    missing: '{{object}} is missing required field "{{field}}"',
    missingSeveral: "{{object}} is missing required fields {{fields}}",
    optionalNull: 'optional field "{{field}}" of {{object}} is null',
    wrongType: '"{{field}}" of {{object}} must be {{expected}}, got {{got}}',
    notInEnum: '"{{field}}" of {{object}} must be {{allowed}}, got {{value}}',
    nonStringItem:
      '"{{field}}" of {{object}} must hold strings only, got {{got}} at index {{index}}',
    emptyArray: '"{{field}}" of {{object}} is an empty array',
  },
});
