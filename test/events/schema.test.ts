import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { eventsJsonSchemaText } from "../../src/events/schema.js";
import { createEventValidator } from "../../src/events/validator.js";
import { EVENT_FIXTURES, fixtureFiles, isClientFixture } from "./helpers.js";

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
