import { modify } from "jsonc-parser";
import type { SourceDocument } from "../load/document.js";
import type { Fix, JsonPath } from "./types.js";

/** Safe fixes are minimal jsonc-parser edits, so formatting and surrounding text are kept. */
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };

export function replaceStringValue(document: SourceDocument, path: JsonPath, value: string, description: string): Fix | undefined {
  if (document.format !== "json") return undefined;
  const edits = modify(document.text, path as (string | number)[], value, FORMAT);
  return edits.length ? { description, edits } : undefined;
}

export function removeArrayItem(document: SourceDocument, path: JsonPath, description: string): Fix | undefined {
  if (document.format !== "json") return undefined;
  const edits = modify(document.text, path as (string | number)[], undefined, FORMAT);
  return edits.length ? { description, edits } : undefined;
}
