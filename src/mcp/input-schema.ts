import type { JsonPath } from "../core/location.js";
import { isObject, type ToolEntry } from "./listing.js";

/** A JSON Schema node of a tool with its path in the document. */
export interface SchemaNode {
  schema: Record<string, unknown>;
  path: JsonPath;
}

/** A property as written (possibly a bare `$ref` with a description beside it) and as resolved. */
export interface Property {
  name: string;
  written: SchemaNode;
  resolved: SchemaNode;
}

/**
 * Number.MAX_SAFE_INTEGER: what zod writes as the maximum (and, negated, the minimum) of an int()
 * without bounds. It bounds nothing a tool could handle.
 */
export const UNBOUNDED_MAXIMUM = 9007199254740991;

/** Longest `$ref` chain followed; longer chains (or loops) stop at the last node reached. */
const MAX_REF_HOPS = 32;

/**
 * Follows local `$ref`s (`#/$defs/Model`, `#/definitions/Model`) inside the tool's schema document,
 * as FastMCP and zod generate them. Remote references are left as they are.
 */
export function resolveRef(document: SchemaNode, node: SchemaNode): SchemaNode {
  let current = node;
  for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
    const ref = current.schema.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#")) return current;
    const target = pointer(document, ref.slice(1));
    if (!target || target.schema === current.schema) return current;
    current = target;
  }
  return current;
}

function pointer(document: SchemaNode, fragment: string): SchemaNode | undefined {
  if (fragment === "") return document;
  if (!fragment.startsWith("/")) return undefined;
  let value: unknown = document.schema;
  const path = [...document.path];
  for (const raw of fragment.slice(1).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (!isObject(value) && !Array.isArray(value)) return undefined;
    const container = value as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(container, key)) return undefined;
    value = container[key];
    path.push(Array.isArray(container) ? Number(key) : key);
  }
  return isObject(value) ? { schema: value, path } : undefined;
}

/** The tool's `inputSchema` (or `outputSchema`) node, when it is an object. */
export function schemaOf(
  tool: ToolEntry,
  key: "inputSchema" | "outputSchema",
): SchemaNode | undefined {
  if (!isObject(tool.value)) return undefined;
  const schema = tool.value[key];
  return isObject(schema) ? { schema, path: [...tool.path, key] } : undefined;
}

/**
 * The object whose properties are the tool's real parameters. FastMCP turns `def tool(params: Model)`
 * into `{"properties": {"params": {"$ref": "#/$defs/Model"}}}`: the model is the input the
 * conventions talk about, so a single object-typed parameter is unwrapped (one level).
 */
export function effectiveRoot(document: SchemaNode): { root: SchemaNode; wrapper?: string } {
  const root = resolveRef(document, document);
  const props = root.schema.properties;
  if (!isObject(props)) return { root };
  const names = Object.keys(props);
  if (names.length !== 1) return { root };
  const only = props[names[0]!];
  if (!isObject(only)) return { root };
  const inner = resolveRef(document, {
    schema: only,
    path: [...root.path, "properties", names[0]!],
  });
  if (
    typesOf(document, inner).has("object") &&
    isObject(inner.schema.properties) &&
    Object.keys(inner.schema.properties).length > 0
  ) {
    return { root: inner, wrapper: names[0]! };
  }
  return { root };
}

export function propertiesOf(document: SchemaNode, object: SchemaNode): Property[] {
  const props = object.schema.properties;
  if (!isObject(props)) return [];
  const result: Property[] = [];
  for (const [name, value] of Object.entries(props))
    if (isObject(value)) result.push(propertyAt(document, object, name, value));
  return result;
}

/**
 * The property `name` of an object schema, as {@link propertiesOf} gives it, or undefined: for a rule
 * that asks for one or two names, without making every property of every tool.
 */
export function propertyOf(
  document: SchemaNode,
  object: SchemaNode,
  name: string,
): Property | undefined {
  const props = object.schema.properties;
  const value =
    isObject(props) && Object.prototype.hasOwnProperty.call(props, name) ? props[name] : undefined;
  return isObject(value) ? propertyAt(document, object, name, value) : undefined;
}

