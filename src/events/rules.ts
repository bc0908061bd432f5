/**
 * The rules of `caplint events`. Their ids are a public contract (configuration, CI filters); the
 * checks themselves live in check-fields.ts (one event) and lifecycle.ts (across events). Each rule
 * declares its messages by id (src/core/messages.ts): checks report an id and the placeholders'
 * values, and the validator fills the template.
 */
import { cutValue, formatMessage, type MessageData, type MessageReport, type RuleMessages } from "../core/messages.js";

export interface EventRuleMeta {
  id: string;
  domain: "events";
  description: string;
  category: "correctness" | "security" | "suspicious" | "style";
  defaultSeverity: "error" | "warning";
  fixable: false;
  messages: RuleMessages;
}

/** The events domain's name: what its rules' `domain` says. */
export const EVENTS_DOMAIN = "events";

const rule = <const Id extends string, const M extends RuleMessages>(
  id: Id,
  defaultSeverity: "error" | "warning",
  category: EventRuleMeta["category"],
  description: string,
  messages: M,
) => ({ id, domain: "events", defaultSeverity, category, description, fixable: false, messages }) as const;

export const EVENT_RULES = [
  rule("agent-frame", "error", "correctness", "Every agent_start is ended by one agent_done, under a running tool call, within its turn.", {
    parentEnded: "agent_start under tool call {{parent}}, which already ended ({{how}})",
    parentNotRunning: "agent_start under tool call {{parent}}, which is not running",
    secondStart: "second agent_start of agent {{agent}}, which is still running",
    secondDone: "second agent_done of agent {{agent}}",
    doneWithoutStart: "agent_done of agent {{agent}} without its agent_start",
    parentMismatch: "agent_done of agent {{agent}} names parent {{parent}}, but its agent_start named {{startParent}}",
    openAtTurnEnd: "the turn ended with {{type}} while agent {{agent}} was still running",
    openAtRecordingEnd: "agent {{agent}} is still running when the recording ends",
  }),
  rule(
    "approval-lifecycle",
    "error",
    "correctness",
    "Approvals, clarifications and elicitations are requested once and resolved once; a rejected call ends in tool_rejected.",
    {
      requestAfterResolution: "{{type}} for {{family}} request {{id}}, which was already resolved",
      secondRequest: "second {{type}} for {{family}} request {{id}}",
      viewsNameOtherCalls: "{{type}} for request {{id}} names tool call {{toolCall}}, but {{otherType}} names {{otherToolCall}}",
      viewsNameOtherTitles: "{{type}} for request {{id}} has {{field}} {{name}}, but {{otherType}} has {{otherName}}",
      secondResolution: "second {{type}} for {{family}} request {{id}}",
      neverRequested: "{{type}} for {{family}} request {{id}}, which was never requested",
      resolutionNamesOtherCall: "{{type}} for request {{id}} names tool call {{toolCall}}, but {{otherType}} names {{otherToolCall}}",
      rejectedCallRan: "tool call {{id}} ends in {{type}} although its approval was rejected",
      ranWhilePending: "tool call {{id}} ends in {{type}} while its approval request {{request}} is still pending",
      rejectedAfterRun: "approval of tool call {{id}} is rejected after the call ended with {{how}}",
      pendingAtRecordingEnd: "{{family}} request {{id}} is still pending when the recording ends (it stays in the Inbox)",
    },
  ),
  rule(
    "event-field",
    "error",
    "correctness",
    "Required fields are present with the right type and range (numbers as written), optional fields are omitted rather than null.",
    {
      envelopeEvent: '"event" of the envelope must be a ServerEvent object, got {{got}}',
      missing: '{{object}} is missing required field "{{field}}"',
      missingSeveral: "{{object}} is missing required fields {{fields}}",
      optionalNull: 'optional field "{{field}}" of {{object}} is null',
      wrongType: '"{{field}}" of {{object}} must be {{expected}}, got {{got}}',
      notInEnum: '"{{field}}" of {{object}} must be {{allowed}}, got {{value}}',
      nonStringItem: '"{{field}}" of {{object}} must hold strings only, got {{got}} at index {{index}}',
      emptyArray: '"{{field}}" of {{object}} is an empty array',
    },
  ),
  rule("event-json", "error", "correctness", "Each line of a recording is one JSON object.", {
    invalidJson: "not valid JSON: {{problem}}",
    notAnObject: "line is {{kind}}, not an object",
    lineTooLong: "line is {{length}} characters long; the most read is {{limit}}",
    invalidUtf8: "line is not valid UTF-8 (first bad byte here)",
    loneSurrogate: "a lone surrogate escape is not a character (the host's parser rejects the line)",
    repeatedField: "field {{key}} is written twice in {{object}}; JSON.parse keeps the last copy, the host's parser rejects the event",
    repeatedKey: "key {{key}} is written twice in one object; JSON parsers disagree on which copy counts",
  }),
  rule("event-limit", "error", "correctness", "Labels and previews stay within the spec's limits, counted in Unicode code points.", {
    tooLong: '"{{field}}" of {{object}} is {{length}} characters long; the limit is {{limit}}',
  }),
  rule("event-type", "error", "correctness", "Every event has a type the spec lists.", {
    missing: 'event has no "type"',
    notAString: '"type" must be a string, got {{got}}',
    unknown: "unknown event type {{type}}",
    unknownClientType: "unknown client message type {{type}}",
  }),
  rule("event-unknown-field", "warning", "suspicious", "A field the spec does not list for the event type (or the envelope).", {
    unknownField: "unknown field {{key}} in {{object}}",
  }),
  rule("tool-lifecycle", "error", "correctness", "Exactly one of tool_done, tool_error, tool_cancelled, tool_rejected ends each tool_start, within its turn.", {
    secondStart: "second tool_start for tool call {{id}}, which is still running",
    startAfterEnd: "tool_start for tool call {{id}}, which already ended ({{how}})",
    startAfterEarlierEnd: "tool_start for tool call {{id}}, which already ended",
    memoryLimit: "more than {{limit}} tool calls ended with ids that do not count up; later ids are not remembered, so their reuse is no longer detected",
    secondEnd: "{{type}} for tool call {{id}}, which already ended with {{how}}",
    endWithoutStart: "{{type}} for tool call {{id}}, which never started",
    eventAfterEnd: "{{type}} for tool call {{id}} after it ended ({{how}})",
    eventBeforeStart: "{{type}} for tool call {{id}} before it started",
    openAtTurnEnd: "the turn ended with {{type}} while tool call {{id}}{{named}} was still running",
    openAtRecordingEnd: "tool call {{id}}{{named}} is still running when the recording ends",
  }),
  rule("turn-order", "error", "correctness", "No streamed output after the turn's done until the next user_message, and one done per turn.", {
    outputAfterDone: "{{type}} after the turn's done, before any new user_message",
    secondDone: "second done in one turn",
    memoryLimit: "more than {{limit}} sessions have a finished turn; the oldest are forgotten, so output after their done is no longer detected",
  }),
  rule("unknown-result-type", "warning", "suspicious", "tool_done.result_type other than string or json (clients show it as plain text).", {
    unknownResultType: '"{{field}}" of {{object}} is {{value}}, which clients do not know and show as plain text',
  }),
] as const satisfies readonly EventRuleMeta[];

