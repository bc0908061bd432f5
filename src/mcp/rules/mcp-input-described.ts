import { quote } from "../text.js";
import { alternatives, keyword, typesOf, walkProperties } from "../input-schema.js";
import { defineMcpRule } from "./types.js";
import { toolInputs, toolLabel } from "./support.js";

export default defineMcpRule({
  id: "mcp-input-described",
  input: "static",
  description:
    "Every input property has a type and a description (on the property, or on its anyOf/oneOf alternatives).",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: { undescribed: "{{tool}}: parameter {{parameter}} has no {{missing}}" },
  check({ tools, report }) {
    for (const { tool, input } of toolInputs(tools)) {
      for (const property of walkProperties(input.document, input.root)) {
        const missing: string[] = [];
        if (
          typesOf(input.document, property.resolved).size === 0 &&
          typesOf(input.document, property.written).size === 0
        )
          missing.push("type");
        if (
          !described(keyword(property, "description")) &&
          !alternatives(input.document, property.resolved).some((shape) =>
            described(shape.schema.description),
          )
        )
          missing.push("description");
        if (missing.length === 0) continue;
        report({
          path: property.written.path,
          target: "key",
          messageId: "undescribed",
          data: {
            tool: toolLabel(tool),
            parameter: quote(property.name),
            missing: missing.join(" and no "),
          },
          hint: missing.includes("description")
            ? "describe what it is, its format and an example (zod .describe(), Pydantic Field(description=...))"
            : "give it a JSON type (string, integer, number, boolean, array, object)",
        });
      }
    }
  },
});

/** A description the model can read: on the property, or on one of its anyOf/oneOf alternatives. */
function described(description: unknown): boolean {
  return typeof description === "string" && description.trim() !== "";
}
