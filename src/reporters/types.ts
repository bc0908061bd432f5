import type { Diagnostic, LintSummary } from "../diagnostics/types.js";
import type { RuleMeta } from "../rules/types.js";

/** Colour functions injected by the CLI; identity functions when colour is off. */
export interface Paint {
  error(text: string): string;
  warning(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  underline(text: string): string;
  accent(text: string): string;
}

export const NO_PAINT: Paint = {
  error: (t) => t,
  warning: (t) => t,
  dim: (t) => t,
  bold: (t) => t,
  underline: (t) => t,
  accent: (t) => t,
};

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