export type EventRuleId = (typeof EVENT_RULES)[number]["id"];

export const EVENT_RULES_BY_ID: ReadonlyMap<EventRuleId, EventRuleMeta> = new Map(EVENT_RULES.map((r) => [r.id, r]));

type MessagesOf<Id extends EventRuleId> = Extract<(typeof EVENT_RULES)[number], { id: Id }>["messages"];

/**
 * What a check reports about its finding's text: the rule, one of that rule's messageIds, and a value
 * for each placeholder of that template (checked at compile time).
 */
export type EventMessage<Id extends EventRuleId = EventRuleId> = { [R in Id]: { ruleId: R } & MessageReport<MessagesOf<R>> }[Id];

/** The finding's text: the rule's template for the messageId, filled. */
export function eventMessageText(report: EventMessage): string {
  return formatMessage(EVENT_RULES_BY_ID.get(report.ruleId)!, report.messageId, shortValues(report.data));
}

/** Longest value a message shows whole: ids, counts and names from a recording may be megabytes long. */
const MAX_SHOWN_VALUE = 120;

function shortValues(data: MessageData | undefined): MessageData | undefined {
  if (!data) return data;
  let short: Record<string, unknown> | undefined;
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (typeof value === "string" && value.length > MAX_SHOWN_VALUE) (short ??= { ...data })[key] = cutValue(value, MAX_SHOWN_VALUE);
  }
  return short ?? data;
}
