import { quote } from "../text.js";
import {
  alternatives,
  keyword,
  nonNullMember,
  typesOf,
  UNBOUNDED_MAXIMUM,
  walkProperties,
  type Property,
  type SchemaNode,
} from "../input-schema.js";
import { defineMcpRule } from "./types.js";
import { isListTool, isPagePosition, namingOf, toolInputs, toolLabel } from "./support.js";

export default defineMcpRule({
  id: "mcp-input-bounds",
  input: "static",
  description:
    "Inputs are bounded: strings by maxLength, enum, pattern or format; numbers by a minimum and a maximum; arrays by maxItems.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: { unbounded: "{{tool}}: {{type}} parameter {{parameter}} {{problem}}" },
  check({ tools, service, settings, report }) {
    const naming = namingOf(tools, service);
    for (const { tool, input } of toolInputs(tools)) {
      // On list tools mcp-pagination-params owns the page size. Where a page starts (offset,
      // page, pageIdx, a cursor) has no upper bound by nature: a number needs its minimum, a
      // cursor its maxLength. Anywhere else an `offset` (a line in a file) is an ordinary parameter.
      const paginated = isListTool(tool, naming, settings.listTools);
      for (const property of walkProperties(input.document, input.root)) {
        if (paginated && property.name === "limit") continue;
        const problem =
          paginated && isPagePosition(property)
            ? unboundedPosition(input.document, property)
            : unbounded(input.document, property);
        if (!problem) continue;
        report({
          path: property.written.path,
          target: "key",
          messageId: "unbounded",
          data: {
            tool: toolLabel(tool),
            type: problem.what,
            parameter: quote(property.name),
            problem: problem.message,
          },
          hint: problem.hint,
        });
      }
    }
  },
});

function unbounded(document: SchemaNode, property: Property): Problem | undefined {
  const value = nonNullMember(document, property.resolved);
  // A value of several shapes (anyOf/oneOf) is bounded when each shape is.
  const shapes = alternatives(document, value);
  for (const shape of shapes.length > 1 ? shapes : [value]) {
    const problem = unboundedShape(document, property, shape);
    if (problem) return problem;
  }
  return undefined;
}

/** A page position: typed, a number bounded below, a string (a cursor) by its length. */
function unboundedPosition(document: SchemaNode, property: Property): Problem | undefined {
  const value = nonNullMember(document, property.resolved);
  const has = (key: string) => keywordOf(value, property, key) !== undefined;
  if (has("enum") || has("const")) return undefined;
  const types = typesOf(document, value);
  if (types.size === 0)
    return {
      what: "page position",
      message: "has no type",
      hint: 'say what it is: "type": "integer" with "minimum": 0, or "type": "string" with a maxLength for a cursor',
    };
  if (types.has("string") && !has("maxLength")) {
    return {
      what: "cursor",
      message: "has no maxLength",
      hint: "bound the cursor's length, e.g. maxLength: 512 (zod .max(512), Pydantic max_length=512)",
    };
  }
  if (
    (types.has("integer") || types.has("number")) &&
    !bounds(value, property, "minimum") &&
    !bounds(value, property, "exclusiveMinimum")
  ) {
    return {
      what: types.has("integer") ? "integer" : "number",
      message: "has no minimum (a page position needs only that)",
      hint: "bound it below, e.g. minimum: 0 for an offset, 1 for a page number (zod .min(0), Pydantic ge=0)",
    };
  }
  return undefined;
}

interface Problem {
  what: string;
  message: string;
  hint: string;
}

function unboundedShape(
  document: SchemaNode,
  property: Property,
  shape: SchemaNode,
): Problem | undefined {
  const has = (key: string) => keywordOf(shape, property, key) !== undefined;
  if (has("enum") || has("const")) return undefined;
  const types = typesOf(document, shape);
  if (types.has("string") && !(has("maxLength") || has("pattern") || has("format"))) {
    return {
      what: "string",
      message: "has no maxLength, enum, pattern or format",
      hint: "bound it, e.g. maxLength: 200 (zod .max(200), Pydantic max_length=200)",
    };
  }
  if ((types.has("integer") || types.has("number")) && !types.has("string")) {
    const low = bounds(shape, property, "minimum") || bounds(shape, property, "exclusiveMinimum");
    const high = bounds(shape, property, "maximum") || bounds(shape, property, "exclusiveMaximum");
    if (!low || !high) {
      const lacking = !low && !high ? "minimum and no maximum" : !low ? "minimum" : "maximum";
      const zodMaximum =
        isZodDefault(shape, property, "maximum") ||
        isZodDefault(shape, property, "exclusiveMaximum");
      const note = !high && zodMaximum ? ` (${UNBOUNDED_MAXIMUM} is zod's "no maximum")` : "";
      return {
        what: types.has("integer") ? "integer" : "number",
        message: `has no ${lacking}${note}`,
        hint: "bound both ends (zod .min().max(), Pydantic ge=, le=)",
      };
    }
  }
  if (types.has("array") && !has("maxItems")) {
    return {
      what: "array",
      message: "has no maxItems",
      hint: "bound it, e.g. maxItems: 100 (zod .max(100), Pydantic max_length=100)",
    };
  }
  return undefined;
}

/** A keyword of one shape of a property's value: on the shape, else beside the property's `$ref` or on what it resolves to. */
function keywordOf(shape: SchemaNode, property: Property, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(shape.schema, key)
    ? shape.schema[key]
    : keyword(property, key);
}

/** A bound that bounds something: written, and not one of zod's defaults. */
function bounds(shape: SchemaNode, property: Property, key: string): boolean {
  const value = keywordOf(shape, property, key);
  return value !== undefined && Math.abs(Number(value)) !== UNBOUNDED_MAXIMUM;
}

/** zod's int() writes ±Number.MAX_SAFE_INTEGER as its bounds: they bound nothing. */
function isZodDefault(shape: SchemaNode, property: Property, key: string): boolean {
  return Math.abs(Number(keywordOf(shape, property, key))) === UNBOUNDED_MAXIMUM;
}
