// The one place where the tool-server domain reaches into the shared core (documents, diagnostics,
// errors, reporters, rule metadata). When the core moves, only these lines follow it.
export { SourceDocument, valueAt } from "../load/document.js";
export { compareDiagnostics, summarize } from "../diagnostics/types.js";
export type { Diagnostic, JsonPath, RuleSetting, Severity } from "../diagnostics/types.js";
export { FatalError, readTextFile, DEFAULT_MAX_FILE_BYTES } from "../load/read.js";
export type { RuleMeta } from "../rules/types.js";
export { nearest, quoteList } from "../util/did-you-mean.js";
export { REPORTER_NAMES, loadReporter, type ReporterName } from "../reporters/index.js";
export { makePaint } from "../reporters/paint.js";
export { CapturedOutput, writeOutputFile } from "../cli/write-file.js";
export { docsUrl, toolVersion } from "../util/tool.js";
export { EXIT_FATAL, EXIT_FINDINGS, EXIT_OK } from "../cli/exit-codes.js";
export type { MainOptions } from "../cli/io.js";
