import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { checkRecording } from "../../src/events/run-events.js";
import { createEventValidator, MAX_LINE_CHARS } from "../../src/events/validator.js";

describe("the line reader's bound", () => {
  it("a line too long to read is one event-json finding, from the validator and from the stream reader", async () => {
    const validator = createEventValidator();
    const pushed = validator.push("x".repeat(MAX_LINE_CHARS + 1));
    expect(pushed.map((d) => [d.ruleId, d.messageId, d.message])).toEqual([
      [
        "event-json",
        "lineTooLong",
        `line is ${MAX_LINE_CHARS + 1} characters long; the most read is ${MAX_LINE_CHARS}`,
      ],
    ]);
    const mebibyte = Buffer.alloc(1024 * 1024, "x");
    const chunks = [
      ...Array.from({ length: MAX_LINE_CHARS / mebibyte.length }, () => mebibyte),
      Buffer.from("x\n{}\n"),
    ];
    const result = await checkRecording(Readable.from(chunks), "big.jsonl", "/big.jsonl", {
      client: false,
      severityFor: () => undefined,
    });
    expect(
      result.diagnostics.map((d) => [d.ruleId, d.messageId, d.message, d.range.start.line]),
    ).toEqual([
      [
        "event-json",
        "lineTooLong",
        `line is ${MAX_LINE_CHARS + 1} characters long; the most read is ${MAX_LINE_CHARS}`,
        1,
      ],
      ["event-type", "missing", 'event has no "type"', 2],
    ]);
  });
});

describe("numbers judged as written", () => {
  it.each([
    ['{"type":"tool_cancelled","tool_call_id":1.0}', "1.0 (not an integer)"],
    ['{"type":"tool_cancelled","tool_call_id": \t-2e3}', "-2e3 (not an integer)"],
    ['{"type":"tool_cancelled","tool_call_id":7E+1}', "7E+1 (not an integer)"],
    [
      '{"type":"truncated","output_tokens":9007199254740993}',
      "9007199254740993 (out of the unsigned 32-bit range",
    ],
    ['{"type":"tool_cancelled","tool_call_id":12.5,"x":[1]}', "12.5 (not an integer)"],
    ['{"type":"tool_cancelled","note":"at: 3","tool_call_id":-0.5}', "-0.5 (not an integer)"],
    [
      '{"source":"s","session_id":1.5,"event":{"type":"tool_cancelled","tool_call_id":2}}',
      "1.5 (not an integer)",
    ],
  ])("%s: the number's own text is judged", (line, written) => {
    const found = createEventValidator().push(line);
    expect(found.filter((d) => d.messageId === "wrongType").map((d) => d.message)).toEqual([
      expect.stringContaining(written),
    ]);
  });

  it("keeps plain integers of up to 15 digits as JSON.parse read them", () => {
    const wrongTypes = (line: string) =>
      createEventValidator()
        .push(line)
        .filter((d) => d.messageId === "wrongType")
        .map((d) => d.message);
    expect(wrongTypes('{"type":"tool_cancelled","tool_call_id": -123456789012345}')).toEqual([]);
    expect(wrongTypes('{"type":"truncated","output_tokens":4294967296}')).toEqual([
      expect.stringContaining("4294967296 (out of the unsigned 32-bit range"),
    ]);
  });
});
