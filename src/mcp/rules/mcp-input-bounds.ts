import { quote } from "../text.js";
import { hasKeyword, nonNullMember, typesOf, walkProperties, type Property } from "../input-schema.js";
import { defineMcpRule } from "./types.js";
import { isListTool, toolInputs, toolLabel } from "./support.js";

export default defineMcpRule({
  id: "mcp-input-bounds",
  domain: "mcp",
  input: "static",
  description: "Inputs are bounded: strings by maxLength, enum, pattern or format; numbers by a minimum and a maximum; arrays by maxItems.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: { unbounded: "{{tool}}: {{type}} parameter {{parameter}} {{problem}}" },
  check({ tools, service, report }) {
    for (const { tool, input } of toolInputs(tools)) {
      // On list tools mcp-pagination-params owns limit and offset; offset is bounded only below anywhere.
      const paginated = isListTool(tool, service);
      for (const property of walkProperties(input.document, input.root)) {
        if (property.name === "offset" || (paginated && property.name === "limit")) continue;
        const problem = unbounded(input.document, property);
        if (!problem) continue;
        report({
          path: property.written.path,
          target: "key",
          messageId: "unbounded",
          data: { tool: toolLabel(tool), type: problem.what, parameter: quote(property.name), problem: problem.message },
          hint: problem.hint,
        });
      }
    }
  },
});

function unbounded(document: Parameters<typeof typesOf>[0], property: Property): { what: string; message: string; hint: string } | undefined {
  const value = nonNullMember(document, property.resolved);
  const has = (key: string) => hasKeyword(property, key) || Object.prototype.hasOwnProperty.call(value.schema, key);
  if (has("enum") || has("const")) return undefined;
  const types = typesOf(document, value);
  if (types.has("string") && !(has("maxLength") || has("pattern") || has("format"))) {
    return {
      what: "string",
      message: "has no maxLength, enum, pattern or format",
      hint: "bound it, e.g. maxLength: 200 (zod .max(200), Pydantic max_length=200)",
    };
  }
  if ((types.has("integer") || types.has("number")) && !types.has("string")) {
    const low = has("minimum") || has("exclusiveMinimum");
    const high = has("maximum") || has("exclusiveMaximum");
    if (!low || !high) {
      const lacking = !low && !high ? "minimum and no maximum" : !low ? "minimum" : "maximum";
      return { what: types.has("integer") ? "integer" : "number", message: `has no ${lacking}`, hint: "bound both ends (zod .min().max(), Pydantic ge=, le=)" };
    }
  }
  if (types.has("array") && !has("maxItems")) {
    return { what: "array", message: "has no maxItems", hint: "bound it, e.g. maxItems: 100 (zod .max(100), Pydantic max_length=100)" };
  }
  return undefined;
}
