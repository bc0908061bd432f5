import type { JsonPath } from "../../core/location.js";
import { keyword, nonNullMember, propertiesOf, typesOf, UNBOUNDED_MAXIMUM, type Property, type SchemaNode } from "../input-schema.js";
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
    otherNames: ["skip", "page", "pageidx", "pageindex", "pagenumber", "cursor", "startcursor", "pagetoken"],
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
  check({ tools, service, settings, report }) {
    const naming = namingOf(tools, service);
    for (const { tool, input } of toolInputs(tools)) {
      // A list without arguments is a fixed one (open pages, connections, configured sources): nothing to page.
      if (!isListTool(tool, naming, settings.listTools) || takesNoArguments(tool)) continue;
      const properties = new Map(propertiesOf(input.document, input.root).map((p) => [p.name, p]));
      for (const expected of EXPECTED) {
        const property = properties.get(expected.name);
        if (!property) {
          const other = [...properties.keys()].find((name) => expected.otherNames.includes(name.toLowerCase().replace(/[_-]/g, "")));
          report({
            path: propertiesPath(input.root),
            target: "key",
            messageId: "missingParameter",
            data: { tool: toolLabel(tool), parameter: expected.name },
            hint: other === undefined ? `add ${expected.text}` : `page with ${expected.text} instead of ${JSON.stringify(other)}`,
          });
          continue;
        }
        const problems = check(input.document, property, expected);
        if (problems.length > 0) {
          report({
            path: property.written.path,
            target: "key",
            messageId: "wrongParameter",
            data: { tool: toolLabel(tool), parameter: expected.name, problems: problems.join(", ") },
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

function check(document: SchemaNode, property: Property, expected: Expected): string[] {
  const value = nonNullMember(document, property.resolved);
  const read = (key: string) => keyword(property, key) ?? value.schema[key];
  const problems: string[] = [];
  const types = typesOf(document, value);
  if (!types.has("integer")) problems.push(types.size ? `is ${[...types].join(" or ")}, not integer` : "has no type (integer expected)");
  const fallback = read("default");
  if (fallback !== expected.default)
    problems.push(
      fallback === undefined ? `has no default (${expected.default} expected)` : `defaults to ${JSON.stringify(fallback)}, not ${expected.default}`,
    );
  const minimum = read("minimum") ?? (typeof read("exclusiveMinimum") === "number" ? (read("exclusiveMinimum") as number) + 1 : undefined);
  if (minimum !== expected.minimum)
    problems.push(minimum === undefined ? `has no minimum (${expected.minimum} expected)` : `has minimum ${JSON.stringify(minimum)}, not ${expected.minimum}`);
  if (expected.maximum !== undefined) {
    const written = read("maximum") ?? (typeof read("exclusiveMaximum") === "number" ? (read("exclusiveMaximum") as number) - 1 : undefined);
    // zod writes Number.MAX_SAFE_INTEGER for an int() without max(): no bound at all.
    const maximum = written === UNBOUNDED_MAXIMUM || written === UNBOUNDED_MAXIMUM - 1 ? undefined : written;
    if (maximum !== expected.maximum)
      problems.push(
        maximum === undefined
          ? `has no maximum (${expected.maximum} expected)${written === undefined ? "" : `; ${JSON.stringify(written)} is zod's "no maximum"`}`
          : `has maximum ${JSON.stringify(maximum)}, not ${expected.maximum}`,
      );
  }
  return problems;
}
