/**
 * Every rule of the domain, one line each: a new rule is its file and its line here (docs/architecture.md).
 * An explicit list, not a glob, so that the bundle and the types see every rule.
 */
export { default as mcpAnnotations } from "./mcp-annotations.js";
export { default as mcpErrorText } from "./mcp-error-text.js";
export { default as mcpInputBounds } from "./mcp-input-bounds.js";
export { default as mcpInputDescribed } from "./mcp-input-described.js";
export { default as mcpInputStrict } from "./mcp-input-strict.js";
export { default as mcpPaginationContract } from "./mcp-pagination-contract.js";
export { default as mcpPaginationParams } from "./mcp-pagination-params.js";
export { default as mcpPaginationResult } from "./mcp-pagination-result.js";
export { default as mcpResponseFormat } from "./mcp-response-format.js";
export { default as mcpSchema } from "./mcp-schema.js";
export { default as mcpServerName } from "./mcp-server-name.js";
export { default as mcpStdoutPollution } from "./mcp-stdout-pollution.js";
export { default as mcpToolName } from "./mcp-tool-name.js";
export { default as mcpToolPrefix } from "./mcp-tool-prefix.js";
export { default as mcpToolVerb } from "./mcp-tool-verb.js";
export { default as mcpTransport } from "./mcp-transport.js";
export { default as mcpUnknownFieldAccepted } from "./mcp-unknown-field-accepted.js";
