/**
 * The composition root: every kind of input caplint checks, as a Domain (src/core/lint/domain.ts),
 * and the one registry of their rules that `caplint rules`, the configuration, the reporters and the
 * library see. A new kind of input adds its Domain to DOMAINS (and its commands in
 * src/cli/commands/index.ts).
 */
import { CAPABILITIES } from "./capabilities/domain.js";
import { createRegistry } from "./core/rule-registry.js";
import { EVENTS } from "./events/domain.js";
import { MCP } from "./mcp/domain.js";

export const DOMAINS = [CAPABILITIES, EVENTS, MCP] as const;

/** The kinds of input, by name (`caplint rules --domain`, the library's `domain` option). */
export type DomainName = (typeof DOMAINS)[number]["name"];
export const DOMAIN_NAMES: readonly DomainName[] = DOMAINS.map((domain) => domain.name);

/** Every rule id of every domain, derived from the rule lists: a typo in a literal id does not compile. */
export type RuleId = (typeof DOMAINS)[number]["rules"][number]["id"];

export const REGISTRY = createRegistry<(typeof DOMAINS)[number]["rules"][number]>(DOMAINS);
export const RULES = REGISTRY.rules;
export const RULES_BY_ID = REGISTRY.byId;

/** True when `id` (from a user: a config, `--rule`, a suppression) names a registered rule. */
export function isRuleId(id: string): id is RuleId {
  return RULES_BY_ID.has(id);
}
