import { describe, expect, it } from "vitest";
import { parse } from "smol-toml";
import { parseToml, tomlWork } from "../../../src/core/source/toml.js";

/** What parseToml made of smol-toml's value before: a JSON round trip keeping non-finite numbers. */
function roundTrip(text: string): unknown {
  const marker = "\u0000caplint-number:";
  return JSON.parse(
    JSON.stringify(parse(text), (_key, value: unknown) =>
      typeof value === "number" && !Number.isFinite(value) ? `${marker}${value}` : value,
    ),
    (_key, value: unknown) =>
      typeof value === "string" && value.startsWith(marker)
        ? Number(value.slice(marker.length))
        : value,
  ) as unknown;
}

/** Equal values, with each number's sign of zero, each object's key order and prototype the same. */
function expectSame(actual: unknown, expected: unknown): void {
  if (typeof expected === "number") {
    expect(Object.is(actual, expected)).toBe(true);
    return;
  }
  if (expected === null || typeof expected !== "object") {
    expect(actual).toBe(expected);
    return;
  }
  expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
  expect(Array.isArray(actual)).toBe(Array.isArray(expected));
  expect(Object.keys(actual as object)).toEqual(Object.keys(expected));
  for (const key of Object.keys(expected))
    expectSame(
      (actual as Record<string, unknown>)[key],
      (expected as Record<string, unknown>)[key],
    );
}

describe("parseToml", () => {
  const plain = [
    'identifier = "main"\nwindows = ["main", "*"]\npermissions = ["core:default", "fs:allow-read"]',
    '[[permissions]]\nidentifier = "fs:scope"\nallow = [{ path = "$HOME/**" }, 1, 2.5, true]\ndeny = []',
    "a = -0\nb = -0.0\nc = 0\nd = inf\ne = -inf\nf = nan\ng = 1e400\nh = 0x1F\ni = 1_000\nj = 5e-324",
    '10 = 1\n2 = 2\nb = 3\na = 4\n"0" = 5\n[t]\nz = 1\ny = [[1, 2], [], ["x"]]',
    'constructor = "c"\ntoString = "s"\nvalueOf = 1\nhasOwnProperty = true',
    's = "\\u0000caplint-number:5"\nt = "\\u0000caplint-number:x"\nu = "\\ud7ff\\ue000\\U0001F600"',
    "[a.b.c]\nd = 1\n[a.b]\ne = 2\n[[a.list]]\nf = 3\n[[a.list]]\ng = 4",
    "",
  ];
  const other = [
    "d = 1979-05-27T07:32:00Z\nl = 1979-05-27\nt = 07:32:00\nld = 1979-05-27T07:32:00",
    '"__proto__" = 1\na = 2',
    '[x]\n"__proto__" = { polluted = true }',
    "a = [1979-05-27, 1]",
  ];

  it("makes the JSON round trip's value directly for strings, numbers, booleans, arrays and tables", () => {
    const before = tomlWork.roundTrips;
    for (const text of plain) expectSame(parseToml(text).value, roundTrip(text));
    expect(tomlWork.roundTrips - before).toBe(0);
  });

  it("leaves dates, __proto__ keys and values nested past the bound to the JSON round trip", () => {
    const before = tomlWork.roundTrips;
    for (const text of other) expectSame(parseToml(text).value, roundTrip(text));
    expect(tomlWork.roundTrips - before).toBe(other.length);
    // 256 levels of tables are copied directly; one more goes through the round trip, and 3,000 (an
    // inline table's dotted keys, which no bracket counts) overflow its recursion as before.
    const nested = (levels: number) =>
      `x = { ${Array.from({ length: levels }, () => "a").join(".")} = 1 }`;
    const direct = tomlWork.roundTrips;
    expectSame(parseToml(nested(255)).value, roundTrip(nested(255)));
    expect(tomlWork.roundTrips - direct).toBe(0);
    expectSame(parseToml(nested(256)).value, roundTrip(nested(256)));
    expect(tomlWork.roundTrips - direct).toBe(1);
    expect(parseToml(nested(3_000)).error?.message).toBe("the file nests too deeply to parse");
    expect(Object.getPrototypeOf(parseToml('"__proto__" = 1').value)).toBe(Object.prototype);
  });
});
