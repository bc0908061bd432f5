import { parse, TomlError } from "smol-toml";
import type { ParseFailure, TomlParser } from "./document.js";
import { LineIndex } from "./line-index.js";

/** smol-toml is loaded only by callers that meet a TOML file. */
export const parseToml: TomlParser = (text) => {
  try {
    // A JSON round trip turns smol-toml's null-prototype tables and date objects into the plain
    // values the JSON path sees (Ajv's deep equality calls valueOf on objects).
    return { value: JSON.parse(JSON.stringify(parse(text))) };
  } catch (error) {
    if (error instanceof TomlError) {
      const offset = new LineIndex(text).offset({ line: error.line, column: error.column });
      const firstLine = error.message.split("\n")[0] ?? "syntax error";
      return { value: undefined, error: { message: `invalid TOML: ${firstLine.replace(/^Invalid TOML document: /, "")}`, offset, length: 1 } satisfies ParseFailure };
    }
    throw error;
  }
};
