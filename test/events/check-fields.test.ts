import { describe, expect, it } from "vitest";
import { compileClean, isClean } from "../../src/events/check-fields.js";
import {
  CLIENT_MESSAGE,
  GLOBAL_EVENT,
  INBOUND_DATA_MESSAGE,
  SERVER_EVENTS,
  type EventDef,
  type FieldDef,
} from "../../src/events/definitions.js";
import { RawNumber } from "../../src/events/parse-line.js";

/** Values of every kind a field can meet: right ones, wrong ones, edges of the ranges, numbers as written. */
const VALUES: readonly unknown[] = [
  null,
  0,
  -0,
  -1,
  7,
  4294967295,
  4294967296,
  1.5,
  new RawNumber("1.0"),
  new RawNumber("1e3"),
  new RawNumber("9223372036854775807"),
  new RawNumber("9223372036854775808"),
  new RawNumber("-9223372036854775809"),
  new RawNumber("1234567890123456"),
  "",
  "content",
  "reasoning",
  "string",
  "text",
  true,
  false,
  [],
  ["a", "b"],
  ["a", 1],
  [null],
  {},
  { a: 1 },
];

/** Objects for one definition: each field with each value, each field missing, and an extra key. */
function objectsFor(definition: EventDef, hasType: boolean): Array<Record<string, unknown>> {
  const fields = Object.entries(definition.fields);
  const base: Record<string, unknown> = hasType ? { type: "t" } : {};
  for (const [field, def] of fields) base[field] = aCleanValue(def);
  const objects: Array<Record<string, unknown>> = [{ ...base }];
  for (const [field] of fields) {
    for (const value of VALUES) objects.push({ ...base, [field]: value });
    const without = { ...base };
    delete without[field];
    objects.push(without);
  }
  objects.push({ ...base, unknown_field: 1 }, { ...base, constructor: "x" });
  return objects;
}

function aCleanValue(def: FieldDef): unknown {
  switch (def.kind) {
    case "int":
    case "nullableInt":
    case "tokens":
      return 3;
    case "string":
    case "nullableString":
      return def.enum ? def.enum[0] : "s";
    case "boolean":
      return true;
    case "stringArray":
      return ["s"];
    case "attachments":
      return [{}];
    case "json":
      return { any: [1] };
  }
}

function ownKeysBesidesType(object: Record<string, unknown>): number {
  return Object.keys(object).filter((key) => key !== "type").length;
}

const DEFINITIONS: ReadonlyArray<readonly [string, EventDef, boolean]> = [
  ...Object.entries(SERVER_EVENTS).map(([type, def]) => [type, def as EventDef, true] as const),
  ["GlobalEvent", GLOBAL_EVENT, false],
  ["ClientMessage", CLIENT_MESSAGE, false],
  ["InboundDataMessage", INBOUND_DATA_MESSAGE, true],
];

describe("the clean check made for each definition", () => {
  it.each(DEFINITIONS)(
    "%s: the made code answers as the interpreted check on every value of every field",
    (_name, definition, hasType) => {
      const fields = Object.entries(definition.fields);
      const clean = compileClean(fields);
      expect(clean).toBeTypeOf("function");
      const byName = new Map(fields);
      const required = fields.filter(([, def]) => !def.optional).length;
      let cleanObjects = 0;
      let flawedObjects = 0;
      for (const object of objectsFor(definition, hasType)) {
        const expected = isClean(object, byName, required);
        expect(clean!(object, ownKeysBesidesType(object)), JSON.stringify(object)).toBe(expected);
        if (expected) cleanObjects++;
        else flawedObjects++;
      }
      // Both answers occur, so the comparison tests something.
      expect(cleanObjects).toBeGreaterThan(0);
      expect(flawedObjects).toBeGreaterThan(0);
    },
  );

  it("is not made for a field an object inherits (it would be read from the prototype)", () => {
    expect(compileClean([["toString", { kind: "string", description: "" }]])).toBeUndefined();
    expect(compileClean([["type", { kind: "string", description: "" }]])).toBeUndefined();
  });
});
