import { parse, TomlError } from "smol-toml";
import { PLAIN_WORDING, type ParseFailure, type TomlParser } from "./document.js";
import { LineIndex } from "./line-index.js";
import { MAX_NESTING_DEPTH } from "./document.js";

/** smol-toml is loaded only by callers that meet a TOML file. */
export const parseToml: TomlParser = (text, wording = PLAIN_WORDING) => {
  const deep = findDeepDottedKey(text, MAX_NESTING_DEPTH);
  if (deep >= 0)
    return {
      value: undefined,
      error: {
        message: `dotted keys nest deeper than ${MAX_NESTING_DEPTH} levels; ${wording.nestingUnneeded}`,
        offset: deep,
        length: 1,
      },
    };
  try {
    // A JSON round trip turns smol-toml's null-prototype tables and date objects into the plain
    // values the JSON path sees (Ajv's deep equality calls valueOf on objects). `inf`, `nan` and
    // `1e400` stay numbers through it (JSON would make them null); NUL cannot occur in a file caplint reads.
    const parsed = parse(text);
    const value = plainCopy(parsed);
    if (value === NOT_PLAIN) tomlWork.roundTrips++;
    return {
      value:
        value === NOT_PLAIN
          ? (JSON.parse(JSON.stringify(parsed, keepNonFinite), restoreNonFinite) as unknown)
          : value,
    };
  } catch (error) {
    if (error instanceof TomlError) {
      const offset = new LineIndex(text).offset({ line: error.line, column: error.column });
      const firstLine = error.message.split("\n")[0] ?? "syntax error";
      return {
        value: undefined,
        error: {
          message: `invalid TOML: ${firstLine.replace(/^Invalid TOML document: /, "")}`,
          offset,
          length: 1,
        } satisfies ParseFailure,
      };
    }
    // The parser recurses per key level: a nesting the pre-check missed must not end the whole run.
    if (error instanceof RangeError)
      return {
        value: undefined,
        error: { message: "the file nests too deeply to parse", offset: 0, length: 1 },
      };
    throw error;
  }
};

const NON_FINITE = "\u0000caplint-number:";
const keepNonFinite = (_key: string, value: unknown) =>
  typeof value === "number" && !Number.isFinite(value) ? `${NON_FINITE}${value}` : value;
const restoreNonFinite = (_key: string, value: unknown) =>
  typeof value === "string" && value.startsWith(NON_FINITE)
    ? Number(value.slice(NON_FINITE.length))
    : value;

/** Work counters for tests (never timed): parsed values copied through a JSON round trip. */
export const tomlWork = { roundTrips: 0 };

/** What {@link plainCopy} returns for a value it leaves to the JSON round trip. */
const NOT_PLAIN: unique symbol = Symbol("not plain");

/**
 * The value the JSON round trip above makes, made directly for the values smol-toml gives for most
 * files: strings, numbers, booleans, arrays and tables (one object per table, no replacer or reviver
 * call per value, no JSON text). `-0` becomes `0` and a string the round trip's marker begins becomes
 * its number, as they do through JSON. Anything else (a date, whose JSON is its `toJSON`, a key
 * `__proto__`, which a plain object's assignment would take for its prototype, a table nested deeper
 * than the documents' bound) is left to the round trip: {@link NOT_PLAIN}.
 */
function plainCopy(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case "string":
      return value.startsWith(NON_FINITE) ? Number(value.slice(NON_FINITE.length)) : value;
    case "number":
      return value === 0 ? 0 : value;
    case "boolean":
      return value;
    case "object": {
      // Deeper than the documents' bound (an inline table's dotted keys, which no bracket counts):
      // the round trip decides, and its recursion overflows at some depth (a parse error).
      if (value === null || depth >= MAX_NESTING_DEPTH) return NOT_PLAIN;
      if (Array.isArray(value)) {
        const copy: unknown[] = [];
        for (let index = 0; index < value.length; index++) {
          if (!(index in value)) return NOT_PLAIN;
          const item = plainCopy(value[index], depth + 1);
          if (item === NOT_PLAIN) return NOT_PLAIN;
          copy.push(item);
        }
        return copy;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== null && prototype !== Object.prototype) return NOT_PLAIN;
      const copy: Record<string, unknown> = {};
      const keys = Object.keys(value);
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index]!;
        if (key === "__proto__") return NOT_PLAIN;
        const item = plainCopy((value as Record<string, unknown>)[key], depth + 1);
        if (item === NOT_PLAIN) return NOT_PLAIN;
        copy[key] = item;
      }
      return copy;
    }
    default:
      return NOT_PLAIN;
  }
}

/**
 * Offset of the first key (`a.b.c = …` or `[a.b.c]`) with more than `limit` dotted parts, or -1.
 * Brackets are counted by the common pre-check; dotted keys nest tables without any, and smol-toml
 * builds them recursively (3,000 levels overflowed the stack). Only the key part of a line counts:
 * dots in quoted keys and in values after `=` do not.
 */
export function findDeepDottedKey(text: string, limit: number): number {
  let dots = 0;
  let quote = 0;
  let inKey = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) {
      dots = 0;
      quote = 0;
      inKey = true;
      continue;
    }
    if (!inKey) continue;
    if (quote) {
      if (ch === 92 /* \ */ && quote === 34) i++;
      else if (ch === quote) quote = 0;
      continue;
    }
    if (ch === 34 /* " */ || ch === 39 /* ' */) quote = ch;
    else if (ch === 61 /* = */ || ch === 35 /* # */) inKey = false;
    else if (ch === 46 /* . */ && ++dots > limit) return i;
  }
  return -1;
}
