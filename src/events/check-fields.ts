/**
 * The definitions' walk over one line: the kind of line (ServerEvent, GlobalEvent envelope, client
 * message), its `type`, required and unknown fields, value types and ranges (rules event-type,
 * event-field, event-unknown-field). Rules about the values of one event type subscribe to it
 * instead (src/events/rules/).
 */
import { nearest, nearestField, quoteList } from "../core/did-you-mean.js";
import {
  CLIENT_MESSAGE,
  GLOBAL_EVENT,
  INBOUND_DATA_MESSAGE,
  SERVER_EVENTS,
  SERVER_EVENT_TYPES,
  type EventDef,
  type FieldDef,
  type ServerEventType,
} from "./definitions.js";
import { UINT32_MAX } from "./definitions.js";
import {
  integerProblem,
  isObject,
  type JsonObject,
  type JsonPath,
  type LocatedEvent,
} from "./event-values.js";
import type { EventMessage } from "./rules/index.js";
import { describeValue, quote } from "./text.js";

export type FieldReport = EventMessage<"event-type" | "event-field" | "event-unknown-field"> & {
  hint?: string;
  path: JsonPath;
  /** Where the finding points: the field's key, its value, or (missing field) its object. */
  target: "key" | "value";
};

export type Report = (report: FieldReport) => void;

const hasOwn = Object.prototype.hasOwnProperty;

/** The path of a top-level field's parent (shared: paths are never mutated). */
export const AT_TOP: JsonPath = [];
const IN_ENVELOPE: JsonPath = ["event"];

/**
 * Checks one server-to-client line; returns the event for the lifecycle when its type is known.
 * `keys`: the line's own keys when the caller counted them, else -1.
 */
export function checkServerLine(
  line: JsonObject,
  report: Report,
  keys = -1,
  exact: ExactNumbers = (value) => value,
): LocatedEvent | undefined {
  const type = line.type;
  if (typeof type === "string") {
    // A ServerEvent at the top, nearly every line: its type is read and looked up once.
    const known = knownType(type);
    if (known === undefined) return checkServerEvent(line, AT_TOP, report, keys);
    return checkKnownEvent(known.hasIntegers ? exact(line) : line, known, AT_TOP, report, keys);
  }
  // No type, or one that is not a string: an envelope (its session_id is an integer), or a finding.
  line = exact(line);
  if (hasOwn.call(line, "type") || !hasOwn.call(line, "event"))
    return checkServerEvent(line, AT_TOP, report, keys);
  checkFields(line, GLOBAL_EVENT, "the GlobalEvent envelope", AT_TOP, report);
  const event = line.event;
  if (!isObject(event)) {
    if (event !== undefined)
      report({
        ruleId: "event-field",
        messageId: "envelopeEvent",
        data: { got: describeValue(event) },
        hint: 'the envelope wraps the event object: {"source", "session_id", "event": {"type", ...}}',
        path: ["event"],
        target: "value",
      });
    return undefined;
  }
  const located = checkServerEvent(event, IN_ENVELOPE, report, -1);
  if (located) located.envelope = { source: line.source, sessionId: line.session_id };
  return located;
}

interface KnownType {
  /**
   * The type as the definitions spell it. JSON.parse makes a new string of each line's type; with
   * this one, every later lookup keyed by the type (summary counts, the lifecycle) compares pointers.
   */
  type: ServerEventType;
  definition: EventDef;
  /** Whether the event has an integer field, whose numbers must be judged as written. */
  hasIntegers: boolean;
  /** Its fields prepared for the walk, on its first event (kept here: not looked up per event). */
  fields?: PreparedFields;
}

/** A definition's fields prepared once: the checks below run for every event. */
interface PreparedFields {
  list: ReadonlyArray<readonly [string, FieldDef]>;
  byName: ReadonlyMap<string, FieldDef>;
  required: number;
  /**
   * Whether an object has no finding of this definition, given how many own keys it has besides
   * `type`: the same answer as `isClean`, from code made for this definition (see `compileClean`).
   */
  clean: CleanCheck;
}

