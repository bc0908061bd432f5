import { quote } from "../text.js";
import { callsFor, rejected } from "./probe-results.js";
import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "mcp-unknown-field-accepted",
  input: "probe",
  description: "A call with an extra, unknown argument is rejected (probe).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    accepted:
      "tool {{tool}} accepted a call with the unknown argument {{argument}}; misspelt arguments are silently ignored",
  },
  check({ listing, report }) {
    for (const call of callsFor(listing.probeCalls, "unknown-field")) {
      if (rejected(call.value)) continue;
      const extra =
        Object.keys(call.value.arguments).find((key) => key.startsWith("caplint_probe")) ??
        "an unknown argument";
      report({
        path: [...call.path, "arguments"],
        messageId: "accepted",
        data: { tool: quote(call.value.tool), argument: quote(extra) },
        hint: "reject unknown fields: zod .strict(), Pydantic extra='forbid'",
      });
    }
  },
});