/** Whether an object schema has no properties (as {@link propertiesOf} counts them). */
export function hasNoProperties(object: SchemaNode): boolean {
  const props = object.schema.properties;
  return !isObject(props) || !Object.values(props).some(isObject);
}

function propertyAt(
  document: SchemaNode,
  object: SchemaNode,
  name: string,
  value: Record<string, unknown>,
): Property {
  const written = { schema: value, path: [...object.path, "properties", name] };
  return { name, written, resolved: resolveRef(document, written) };
}

/** A keyword as written beside a `$ref`, else on the referenced schema. */
export function keyword(property: Property, key: string): unknown {
  // One load for both cases: a load that only one case reaches has no type feedback when the function is
  // first optimised, and the other case then throws the optimised code away.
  const holder = Object.prototype.hasOwnProperty.call(property.written.schema, key)
    ? property.written
    : property.resolved;
  return holder.schema[key];
}

/**
 * The JSON types a schema admits: its `type`, the types of `anyOf`/`oneOf` members, or what an
 * `enum`/`const` holds. Empty when the schema says nothing about types. Each schema object is
 * looked at once per question, so members that `$ref` each other cost their number, not a power of it.
 */
export function typesOf(
  document: SchemaNode,
  node: SchemaNode,
  seen: Set<object> = new Set(),
): Set<string> {
  const types = new Set<string>();
  const { schema } = node;
  if (typeof schema.type === "string") types.add(schema.type);
  else if (Array.isArray(schema.type))
    for (const t of schema.type) if (typeof t === "string") types.add(t);
  if (types.size > 0 || seen.has(schema)) return types;
  seen.add(schema);
  for (const key of ["anyOf", "oneOf"]) {
    const members = schema[key];
    if (!Array.isArray(members)) continue;
    members.forEach((member, index) => {
      if (!isObject(member)) return;
      const resolved = resolveRef(document, { schema: member, path: [...node.path, key, index] });
      for (const t of typesOf(document, resolved, seen)) types.add(t);
    });
  }
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [];
  for (const value of values)
    types.add(
      value === null
        ? "null"
        : Array.isArray(value)
          ? "array"
          : Number.isInteger(value)
            ? "integer"
            : typeof value,
    );
  return types;
}

/**
 * The schema that carries a value's constraints: the node itself, or for `Optional[X]`
 * (`anyOf: [X, {"type": "null"}]`) the one non-null member.
 */
export function nonNullMember(document: SchemaNode, node: SchemaNode): SchemaNode {
  const members = alternatives(document, node);
  return members.length === 1 ? members[0]! : node;
}

/**
 * The alternatives a value may take: the members of `anyOf`/`oneOf` other than `{"type": "null"}`,
 * resolved; none when the schema has no such keyword.
 */
export function alternatives(document: SchemaNode, node: SchemaNode): SchemaNode[] {
  const result: SchemaNode[] = [];
  for (const key of ["anyOf", "oneOf"]) {
    const members = node.schema[key];
    if (!Array.isArray(members)) continue;
    members.forEach((member, index) => {
      if (!isObject(member)) return;
      const resolved = resolveRef(document, { schema: member, path: [...node.path, key, index] });
      if (resolved.schema.type !== "null") result.push(resolved);
    });
  }
  return result;
}

/**
 * Every property of the input, nested objects and array items included, to a fixed depth. An object
 * schema reached a second time (a `$ref` to a model already walked, or back to itself) is not walked
 * again: its properties were reported at the first path that reached them, and a model whose K
 * properties `$ref` it again would otherwise be walked K^depth times.
 */
export function* walkProperties(
  document: SchemaNode,
  object: SchemaNode,
  depth = 0,
  walked: Set<object> = new Set(),
): Generator<Property> {
  if (depth > 6 || walked.has(object.schema)) return;
  walked.add(object.schema);
  for (const property of propertiesOf(document, object)) {
    yield property;
    const value = nonNullMember(document, property.resolved);
    if (isObject(value.schema.properties))
      yield* walkProperties(document, value, depth + 1, walked);
    const items = value.schema.items;
    if (isObject(items)) {
      const item = nonNullMember(
        document,
        resolveRef(document, { schema: items, path: [...value.path, "items"] }),
      );
      if (isObject(item.schema.properties))
        yield* walkProperties(document, item, depth + 1, walked);
    }
  }
}
