// The parts of the MCP SDK (and zod) that a live run uses, in one module: the CLI bundle builds this
// file into its own chunk, dist/cli-bundle/mcp-sdk.cjs, compiled from a V8 code cache like the CLI
// (scripts/bundle.mjs). Required from node_modules, the SDK's ~120 modules cost a live run more time
// than the spec's 200 ms budget on top of the server's own start-up; the library (dist/index.js) still
// imports them from node_modules through this file.
export { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
export { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
export {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
export { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
export {
  ErrorCode,
  JSONRPCMessageSchema,
  LATEST_PROTOCOL_VERSION,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
export { z } from "zod";
