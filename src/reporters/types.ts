import type { Diagnostic, LintSummary } from "../diagnostics/types.js";
import type { RuleMeta } from "../rules/types.js";
import type { Paint } from "../core/terminal-text.js";

export { NO_PAINT, type Paint } from "../core/terminal-text.js";

export interface ReportInput {
  diagnostics: readonly Diagnostic[];
  summary: LintSummary;
  /** Facts about the whole run, said once, not per finding. */
  notes?: readonly string[];
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
