import { joinedLines, oneLine } from "../terminal-text.js";
import type { Reporter } from "./types.js";

/**
 * `file:line:col: severity message [rule-id]`: one line each, also the format of expected-output fixtures.
 * A live server's finding has no file, so no line and column: `stdio:node server.js: warning …`.
 *
 * The values from the input (file, message, server) are escaped one by one, not the assembled line: a
 * line made by `+` is a string of parts that a search over it first copies whole (a report of 20,000
 * findings copied every line once more). The parts between them are ASCII, so nothing pairs across.
 */
const compact: Reporter = ({ diagnostics }) =>
  joinedLines(
    diagnostics.map((d) =>
      d.liveServer === undefined
        ? `${oneLine(d.file)}:${d.range.start.line}:${d.range.start.column}: ${d.severity} ${oneLine(d.message)} [${oneLine(d.ruleId)}]`
        : `${oneLine(d.liveServer)}: ${d.severity} ${oneLine(d.message)} [${oneLine(d.ruleId)}]`,
    ),
  );

export default compact;
