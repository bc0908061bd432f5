/**
 * The rules of `caplint events`. Their ids are a public contract (configuration, CI filters); the
 * checks themselves live in check-fields.ts (one event) and lifecycle.ts (across events).
 */
export interface EventRuleMeta {
  id: string;
  domain: "events";
  description: string;
  category: "correctness" | "security" | "suspicious" | "style";
  defaultSeverity: "error" | "warning";
  fixable: false;
}

const rule = <const Id extends string>(id: Id, defaultSeverity: "error" | "warning", category: EventRuleMeta["category"], description: string) =>
  ({ id, domain: "events", defaultSeverity, category, description, fixable: false }) as const;

export const EVENT_RULES = [
  rule("agent-frame", "error", "correctness", "Every agent_start is ended by one agent_done, under a running tool call, within its turn."),
  rule(
    "approval-lifecycle",
    "error",
    "correctness",
    "Approvals, clarifications and elicitations are requested once and resolved once; a rejected call ends in tool_rejected.",
  ),
  rule(
    "event-field",
    "error",
    "correctness",
    "Required fields are present with the right type and range (numbers as written), optional fields are omitted rather than null.",
  ),
  rule("event-json", "error", "correctness", "Each line of a recording is one JSON object."),
  rule("event-limit", "error", "correctness", "Labels and previews stay within the spec's limits, counted in Unicode code points."),
  rule("event-type", "error", "correctness", "Every event has a type the spec lists."),
  rule("event-unknown-field", "warning", "suspicious", "A field the spec does not list for the event type (or the envelope)."),
  rule("tool-lifecycle", "error", "correctness", "Exactly one of tool_done, tool_error, tool_cancelled, tool_rejected ends each tool_start, within its turn."),
  rule("turn-order", "error", "correctness", "No streamed output after the turn's done until the next user_message, and one done per turn."),
  rule("unknown-result-type", "warning", "suspicious", "tool_done.result_type other than string or json (clients show it as plain text)."),
] as const satisfies readonly EventRuleMeta[];

export type EventRuleId = (typeof EVENT_RULES)[number]["id"];

export const EVENT_RULES_BY_ID: ReadonlyMap<EventRuleId, EventRuleMeta> = new Map(EVENT_RULES.map((r) => [r.id, r]));
