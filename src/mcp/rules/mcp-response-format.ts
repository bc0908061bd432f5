import { keyword, nonNullMember, propertyOf } from "../input-schema.js";
import { defineMcpRule } from "./types.js";
import { toolInputs, toolLabel } from "./support.js";

export default defineMcpRule({
  id: "mcp-response-format",
  input: "static",
  description:
    'A response_format parameter is an enum of exactly "markdown" and "json" with default "markdown".',
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    wrongFormat:
      '{{tool}}: response_format {{problems}}; expected enum ["markdown", "json"] with default "markdown"',
  },
  check({ tools, report, shown }) {
    for (const { tool, input } of toolInputs(tools)) {
      const property = propertyOf(input.document, input.root, "response_format");
      if (!property) continue;
      const value = nonNullMember(input.document, property.resolved);
      const from = (key: string) =>
        Object.prototype.hasOwnProperty.call(property.written.schema, key)
          ? property.written
          : Object.prototype.hasOwnProperty.call(property.resolved.schema, key)
            ? property.resolved
            : value;
      const values = keyword(property, "enum") ?? value.schema.enum;
      const problems: string[] = [];
      const isExactly =
        Array.isArray(values) &&
        values.length === 2 &&
        values.includes("markdown") &&
        values.includes("json");
      if (!isExactly)
        problems.push(
          Array.isArray(values)
            ? `allows ${values.map((v, i) => shown([...from("enum").path, "enum", i], v)).join(", ")}`
            : "is not an enum",
        );
      const fallback = keyword(property, "default") ?? value.schema.default;
      if (fallback !== "markdown")
        problems.push(
          fallback === undefined
            ? "has no default"
            : `defaults to ${shown([...from("default").path, "default"], fallback)}`,
        );
      if (problems.length === 0) continue;
      report({
        path: property.written.path,
        target: "key",
        messageId: "wrongFormat",
        data: { tool: toolLabel(tool), problems: problems.join(" and ") },
        hint: 'declare response_format: { "type": "string", "enum": ["markdown", "json"], "default": "markdown" }',
      });
    }
  },
});
