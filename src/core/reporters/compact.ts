import { textLines } from "../terminal-text.js";
import type { Reporter } from "./types.js";

/**
 * `file:line:col: severity message [rule-id]`: one line each, also the format of expected-output fixtures.
 * A live server's finding has no file, so no line and column: `stdio:node server.js: warning …`.
 */
const compact: Reporter = ({ diagnostics }) =>
  textLines(
    diagnostics.map((d) =>
      d.liveServer === undefined
        ? `${d.file}:${d.range.start.line}:${d.range.start.column}: ${d.severity} ${d.message} [${d.ruleId}]`
        : `${d.liveServer}: ${d.severity} ${d.message} [${d.ruleId}]`,
    ),
  );

export default compact;
