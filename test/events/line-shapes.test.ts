import { describe, expect, it } from "vitest";
import { MAX_LEARN_TRIES, shapeWork } from "../../src/events/line-shapes.js";
import { createLineValidator } from "../../src/events/validator.js";
import type { Diagnostic } from "../../src/core/diagnostics.js";

/** Every finding of `lines`, read with or without line shapes, and how many lines took a shape. */
function check(lines: readonly string[], lineShapes: boolean) {
  const validator = createLineValidator({
    file: "r.jsonl",
    absolutePath: "/r.jsonl",
    settings: {},
    lineShapes,
  });
  const before = shapeWork.linesMatched;
  const beforeWhole = shapeWork.linesMatchedWhole;
  const found: Diagnostic[][] = lines.map((line) => [...validator.pushLine(line)]);
  found.push([...validator.end()]);
  return {
    found,
    matched: shapeWork.linesMatched - before,
    matchedWhole: shapeWork.linesMatchedWhole - beforeWhole,
    summary: JSON.stringify({ ...validator.summary, types: validator.summary.types }),
  };
}

/** The findings with shapes are those without, line by line; returns how many lines took a shape. */
function expectSameAsParsed(lines: readonly string[]): number {
  const parsed = check(lines, false);
  const shaped = check(lines, true);
  expect(shaped.found).toEqual(parsed.found);
  expect(shaped.summary).toEqual(parsed.summary);
  expect(parsed.matched).toBe(0);
  return shaped.matched;
}

const DELTA = '{"type":"token_delta","kind":"content","delta":"';
const delta = (text: string) => `${DELTA}${text}"}`;
/** Two lines of a run: the second teaches the shape of DELTA. */
const RUN = [delta("The"), delta(" answer")];

