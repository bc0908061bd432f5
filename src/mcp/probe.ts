import {
  nonNullMember,
  propertiesOf,
  resolveRef,
  typesOf,
  type SchemaNode,
} from "./input-schema.js";
import { isObject, type ProbeCall, type ToolEntry } from "./listing.js";
import { toolNaming } from "./naming.js";
import { inputOf, isListTool } from "./rules/support.js";

export type ProbePlanTool = Record<string, unknown>;
export type PlannedCall = Pick<ProbeCall, "tool" | "purpose" | "arguments">;

/** The argument no tool declares, sent to see whether unknown fields are rejected. */
const UNKNOWN_ARGUMENT = "caplint_probe_unknown_field";
/** Over the conventions' maximum limit of 100. */
export const LIMIT_OVER_MAX = 101;

/**
 * The calls `--probe` makes. Safety first: ONLY tools that declare `annotations.readOnlyHint: true`
 * (the boolean, nothing else) are ever called; every other tool is left alone whatever its name or
 * description says, and so is a tool that also declares `destructiveHint: true` (a contradiction
 * mcp-annotations reports: its claim to be read-only is not trusted), and a name that is listed
 * twice unless every tool of that name is read-only. Within the budget, each read-only tool first gets one plain call (for a list
 * tool: one page with limit 1), then one with an unknown argument, then list tools one with
 * limit 101, so a small budget still reaches every tool once.
 */
export function planProbe(
  tools: readonly ProbePlanTool[],
  maxCalls: number,
  service?: string,
): { calls: PlannedCall[]; notProbed: string[] } {
  const rounds: PlannedCall[][] = [[], [], []];
  const readOnly: string[] = [];
  const declaredReadOnly = (tool: ProbePlanTool) =>
    isObject(tool.annotations) &&
    tool.annotations.readOnlyHint === true &&
    tool.annotations.destructiveHint !== true;
  // A name listed twice is called only when every tool of that name is read-only: a call cannot choose.
  const unsafeNames = new Set(
    tools.filter((tool) => !declaredReadOnly(tool)).map((tool) => tool.name),
  );
  const planned = new Set<string>();
  const naming = toolNaming(
    service,
    tools.flatMap((tool) => (typeof tool.name === "string" ? [tool.name] : [])),
  );
  tools.forEach((value, index) => {
    if (
      typeof value.name !== "string" ||
      !declaredReadOnly(value) ||
      unsafeNames.has(value.name) ||
      planned.has(value.name)
    )
      return;
    planned.add(value.name);
    const entry: ToolEntry = { value, path: ["tools", index], name: value.name };
    const input = inputOf(entry);
    if (!input) return;
    readOnly.push(value.name);
    const names = new Set(propertiesOf(input.document, input.root).map((p) => p.name));
    const base = sampleObject(input.document, input.root, 0, {
      onPath: new Set(),
      left: MAX_SAMPLED_VALUES,
    });
    const call = (purpose: ProbeCall["purpose"], extra: Record<string, unknown>): PlannedCall => ({
      tool: value.name as string,
      purpose,
      arguments:
        input.wrapper === undefined
          ? { ...base, ...extra }
          : { [input.wrapper]: { ...base, ...extra } },
    });
    if (isListTool(entry, naming)) {
      const page: Record<string, unknown> = {};
      if (names.has("limit")) page.limit = 1;
      if (names.has("offset")) page.offset = 0;
      if (names.has("response_format")) page.response_format = "json";
      rounds[0]!.push(call("pagination", page));
      if (names.has("limit")) rounds[2]!.push(call("limit-over-max", { limit: LIMIT_OVER_MAX }));
    } else {
      rounds[0]!.push(call("baseline", {}));
    }
    rounds[1]!.push(call("unknown-field", { [UNKNOWN_ARGUMENT]: true }));
  });
  const calls = rounds.flat().slice(0, Math.max(0, maxCalls));
  const called = new Set(calls.map((c) => c.tool));
  return { calls, notProbed: readOnly.filter((name) => !called.has(name)) };
}

