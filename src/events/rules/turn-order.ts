import type { ServerEventType } from "../definitions.js";
import { defineRule, type EventListener } from "./types.js";

export default defineRule({
  id: "turn-order",
  description:
    "No streamed output after the turn's done until the next user_message, and one done per turn.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    outputAfterDone: "{{type}} after the turn's done, before any new user_message",
    secondDone: "second done in one turn",
    memoryLimit:
      "more than {{limit}} sessions have a finished turn; the oldest are forgotten, so output after their done is no longer detected",
  },
  check({ stream, on, report }) {
    const streamedOutput =
      (type: ServerEventType): EventListener =>
      (_event, session) => {
        if (session.doneLine === undefined) return;
        report({
          messageId: "outputAfterDone",
          data: { type },
          hint: "a turn's output ends with done; the next turn starts with user_message",
          field: "type",
          relatedLine: session.doneLine,
        });
      };
    on({
      token_delta: streamedOutput("token_delta"),
      thinking: streamedOutput("thinking"),
      tool_start: streamedOutput("tool_start"),
      done(event, session) {
        if (session.doneLine === undefined || stream.isSubAgentAnswer(event, session)) return;
        report({
          messageId: "secondDone",
          hint: "a turn ends with one done; the next turn starts with user_message",
          field: "type",
          relatedLine: session.doneLine,
        });
      },
      memoryBound(bound, limit) {
        if (bound !== "doneSessions") return;
        report({
          messageId: "memoryLimit",
          data: { limit },
          hint: "split the recording, or raise nothing: the limit bounds caplint's memory",
          field: "type",
          cut: true,
        });
      },
    });
  },
});
