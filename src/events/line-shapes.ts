/**
 * Lines proved by their text to be an earlier clean line with another last string, without parsing.
 *
 * Most of a stream is runs of one event type whose lines differ only in their last member, a free
 * string: `{"type":"token_delta","kind":"content","delta":"…"}`. Once such a line has been parsed and
 * found clean, its text up to the opening quote of that string is its shape's prefix. A later line
 * that starts with the prefix, ends with `"}`, and holds no `"`, `\` or control character between the
 * two is the same JSON object with another string in the last member: that string is the text between
 * them as written (no escapes), and every member before it reads as it did in the earlier line. So
 * every check of the line's text and fields gives what it gave the earlier line, which had no finding
 * (JSON, lone surrogates: no escape at all; repeated keys: the same keys; fields: the last one takes
 * any string), and JSON.parse, the member counts and those checks are not needed: the event is the
 * earlier one with the new string. The stream rules still see every event.
 *
 * A line that fails the test (a quote in the string, an escape, another member, a control character,
 * other spacing) is parsed and checked as any other; the test only ever skips work on a line it
 * proves clean.
 */
import { SERVER_EVENTS, type FieldDef, type ServerEventType } from "./definitions.js";
import type { JsonObject } from "./event-values.js";

export interface LineShape {
  /** The known type of the lines of this shape. */
  readonly type: ServerEventType;
  /** The line's text up to and including the opening quote of its last member's value. */
  readonly prefix: string;
  /** The event of the line the shape was learnt from; its members but the last are every line's. */
  readonly event: JsonObject;
  /** The last member's key. */
  readonly lastKey: string;
  /** Lines matched so far. */
  matched: number;
  /** The whole test as one regular expression, made once the shape has matched a few lines. */
  whole?: RegExp;
}

/** Counts of lines, for tests that the shapes are used and not used where they must be. */
export const shapeWork = {
  /** Lines taken as an earlier line's shape (not parsed). */
  linesMatched: 0,
  /** Of those, lines the shape's own regular expression matched. */
  linesMatchedWhole: 0,
  /** Lines that tried to give a shape. */
  learnTries: 0,
  /** Shapes learnt. */
  shapesLearnt: 0,
};

/** Shapes kept: the runs of a stream interleave few shapes (reasoning, content). */
const MAX_SHAPES = 4;
/** Lines of one run that try to learn a shape: a run whose lines cannot have one stops trying. */
export const MAX_LEARN_TRIES = 8;
/** Longest prefix kept: every line starting like a shape is compared with it. */
const MAX_PREFIX = 1024;

