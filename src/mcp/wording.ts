import type { ReaderWording } from "../core/source/document.js";

/** How the shared reader words problems of tools/list results and dumps. */
export const TOOL_SERVER_WORDING: ReaderWording = {
  expected: "a tools/list result or a caplint mcp dump",
  nestingUnneeded: "no tools/list result needs that",
  rejectsBom: "which JSON.parse and MCP clients reject",
  rejectsSurrogates: "strict JSON parsers reject it",
};
