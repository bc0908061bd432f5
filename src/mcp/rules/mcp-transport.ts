import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "mcp-transport",
  input: "live",
  description:
    "The server speaks stdio or streamable HTTP, not only the legacy HTTP+SSE transport.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    legacySseOnly:
      "only the legacy HTTP+SSE transport answered; streamable HTTP (protocol 2025-03-26 and later) did not",
  },
  check({ listing, report }) {
    if (listing.transport?.value !== "sse") return;
    report({
      path: listing.transport.path,
      messageId: "legacySseOnly",
      hint: 'serve streamable HTTP (StreamableHTTPServerTransport; FastMCP transport="streamable-http")',
    });
  },
});
