import { defineMcpRule } from "./types.js";
import { toolInputs, toolLabel } from "./support.js";

export default defineMcpRule({
  id: "mcp-input-strict",
  input: "static",
  description:
    "The input schema rejects unknown fields: additionalProperties: false at its root (after $ref resolution and unwrapping a single object parameter).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    notStrict:
      "{{tool}}: the input{{model}} does not reject unknown fields ({{written}}); a misspelt argument is silently ignored",
  },
  check({ tools, report }) {
    for (const { tool, input } of toolInputs(tools)) {
      const { root, wrapper } = input;
      if (root.schema.additionalProperties === false || root.schema.unevaluatedProperties === false)
        continue;
      const written = root.schema.additionalProperties;
      report({
        path: written === undefined ? root.path : [...root.path, "additionalProperties"],
        messageId: "notStrict",
        data: {
          tool: toolLabel(tool),
          model: wrapper ? ` model of parameter "${wrapper}"` : "",
          written:
            written === undefined
              ? "no additionalProperties"
              : `additionalProperties: ${JSON.stringify(written).slice(0, 40)}`,
        },
        hint: "zod: z.object({...}).strict(); Pydantic: model_config = ConfigDict(extra='forbid'); JSON Schema: additionalProperties: false",
      });
    }
  },
});
