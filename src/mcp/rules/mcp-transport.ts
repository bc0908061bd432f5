import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "mcp-transport",
  domain: "mcp",
  input: "live",
  description: "The server speaks stdio or streamable HTTP, not only the legacy HTTP+SSE transport.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  check({ listing, report }) {
    if (listing.transport?.value !== "sse") return;
    report({
      path: listing.transport.path,
      message: "only the legacy HTTP+SSE transport answered; streamable HTTP (protocol 2025-03-26 and later) did not",
      hint: "serve streamable HTTP (StreamableHTTPServerTransport; FastMCP transport=\"streamable-http\")",
    });
  },
});
