import { oneLine } from "../terminal-text.js";
import type { Reporter } from "./types.js";

/**
 * `file:line:col: severity message [rule-id]`: one line each, also the format of expected-output fixtures.
 * A live server's finding has no file, so no line and column: `stdio:node server.js: warning …`.
 *
 * The report is one join of every line's parts: no string per line is made and kept until the end
 * (20,640 lines of row 5's app were strings of parts that lived through collections, and escaping an
 * assembled line first copied it whole). The values from the input (file, message, server) are escaped
 * one by one as {@link oneLine} escapes a line: the parts between them are ASCII, so nothing pairs across.
 */
const compact: Reporter = ({ diagnostics }) => {
  const parts: Array<string | number> = [];
  for (const d of diagnostics) {
    if (d.liveServer === undefined) {
      const { line, column } = d.range.start;
      parts.push(oneLine(d.file), ":", safeNumber(line), ":", safeNumber(column), ": ");
    } else parts.push(oneLine(d.liveServer), ": ");
    parts.push(oneLine(d.severity), " ", oneLine(d.message), " [", oneLine(d.ruleId), "]\n");
  }
  return parts.join("");
};

/** A position as the join writes it; anything else a library caller put there is escaped as text. */
function safeNumber(value: number): string | number {
  return typeof value === "number" ? value : oneLine(String(value));
}

export default compact;
