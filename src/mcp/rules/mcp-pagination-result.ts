import {
  effectiveRoot,
  propertiesOf,
  schemaOf,
  typesOf,
  type SchemaNode,
} from "../input-schema.js";
import { defineMcpRule } from "./types.js";
import { isListTool, namingOf, takesNoArguments, toolLabel } from "./support.js";

const FIELDS: ReadonlyArray<{ name: string; types: readonly string[]; text: string }> = [
  { name: "total", types: ["integer"], text: "integer" },
  { name: "count", types: ["integer"], text: "integer" },
  { name: "offset", types: ["integer"], text: "integer" },
  { name: "has_more", types: ["boolean"], text: "boolean" },
  { name: "next_offset", types: ["integer", "null"], text: "integer or null" },
];

export default defineMcpRule({
  id: "mcp-pagination-result",
  input: "static",
  description:
    "A list tool's outputSchema has total, count, offset (integers), the items (an array), has_more (boolean) and next_offset (integer or null).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    wrongType: '{{tool}}: output field "{{field}}" is {{types}}, not {{expected}}',
    missingFields: "{{tool}}: the output schema of this list tool lacks {{missing}}",
  },
  check({ tools, service, settings, report }) {
    const naming = namingOf(tools, service);
    for (const tool of tools) {
      const document = schemaOf(tool, "outputSchema");
      // A list without arguments is a fixed one (see mcp-pagination-params): no pages to describe.
      if (!document || !isListTool(tool, naming, settings.listTools) || takesNoArguments(tool))
        continue;
      const root: SchemaNode = effectiveRoot(document).root;
      const properties = new Map(propertiesOf(document, root).map((p) => [p.name, p]));
      const missing: string[] = [];
      for (const field of FIELDS) {
        const property = properties.get(field.name);
        if (!property) {
          missing.push(field.name);
          continue;
        }
        const types = typesOf(document, property.resolved);
        const wrong =
          field.types.some((t) => !types.has(t)) ||
          [...types].some(
            (t) => !field.types.includes(t) && !(t === "integer" && field.types.includes("number")),
          );
        if (wrong) {
          report({
            path: property.written.path,
            target: "key",
            messageId: "wrongType",
            data: {
              tool: toolLabel(tool),
              field: field.name,
              types: types.size ? [...types].join(" or ") : "untyped",
              expected: field.text,
            },
            hint: `declare "${field.name}" as ${field.text}`,
          });
        }
      }
      const hasItems = [...properties.values()].some(
        (p) => !FIELDS.some((f) => f.name === p.name) && typesOf(document, p.resolved).has("array"),
      );
      if (!hasItems) missing.push("the items (an array field)");
      if (missing.length > 0) {
        report({
          path: root.schema.properties === undefined ? root.path : [...root.path, "properties"],
          target: "key",
          messageId: "missingFields",
          data: { tool: toolLabel(tool), missing: missing.join(", ") },
          hint: "return { total, count, offset, items, has_more, next_offset } as the conventions' list response",
        });
      }
    }
  },
});