/** Whether `object`, with `keys` own keys (`type` not counted), has no finding of one definition. */
type CleanCheck = (object: JsonObject, keys: number) => boolean;

const PREPARED = new Map<EventDef, PreparedFields>();

function prepared(definition: EventDef): PreparedFields {
  let fields = PREPARED.get(definition);
  if (!fields) {
    const list = Object.entries(definition.fields);
    const byName = new Map(list);
    const required = list.filter(([, def]) => !def.optional).length;
    const interpreted: CleanCheck = (object) => isClean(object, byName, required);
    fields = { list, byName, required, clean: compileClean(list) ?? interpreted };
    PREPARED.set(definition, fields);
  }
  return fields;
}

const INTEGER_KINDS: ReadonlySet<FieldDef["kind"]> = new Set(["int", "nullableInt", "tokens"]);

const KNOWN_TYPES: ReadonlyMap<string, KnownType> = new Map(
  SERVER_EVENT_TYPES.map((type) => {
    const definition: EventDef = SERVER_EVENTS[type];
    const hasIntegers = Object.values(definition.fields).some((field) =>
      INTEGER_KINDS.has(field.kind),
    );
    return [type, { type, definition, hasIntegers }];
  }),
);

let lastType: string | undefined;
let lastKnown: KnownType | undefined;

/**
 * The known type named `type`. Runs of one type (token deltas) are the bulk of a stream: comparing
 * with the last type looked up is cheaper than hashing a new string for the Map each time.
 */
function knownType(type: string): KnownType | undefined {
  if (type !== lastType) {
    lastType = type;
    lastKnown = KNOWN_TYPES.get(type);
  }
  return lastKnown;
}

/**
 * The line with the numbers of its event's own fields as written, where JSON.parse may not have kept
 * them (the validator's `withExactNumbers`); asked only for a line that may hold an integer field: an
 * envelope (session_id), or an event type with one.
 */
export type ExactNumbers = (line: JsonObject) => JsonObject;

function checkServerEvent(
  event: JsonObject,
  at: JsonPath,
  report: Report,
  keys: number,
): LocatedEvent | undefined {
  const type = event.type;
  if (type === undefined) {
    report({
      ruleId: "event-type",
      messageId: "missing",
      hint: at.length
        ? "every ServerEvent carries its type"
        : 'every ServerEvent carries its type; a GlobalEvent envelope is {"source", "session_id", "event"}',
      path: [...at, "type"],
      target: "value",
    });
    return undefined;
  }
  if (typeof type !== "string") {
    report({
      ruleId: "event-type",
      messageId: "notAString",
      data: { got: describeValue(type) },
      hint: "the spec's event types are listed by: caplint schema --events",
      path: [...at, "type"],
      target: "value",
    });
    return undefined;
  }
  const known = knownType(type);
  if (known === undefined) {
    const close = nearest(type, SERVER_EVENT_TYPES, 2);
    report({
      ruleId: "event-type",
      messageId: "unknown",
      data: { type: quote(type) },
      hint: close.length
        ? `did you mean ${quoteList(close)}?`
        : "the spec's event types are listed by: caplint schema --events",
      path: [...at, "type"],
      target: "value",
    });
    return undefined;
  }
  return checkKnownEvent(event, known, at, report, keys);
}

/** Checks the fields of an event whose type is known (`keys`: its own keys, or -1 when not counted). */
function checkKnownEvent(
  event: JsonObject,
  known: KnownType,
  at: JsonPath,
  report: Report,
  keys: number,
): LocatedEvent {
  const fields = (known.fields ??= prepared(known.definition));
  if (!fields.clean(event, keys < 0 ? ownKeys(event) - 1 : keys - 1))
    reportFields(event, known.definition, known.type, at, report, true);
  return { type: known.type, event, at };
}

