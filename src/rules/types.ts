import type { Catalog } from "../catalog/catalog.js";
import type { ResolvedModel } from "../engine/index.js";
import type { Fix, JsonPath, Severity } from "../diagnostics/types.js";
import type { SourceDocument } from "../load/document.js";
import type { Project } from "../load/project.js";
import type { Capability, PermissionEntry } from "../model/types.js";

export type RuleCategory = "correctness" | "security" | "suspicious" | "style";

export interface RuleMeta {
  /** Public contract: the id users configure and CI scripts filter on. */
  id: string;
  /** One sentence, shown by `caplint rules` and in SARIF. */
  description: string;
  category: RuleCategory;
  defaultSeverity: Severity;
  /** True when the rule offers safe fixes applied by `--fix`. */
  fixable: boolean;
  /** `parse` and `schema` are reported by the pipeline and cannot be turned off. */
  reservedForPipeline?: boolean;
  /**
   * For security rules: how bad a finding is on the CVSS-like 0.0-10.0 scale GitHub code scanning
   * ranks alerts by (SARIF `security-severity`), and the CWE weaknesses it is an instance of.
   */
  security?: { severity: number; cwe: readonly number[] };
}

export interface RuleReport {
  /** The file: a capability's source, or a document. */
  at: { absolutePath: string };
  path: JsonPath;
  target?: "key" | "value";
  message: string;
  hint?: string;
  /** Facts behind the message, for programs such as the HTML report. */
  data?: Readonly<Record<string, unknown>>;
  /** Raise a warning to an error (a dangerous grant reachable from remote pages); an "off" rule stays off. */
  escalate?: boolean;
  /** Builds the safe fix from the document's text; called only when the document is JSON. */
  fix?: (document: SourceDocument) => Fix | undefined;
}

export interface RuleContext {
  readonly project: Project;
  readonly catalog: Catalog;
  /** Capabilities whose file passed parsing (schema-invalid fields are dropped from the model). */
  readonly capabilities: readonly Capability[];
  /** The document a capability (or any file) came from. */
  document(at: { absolutePath: string }): SourceDocument | undefined;
  /** The raw JSON object of a capability as written. */
  raw(capability: Capability): Record<string, unknown>;
  /** Every permission entry with its capability. */
  entries(): Iterable<{ capability: Capability; entry: PermissionEntry }>;
  report(report: RuleReport): void;
  /**
   * The host's resolution of the capabilities the build uses, once per platform this run covers
   * (every platform unless the user picked one), computed on first use and shared by all rules.
   * The engine (and URLPattern) load only when a rule asks.
   */
  resolutions(): Promise<readonly ResolvedModel[]>;
}

export interface Rule extends RuleMeta {
  check(context: RuleContext): void | Promise<void>;
}

/** Identity function that keeps rule literals type-checked (arethetypeswrong's `defineCheck`). */
export function defineRule<const R extends Rule>(rule: R): R {
  return rule;
}
