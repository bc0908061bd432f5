import { isObject } from "../listing.js";
import { quote } from "../text.js";
import { firstText } from "./probe-results.js";
import { defineMcpRule } from "./types.js";

/** Texts the SDKs generate themselves (validation, unknown tool): not the server author's. */
const SDK_TEXT = /^MCP error -?\d+/;

export default defineMcpRule({
  id: "mcp-error-text",
  input: "probe",
  description: 'A tool error (isError: true) written by the server starts with "Error:" (probe).',
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noErrorPrefix:
      'tool {{tool}} answered an error with {{text}}, which does not start with "Error:"',
  },
  check({ listing, report }) {
    const reported = new Set<string>();
    for (const call of listing.probeCalls) {
      const { result, tool } = call.value;
      if (!isObject(result) || result.isError !== true || reported.has(tool)) continue;
      const text = firstText(result);
      if (text === undefined || text.text.startsWith("Error:") || SDK_TEXT.test(text.text))
        continue;
      reported.add(tool);
      report({
        path: [...call.path, "result", "content", text.index, "text"],
        messageId: "noErrorPrefix",
        data: { tool: quote(tool), text: quote(text.text, 60) },
        hint: 'start error texts with "Error:" and say what to do next, e.g. "Error: Resource not found. Please check the ID is correct."',
      });
    }
  },
});
