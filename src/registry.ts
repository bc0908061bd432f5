/**
 * The rules of every domain in one registry: what `caplint rules`, the configuration, the reporters
 * and the library see. A new domain adds its rule list here (and its commands in src/cli/commands/index.ts).
 */
import { CAPABILITY_RULES } from "./capabilities/rules/index.js";
import { createRegistry } from "./core/registry.js";
import type { RuleMeta } from "./core/rule.js";
import { EVENT_RULES } from "./events/rules.js";
import { MCP_RULES } from "./mcp/rules/index.js";

export const REGISTRY = createRegistry<RuleMeta>(CAPABILITY_RULES, EVENT_RULES, MCP_RULES);
export const RULES = REGISTRY.rules;
export const RULES_BY_ID = REGISTRY.byId;