describe("line shapes: a line proved to be an earlier clean line with another last string", () => {
  it("takes the lines of a run without parsing them, with the same findings", () => {
    const lines = [
      '{"type":"user_message","message_id":1,"content":"hi"}',
      ...RUN,
      delta(" is"),
      delta(""),
      delta(" 42 \u2028 \u007f é 😀"),
      delta(" {\\u0041}".replace("\\", "")),
      '{"type":"done","message_id":1,"stack_id":1,"content":"x","input_tokens":1,"output_tokens":2}',
      delta(" late"),
    ];
    // Three after the run's second line, and the output after done, which turn-order reports.
    expect(expectSameAsParsed(lines)).toBe(5);
    const late = check(lines, true).found[lines.length - 1]!;
    expect(late.map((d) => d.messageId)).toEqual(["outputAfterDone"]);
  });

  it.each([
    ["a key written twice", delta('a","delta":"b'), "repeatedField"],
    ["another field", delta('a","note":"b'), "unknownField"],
    ["a field with a wrong value after it", delta('a","kind":"b'), "repeatedField"],
    ["a lone surrogate escape", delta("\\ud800"), "loneSurrogate"],
    ["an escaped quote", delta('say \\"hi\\"'), undefined],
    ["an escaped quote that ends the string early", `${DELTA}a\\"}`, "invalidJson"],
    ["a tab", delta("a\tb"), "invalidJson"],
    ["a line feed escape's raw form (U+0000)", delta("a\u0000b"), "invalidJson"],
    ["a control character U+001F", delta("a\u001fb"), "invalidJson"],
    ["a second closing brace", `${delta("a")}}`, "invalidJson"],
    ["a second object after the first", delta('a"}{"x":"'), "invalidJson"],
    ["the prefix and a brace only", `${DELTA}}`, "invalidJson"],
    ["space before the brace", `${DELTA}a" }`, undefined],
  ])("parses a line of the shape's start with %s, and finds what parsing finds", (_, line, id) => {
    // Right after the shape is learnt (prefix and scan), and once it has its own expression.
    const matchedBefore = Array.from({ length: 12 }, (_, i) => delta(` word ${i}`));
    for (const before of [[], matchedBefore]) {
      const lines = [...RUN, ...before, line, delta(" again")];
      // Only the lines around it take the shape: the one under test is parsed.
      expect(expectSameAsParsed(lines)).toBe(before.length + 1);
      const found = check(lines, true).found[RUN.length + before.length]!.map((d) => d.messageId);
      expect(found).toEqual(id === undefined ? [] : expect.arrayContaining([id]));
    }
    expect(check([...RUN, ...matchedBefore, line], true).matchedWhole).toBeGreaterThan(0);
  });

  it("learns no shape from a line with a finding, an escape, a nested value or a last field with an enum", () => {
    const notLearnt = [
      // A finding (kind not in the enum) on both lines of the run.
      [delta("a").replace("content", "answer"), delta("b").replace("content", "answer")],
      // An escape in the last string, or before it.
      [delta("a\\n"), delta("b\\n")],
      [
        delta("a").replace("content", "cont\\u0065nt"),
        delta("b").replace("content", "cont\\u0065nt"),
      ],
      // The last field is the enum.
      [
        '{"type":"token_delta","delta":"a","kind":"content"}',
        '{"type":"token_delta","delta":"b","kind":"content"}',
      ],
      // A nested value (tool arguments).
      [
        '{"type":"approval_required","request_id":1,"tool_call_id":2,"arguments":{},"tool_name":"a"}',
        '{"type":"approval_required","request_id":1,"tool_call_id":2,"arguments":{},"tool_name":"b"}',
      ],
      // Spaces after the colons.
      [
        '{"type": "token_delta", "kind": "content", "delta": "a"}',
        '{"type": "token_delta", "kind": "content", "delta": "b"}',
      ],
    ];
    for (const [first, second] of notLearnt) {
      const third = second!.replace(/"b(\\n)?"/, '"c$1"');
      expect(expectSameAsParsed([first!, second!, third]), third).toBe(0);
    }
    // The enum last: a later value out of the enum is still found.
    const enumLast = check(
      [
        '{"type":"token_delta","delta":"a","kind":"content"}',
        '{"type":"token_delta","delta":"a","kind":"content"}',
        '{"type":"token_delta","delta":"a","kind":"contents"}',
      ],
      true,
    );
    expect(enumLast.found[2]!.map((d) => d.messageId)).toEqual(["notInEnum"]);
  });

  it("stops trying to learn in a run whose lines cannot have a shape, and learns after a few that cannot", () => {
    const spaced = (i: number) => `{"type": "token_delta", "kind": "content", "delta": "${i}"}`;
    const before = shapeWork.learnTries;
    expect(expectSameAsParsed(Array.from({ length: 100 }, (_, i) => spaced(i)))).toBe(0);
    // Only the validator with shapes tries, from the run's second line on.
    expect(shapeWork.learnTries - before).toBe(MAX_LEARN_TRIES);
    const escaped = [1, 2, 3].map((i) => delta(`line ${i}\\n`));
    // Two escaped lines try and fail; "a" gives the shape, "b" and "c" take it.
    expect(expectSameAsParsed([...escaped, delta("a"), delta("b"), delta("c")])).toBe(2);
  });

  it("gives the stream rules the line's own last string (event-limit on a matched line)", () => {
    const preview = (text: string) =>
      `{"type":"agent_done","stack_id":1,"agent_id":"a","parent_agent_id":"p","result_preview":"${text}"}`;
    const lines = [preview("one"), preview("two"), preview("x".repeat(501)), preview("three")];
    expect(expectSameAsParsed(lines)).toBe(2);
    expect(check(lines, true).found[2]!.map((d) => d.messageId)).toContain("tooLong");
  });

  it("keeps the numbers of the shape's start, and matches only lines with the same ones", () => {
    const thinking = (id: number, text: string) =>
      `{"type":"thinking","message_id":${id},"content":"c","input_tokens":1,"output_tokens":2,"reasoning_content":"${text}"}`;
    const lines = [thinking(1, "a"), thinking(1, "b"), thinking(1, "c"), thinking(2, "d")];
    expect(expectSameAsParsed(lines)).toBe(1);
  });

  it("finds what parsing finds on lines made by changing a shape's lines at random", () => {
    // Characters that end strings, escape, nest, separate or break JSON, and harmless ones.
    const pieces = [
      '"',
      "\\",
      "\\u",
      "d800",
      "dc00",
      "\t",
      "\u0000",
      "}",
      "{",
      ",",
      ":",
      " ",
      "a",
      "é",
      "\r",
    ];
    let seed = 35;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const lines: string[] = [...RUN];
    for (let i = 0; i < 2000; i++) {
      let line = delta(`word ${i}`);
      for (let edits = random(3); edits > 0; edits--) {
        const at = random(line.length + 1);
        line = line.slice(0, at) + pieces[random(pieces.length)]! + line.slice(at);
      }
      lines.push(line);
    }
    const matched = expectSameAsParsed(lines);
    // Both paths are exercised: most lines are left alone or changed inside the string.
    expect(matched).toBeGreaterThan(600);
    expect(matched).toBeLessThan(1950);
    expect(check(lines, true).matchedWhole).toBeGreaterThan(500);
  });

  it("is not used for client traffic", () => {
    const validator = createLineValidator({
      client: true,
      file: "c.jsonl",
      absolutePath: "/c.jsonl",
      settings: {},
    });
    const before = shapeWork.linesMatched;
    for (let i = 0; i < 5; i++) validator.pushLine(`{"content":"line ${i}"}`);
    expect(shapeWork.linesMatched).toBe(before);
  });
});
