import type { Domain } from "../core/lint/domain.js";
import { MCP_CONFIG } from "./config-section.js";
import SERVER_START_META from "./rules/mcp-server-start.js";
import { MCP_RULES } from "./rules/index.js";
import { MCP_DOMAIN } from "./rules/types.js";
import { TOOL_SERVER_WORDING } from "./wording.js";

/** Tool servers following the spec's MCP conventions: `caplint mcp`. */
export const MCP: Domain<(typeof MCP_RULES)[number] | typeof SERVER_START_META> = {
  name: MCP_DOMAIN,
  lintCommand: "mcp",
  rules: [...MCP_RULES, SERVER_START_META],
  wording: TOOL_SERVER_WORDING,
  config: MCP_CONFIG,
};
