import { Recent } from "../bounded-memory.js";
import { idOf } from "../event-values.js";
import { quote } from "../text.js";
import { defineRule } from "./types.js";

/** The line of an ended agent's agent_done; -1 when it was reported running at its turn's end. */
const ENDED_AT_TURN_END = -1;

export default defineRule({
  id: "agent-frame",
  description:
    "Every agent_start is ended by one agent_done, under a running tool call, within its turn.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    parentEnded: "agent_start under tool call {{parent}}, which already ended ({{how}})",
    parentNotRunning: "agent_start under tool call {{parent}}, which is not running",
    secondStart: "second agent_start of agent {{agent}}, which is still running",
    secondDone: "second agent_done of agent {{agent}}",
    doneWithoutStart: "agent_done of agent {{agent}} without its agent_start",
    parentMismatch:
      "agent_done of agent {{agent}} names parent {{parent}}, but its agent_start named {{startParent}}",
    openAtTurnEnd: "the turn ended with {{type}} while agent {{agent}} was still running",
    openAtRecordingEnd: "agent {{agent}} is still running when the recording ends",
  },
  check({ stream, on, report }) {
    /** Ended agents, for better messages about a second agent_done. */
    const endedAgents = new Recent(1);
    on({
      agent_start(event) {
        const agentId = event.agent_id;
        const parentId = idOf(event.parent_tool_call_id);
        if (parentId !== undefined && !stream.runningCall(parentId)) {
          const ended = stream.endedCall(parentId);
          report({
            ...(ended
              ? { messageId: "parentEnded" as const, data: { parent: parentId, how: ended.how } }
              : { messageId: "parentNotRunning" as const, data: { parent: parentId } }),
            hint: "parent_tool_call_id names the running tool call that starts the sub-agent",
            field: "parent_tool_call_id",
            ...(ended ? { relatedLine: ended.line } : {}),
          });
        }
        if (typeof agentId !== "string") return;
        const running = stream.runningAgent(agentId);
        if (running) {
          report({
            messageId: "secondStart",
            data: { agent: quote(agentId) },
            hint: "give every sub-agent its own agent_id",
            field: "agent_id",
            relatedLine: running.line,
          });
        }
      },
      agent_done(event) {
        const agentId = event.agent_id;
        if (typeof agentId !== "string") return;
        const agent = stream.runningAgent(agentId);
        if (!agent) {
          const endedAt = endedAgents.get(agentId);
          if (endedAt === ENDED_AT_TURN_END) return; // reported running at its turn's end already
          report({
            messageId: endedAt !== undefined ? "secondDone" : "doneWithoutStart",
            data: { agent: quote(agentId) },
            hint: "every agent_done ends the agent_start of the same agent_id",
            field: "agent_id",
            ...(endedAt !== undefined ? { relatedLine: endedAt } : {}),
          });
          return;
        }
        endedAgents.set(agentId, stream.line);
        if (
          typeof event.parent_agent_id === "string" &&
          typeof agent.parentAgentId === "string" &&
          event.parent_agent_id !== agent.parentAgentId
        ) {
          report({
            messageId: "parentMismatch",
            data: {
              agent: quote(agentId),
              parent: quote(event.parent_agent_id),
              startParent: quote(agent.parentAgentId),
            },
            hint: "agent_done repeats the parent_agent_id of its agent_start",
            field: "parent_agent_id",
            relatedLine: agent.line,
          });
        }
      },
      turnEnd(session, type) {
        for (const agent of session.agents.values()) {
          endedAgents.set(agent.id, ENDED_AT_TURN_END);
          report({
            messageId: "openAtTurnEnd",
            data: { type, agent: quote(agent.id) },
            hint: "end every agent_start with agent_done before the turn ends",
            field: "type",
            relatedLine: agent.line,
          });
        }
      },
      recordingEnd() {
        for (const agent of stream.runningAgents()) {
          report({
            messageId: "openAtRecordingEnd",
            data: { agent: quote(agent.id) },
            hint: "end every agent_start with agent_done (or the recording was cut)",
            field: "agent_id",
            line: agent.line,
            cut: true,
          });
        }
      },
    });
  },
});
