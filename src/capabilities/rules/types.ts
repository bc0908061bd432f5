import type { Catalog } from "../catalog/catalog.js";
import type { Resolution, ResolvedModel } from "../engine/index.js";
import type { Fix } from "../../core/diagnostics.js";
import type { RuleMeta } from "../../core/rule.js";
import type { JsonPath } from "../../core/location.js";
import type { SourceDocument } from "../../core/source/document.js";
import type { Project } from "../load/project.js";
import type { Capability, PermissionEntry } from "../model/types.js";

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
  /** Lower an error to a warning (the problem does not break the build here); an "off" rule stays off. */
  demote?: boolean;
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
  /** Every permission entry with its capability. */
  entries(): Iterable<{ capability: Capability; entry: PermissionEntry }>;
  report(report: RuleReport): void;
  /**
   * The host's resolution of the capabilities the build uses, once per platform this run covers
   * (every platform unless the user picked one), computed on first use and shared by all rules.
   * The engine (and URLPattern) load only when a rule asks.
   */
  resolutions(): Promise<readonly ResolvedModel[]>;
  /**
   * The same resolution as one object over every platform this run covers: problems carry the
   * platforms they hold on, and `distinctModels` has one model per group of platforms that resolve
   * alike, so a rule looks at each difference between platforms once.
   */
  resolution(): Promise<Resolution>;
}

export interface Rule extends RuleMeta {
  check(context: RuleContext): void | Promise<void>;
}

/**
 * Declares a capability rule: keeps the literal type-checked (arethetypeswrong's `defineCheck`) and
 * stamps the rule's domain.
 */
export function defineRule<const R extends Omit<Rule, "domain">>(rule: R): R & { domain: "capabilities" } {
  return { ...rule, domain: "capabilities" };
}