/**
 * How sampling stays small whatever the schema: a schema already being sampled on the current path (a
 * `$ref` back to itself, an array whose items are the array) is not entered again, and at most
 * MAX_SAMPLED_VALUES values are made for one tool (a model whose required properties `$ref` other
 * models, K wide and 6 deep, would otherwise make K^6). What is cut is the smallest value that fits
 * the type: `{}`, `[]`.
 */
interface SampleBudget {
  onPath: Set<object>;
  left: number;
}

const MAX_SAMPLED_VALUES = 1000;

/** A value for each required property: its default, const, first enum value or example, else one that fits the type and bounds. */
function sampleObject(
  document: SchemaNode,
  object: SchemaNode,
  depth: number,
  budget: SampleBudget,
): Record<string, unknown> {
  const required = new Set(
    Array.isArray(object.schema.required)
      ? object.schema.required.filter((r): r is string => typeof r === "string")
      : [],
  );
  const result: Record<string, unknown> = {};
  for (const property of propertiesOf(document, object)) {
    if (!required.has(property.name)) continue;
    result[property.name] = sample(document, property.written, depth + 1, budget);
  }
  return result;
}

function sample(
  document: SchemaNode,
  written: SchemaNode,
  depth: number,
  budget: SampleBudget,
): unknown {
  budget.left--;
  if ("default" in written.schema) return written.schema.default;
  const node = nonNullMember(document, resolveRef(document, written));
  const s = node.schema;
  if ("default" in s) return s.default;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  const types = typesOf(document, node);
  const number = (key: string) => (typeof s[key] === "number" ? s[key] : undefined);
  const enterable = depth <= 6 && budget.left > 0 && !budget.onPath.has(s);
  if (types.has("object") || isObject(s.properties)) {
    if (!enterable) return {};
    budget.onPath.add(s);
    const value = sampleObject(document, node, depth, budget);
    budget.onPath.delete(s);
    return value;
  }
  if (types.has("string")) return sampleString(s);
  if (types.has("integer") || types.has("number")) {
    const low =
      number("minimum") ??
      (number("exclusiveMinimum") !== undefined ? number("exclusiveMinimum")! + 1 : undefined);
    const high =
      number("maximum") ??
      (number("exclusiveMaximum") !== undefined ? number("exclusiveMaximum")! - 1 : undefined);
    let value = low ?? 1;
    if (high !== undefined && value > high) value = high;
    return types.has("integer") ? Math.ceil(value) : value;
  }
  if (types.has("boolean")) return false;
  if (types.has("array")) {
    if (!enterable) return [];
    const count = Math.min(number("minItems") ?? 0, 5);
    const items = isObject(s.items)
      ? { schema: s.items, path: [...node.path, "items"] }
      : undefined;
    budget.onPath.add(s);
    const value = Array.from({ length: count }, () =>
      items ? sample(document, items, depth + 1, budget) : "caplint-probe",
    );
    budget.onPath.delete(s);
    return value;
  }
  if (types.has("null")) return null;
  return "caplint-probe";
}

function sampleString(s: Record<string, unknown>): string {
  const formats: Record<string, string> = {
    email: "probe@example.com",
    uri: "https://example.com/caplint-probe",
    url: "https://example.com/caplint-probe",
    "date-time": "2025-01-01T00:00:00Z",
    date: "2025-01-01",
    time: "00:00:00Z",
    uuid: "00000000-0000-4000-8000-000000000000",
    ipv4: "192.0.2.1",
    hostname: "example.com",
  };
  let text =
    typeof s.format === "string" && formats[s.format] !== undefined
      ? formats[s.format]!
      : "caplint-probe";
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  if (text.length < min) text = text.padEnd(Math.min(min, 1000), "x");
  if (text.length > max) text = text.slice(0, Math.max(0, max));
  return text;
}

/** Strings in recorded results are cut to this length: a dump needs the shape of a result, not a whole file it returned. */
const MAX_RECORDED_STRING = 20_000;

export function truncateStrings(value: unknown, depth = 0): unknown {
  if (typeof value === "string")
    return value.length > MAX_RECORDED_STRING
      ? `${value.slice(0, MAX_RECORDED_STRING)}… [${value.length - MAX_RECORDED_STRING} more characters]`
      : value;
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => truncateStrings(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, truncateStrings(item, depth + 1)]),
  );
}
