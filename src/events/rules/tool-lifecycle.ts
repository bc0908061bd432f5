import { idOf } from "../event-values.js";
import type { ServerEventType } from "../definitions.js";
import type { Terminal } from "../stream-state.js";
import { quote } from "../text.js";
import { defineRule, type EventListener } from "./types.js";

const REUSED_ID_HINT = "give every tool call its own tool_call_id";

export default defineRule({
  id: "tool-lifecycle",
  description:
    "Exactly one of tool_done, tool_error, tool_cancelled, tool_rejected ends each tool_start, within its turn.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    secondStart: "second tool_start for tool call {{id}}, which is still running",
    startAfterEnd: "tool_start for tool call {{id}}, which already ended ({{how}})",
    startAfterEarlierEnd: "tool_start for tool call {{id}}, which already ended",
    memoryLimit:
      "more than {{limit}} tool calls ended with ids that do not count up; later ids are not remembered, so their reuse is no longer detected",
    secondEnd: "{{type}} for tool call {{id}}, which already ended with {{how}}",
    endWithoutStart: "{{type}} for tool call {{id}}, which never started",
    eventAfterEnd: "{{type}} for tool call {{id}} after it ended ({{how}})",
    eventBeforeStart: "{{type}} for tool call {{id}} before it started",
    openAtTurnEnd: "the turn ended with {{type}} while tool call {{id}}{{named}} was still running",
    openAtRecordingEnd: "tool call {{id}}{{named}} is still running when the recording ends",
  },
  check({ stream, on, report }) {
    const end =
      (type: Terminal): EventListener =>
      (event) => {
        const id = idOf(event.tool_call_id);
        if (id === undefined || stream.runningCall(id)) return;
        const ended = stream.endedCall(id);
        // A call already reported open at its turn's end is not reported a second time.
        if (ended?.how === "turn end") return;
        report({
          ...(ended
            ? { messageId: "secondEnd" as const, data: { type, id, how: ended.how } }
            : { messageId: "endWithoutStart" as const, data: { type, id } }),
          hint: ended
            ? "exactly one of tool_done, tool_error, tool_cancelled and tool_rejected ends a call"
            : "a tool_start comes first (if the recording began mid-turn, record from the start of the turn)",
          field: "tool_call_id",
          ...(ended ? { relatedLine: ended.line } : {}),
        });
      };
    /** Per-session events that are about a running tool call. */
    const aboutACall =
      (type: ServerEventType): EventListener =>
      (event) => {
        const id = idOf(event.tool_call_id);
        if (id === undefined || stream.runningCall(id)) return;
        const ended = stream.endedCall(id);
        report({
          ...(ended
            ? { messageId: "eventAfterEnd" as const, data: { type, id, how: ended.how } }
            : { messageId: "eventBeforeStart" as const, data: { type, id } }),
          hint: `${type} belongs between the call's tool_start and its end`,
          field: "tool_call_id",
          ...(ended ? { relatedLine: ended.line } : {}),
        });
      };
    on({
      tool_start(event) {
        const id = idOf(event.tool_call_id);
        if (id === undefined) return;
        const running = stream.runningCall(id);
        if (running) {
          report({
            messageId: "secondStart",
            data: { id },
            hint: REUSED_ID_HINT,
            field: "tool_call_id",
            relatedLine: running.line,
          });
          return;
        }
        const ended = stream.endedCall(id);
        if (ended) {
          report({
            messageId: "startAfterEnd",
            data: { id, how: ended.how },
            hint: REUSED_ID_HINT,
            field: "tool_call_id",
            relatedLine: ended.startLine,
          });
          return;
        }
        // Ended long ago: its details are forgotten, the fact that it ended is not.
        if (stream.everEnded(id))
          report({
            messageId: "startAfterEarlierEnd",
            data: { id },
            hint: REUSED_ID_HINT,
            field: "tool_call_id",
          });
      },
      tool_done: end("tool_done"),
      tool_error: end("tool_error"),
      tool_cancelled: end("tool_cancelled"),
      tool_rejected: end("tool_rejected"),
      pending_write: aboutACall("pending_write"),
      approval_required: aboutACall("approval_required"),
      agent_question: aboutACall("agent_question"),
      turnEnd(session, type) {
        for (const call of session.calls.values()) {
          report({
            messageId: "openAtTurnEnd",
            data: { type, id: call.id, named: named(call.name) },
            hint: "end every tool call before the turn's done, error or llm_failed",
            field: "type",
            relatedLine: call.line,
          });
        }
      },
      memoryBound(bound, limit) {
        if (bound !== "endedIds") return;
        report({
          messageId: "memoryLimit",
          data: { limit },
          hint: "split the recording, or raise nothing: the limit bounds caplint's memory",
          field: "tool_call_id",
          cut: true,
        });
      },
      recordingEnd() {
        for (const call of stream.runningCalls()) {
          report({
            messageId: "openAtRecordingEnd",
            data: { id: call.id, named: named(call.name) },
            hint: "end every tool_start with tool_done, tool_error, tool_cancelled or tool_rejected (or the recording was cut)",
            field: "tool_call_id",
            line: call.line,
            cut: true,
          });
        }
      },
    });
  },
});

function named(name: string): string {
  return name ? ` (${quote(name)})` : "";
}
