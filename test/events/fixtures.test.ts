import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { EVENT_RULES } from "../../src/events/rules/index.js";
import { eventsJsonSchemaText } from "../../src/events/schema.js";
import { checkRecording } from "../../src/events/run-events.js";
import { createEventValidator, MAX_LINE_CHARS } from "../../src/events/validator.js";
import { ROOT } from "../helpers/run.js";
import { EVENT_FIXTURES, fixtureFiles, isClientFixture, validateFile } from "./helpers.js";

describe("valid recordings give no finding", () => {
  for (const file of fixtureFiles("valid")) {
    it(path.basename(file), () => {
      expect(validateFile(file)).toEqual([]);
    });
  }
});

/** The messageIds the invalid fixtures produce, by rule: worked out by the tests that need them, not collected from other tests. */
function reportedMessages(): Map<string, Set<string>> {
  const reported = new Map<string, Set<string>>();
  for (const file of fixtureFiles("invalid"))
    for (const d of validateFile(file))
      reported.set(d.ruleId, (reported.get(d.ruleId) ?? new Set()).add(d.messageId));
  return reported;
}

describe("invalid recordings give exactly their expected findings", () => {
  for (const file of fixtureFiles("invalid")) {
    it(path.relative(path.join(EVENT_FIXTURES, "invalid"), file), async () => {
      const findings = validateFile(file);
      expect(findings.length).toBeGreaterThan(0);
      await expect(JSON.stringify(findings, null, 2) + "\n").toMatchFileSnapshot(
        file.replace(/\.jsonl$/, ".expected.json"),
      );
    });
  }
});

describe("every rule", () => {
  for (const rule of EVENT_RULES) {
    it(`${rule.id} has docs and an invalid fixture that reports it`, () => {
      expect(existsSync(path.join(ROOT, "docs", "rules", `${rule.id}.md`))).toBe(true);
      const files = fixtureFiles("invalid").filter(
        (file) => path.basename(path.dirname(file)) === rule.id,
      );
      expect(files.length).toBeGreaterThan(0);
      for (const file of files)
        expect(validateFile(file).some((d) => d.ruleId === rule.id)).toBe(true);
    });
  }
});

/** Messages no fixture can reach, with the test that produces them instead. */
const UNREACHED_MESSAGES: Readonly<Record<string, readonly string[]>> = {
  // A line of more than 64 MiB: "a line too long to read" below; bytes that are not UTF-8 never reach
  // the validator as text (test/shipped/events-cli.test.ts "bytes that are not UTF-8").
  "event-json": ["lineTooLong", "invalidUtf8"],
  // Past the memory bounds (test/performance/events-bounds.test.ts): an id reused after its details were forgotten, and the bounds themselves.
  "tool-lifecycle": ["startAfterEarlierEnd", "memoryLimit"],
  "turn-order": ["memoryLimit"],
};

describe("rule messages (meta.messages)", () => {
  it("every finding of the invalid fixtures names a message its rule declares", () => {
    const reported = reportedMessages();
    expect(reported.size, "the invalid fixtures report something").toBeGreaterThan(0);
    for (const [ruleId, ids] of reported) {
      const declared = Object.keys(EVENT_RULES.find((rule) => rule.id === ruleId)!.messages);
      for (const id of ids) expect(declared, `${ruleId} reported messageId "${id}"`).toContain(id);
    }
  });

  it("every message a rule declares is produced by one of its invalid fixtures", () => {
    const reported = reportedMessages();
    const unreached: Record<string, string[]> = {};
    for (const rule of EVENT_RULES) {
      const missing = Object.keys(rule.messages).filter(
        (id) =>
          !reported.get(rule.id)?.has(id) && !(UNREACHED_MESSAGES[rule.id] ?? []).includes(id),
      );
      if (missing.length) unreached[rule.id] = missing;
    }
    expect(unreached, "messages no invalid fixture produces").toEqual({});
  });

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

describe("the JSON Schema and the validator agree line by line", () => {
  const ajv = new Ajv({ allErrors: false, strict: false });
  const schema = JSON.parse(eventsJsonSchemaText());
  ajv.addSchema(schema);
  const serverLine = ajv.getSchema(schema.$id)!;
  const clientLine = ajv.compile({ $ref: `${schema.$id}#/definitions/ClientLine` });
  // Per-line rules; lifecycle rules need other lines, and warnings are not schema violations.
  const PER_LINE = new Set(["event-json", "event-type", "event-field", "event-limit"]);
  // JSON Schema reads numbers as doubles: 1e3 and 1.0 are integers there and 2^63 rounds into range.
  const NUMBER_AS_WRITTEN = /\d[eE]\d|\d\.0\b|\d{19}/;
  // Problems of the text that its parsed value no longer shows: a key written twice, a lone surrogate escape.
  const IN_THE_TEXT_ONLY = new Set(["repeatedField", "loneSurrogate"]);

  it("prints exact 64-bit bounds", () => {
    const text = eventsJsonSchemaText();
    expect(text).toContain('"maximum": 9223372036854775807');
    expect(text).toContain('"minimum": -9223372036854775808');
    expect(() => JSON.parse(text)).not.toThrow();
  });

  for (const file of [...fixtureFiles("valid"), ...fixtureFiles("invalid")]) {
    it(path.relative(EVENT_FIXTURES, file), () => {
      const client = isClientFixture(file);
      const lines = readFileSync(file, "utf8").split("\n");
      if (!lines.some((line) => line.trim())) {
        // No line for the schema to judge: the recording as a whole is refused.
        const validator = createEventValidator({ client });
        for (const line of lines) validator.push(line);
        expect(validator.end().map((d) => d.messageId)).toEqual(["noEvent"]);
        return;
      }
      lines.forEach((line, index) => {
        if (!line.trim() || NUMBER_AS_WRITTEN.test(line)) return;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch {
          return;
        }
        const validator = createEventValidator({ client });
        const lineErrors = validator
          .push(line)
          .filter(
            (d) =>
              PER_LINE.has(d.ruleId) &&
              d.severity === "error" &&
              !IN_THE_TEXT_ONLY.has(d.messageId),
          );
        const valid = (client ? clientLine : serverLine)(value) as boolean;
        expect({ line: index + 1, schemaValid: valid }).toEqual({
          line: index + 1,
          schemaValid: lineErrors.length === 0,
        });
      });
    });
  }
});