/** The own enumerable keys of an object. */
function ownKeys(object: JsonObject): number {
  let keys = 0;
  for (const key in object) if (hasOwn.call(object, key)) keys++;
  return keys;
}

/** Checks one client-to-server line: an InboundDataMessage (with `type`) or a ClientMessage. */
export function checkClientLine(line: JsonObject, report: Report): void {
  if (!hasOwn.call(line, "type")) {
    checkFields(line, CLIENT_MESSAGE, "ClientMessage", AT_TOP, report);
    return;
  }
  const type = line.type;
  if (type === "data") {
    checkFields(line, INBOUND_DATA_MESSAGE, "the data message", AT_TOP, report, true);
    return;
  }
  report({
    ruleId: "event-type",
    ...(typeof type === "string"
      ? { messageId: "unknownClientType" as const, data: { type: quote(type) } }
      : { messageId: "notAString" as const, data: { got: describeValue(type) } }),
    hint: 'a client sends a ClientMessage {"content", "attachments"} (no type) or a data push with "type": "data"',
    path: ["type"],
    target: "value",
  });
}

function checkFields(
  object: JsonObject,
  definition: EventDef,
  name: string,
  at: JsonPath,
  report: Report,
  hasType = false,
): void {
  const fields = prepared(definition);
  if (fields.clean(object, ownKeys(object) - (hasType && hasOwn.call(object, "type") ? 1 : 0)))
    return;
  reportFields(object, definition, name, at, report, hasType);
}

let flawed = false;
const noteFlaw: Report = () => {
  flawed = true;
};

/**
 * Whether an object has no finding at all, in one pass over its own keys (`type` aside), interpreting
 * the definition: the fallback of `compileClean`, and what its tests compare it with. Nearly every
 * event is clean; one that is not is checked again by reportFields, which reports in the
 * definition's order.
 */
export function isClean(
  object: JsonObject,
  byName: ReadonlyMap<string, FieldDef>,
  requiredFields: number,
): boolean {
  flawed = false;
  let required = 0;
  for (const key in object) {
    if (!hasOwn.call(object, key) || key === "type") continue;
    const def = byName.get(key);
    const value = object[key];
    if (def === undefined || value === undefined) return false;
    if (!def.optional) required++;
    checkValue(value, def, key, "", AT_TOP, noteFlaw);
    if (flawed) return false;
  }
  return required === requiredFields;
}

/**
 * `isClean` as code made once per definition: one property read per field and the checks of its
 * kind inline, instead of a map lookup and a switch per key (every event of a stream takes this
 * path). The own keys besides `type` are counted by the caller: every field present is one of
 * them, so an object has no other key when their number is the number of fields present. Undefined
 * where code cannot be made from text (`node --disallow-code-generation-from-strings`): the
 * interpreted check is used then. The text is made from the definitions only (field names and enum
 * values as JSON strings), never from a recording.
 */
export function compileClean(
  fields: ReadonlyArray<readonly [string, FieldDef]>,
): CleanCheck | undefined {
  // A field named like a property every object inherits would be read from the prototype when absent.
  if (fields.some(([field]) => field in Object.prototype || field === "type")) return undefined;
  const body = ["let present = 0;", "let value;"];
  for (const [field, def] of fields) {
    body.push(
      `value = object[${JSON.stringify(field)}];`,
      `if (value !== undefined) {`,
      `  present++;`,
      `  if (!(${valueIsClean(def)})) return false;`,
      def.optional ? "}" : "} else return false;",
    );
  }
  body.push("return present === keys;");
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the text is made from the definitions above, never from input
    const make = new Function(
      "integerProblem",
      "isArray",
      "allStrings",
      `return function clean(object, keys) {\n${body.join("\n")}\n};`,
    ) as (
      problem: typeof integerProblem,
      isArray: typeof Array.isArray,
      strings: typeof allStrings,
    ) => CleanCheck;
    return make(integerProblem, Array.isArray, allStrings);
  } catch {
    return undefined;
  }
}

