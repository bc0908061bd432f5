import mcpToolVerb from "../../../src/mcp/rules/mcp-tool-verb.js";
import { testRule } from "../../helpers/rule-tester.js";

const dump = (...names: string[]) =>
  JSON.stringify(
    {
      serverInfo: { name: "demo_mcp", version: "1.0.0" },
      tools: names.map((name) => ({
        name,
        description: "Does it.",
        inputSchema: { type: "object" },
      })),
    },
    null,
    2,
  );

testRule(mcpToolVerb, {
  valid: [
    { name: "a verb after the service prefix", code: dump("demo_get_item", "demo_create_note") },
    {
      name: "a verb given with --verbs",
      code: dump("demo_frobnicate_item"),
      mcp: { verbs: new Set(["frobnicate"]) },
    },
  ],
  invalid: [
    {
      name: "a noun phrase",
      code: dump("demo_web_search"),
      errors: [{ messageId: "nounPhrase", line: 8, column: 15 }],
    },
  ],
});
