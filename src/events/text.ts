import { cutText, jsonQuote } from "../core/quote.js";
import { RawNumber } from "./parse-line.js";

const MAX_QUOTED = 60;

/**
 * A value from the recording, quoted for a message: control, bidirectional and line-separator
 * characters escaped (the text reaches terminals), cut at 60 characters.
 */
export function quote(text: string): string {
  return jsonQuote(cutText(text, MAX_QUOTED));
}

/** "a string", "null", "an array", "1.5"… for "must be X, got Y" messages. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (value instanceof RawNumber) return value.text.length > 30 ? "a number" : value.text;
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return String(value);
    case "boolean":
      return String(value);
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}