/** The test of `compileClean`'s code that a present field's `value` has no finding (checkValue's cases). */
function valueIsClean(def: FieldDef): string {
  const nullable =
    def.kind === "tokens" ||
    def.kind === "nullableString" ||
    def.kind === "nullableInt" ||
    def.kind === "json";
  const notNull = ((): string => {
    switch (def.kind) {
      case "int":
      case "nullableInt":
        return 'typeof value === "number" || integerProblem(value, "i64") === undefined';
      case "tokens":
        return `typeof value === "number" ? value >= 0 && value <= ${UINT32_MAX} : integerProblem(value, "u32") === undefined`;
      case "string":
      case "nullableString":
        return def.enum
          ? `typeof value === "string" && (${def.enum.map((item) => `value === ${JSON.stringify(item)}`).join(" || ")})`
          : 'typeof value === "string"';
      case "boolean":
        return 'typeof value === "boolean"';
      case "stringArray":
        return "isArray(value) && allStrings(value)";
      case "attachments":
        return def.nonEmpty ? "isArray(value) && value.length > 0" : "isArray(value)";
      case "json":
        return "true";
    }
  })();
  return `value === null ? ${nullable} : ${notNull}`;
}

function allStrings(items: readonly unknown[]): boolean {
  for (const item of items) if (typeof item !== "string") return false;
  return true;
}

function reportFields(
  object: JsonObject,
  definition: EventDef,
  name: string,
  at: JsonPath,
  report: Report,
  hasType: boolean,
): void {
  const fields = definition.fields;
  let present = hasType ? 1 : 0;
  const missing: Array<readonly [string, FieldDef]> = [];
  for (const [field, def] of prepared(definition).list) {
    const value = hasOwn.call(object, field) ? object[field] : undefined;
    if (value === undefined) {
      if (!def.optional) missing.push([field, def]);
      continue;
    }
    present++;
    checkValue(value, def, field, name, at, report);
  }
  // Missing fields all point at the object: one finding names them all rather than one per field
  // with the same position and frame.
  if (missing.length === 1) {
    const [field, def] = missing[0]!;
    report({
      ruleId: "event-field",
      messageId: "missing",
      data: { object: name, field },
      hint: `add "${field}": ${expected(def)}`,
      path: [...at, field],
      target: "value",
    });
  } else if (missing.length > 1) {
    report({
      ruleId: "event-field",
      messageId: "missingSeveral",
      data: {
        object: name,
        fields: quoteList(
          missing.map(([field]) => field),
          "and",
        ),
      },
      hint: `add ${missing.map(([field, def]) => `"${field}": ${expected(def)}`).join(", ")}`,
      path: at,
      target: "value",
    });
  }
  let keys = 0;
  for (const key in object) if (hasOwn.call(object, key)) keys++;
  if (keys === present) return;
  for (const key in object) {
    if (!hasOwn.call(object, key) || hasOwn.call(fields, key) || (hasType && key === "type"))
      continue;
    const { missing, present: alreadySet } = nearestField(key, Object.keys(fields), (field) =>
      hasOwn.call(object, field),
    );
    report({
      ruleId: "event-unknown-field",
      messageId: "unknownField",
      data: { key: quote(key), object: name },
      hint: missing
        ? `did you mean "${missing}"?`
        : alreadySet
          ? `${name} already has "${alreadySet}": ${quote(key)} is a misspelt second copy of it; remove it`
          : `${name} has ${quoteList(Object.keys(fields), "and")}${hasType ? ' besides "type"' : ""}`,
      path: [...at, key],
      target: "key",
    });
  }
}

