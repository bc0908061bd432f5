import type { Diagnostic } from "../diagnostics.js";
import type { Reporter } from "./types.js";

/** The public JSON contract (README "JSON output"). Field order is stable. */
const json: Reporter = ({ diagnostics, summary, fixes, notes = [], config }, context) =>
  JSON.stringify(
    {
      version: context.toolVersion,
      diagnostics: diagnostics.map(jsonDiagnostic),
      summary: {
        files: summary.files,
        errors: summary.errors,
        warnings: summary.warnings,
        suggestions: summary.suggestions,
        fixable: summary.fixable,
        ...(notes.length ? { notes } : {}),
        config: config ?? null,
      },
      ...(fixes ? { fixes: fixes.map((f) => ({ file: f.file, diff: f.diff })) } : {}),
    },
    null,
    2,
  ) + "\n";

export default json;

/** One finding of the JSON report. */
export function jsonDiagnostic(d: Diagnostic) {
  return {
    // A live server has no file: null, and the server named in `server`.
    file: d.liveServer === undefined ? d.file : null,
    ...(d.liveServer === undefined ? {} : { server: d.liveServer }),
    ruleId: d.ruleId,
    ...(d.messageId === undefined ? {} : { messageId: d.messageId }),
    severity: d.severity,
    message: d.message,
    line: d.range.start.line,
    column: d.range.start.column,
    endLine: d.range.end.line,
    endColumn: d.range.end.column,
    path: d.path,
    ...(d.hint ? { hint: d.hint } : {}),
    ...(d.relatedLine !== undefined ? { relatedLine: d.relatedLine } : {}),
    fixable: d.fix !== undefined,
  };
}
