/**
 * The one rule runner of every kind of input: which rules start, in which order, each with its own
 * frozen context; the severity of each finding; and the one place a finding becomes a Diagnostic.
 * A domain's linter supplies the input (documents, listings, the lines of a recording) and where a
 * path is in it; the rest is here.
 */
import type { Diagnostic, Fix, FindingGroup, RuleSetting, Severity } from "../diagnostics.js";
import type { JsonPath, Range } from "../location.js";
import { formatMessage, type MessageData } from "../messages.js";
import type { PipelineStep, RuleMeta } from "./rule.js";

export interface RunSettings {
  /**
   * The configured severity of a rule for a file (absolute path), or undefined for the rule's
   * default: `--rule`, config overrides and config rules (src/core/settings.ts) stand behind it.
   */
  severityFor?: ((ruleId: string, absolutePath: string) => RuleSetting | undefined) | undefined;
  /** When given, only these rules start (pipeline steps always report). */
  only?: ReadonlySet<string> | undefined;
}

/** What every domain's rules say about a finding beyond its message. */
export interface FindingFields {
  path: JsonPath;
  target?: "key" | "value" | undefined;
  /** How to fix it, in one line. */
  hint?: string | undefined;
  /** Raise the finding to an error whatever the rule's configured severity (an "off" rule stays off). */
  escalate?: boolean | undefined;
  /** Lower an error to a warning (it does not break anything here, or the input may be cut); an "off" rule stays off. */
  demote?: boolean | undefined;
  /** The other line of a finding that pairs two events. */
  relatedLine?: number | undefined;
  group?: FindingGroup | undefined;
}

/** A finding as the runner takes it: the fields, and one of the rule's messages with its values. */
export type Finding = FindingFields & { messageId: string; data?: MessageData | undefined };

/** Where a finding is: the file as shown and as on disk, and its span in the text. */
export interface Place {
  file: string;
  absolutePath: string;
  range: Range;
  offset: number;
  length: number;
}

/** The severity a rule is configured to have for a file; undefined when it is off there. Pipeline steps keep theirs. */
export function configuredSeverity(rule: RuleMeta, settings: RunSettings, absolutePath: string): Severity | undefined {
  if (rule.kind === "pipeline") return rule.defaultSeverity;
  const setting = settings.severityFor?.(rule.id, absolutePath) ?? rule.defaultSeverity;
  return setting === "off" ? undefined : setting;
}

/** The severity of one finding of a rule configured as `configured`: raised or lowered as the finding asks. Demoting lowers an error only. */
export function findingSeverity(configured: Severity, finding: Pick<FindingFields, "escalate" | "demote">): Severity {
  return finding.escalate ? "error" : finding.demote && configured === "error" ? "warning" : configured;
}

/**
 * The one place a finding becomes a Diagnostic, for every domain. `text` is the finding's message
 * and hint as the domain words them for one line (quoted values shortened); by default the rule's
 * template filled from `data`, and the hint as given.
 */
export function createDiagnostic(
  rule: Pick<RuleMeta, "id" | "messages">,
  severity: Severity,
  finding: Finding,
  place: Place,
  text: { message?: string; hint?: string | undefined } = {},
  fix?: Fix,
): Diagnostic {
  const diagnostic: Diagnostic = {
    ruleId: rule.id,
    messageId: finding.messageId,
    severity,
    message: text.message ?? formatMessage(rule, finding.messageId, finding.data),
    file: place.file,
    absolutePath: place.absolutePath,
    path: finding.path,
    range: place.range,
    offset: place.offset,
    length: place.length,
  };
  const hint = "hint" in text ? text.hint : finding.hint;
  if (hint) diagnostic.hint = hint;
  if (finding.relatedLine !== undefined) diagnostic.relatedLine = finding.relatedLine;
  if (finding.data && Object.keys(finding.data).length > 0) diagnostic.data = finding.data;
  if (finding.group) diagnostic.group = finding.group;
  if (fix) diagnostic.fix = fix;
  return diagnostic;
}

/**
 * The rules to start, in order: only ordinary rules (pipeline steps have no check), only those
 * `settings.only` keeps, and those that read what the others did (`runsLast`) behind the others.
 */
export function rulesToStart<R extends RuleMeta>(rules: readonly R[], settings: RunSettings): Array<Exclude<R, { kind: "pipeline" }>> {
  const runnable = rules.filter((rule): rule is Exclude<R, { kind: "pipeline" }> => rule.kind !== "pipeline" && (!settings.only || settings.only.has(rule.id)));
  // Stable: rules keep their order, those that read the suppressions' use move behind the others.
  return [...runnable.filter((rule) => !rule.runsLast), ...runnable.filter((rule) => rule.runsLast)];
}

/**
 * Starts each rule with its own frozen context (`report` bound to the rule, nothing shared and
 * mutable), one after the other.
 */
export async function runRules<R extends RuleMeta & { check(context: C): void | Promise<void> }, C>(
  rules: ReadonlyArray<R | PipelineStep>,
  settings: RunSettings,
  contextFor: (rule: R) => C,
): Promise<void> {
  for (const rule of rulesToStart(rules, settings)) await (rule as R).check(Object.freeze(contextFor(rule as R)));
}