function checkValue(
  value: unknown,
  def: FieldDef,
  field: string,
  name: string,
  at: JsonPath,
  report: Report,
): void {
  if (value === null) {
    if (
      def.kind === "tokens" ||
      def.kind === "nullableString" ||
      def.kind === "nullableInt" ||
      def.kind === "json"
    )
      return;
    if (def.optional)
      fieldFinding(
        report,
        def,
        field,
        at,
        { ruleId: "event-field", messageId: "optionalNull", data: { field, object: name } },
        "omit an optional field when it has no value instead of sending null",
      );
    else wrongType(report, def, field, name, at, "null");
    return;
  }
  switch (def.kind) {
    case "int":
    case "nullableInt":
    case "tokens": {
      if (typeof value === "number" && def.kind !== "tokens") return;
      const problem = integerProblem(value, def.kind === "tokens" ? "u32" : "i64");
      if (problem) wrongType(report, def, field, name, at, problem);
      return;
    }
    case "string":
    case "nullableString":
      if (typeof value !== "string") {
        wrongType(report, def, field, name, at, describeValue(value));
        return;
      }
      if (def.enum && !def.enum.includes(value)) {
        const close = nearest(value, def.enum, 1);
        fieldFinding(
          report,
          def,
          field,
          at,
          {
            ruleId: "event-field",
            messageId: "notInEnum",
            data: { field, object: name, allowed: quoteList(def.enum), value: quote(value) },
          },
          close.length ? `did you mean "${close[0]}"?` : `use ${quoteList(def.enum)}`,
        );
      }
      return;
    case "boolean":
      if (typeof value !== "boolean") wrongType(report, def, field, name, at, describeValue(value));
      return;
    case "stringArray":
      if (!Array.isArray(value)) {
        wrongType(report, def, field, name, at, describeValue(value));
        return;
      }
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (typeof item !== "string")
          report({
            ruleId: "event-field",
            messageId: "nonStringItem",
            data: { field, object: name, got: describeValue(item), index },
            hint: HINTS.string,
            path: [...at, field, index],
            target: "value",
          });
      }
      return;
    case "attachments":
      if (!Array.isArray(value)) wrongType(report, def, field, name, at, describeValue(value));
      else if (def.nonEmpty && value.length === 0)
        fieldFinding(
          report,
          def,
          field,
          at,
          { ruleId: "event-field", messageId: "emptyArray", data: { field, object: name } },
          "omit it when there are no attachments",
        );
      return;
    case "json":
      return;
  }
}

// Findings of checkValue, as functions rather than closures: checkValue runs for every field of every event.
function fieldFinding(
  report: Report,
  def: FieldDef,
  field: string,
  at: JsonPath,
  message: EventMessage<"event-field">,
  hint: string = HINTS[def.kind],
): void {
  report({ ...message, hint, path: [...at, field], target: "value" });
}

function wrongType(
  report: Report,
  def: FieldDef,
  field: string,
  name: string,
  at: JsonPath,
  got: string,
): void {
  fieldFinding(report, def, field, at, {
    ruleId: "event-field",
    messageId: "wrongType",
    data: { field, object: name, expected: expected(def), got },
  });
}

const HINTS: Record<FieldDef["kind"], string> = {
  int: "write a whole number from -9223372036854775808 to 9223372036854775807, without fraction or exponent",
  nullableInt: "write a whole number from -9223372036854775808 to 9223372036854775807, or null",
  tokens: "write a whole number from 0 to 4294967295, or null when the count is unknown",
  string: "send text as a JSON string",
  nullableString: "send text as a JSON string, or null",
  boolean: "send true or false (not a string or number)",
  stringArray: "send a JSON array of strings",
  attachments: "send a JSON array",
  json: "send any JSON value",
};

function expected(def: FieldDef): string {
  switch (def.kind) {
    case "int":
      return "an integer (signed 64-bit)";
    case "nullableInt":
      return "an integer (signed 64-bit) or null";
    case "tokens":
      return "an unsigned 32-bit integer or null";
    case "string":
      return def.enum ? quoteList(def.enum) : "a string";
    case "nullableString":
      return "a string or null";
    case "boolean":
      return "true or false";
    case "stringArray":
      return "an array of strings";
    case "attachments":
      return "an array";
    case "json":
      return "a JSON value";
  }
}
