/**
 * The contract of an event rule: the core's one rule contract (src/core/lint/rule.ts), whose `check`
 * runs once per recording and subscribes to the stream (ESLint's `create` returning listeners). The
 * traversal (src/events/traversal.ts) reads each line once and calls, in rule order, the listeners of
 * its event's type; the shared stream state (src/events/stream-state.ts) shows what came before.
 */
import { ruleDefiner, type RuleMeta } from "../../core/lint/rule.js";
import type { MessageData, RuleMessages } from "../../core/messages.js";
import type { JsonObject } from "../event-values.js";
import type { ServerEventType } from "../definitions.js";
import type { MemoryBound, Session, StreamState } from "../stream-state.js";

/** The events domain's name: what its rules' `domain` says. */
export const EVENTS_DOMAIN = "events";

/** What a rule says about a finding beyond its message: the rest (position, severity, text) is the validator's. */
export interface EventFinding {
  hint?: string;
  /** The field the finding is about, inside the event (the envelope's prefix is added by the validator). */
  field: string;
  relatedLine?: number;
  /** A finding about an earlier line (reported at the end of the recording): its line. */
  line?: number;
  /** Only a warning whatever the rule's severity: the recording may simply be cut. */
  cut?: boolean;
}

/** Called with a ServerEvent of a known type and its session, before the state takes the event in. */
export type EventListener = (event: JsonObject, session: Session) => void;

/** What a rule listens to: events by type, and the moments of the stream that several rules share. */
export type StreamListeners = { [T in ServerEventType]?: EventListener } & {
  /**
   * The event (`type`) ends its session's turn: `done` (the turn's first, not a sub-agent's answer),
   * `error` or `llm_failed`. Called after the event's own listeners, while the session still holds
   * what runs; the state then ends it.
   */
  turnEnd?(session: Session, type: ServerEventType): void;
  /** The state reached a memory bound and starts forgetting (once per recording and bound). */
  memoryBound?(bound: MemoryBound, limit: number): void;
  /** The recording ended: the state still holds what is open. */
  recordingEnd?(): void;
};

/** What one event rule sees: built and frozen per rule by the validator. */
export interface EventRuleContext {
  readonly rule: Readonly<RuleMeta>;
  /** The stream so far; read-only for rules (the traversal updates it after each event's listeners). */
  readonly stream: Pick<
    StreamState,
    | "line"
    | "runningCall"
    | "endedCall"
    | "everEnded"
    | "canStart"
    | "runningCalls"
    | "runningAgent"
    | "runningAgents"
    | "isSubAgentAnswer"
  >;
  /** Subscribes the rule to the stream; called from `check`. */
  on(listeners: StreamListeners): void;
  /** A rule's `check` sees this typed by its own messages (core `ContextFor`). */
  report(report: EventFinding & { messageId: string; data?: MessageData | undefined }): void;
}

/** Declares an event rule: `check(context)` subscribes with `context.on({ tool_start(event, session) { … } })`. */
export const defineRule = ruleDefiner<EventRuleContext>(EVENTS_DOMAIN);

/**
 * Declares a rule that the line reader and the definitions' walk (src/events/check-fields.ts) report
 * in their one pass over each line (JSON, type, fields), as capabilities' parse and schema steps
 * are reported by their loader; unlike those, it can be configured like any rule.
 */
export function defineLineRule<const Id extends string, const M extends RuleMessages>(
  rule: Omit<RuleMeta, "domain" | "id" | "kind" | "messages" | "fixable"> & { id: Id; messages: M },
) {
  return { ...rule, fixable: false, domain: EVENTS_DOMAIN } as const satisfies RuleMeta;
}
