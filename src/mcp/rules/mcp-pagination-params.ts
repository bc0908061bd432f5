import type { JsonPath } from "../../core/location.js";
import {
  keyword,
  nonNullMember,
  propertiesOf,
  propertyOf,
  typesOf,
  UNBOUNDED_MAXIMUM,
  type Property,
  type SchemaNode,
} from "../input-schema.js";
import { defineMcpRule } from "./types.js";
import { isListTool, namingOf, takesNoArguments, toolInputs, toolLabel } from "./support.js";

interface Expected {
  name: "limit" | "offset";
  /** What the same parameter is called in other pagination styles (normalised: lowercase, no `_`). */
  otherNames: readonly string[];
  default: number;
  minimum: number;
  maximum?: number;
  text: string;
}

const EXPECTED: readonly Expected[] = [
  {
    name: "limit",
    otherNames: ["pagesize", "perpage", "count", "maxresults", "numresults", "size"],
    default: 20,
    minimum: 1,
    maximum: 100,
    text: "limit: integer, default 20, minimum 1, maximum 100",
  },
  {
    name: "offset",
    otherNames: [
      "skip",
      "page",
      "pageidx",
      "pageindex",
      "pagenumber",
      "cursor",
      "startcursor",
      "pagetoken",
    ],
    default: 0,
    minimum: 0,
    text: "offset: integer, default 0, minimum 0",
  },
];

export default defineMcpRule({
  id: "mcp-pagination-params",
  input: "static",
  description:
    "List tools (named list or search, find with a plural object, paging under any names, or returning pages) take limit (integer, default 20, 1..100) and offset (integer, default 0, minimum 0).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    missingParameter: '{{tool}} is a list tool but has no "{{parameter}}" parameter',
    wrongParameter: '{{tool}}: "{{parameter}}" {{problems}}',
  },
  check({ tools, service, settings, report, shown }) {
    const naming = namingOf(tools, service);
    for (const { tool, input } of toolInputs(tools)) {
      // A list without arguments is a fixed one (open pages, connections, configured sources): nothing to page.
      if (!isListTool(tool, naming, settings.listTools) || takesNoArguments(tool)) continue;
      for (const expected of EXPECTED) {
        const property = propertyOf(input.document, input.root, expected.name);
        if (!property) {
          const names = propertiesOf(input.document, input.root).map((p) => p.name);
          const other = names.find((name) =>
            expected.otherNames.includes(name.toLowerCase().replace(/[_-]/g, "")),
          );
          report({
            path: propertiesPath(input.root),
            target: "key",
            messageId: "missingParameter",
            data: { tool: toolLabel(tool), parameter: expected.name },
            hint:
              other === undefined
                ? `add ${expected.text}`
                : `page with ${expected.text} instead of ${JSON.stringify(other)}`,
          });
          continue;
        }
        const problems = check(input.document, property, expected, shown);
        if (problems.length > 0) {
          report({
            path: property.written.path,
            target: "key",
            messageId: "wrongParameter",
            data: {
              tool: toolLabel(tool),
              parameter: expected.name,
              problems: problems.join(", "),
            },
            hint: `declare ${expected.text}`,
          });
        }
      }
    }
  },
});

function propertiesPath(root: SchemaNode): JsonPath {
  return root.schema.properties === undefined ? root.path : [...root.path, "properties"];
}

function check(
  document: SchemaNode,
  property: Property,
  expected: Expected,
  shown: (path: JsonPath, value: unknown) => string,
): string[] {
  const value = nonNullMember(document, property.resolved);
  // Where a keyword is written: beside a $ref, in what it resolves to, or in the non-null member of a union.
  const pathOf = (key: string): JsonPath => {
    const own = (node: SchemaNode) => Object.prototype.hasOwnProperty.call(node.schema, key);
    const node = own(property.written)
      ? property.written
      : own(property.resolved)
        ? property.resolved
        : value;
    return [...node.path, key];
  };
  const read = (key: string) => keyword(property, key) ?? value.schema[key];
  const show = (key: string, fallback: unknown) => shown(pathOf(key), fallback);
  const problems: string[] = [];
  const types = typesOf(document, value);
  if (!types.has("integer"))
    problems.push(
      types.size ? `is ${[...types].join(" or ")}, not integer` : "has no type (integer expected)",
    );
  const fallback = read("default");
  if (fallback !== expected.default)
    problems.push(
      fallback === undefined
        ? `has no default (${expected.default} expected)`
        : `defaults to ${show("default", fallback)}, not ${expected.default}`,
    );
  const exclusiveMinimum = read("exclusiveMinimum");
  const minimum =
    read("minimum") ?? (typeof exclusiveMinimum === "number" ? exclusiveMinimum + 1 : undefined);
  if (minimum !== expected.minimum)
    problems.push(
      minimum === undefined
        ? `has no minimum (${expected.minimum} expected)`
        : `has minimum ${read("minimum") === undefined ? `${show("exclusiveMinimum", exclusiveMinimum)} + 1` : show("minimum", minimum)}, not ${expected.minimum}`,
    );
  if (expected.maximum !== undefined) {
    const exclusiveMaximum = read("exclusiveMaximum");
    const written =
      read("maximum") ?? (typeof exclusiveMaximum === "number" ? exclusiveMaximum - 1 : undefined);
    // As written (which reads the text's syntax tree): only for a message.
    const writtenText = () =>
      read("maximum") === undefined
        ? `${show("exclusiveMaximum", exclusiveMaximum)} - 1`
        : show("maximum", written);
    // zod writes Number.MAX_SAFE_INTEGER for an int() without max(): no bound at all.
    const maximum =
      written === UNBOUNDED_MAXIMUM || written === UNBOUNDED_MAXIMUM - 1 ? undefined : written;
    if (maximum !== expected.maximum)
      problems.push(
        maximum === undefined
          ? `has no maximum (${expected.maximum} expected)${written === undefined ? "" : `; ${writtenText()} is zod's "no maximum"`}`
          : `has maximum ${writtenText()}, not ${expected.maximum}`,
      );
  }
  return problems;
}
