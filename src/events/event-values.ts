/**
 * The values of an event as the checks and rules read them: objects, integer ids judged as written,
 * lengths in code points, and the event a line holds.
 */
import { INT64_MAX, INT64_MIN, UINT32_MAX, type ServerEventType } from "./definitions.js";
import { RawNumber } from "./parse-line.js";
import { describeValue } from "./text.js";

export type JsonPath = ReadonlyArray<string | number>;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof RawNumber)
  );
}

/** The ServerEvent of a line, found in a GlobalEvent envelope when the line is one. */
export interface LocatedEvent {
  type: ServerEventType;
  event: JsonObject;
  /** JSON path of the event in the line: [] or ["event"]. */
  at: JsonPath;
  /** The envelope's session, when the line is one. */
  envelope?: { source: unknown; sessionId: unknown };
}

/** Why a value is not an integer of the given range, judged on the number as written; undefined when it is. */
export function integerProblem(value: unknown, range: "i64" | "u32"): string | undefined {
  if (typeof value === "number") {
    // Without a RawNumber, the line held plain integers of at most 15 digits only.
    if (range === "u32" && (value < 0 || value > UINT32_MAX))
      return `${value} (out of the unsigned 32-bit range 0 to ${UINT32_MAX})`;
    return undefined;
  }
  if (value instanceof RawNumber) {
    if (value.isFloat) return `${value.text} (not an integer)`;
    const big = BigInt(value.text);
    if (range === "i64" && (big < INT64_MIN || big > INT64_MAX))
      return `${value.text} (out of the signed 64-bit range)`;
    if (range === "u32" && (big < 0n || big > BigInt(UINT32_MAX)))
      return `${value.text} (out of the unsigned 32-bit range 0 to ${UINT32_MAX})`;
    return undefined;
  }
  return describeValue(value);
}

/**
 * An integer id as the lifecycle keys it: the number itself when JSON.parse kept it exact (at most 15
 * digits, as a Map key -0 is 0), else its canonical text (16 digits or more, so never equal to a
 * number's); undefined when the value is no valid id. Messages show either as the same text.
 */
export type Id = number | string;

export function idOf(value: unknown): Id | undefined {
  if (typeof value === "number") return value;
  if (value instanceof RawNumber && integerProblem(value, "i64") === undefined)
    return BigInt(value.text).toString();
  return undefined;
}

/** Length in Unicode code points (the spec's "characters"), not UTF-16 units. */
export function codePoints(text: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs++;
        i++;
      }
    }
  }
  return text.length - surrogatePairs;
}