/** What ends a JSON string written without escapes, or makes it no JSON string: `"`, `\`, U+0000-U+001F. */
const STRING_END = /["\\\u0000-\u001f]/g;

/**
 * Lines a shape matches before it gets its own regular expression: comparing the prefix and then
 * scanning the string is two calls, the shape's expression one (about 90 ns less per line), but
 * making it costs microseconds, which only a shape that keeps matching pays back.
 */
const WHOLE_AFTER = 8;

const CLOSE_BRACE = 125;
const QUOTE = 34;
const COLON = 58;

export class LineShapes {
  /** Most recently matched or learnt first. */
  private readonly shapes: LineShape[] = [];

  /** The shape `line` has, or undefined (the line is then parsed and checked). */
  match(line: string): LineShape | undefined {
    const length = line.length;
    if (line.charCodeAt(length - 1) !== CLOSE_BRACE || line.charCodeAt(length - 2) !== QUOTE)
      return undefined;
    const shapes = this.shapes;
    for (let i = 0; i < shapes.length; i++) {
      const shape = shapes[i]!;
      if (shape.whole !== undefined) {
        if (!shape.whole.test(line)) continue;
        shapeWork.linesMatchedWhole++;
      } else {
        // lastIndexOf(…, 0) compares the prefix in place (startsWith is several times slower on Node 20).
        if (line.lastIndexOf(shape.prefix, 0) !== 0) continue;
        STRING_END.lastIndex = shape.prefix.length;
        // The first quote, backslash or control character after the prefix must be the closing quote.
        if (!STRING_END.test(line) || STRING_END.lastIndex !== length - 1) continue;
        if (++shape.matched === WHOLE_AFTER) shape.whole = wholeTest(shape.prefix);
      }
      if (i > 0) {
        shapes.splice(i, 1);
        shapes.unshift(shape);
      }
      shapeWork.linesMatched++;
      return shape;
    }
    return undefined;
  }

  /**
   * Learns the shape of `line`, the text of `event`: a top-level event of a known type without any
   * finding of its text or fields, whose last member (in the order written) is `lastKey`. Only a
   * line written without a single backslash, whose members are all JSON scalars and whose last one is
   * a string its definition takes whatever its text, has one. The cheap tests come first: a run whose
   * lines can have no shape (spaces after colons, escapes) tries to learn on its first lines (the
   * validator stops after MAX_LEARN_TRIES a run). True when a shape was learnt.
   */
  learn(line: string, type: ServerEventType, event: JsonObject, lastKey: string): boolean {
    shapeWork.learnTries++;
    const length = line.length;
    if (line.charCodeAt(length - 1) !== CLOSE_BRACE || line.charCodeAt(length - 2) !== QUOTE)
      return false;
    const last = event[lastKey];
    if (typeof last !== "string") return false;
    const start = length - 2 - last.length;
    if (start < lastKey.length + 4 || start > MAX_PREFIX) return false;
    if (line.charCodeAt(start - 1) !== QUOTE || line.charCodeAt(start - 2) !== COLON) return false;
    if (!takesAnyString(definedField(type, lastKey))) return false;
    const opening = `"${lastKey}":"`;
    // Without a backslash, every string reads as written: the last value is the text before `"}`,
    // after its key (the line is clean: no key is written twice).
    if (line.lastIndexOf(opening, start - opening.length) !== start - opening.length) return false;
    if (line.indexOf("\\") !== -1) return false;
    if (line.slice(start, length - 2) !== last) return false;
    // Nested values would be shared between events (and RawNumbers are objects too).
    for (const key in event) {
      const value = event[key];
      if (value !== null && typeof value === "object") return false;
    }
    const shapes = this.shapes;
    shapes.unshift({ type, prefix: line.slice(0, start), event, lastKey, matched: 0 });
    if (shapes.length > MAX_SHAPES) shapes.pop();
    shapeWork.shapesLearnt++;
    return true;
  }
}

/**
 * The test of `match` as one expression: the prefix as written (it holds no backslash; the
 * characters that mean something in an expression are escaped), a string without quote, backslash or
 * control character, and `"}` at the end of the line.
 */
function wholeTest(prefix: string): RegExp {
  return new RegExp(`^${prefix.replace(/[$()*+.?[\]^{|}]/g, "\\$&")}[^"\\\\\\u0000-\\u001f]*"}$`);
}

/** The event of a line that `shape` matched: the shape's event with the line's last string. */
export function eventOfShape(shape: LineShape, line: string): JsonObject {
  const event = { ...shape.event };
  event[shape.lastKey] = line.slice(shape.prefix.length, line.length - 2);
  return event;
}

function definedField(type: ServerEventType, key: string): FieldDef | undefined {
  const fields: Readonly<Record<string, FieldDef>> = SERVER_EVENTS[type].fields;
  return Object.prototype.hasOwnProperty.call(fields, key) ? fields[key] : undefined;
}

/** Whether every string is a clean value of the field (check-fields.ts `valueIsClean`: no enum to be in). */
function takesAnyString(def: FieldDef | undefined): boolean {
  if (def === undefined) return false;
  if (def.kind === "json") return true;
  return (def.kind === "string" || def.kind === "nullableString") && def.enum === undefined;
}
