import { defineLineRule } from "./types.js";

/** Reported by the line reader (src/events/validator.ts): a line that is not one JSON object, or is written in a way the host's parser rejects. */
export default defineLineRule({
  id: "event-json",
  description: "Each line of a recording is one JSON object.",
  category: "correctness",
  defaultSeverity: "error",
  messages: {
    invalidJson: "not valid JSON: {{problem}}",
    notAnObject: "line is {{kind}}, not an object",
    lineTooLong: "line is {{length}} characters long; the most read is {{limit}}",
    invalidUtf8: "line is not valid UTF-8 (first bad byte here)",
    loneSurrogate:
      "a lone surrogate escape is not a character (the host's parser rejects the line)",
    repeatedField:
      "field {{key}} is written twice in {{object}}; JSON.parse keeps the last copy, the host's parser rejects the event",
    repeatedKey:
      "key {{key}} is written twice in one object; JSON parsers disagree on which copy counts",
    noEvent: "the recording holds no event ({{content}})",
  },
});
