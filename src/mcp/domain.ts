import type { Domain } from "../core/lint/domain.js";
import { MCP_CONFIG } from "./config-section.js";
import { PARSE_META } from "./lint.js";
import SERVER_START_META from "./rules/mcp-server-start.js";
import { MCP_RULES } from "./rules/index.js";
import { MCP_DOMAIN } from "./rules/types.js";
import { TOOL_SERVER_WORDING } from "./wording.js";

/** Tool servers following the spec's MCP conventions: `caplint mcp`. */
export const MCP: Domain<
  (typeof MCP_RULES)[number] | typeof PARSE_META | typeof SERVER_START_META
> = {
  name: MCP_DOMAIN,
  lintCommand: "mcp",
  // Its pipeline steps first, as SARIF lists them (parse shares its id with the capabilities' step).
  rules: [PARSE_META, SERVER_START_META, ...MCP_RULES],
  wording: TOOL_SERVER_WORDING,
  config: MCP_CONFIG,
};
