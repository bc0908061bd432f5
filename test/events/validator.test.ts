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
