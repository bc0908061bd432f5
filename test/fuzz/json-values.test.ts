/**
 * Property 1: any JSON value, and capability-shaped values with wrong types, odd keys and deep
 * nesting, written as a capability file (JSON, or TOML when the top is an object): `check` never
 * throws, exits 0 or 1 with one well-formed JSON report, and every other output format agrees.
 */
import fc from "fast-check";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { anyJson, capabilityFile } from "./arbitraries.js";
import {
  expectCheckReport,
  expectNoPollution,
  inTempDir,
  params,
  RUNS,
  SEED,
  timedRun,
  timeoutFor,
  toJsonText,
  toTomlText,
  type J,
} from "./support.js";

const FORMATS = ["stylish", "compact", "sarif", "github"] as const;

const style = fc.record({
  indent: fc.constantFrom("", "  ", "    ", "\t"),
  newline: fc.constantFrom("\n", "\r\n"),
});

async function checkValue(
  value: J,
  jsonStyle: { indent: string; newline: string },
  asToml: boolean,
  otherFormat: (typeof FORMATS)[number],
): Promise<void> {
  const toml = asToml ? toTomlText(value) : undefined;
  const name = toml !== undefined ? "cap.toml" : "cap.json";
  const text = toml ?? toJsonText(value, jsonStyle);
  await inTempDir("json", async (dir) => {
    writeFileSync(path.join(dir, name), text);
    const json = await timedRun(["check", "--format", "json", name], dir);
    expectCheckReport(json, dir);
    const other = await timedRun(["check", "--format", otherFormat, name], dir);
    expect(other.stderr).toBe("");
    expect(other.code, `--format ${otherFormat} exits like --format json`).toBe(json.code);
    if (otherFormat === "sarif") expect(() => JSON.parse(other.stdout)).not.toThrow();
  });
}

describe(`fuzz: JSON values as capability files (seed ${SEED}, ${RUNS} runs)`, () => {
  it(
    "fc.jsonValue written as a file: never throws, exit 0/1, a well-formed report",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          anyJson,
          style,
          fc.boolean(),
          fc.constantFrom(...FORMATS),
          async (value, jsonStyle, asToml, format) => {
            await checkValue(value, jsonStyle, asToml, format);
          },
        ),
        params(1),
      );
    },
    timeoutFor(40),
  );

  it(
    "capability-shaped values with wrong types, unicode, prototype keys and nesting",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          capabilityFile,
          style,
          fc.boolean(),
          fc.constantFrom(...FORMATS),
          async (value, jsonStyle, asToml, format) => {
            await checkValue(value, jsonStyle, asToml, format);
            expectNoPollution();
          },
        ),
        params(2),
      );
    },
    timeoutFor(40),
  );
});
