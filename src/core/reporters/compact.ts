import { escapedText, oneLine } from "../terminal-text.js";
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
  // Sorted findings come in runs of one file, and of a few rules and severities: each value of a run
  // is escaped once (the escape of a value depends on the value only).
  const file = new LastEscaped();
  const severity = new LastEscaped();
  const ruleId = new LastEscaped();
  for (const d of diagnostics) {
    if (d.liveServer === undefined) {
      const { line, column } = d.range.start;
      parts.push(file.of(d.file), ":", safeNumber(line), ":", safeNumber(column), ": ");
    } else parts.push(oneLine(d.liveServer), ": ");
    parts.push(severity.of(d.severity), " ", oneLine(d.message), " [", ruleId.of(d.ruleId), "]\n");
  }
  // Every value above is escaped and the text between them is ASCII: the output layer need not
  // search the whole report for controls again.
  return escapedText(parts.join(""));
};

/** {@link oneLine} of a value, kept for the next value when that is the same string. */
class LastEscaped {
  /** Nothing yet: no value a caller passes is this object. */
  private value: unknown = LastEscaped;
  private escaped = "";

  of(value: string): string {
    if (value !== this.value) {
      this.value = value;
      this.escaped = oneLine(value);
    }
    return this.escaped;
  }
}

/** A position as the join writes it; anything else a library caller put there is escaped as text. */
function safeNumber(value: number): string | number {
  return typeof value === "number" ? value : oneLine(String(value));
}

export default compact;
