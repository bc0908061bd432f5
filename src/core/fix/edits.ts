import type { SourceDocument } from "../source/document.js";
import type { Fix } from "../diagnostics.js";
import type { JsonPath } from "../location.js";

/*
 * Safe fixes are minimal text edits over spans from the jsonc-parser tree. jsonc-parser's own
 * `modify` re-formats the edited region (it expands `{ "identifier": … }` onto several lines), so
 * the edits are built here to keep every other byte of the file as written.
 */

export function replaceStringValue(
  document: SourceDocument,
  path: JsonPath,
  value: string,
  description: string,
): Fix | undefined {
  const span = document.valueSpan(path);
  if (!span) return undefined;
  return {
    description,
    edits: [{ offset: span.offset, length: span.length, content: document.quoteString(value) }],
  };
}

export function removeArrayItem(
  document: SourceDocument,
  path: JsonPath,
  description: string,
): Fix | undefined {
  const span = document.arrayItemRemovalSpan(path);
  if (!span) return undefined;
  return { description, edits: [{ ...span, content: "" }] };
}
