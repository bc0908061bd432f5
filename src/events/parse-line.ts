/**
 * Parses one JSONL line, keeping every number that JSON.parse could not represent as written.
 *
 * `JSON.parse` is native and about ten times faster than any parser written in JavaScript, but it
 * maps `1.0` to `1` and `9223372036854775808` to the same double as `9223372036854775807`, and an
 * integer id or token count must be judged on its text. A line whose numbers are all plain integers
 * of at most 15 digits parses exactly, so only lines that contain a fraction, an exponent or a
 * run of 16 digits (anywhere, strings included: the test is a cheap over-approximation) are parsed a
 * second time with jsonc-parser, whose syntax tree keeps each number's text. Positions (for columns)
 * are also computed with jsonc-parser, and only for lines with a finding.
 */
import { createRequire } from "node:module";
import type { Node, ParseError } from "jsonc-parser";

type JsoncParser = typeof import("jsonc-parser");
let jsonc: JsoncParser | undefined;

/** Loaded (from its CommonJS build, as src/load/document.ts does) only when a line needs it. */
function jsoncParser(): JsoncParser {
  jsonc ??= createRequire(import.meta.url)("jsonc-parser") as JsoncParser;
  return jsonc;
}

/** A number that is not a plain integer of at most 15 digits, kept as written. */
export class RawNumber {
  constructor(readonly text: string) {}
  /** True when written with a fraction or an exponent (`1.5`, `1.0`, `1e3`). */
  get isFloat(): boolean {
    return /[.eE]/.test(this.text);
  }
  toJSON(): number {
    return Number(this.text);
  }
}

export type ParsedLine = { ok: true; value: unknown } | { ok: false; message: string; offset: number };

/** A fraction, an exponent, or 16 digits in a row: numbers JSON.parse may not keep as written. */
const INEXACT_NUMBER = /\d\.\d|\d[eE][+-]?\d|\d{16}/;

/** JSON.parse's reading of a line: exact unless `mayHaveInexactNumbers` says otherwise. */
export function parseLine(text: string): ParsedLine {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return syntaxError(text, error);
  }
}

/** False when every number of the line is a plain integer of at most 15 digits (JSON.parse is exact then). */
export function mayHaveInexactNumbers(text: string): boolean {
  return INEXACT_NUMBER.test(text);
}

/** The line's value with every number JSON.parse could not keep as written as a RawNumber (a valid JSON line). */
export function parseExact(text: string, fallback: unknown): unknown {
  try {
    const root = jsoncParser().parseTree(text, [], PARSE_OPTIONS);
    return root ? valueOf(root, text) : fallback;
  } catch (error) {
    // Nesting too deep for a recursive parser (only tool arguments and payloads nest): keep JSON.parse's value.
    if (error instanceof RangeError) return fallback;
    throw error;
  }
}

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

function valueOf(node: Node, text: string): unknown {
  switch (node.type) {
    case "object": {
      const object: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [key, child] = property.children ?? [];
        if (!key || !child) continue;
        // defineProperty: a key "__proto__" stays an own property, as with JSON.parse.
        Object.defineProperty(object, key.value as string, { value: valueOf(child, text), enumerable: true, writable: true, configurable: true });
      }
      return object;
    }
    case "array":
      return (node.children ?? []).map((child) => valueOf(child, text));
    case "number": {
      const raw = text.slice(node.offset, node.offset + node.length);
      return /^-?\d{1,15}$/.test(raw) ? Number(raw) : new RawNumber(raw);
    }
    default:
      return node.value;
  }
}

const ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected ':'",
  CommaExpected: "expected ',' or the end of the object or array",
  CloseBraceExpected: "expected '}'",
  CloseBracketExpected: "expected ']'",
  EndOfFileExpected: "unexpected text after the JSON value",
  InvalidCommentToken: "comments are not JSON",
  UnexpectedEndOfComment: "comments are not JSON",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape character",
  InvalidCharacter: "control character in a string (escape it)",
};

function syntaxError(text: string, error: unknown): ParsedLine {
  const errors: ParseError[] = [];
  try {
    jsoncParser().parseTree(text, errors, PARSE_OPTIONS);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  const first = errors[0];
  if (first) {
    const code = jsoncParser().printParseErrorCode(first.error);
    const atEnd = first.offset >= text.length || code === "UnexpectedEndOfString";
    return {
      ok: false,
      message: `${ERROR_TEXT[code] ?? "invalid JSON"}${atEnd ? " (the line ends early: cut or truncated JSON?)" : ""}`,
      offset: first.offset,
    };
  }
  // jsonc-parser accepts a few things JSON does not; fall back on the engine's own message.
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  return { ok: false, message: "invalid JSON", offset: position ? Number(position[1]) : 0 };
}

export interface Span {
  offset: number;
  length: number;
}

/**
 * The text span of a JSON path in a line: the property's key when `target` is "key", else its
 * value; a path that does not exist (a missing field) gives its nearest existing ancestor.
 */
export function locate(text: string, path: ReadonlyArray<string | number>, target: "key" | "value"): Span {
  let root: Node | undefined;
  try {
    root = jsoncParser().parseTree(text, [], PARSE_OPTIONS);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  if (!root) return { offset: 0, length: 1 };
  const { findNodeAtLocation } = jsoncParser();
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(root, path.slice(0, depth) as (string | number)[]);
    if (!node) continue;
    if (target === "key" && depth === path.length && node.parent?.type === "property") {
      const key = node.parent.children![0]!;
      return { offset: key.offset, length: key.length };
    }
    // A whole object or array: point at its opening bracket rather than underline the line.
    if (depth < path.length || node.type === "object" || node.type === "array") return { offset: node.offset, length: 1 };
    return { offset: node.offset, length: node.length };
  }
  return { offset: 0, length: 1 };
}
