import { OpenMap, Recent } from "../bounded-memory.js";
import { idOf, type Id, type JsonObject } from "../event-values.js";
import type { ServerEventType } from "../definitions.js";
import type { Terminal } from "../stream-state.js";
import { quote } from "../text.js";
import { defineRule, type EventListener } from "./types.js";

type Family = "approval" | "clarification" | "elicitation";

/** One view of a request: the per-session event, the global-bus notice, or a pending write. */
interface RequestView {
  type: ServerEventType;
  line: number;
  toolCallId?: Id;
  /** `tool_name` of an approval, `title` of a clarification. */
  name?: unknown;
}

interface Request {
  family: Family;
  id: Id;
  views: RequestView[];
  /** Line of a tool_done or tool_error that ended the request's call while it was pending (reported then). */
  ranAt?: number;
}

export default defineRule({
  id: "approval-lifecycle",
  description:
    "Approvals, clarifications and elicitations are requested once and resolved once; a rejected call ends in tool_rejected.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    requestAfterResolution: "{{type}} for {{family}} request {{id}}, which was already resolved",
    secondRequest: "second {{type}} for {{family}} request {{id}}",
    viewsNameOtherCalls:
      "{{type}} for request {{id}} names tool call {{toolCall}}, but {{otherType}} names {{otherToolCall}}",
    viewsNameOtherTitles:
      "{{type}} for request {{id}} has {{field}} {{name}}, but {{otherType}} has {{otherName}}",
    secondResolution: "second {{type}} for {{family}} request {{id}}",
    neverRequested: "{{type}} for {{family}} request {{id}}, which was never requested",
    resolutionNamesOtherCall:
      "{{type}} for request {{id}} names tool call {{toolCall}}, but {{otherType}} names {{otherToolCall}}",
    rejectedCallRan: "tool call {{id}} ends in {{type}} although its approval was rejected",
    ranWhilePending:
      "tool call {{id}} ends in {{type}} while its approval request {{request}} is still pending",
    rejectedAfterRun: "approval of tool call {{id}} is rejected after the call ended with {{how}}",
    pendingAtRecordingEnd:
      "{{family}} request {{id}} is still pending when the recording ends (it stays in the Inbox)",
  },
  check({ stream, on, report }) {
    /** Open requests by family and id. */
    const requests = new OpenMap<Request>();
    /** Pending approval requests by the tool call they are about. */
    const pendingApprovals = new OpenMap<Request>();
    /** Resolved requests: the line of the resolution. */
    const resolved = new Recent(1);
    /** Running calls whose approval was rejected: the line of the rejection. */
    const deniedRunning = new OpenMap<number>();
    /** Calls rejected before they started: the line of the rejection. */
    const denied = new Recent(1);

    const request = (family: Family, type: ServerEventType, event: JsonObject) => {
      const id = idOf(event.request_id);
      if (id === undefined) return;
      const key = `${family}:${id}`;
      const view: RequestView = { type, line: stream.line };
      const toolCallId = idOf(event.tool_call_id);
      if (toolCallId !== undefined) view.toolCallId = toolCallId;
      if (family === "approval" && type !== "pending_write") view.name = event.tool_name;
      if (family === "clarification") view.name = event.title;
      const resolvedAt = resolved.get(key);
      if (resolvedAt !== undefined) {
        report({
          messageId: "requestAfterResolution",
          data: { type, family, id },
          hint: "give every request its own request_id",
          field: "request_id",
          relatedLine: resolvedAt,
        });
        return;
      }
      const open = requests.get(key);
      if (!open) {
        const created: Request = { family, id, views: [view] };
        requests.set(key, created);
        if (
          family === "approval" &&
          view.toolCallId !== undefined &&
          !pendingApprovals.has(view.toolCallId)
        )
          pendingApprovals.set(view.toolCallId, created);
        return;
      }
      const same = open.views.find((other) => other.type === type);
      if (same) {
        report({
          messageId: "secondRequest",
          data: { type, family, id },
          hint: "give every request its own request_id",
          field: "request_id",
          relatedLine: same.line,
        });
        return;
      }
      // Two views of one request (per session and on the bus) must describe the same call.
      for (const other of open.views) {
        if (
          view.toolCallId !== undefined &&
          other.toolCallId !== undefined &&
          view.toolCallId !== other.toolCallId
        ) {
          report({
            messageId: "viewsNameOtherCalls",
            data: {
              type,
              id,
              toolCall: view.toolCallId,
              otherType: other.type,
              otherToolCall: other.toolCallId,
            },
            hint: "both views of one request carry the same request_id, tool_call_id and tool_name",
            field: "tool_call_id",
            relatedLine: other.line,
          });
        } else if (
          view.name !== undefined &&
          other.name !== undefined &&
          view.name !== other.name &&
          typeof view.name === "string" &&
          typeof other.name === "string"
        ) {
          const field = family === "approval" ? "tool_name" : "title";
          report({
            messageId: "viewsNameOtherTitles",
            data: {
              type,
              id,
              field,
              name: quote(view.name),
              otherType: other.type,
              otherName: quote(other.name),
            },
            hint: `both views of one request carry the same request_id, tool_call_id and ${field}`,
            field,
            relatedLine: other.line,
          });
        }
      }
      open.views.push(view);
    };

    const resolve = (family: Family, type: ServerEventType, event: JsonObject) => {
      const id = idOf(event.request_id);
      if (id === undefined) return;
      const key = `${family}:${id}`;
      const open = requests.get(key);
      if (!open) {
        const resolvedAt = resolved.get(key);
        report({
          messageId: resolvedAt !== undefined ? "secondResolution" : "neverRequested",
          data: { type, family, id },
          hint:
            resolvedAt !== undefined
              ? "a request is resolved once"
              : `${family === "approval" ? "an" : "a"} ${family} is requested before it is resolved`,
          field: "request_id",
          ...(resolvedAt !== undefined ? { relatedLine: resolvedAt } : {}),
        });
      } else {
        requests.delete(key);
        for (const view of open.views)
          if (view.toolCallId !== undefined && pendingApprovals.get(view.toolCallId) === open)
            pendingApprovals.delete(view.toolCallId);
        resolved.set(key, stream.line);
        const toolCallId = idOf(event.tool_call_id);
        const named = open.views.find((view) => view.toolCallId !== undefined);
        if (toolCallId !== undefined && named && named.toolCallId !== toolCallId) {
          report({
            messageId: "resolutionNamesOtherCall",
            data: {
              type,
              id,
              toolCall: toolCallId,
              otherType: named.type,
              otherToolCall: named.toolCallId!,
            },
            hint: "a resolution carries the tool_call_id of its request",
            field: "tool_call_id",
            relatedLine: named.line,
          });
        }
      }
      if (type === "approval_resolved" && event.approved === false) reject(event, open);
    };

    /** `approval_resolved` with `approved: false`: the call must end in tool_rejected. */
    const reject = (event: JsonObject, resolvedRequest: Request | undefined) => {
      const toolCallId = idOf(event.tool_call_id);
      if (toolCallId === undefined) return;
      if (stream.runningCall(toolCallId)) {
        deniedRunning.set(toolCallId, stream.line);
        return;
      }
      const ended = stream.endedCall(toolCallId);
      if (!ended && !stream.everEnded(toolCallId)) denied.set(toolCallId, stream.line);
      else if (
        ended &&
        (ended.how === "tool_done" || ended.how === "tool_error") &&
        resolvedRequest !== undefined &&
        resolvedRequest.ranAt === undefined
      ) {
        // The call ran (and was not reported running while pending): rejected after the fact.
        report({
          messageId: "rejectedAfterRun",
          data: { id: toolCallId, how: ended.how },
          hint: "a call that waits for approval runs only after approval_resolved with approved: true",
          field: "tool_call_id",
          relatedLine: ended.line,
        });
      }
    };

    const endCall =
      (type: Terminal): EventListener =>
      (event) => {
        const id = idOf(event.tool_call_id);
        if (id === undefined || !stream.runningCall(id)) return;
        const pending = pendingApprovals.get(id);
        if (pending && (type === "tool_done" || type === "tool_error")) {
          pending.ranAt = stream.line;
          report({
            messageId: "ranWhilePending",
            data: { id, type, request: pending.id },
            hint: "a call that waits for approval runs only after approval_resolved with approved: true",
            field: "tool_call_id",
            relatedLine: pending.views[0]!.line,
          });
        }
        const deniedAt = deniedRunning.get(id) ?? denied.get(id);
        deniedRunning.delete(id);
        if (deniedAt === undefined) return;
        denied.delete(id);
        if (type === "tool_done" || type === "tool_error") {
          report({
            messageId: "rejectedCallRan",
            data: { id, type },
            hint: "a call whose approval is resolved with approved: false ends in tool_rejected",
            field: "tool_call_id",
            relatedLine: deniedAt,
          });
        }
      };

    const requested =
      (family: Family, type: ServerEventType): EventListener =>
      (event) =>
        request(family, type, event);
    const resolution =
      (family: Family, type: ServerEventType): EventListener =>
      (event) =>
        resolve(family, type, event);
    on({
      approval_required: requested("approval", "approval_required"),
      approval_requested: requested("approval", "approval_requested"),
      pending_write: requested("approval", "pending_write"),
      agent_question: requested("clarification", "agent_question"),
      clarification_requested: requested("clarification", "clarification_requested"),
      elicitation_requested: requested("elicitation", "elicitation_requested"),
      approval_resolved: resolution("approval", "approval_resolved"),
      clarification_resolved: resolution("clarification", "clarification_resolved"),
      elicitation_resolved: resolution("elicitation", "elicitation_resolved"),
      tool_start(event) {
        // A call rejected before it started keeps its rejection while it runs.
        const id = idOf(event.tool_call_id);
        if (id === undefined || !stream.canStart(id)) return;
        const deniedAt = denied.get(id);
        if (deniedAt !== undefined) deniedRunning.set(id, deniedAt);
      },
      tool_done: endCall("tool_done"),
      tool_error: endCall("tool_error"),
      tool_cancelled: endCall("tool_cancelled"),
      tool_rejected: endCall("tool_rejected"),
      turnEnd(session) {
        // The calls still running end with the turn: their rejection goes with them.
        for (const call of session.calls.values()) deniedRunning.delete(call.id);
      },
      recordingEnd() {
        for (const pending of requests.values()) {
          report({
            messageId: "pendingAtRecordingEnd",
            data: { family: pending.family, id: pending.id },
            hint: `resolve it with ${pending.family}_resolved (or the recording was cut)`,
            field: "request_id",
            line: pending.views[0]!.line,
            cut: true,
          });
        }
      },
    });
  },
});
