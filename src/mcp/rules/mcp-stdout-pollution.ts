import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";
import { plural } from "../../core/wording.js";

/** Lines reported one by one; the rest are counted in the last finding. */
const MAX_REPORTED = 5;

export default defineMcpRule({
  id: "mcp-stdout-pollution",
  input: "live",
  description: "A stdio server writes nothing but protocol messages on stdout (logs go to stderr).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    notJsonRpc:
      "the server wrote a line on stdout that is not a JSON-RPC message: {{line}}{{more}}; clients may drop the connection",
  },
  check({ listing, report }) {
    const noise = listing.stdoutNoise;
    if (!noise || noise.value.length === 0) return;
    const shown = noise.value.slice(0, MAX_REPORTED);
    shown.forEach((line, index) => {
      const more =
        index === shown.length - 1 && noise.value.length > shown.length
          ? ` (and ${plural(noise.value.length - shown.length, "more line", "more lines")})`
          : "";
      report({
        path: [...noise.path, index],
        messageId: "notJsonRpc",
        data: { line: quote(line, 60), more },
        hint: "log to stderr (console.error, logging to sys.stderr); stdout carries only the protocol",
      });
    });
  },
});
