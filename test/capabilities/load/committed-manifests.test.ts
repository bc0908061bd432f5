import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { topLevelMembers } from "../../../src/capabilities/load/committed-manifests.js";

/**
 * A committed manifest's members are checked and compared once per member text, so the text of each
 * member must be exactly the one `JSON.parse` read that member's value from: anything else would hand
 * one app another app's result.
 */
const tricky = fc.string({
  unit: fc.constantFrom('"', "\\", "{", "}", "[", "]", ",", ":", " ", "\n", "a", "é", "\u2028"),
});
const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, -1.5e300, 12),
    tricky,
    fc.array(tie("any"), { maxLength: 4 }),
    fc.dictionary(tricky, tie("any"), { maxKeys: 4 }),
  ),
})).any;

function expectMembersOf(text: string): void {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const members = topLevelMembers(text);
  expect(members).toBeDefined();
  expect(new Set(members!.map(([key]) => key))).toEqual(new Set(Object.keys(parsed)));
  expect(members!.length).toBe(Object.keys(parsed).length);
  for (const [key, memberText] of members!) expect(JSON.parse(memberText)).toEqual(parsed[key]);
}

describe("topLevelMembers", () => {
  it("gives each member the text its value was parsed from, however the JSON is written", () => {
    fc.assert(
      fc.property(
        fc.dictionary(tricky, value, { maxKeys: 6 }),
        fc.constantFrom(undefined, 2, "\t", " \r\n "),
        (object, indent) => {
          // " \r\n " as indentation: JSON's other white space between tokens.
          expectMembersOf(JSON.stringify(object, null, indent));
        },
      ),
      { seed: 20_261_203, numRuns: 500 },
    );
  });

  it("reads escaped keys, strings that hold quotes and brackets, and scalar members", () => {
    expectMembersOf(' \n{ "a\\"b" : {"x":"}\\\\"} , "\\u0066s":[1,"]",{}] ,"n":-1e5,"t":true}\n');
    expect(topLevelMembers('{"a\\u0062":1,"z":"\\\\\\""}')).toEqual([
      ["ab", "1"],
      ["z", '"\\\\\\""'],
    ]);
    expect(topLevelMembers("{}")).toEqual([]);
  });

  it("declines a key written twice and a text that is no object", () => {
    // JSON.parse keeps the last of two: such a text is checked whole.
    expect(topLevelMembers('{"fs":{},"fs":{"permissions":{}}}')).toBeUndefined();
    expect(topLevelMembers('{"f\\u0073":{},"fs":{}}')).toBeUndefined();
    expect(topLevelMembers("[1]")).toBeUndefined();
    expect(topLevelMembers('"text"')).toBeUndefined();
  });
});
