import type { RuleMeta } from "../../core/lint/rule.js";
import type { MessageReport } from "../../core/messages.js";
import * as LIST from "./list.js";

type ListedRule = (typeof LIST)[keyof typeof LIST];

/** What the library shows of an event rule. */
export type EventRuleMeta = Pick<
  RuleMeta,
  "id" | "domain" | "description" | "category" | "defaultSeverity" | "fixable" | "messages"
>;

/** The id of an event rule, derived from the list (a typo in a literal id does not compile). */
export type EventRuleId = ListedRule["id"];

/** The event rules, sorted by id; src/registry.ts adds them to the other domains' rules. */
export const EVENT_RULES: readonly ListedRule[] = Object.values(LIST).sort((a, b) =>
  a.id < b.id ? -1 : 1,
);

export const EVENT_RULES_BY_ID: ReadonlyMap<EventRuleId, ListedRule> = new Map(
  EVENT_RULES.map((rule) => [rule.id, rule]),
);

/** The rules that subscribe to the stream (src/events/traversal.ts); the others are reported by the line reader and the definitions' walk. */
export type StreamEventRule = Extract<ListedRule, { check: unknown }>;

export function isStreamRule(rule: ListedRule): rule is StreamEventRule {
  return "check" in rule;
}

type MessagesOf<Id extends EventRuleId> = Extract<ListedRule, { id: Id }>["messages"];

/**
 * What the line reader and the definitions' walk report about a finding's text: the rule, one of that
 * rule's messageIds, and a value for each placeholder of that template (checked at compile time).
 */
export type EventMessage<Id extends EventRuleId = EventRuleId> = {
  [R in Id]: { ruleId: R } & MessageReport<MessagesOf<R>>;
}[Id];
