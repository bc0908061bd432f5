import type { McpRule } from "./types.js";

import * as LIST from "./list.js";

const LISTED = Object.values(LIST);

/** The id of a tool-server rule, derived from the list. */
export type McpRuleId = (typeof LIST)[keyof typeof LIST]["id"];

/** Every tool-server rule, sorted by id. */
export const MCP_RULES: ReadonlyArray<McpRule & { id: McpRuleId }> = [...LISTED].sort((a, b) =>
  a.id < b.id ? -1 : 1,
);

export const MCP_RULES_BY_ID: ReadonlyMap<string, McpRule & { id: McpRuleId }> = new Map(
  MCP_RULES.map((rule) => [rule.id, rule]),
);
