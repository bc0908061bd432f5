import type { Diagnostic, LintSummary } from "../diagnostics.js";
import type { RuleMeta } from "../lint/rule.js";
import type { Paint } from "../terminal-text.js";

export { NO_PAINT, type Paint } from "../terminal-text.js";

export interface ReportInput {
  diagnostics: readonly Diagnostic[];
  summary: LintSummary;
  /** Facts about the whole run, said once, not per finding. */
  notes?: readonly string[];
  /**
   * The configuration file the run used, relative to the working directory; null when none was
   * found. Undefined when the caller does not say (the library's `format()` without settings).
   */
  config?: string | null;
  /** Warnings `-q, --quiet` left out: the summary must not read as "no problems" when there were some. */
  hiddenWarnings?: number;
  /** `--fix-dry-run`: the fixes as unified diffs per file, for formats that carry them (json). */
  fixes?: ReadonlyArray<{ file: string; diff: string }>;
}

export interface ReporterContext {
  cwd: string;
  paint: Paint;
  rules: ReadonlyMap<string, RuleMeta>;
  toolVersion: string;
  /** Text of a file, for code frames. */
  sourceText(absolutePath: string): string | undefined;
  /** Docs URL of a rule. */
  docsUrl(ruleId: string): string;
}

/** Reporters are pure: data in, text out. The CLI writes. */
export type Reporter = (input: ReportInput, context: ReporterContext) => string;
