// The one place where the tool-server domain reaches into the shared core (documents, diagnostics,
// errors, reporters, rule metadata, package files). When the core moves, only these lines follow it.
export { SourceDocument } from "../core/source/document.js";
export { LineIndex } from "../core/source/line-index.js";
export { compareDiagnostics, summarize } from "../core/diagnostics.js";
export type { Diagnostic, Severity } from "../core/diagnostics.js";
export type { JsonPath } from "../core/location.js";
export { FatalError } from "../core/errors.js";
export { readTextFile, DEFAULT_MAX_FILE_BYTES } from "../core/source/read.js";
export type { RuleMeta } from "../core/lint/rule.js";
export { collectCommaList, colorOption, noColorOption, onlyOption, type LintCommandOptions } from "../core/options.js";
export { REPORTER_NAMES, loadReporter } from "../core/reporters/index.js";
export { reporterContext } from "../core/reporters/context.js";
export { CapturedOutput, writeOutputFile } from "../core/output.js";
export { toolVersion } from "../core/tool.js";
export { EXIT_OK, exitCodeFor, tooManyWarnings } from "../core/exit-codes.js";
export type { MainOptions } from "../core/io.js";
export type { RegisterCommands, SetExitCode } from "../core/command.js";
export { generatedFile, packageFile } from "../core/package-files.js";
export { loadSettings } from "../core/settings.js";
export { shownValue } from "../core/messages.js";
