/**
 * Parses one JSONL line, keeping every number that JSON.parse could not represent as written.
 *
 * `JSON.parse` is native and about ten times faster than any parser written in JavaScript, but it
 * maps `1.0` to `1` and `9223372036854775808` to the same double as `9223372036854775807`, and an
 * integer id or token count must be judged on its text. A line whose numbers are all plain integers
 * of at most 15 digits parses exactly, so only lines that contain a fraction, an exponent or a
 * run of 16 digits (anywhere, strings included: the test is a cheap over-approximation) get their
 * syntax tree (the shared one of src/core/source/json-tree.ts: one linear pass, no recursion, so a
 * payload nested a million deep does not stop the event's own checks), which keeps each number's
 * text. The same tree, built once per line, gives the positions of every finding on that line.
 * jsonc-parser only words syntax errors.
 */
import { createRequire } from "node:module";
import type { ParseError } from "jsonc-parser";
import { deepestNode, type JsonNode, type JsonTree } from "../core/source/json-tree.js";

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

/** Why a line is not JSON, and where: jsonc-parser's first error (it words them), else the engine's. */
export interface LineSyntaxError {
  message: string;
  offset: number;
}

/** A fraction, an exponent, or 16 digits in a row: numbers JSON.parse may not keep as written. */
const INEXACT_NUMBER = /\d\.\d|\d[eE][+-]?\d|\d{16}/;

/** False when every number of the line is a plain integer of at most 15 digits (JSON.parse is exact then). */
export function mayHaveInexactNumbers(text: string): boolean {
  return INEXACT_NUMBER.test(text);
}

/**
 * The line's value with every number of the event's own fields that JSON.parse could not keep as
 * written as a RawNumber: the members of the line's object, of the objects and arrays it holds
 * directly (an envelope's event, a string array) and of theirs. Deeper values are tool arguments and
 * payloads, any JSON. `tree` is the line's syntax tree; `value` (JSON.parse's) is changed in place.
 */
export function withExactNumbers(
  tree: JsonTree,
  value: Record<string, unknown>,
): Record<string, unknown> {
  const patch = (node: JsonNode, container: Record<string, unknown> | unknown[], depth: number) => {
    for (let i = 0; i < tree.childCount(node); i++) {
      const child = tree.child(node, i);
      const key = tree.isMember(child) ? tree.key(child) : i;
      const kind = tree.kind(child);
      if (kind === "number") {
        const raw = tree.text.slice(tree.offset(child), tree.offset(child) + tree.length(child));
        if (!/^-?\d{1,15}$/.test(raw))
          (container as Record<string | number, unknown>)[key] = new RawNumber(raw);
      } else if (depth < 3 && (kind === "object" || kind === "array")) {
        const inner = (container as Record<string | number, unknown>)[key];
        if (typeof inner === "object" && inner !== null)
          patch(child, inner as Record<string, unknown>, depth + 1);
      }
    }
  };
  patch(tree.root, value, 1);
  return value;
}

const PARSE_OPTIONS = {
  disallowComments: true,
  allowTrailingComma: false,
  allowEmptyContent: false,
} as const;

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

/** The syntax error of a line JSON.parse refused (with `error`, its exception). */
export function syntaxError(text: string, error: unknown): LineSyntaxError {
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
      message: `${ERROR_TEXT[code] ?? "invalid JSON"}${atEnd ? " (the line ends early: cut or truncated JSON?)" : ""}`,
      offset: first.offset,
    };
  }
  // jsonc-parser accepts a few things JSON does not; fall back on the engine's own message.
  const message = error instanceof Error ? error.message : String(error);
  const position = /position (\d+)/.exec(message);
  return { message: "invalid JSON", offset: position ? Number(position[1]) : 0 };
}

export interface Span {
  offset: number;
  length: number;
}

/**
 * The text span of a JSON path in a line: the property's key when `target` is "key", else its
 * value; a path that does not exist (a missing field) gives its nearest existing ancestor. A key
 * written twice is found at its last copy, the one JSON.parse keeps.
 */
export function locate(
  tree: JsonTree,
  path: ReadonlyArray<string | number>,
  target: "key" | "value",
): Span {
  const { node, depth } = deepestNode(tree, path);
  if (target === "key" && depth === path.length && tree.isMember(node))
    return { offset: tree.keyOffset(node), length: tree.keyLength(node) };
  // A whole object or array, or the parent of a missing field: its opening bracket, not the whole line.
  const kind = tree.kind(node);
  if (depth < path.length || kind === "object" || kind === "array")
    return { offset: tree.offset(node), length: 1 };
  return { offset: tree.offset(node), length: tree.length(node) };
}
