import { textLines } from "../terminal-text.js";
import type { Reporter } from "./types.js";

/** `file:line:col: severity message [rule-id]`: one line each, also the format of expected-output fixtures. */
const compact: Reporter = ({ diagnostics }) =>
  textLines(diagnostics.map((d) => `${d.file}:${d.range.start.line}:${d.range.start.column}: ${d.severity} ${d.message} [${d.ruleId}]`));

export default compact;
