/**
 * The rules of every domain in one registry: what `caplint rules`, the configuration, the reporters
 * and the library see. A new domain adds its rule list here (and its commands in src/cli/commands/index.ts).
 */
import { CAPABILITY_RULES, type CapabilityRuleId } from "./capabilities/rules/index.js";
import { createRegistry } from "./core/rule-registry.js";
import type { RuleMeta } from "./core/rule.js";
import { EVENT_RULES, type EventRuleId } from "./events/rules.js";
import SERVER_START_META from "./mcp/rules/mcp-server-start.js";
import { MCP_RULES, type McpRuleId } from "./mcp/rules/index.js";

/** Every rule id of every domain, derived from the rule lists: a typo in a literal id does not compile. */
export type RuleId = CapabilityRuleId | EventRuleId | McpRuleId | typeof SERVER_START_META.id;

export const REGISTRY = createRegistry<RuleMeta & { id: RuleId }>(CAPABILITY_RULES, EVENT_RULES, MCP_RULES, [SERVER_START_META]);
export const RULES = REGISTRY.rules;
export const RULES_BY_ID = REGISTRY.byId;

/** True when `id` (from a user: a config, `--rule`, a suppression) names a registered rule. */
export function isRuleId(id: string): id is RuleId {
  return RULES_BY_ID.has(id);
}
