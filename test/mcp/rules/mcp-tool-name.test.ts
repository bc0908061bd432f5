import mcpToolName from "../../../src/mcp/rules/mcp-tool-name.js";
import { testRule } from "../../helpers/rule-tester.js";

const dump = (...names: string[]) =>
  JSON.stringify(
    {
      serverInfo: { name: "demo_mcp", version: "1.0.0" },
      tools: names.map((name) => ({
        name,
        description: "Gets it.",
        inputSchema: { type: "object" },
      })),
    },
    null,
    2,
  );

testRule(mcpToolName, {
  valid: [{ name: "snake_case names", code: dump("demo_get_item", "demo_list_items") }],
  invalid: [
    {
      name: "a name in camelCase is a warning with the snake_case name as hint",
      code: dump("demo_getNote"),
      errors: [
        {
          messageId: "notSnakeCase",
          message: 'tool name "demo_getNote" is not snake_case',
          hint: 'name it "demo_get_note"',
          severity: "warning",
          line: 8,
          column: 15,
        },
      ],
    },
    {
      name: "a name listed twice is an error",
      code: dump("demo_get_item", "demo_get_item"),
      errors: [
        {
          messageId: "duplicate",
          message:
            'tool name "demo_get_item" is listed twice (first at tools[0]); clients cannot tell the two apart',
          severity: "error",
        },
      ],
    },
    {
      name: "a space is not allowed",
      code: dump("demo_get item"),
      errors: [
        { messageId: "characters", hint: 'use snake_case: "demo_get_item"', severity: "error" },
      ],
    },
  ],
});
