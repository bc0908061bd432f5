import mcpAnnotations from "./mcp-annotations.js";
import mcpErrorText from "./mcp-error-text.js";
import mcpInputBounds from "./mcp-input-bounds.js";
import mcpInputDescribed from "./mcp-input-described.js";
import mcpInputStrict from "./mcp-input-strict.js";
import mcpPaginationContract from "./mcp-pagination-contract.js";
import mcpPaginationParams from "./mcp-pagination-params.js";
import mcpPaginationResult from "./mcp-pagination-result.js";
import mcpResponseFormat from "./mcp-response-format.js";
import mcpSchema from "./mcp-schema.js";
import mcpServerName from "./mcp-server-name.js";
import mcpStdoutPollution from "./mcp-stdout-pollution.js";
import mcpToolName from "./mcp-tool-name.js";
import mcpToolPrefix from "./mcp-tool-prefix.js";
import mcpToolVerb from "./mcp-tool-verb.js";
import mcpTransport from "./mcp-transport.js";
import mcpUnknownFieldAccepted from "./mcp-unknown-field-accepted.js";
import type { McpRule } from "./types.js";

const LISTED = [
  mcpAnnotations,
  mcpErrorText,
  mcpInputBounds,
  mcpInputDescribed,
  mcpInputStrict,
  mcpPaginationContract,
  mcpPaginationParams,
  mcpPaginationResult,
  mcpResponseFormat,
  mcpSchema,
  mcpServerName,
  mcpStdoutPollution,
  mcpToolName,
  mcpToolPrefix,
  mcpToolVerb,
  mcpTransport,
  mcpUnknownFieldAccepted,
] as const;

/** The id of a tool-server rule, derived from the list. */
export type McpRuleId = (typeof LISTED)[number]["id"];

/** Every tool-server rule, sorted by id. */
export const MCP_RULES: ReadonlyArray<McpRule & { id: McpRuleId }> = [...LISTED].sort((a, b) => (a.id < b.id ? -1 : 1));

export const MCP_RULES_BY_ID: ReadonlyMap<string, McpRule & { id: McpRuleId }> = new Map(MCP_RULES.map((rule) => [rule.id, rule]));
