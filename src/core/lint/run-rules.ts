/**
 * The one rule runner of every kind of input: which rules start, in which order, each with its own
 * frozen context; the severity of each finding; and the one place a finding becomes a Diagnostic.
 * A domain's linter supplies the input (documents, listings, the lines of a recording) and where a
 * path is in it; the rest is here.
 */
import type { Diagnostic, Fix, FindingGroup, RuleSetting, Severity } from "../diagnostics.js";
import type { JsonPath, Range } from "../location.js";
import { formatMessage, RuleContractError, type MessageData } from "../messages.js";
import { findSuppression, type Suppression } from "../suppressions.js";
import type { PipelineStep, RuleMeta } from "./rule.js";
import { agree } from "../wording.js";

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
  /** Where the finding is, when its input cannot place a path (a frontend source file, a line of a recording). */
  span?: Span | undefined;
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
export function configuredSeverity(
  rule: RuleMeta,
  settings: RunSettings,
  absolutePath: string,
): Severity | undefined {
  if (rule.kind === "pipeline") return rule.defaultSeverity;
  const setting = settings.severityFor?.(rule.id, absolutePath) ?? rule.defaultSeverity;
  return setting === "off" ? undefined : setting;
}

/** The severity of one finding of a rule configured as `configured`: raised or lowered as the finding asks. Demoting lowers an error only. */
export function findingSeverity(
  configured: Severity,
  finding: Pick<FindingFields, "escalate" | "demote">,
): Severity {
  return finding.escalate
    ? "error"
    : finding.demote && configured === "error"
      ? "warning"
      : configured;
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
  return diagnosticAt(rule, severity, finding, place.file, place.absolutePath, place, text, fix);
}

/** `createDiagnostic` with the place given as its file and span (the runner makes no place object per finding). */
function diagnosticAt(
  rule: Pick<RuleMeta, "id" | "messages">,
  severity: Severity,
  finding: Finding,
  file: string,
  absolutePath: string,
  span: Span,
  text: { message?: string; hint?: string | undefined } = {},
  fix?: Fix,
  withData = true,
): Diagnostic {
  const message = text.message ?? formatMessage(rule, finding.messageId, finding.data);
  const hint = "hint" in text ? text.hint : finding.hint;
  // A hint written in the literal is one of the object's own slots; added after it, it moved the
  // fields past the literal's into a second object (a property array) that lived as long as the
  // finding (until the report). The fields keep their order either way.
  const diagnostic: Diagnostic = hint
    ? {
        ruleId: rule.id,
        messageId: finding.messageId,
        severity,
        message,
        file,
        absolutePath,
        path: finding.path,
        range: span.range,
        offset: span.offset,
        length: span.length,
        hint,
      }
    : {
        ruleId: rule.id,
        messageId: finding.messageId,
        severity,
        message,
        file,
        absolutePath,
        path: finding.path,
        range: span.range,
        offset: span.offset,
        length: span.length,
      };
  if (finding.relatedLine !== undefined) diagnostic.relatedLine = finding.relatedLine;
  if (withData) {
    if (finding.data && hasOwnKey(finding.data)) diagnostic.data = finding.data;
    if (finding.group) diagnostic.group = finding.group;
  }
  if (fix) diagnostic.fix = fix;
  return diagnostic;
}

/** `Object.keys(value).length > 0` without the array of keys (asked once per finding). */
function hasOwnKey(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
}

/**
 * The rules to start, in order: only ordinary rules (pipeline steps have no check), only those
 * `settings.only` keeps, and those that read what the others did (`runsLast`) behind the others.
 */
export function rulesToStart<R extends RuleMeta>(
  rules: readonly R[],
  settings: RunSettings,
): Array<Exclude<R, { kind: "pipeline" }>> {
  const runnable = rules.filter(
    (rule): rule is Exclude<R, { kind: "pipeline" }> =>
      rule.kind !== "pipeline" && (!settings.only || settings.only.has(rule.id)),
  );
  // Stable: rules keep their order, those that read the suppressions' use move behind the others.
  return [
    ...runnable.filter((rule) => !rule.runsLast),
    ...runnable.filter((rule) => rule.runsLast),
  ];
}

/** Where a finding is in its input's text. */
export type Span = Omit<Place, "file" | "absolutePath">;

/** The input a finding is about: the file as shown and on disk, and how its findings are placed and fixed. */
export interface FindingInput<F extends Finding = Finding> {
  file: string;
  absolutePath: string;
  /** Where a finding is, for a finding that does not carry its `span`; asked only for a finding that is kept. */
  locate(finding: F): Span;
  /** The safe fix of a fixable rule's finding, built only for a finding that is kept. */
  fix?(finding: F): Fix | undefined;
}

export interface RuleRunOptions<F extends Finding = Finding> {
  settings: RunSettings;
  /** Counts findings against MAX_FINDINGS_PER_FILE (the default); off for a recording, whose findings stream out. */
  budget?: boolean;
  /** The input's `caplint-disable` comments: a finding one of them covers is not kept, and the comment counts as used. */
  suppressions?: readonly Suppression[] | undefined;
  /**
   * True when the caller reads no finding's `data` or `group` (a compact, GitHub or SARIF report
   * prints neither): the Diagnostics are made without them. Findings live until the report, and
   * what they hold (the data object, its strings, the group) was copied by every young-generation
   * collection and promoted with them.
   */
  omitData?: boolean | undefined;
  /** The finding's message and hint as the input's kind words them (quoted values cut, one line); default: the rule's template and the hint as given. */
  words?(
    rule: Pick<RuleMeta, "id" | "messages">,
    finding: F,
  ): { message: string; hint?: string | undefined };
}

/** The report function a running rule gets: bound to it, taking a finding and the input it is about. */
export type BoundReport<F extends Finding = Finding> = (finding: F, input: FindingInput<F>) => void;

/** A rule and what it reports: the `fix` a finding may carry only a fixable rule may give. */
type Checked<C> = RuleMeta & { check(context: C): void | Promise<void> };

const NO_FINDINGS: readonly Diagnostic[] = Object.freeze([]);

/**
 * One run of rules over an input, the same for every kind of input (ESLint's `runRules` and
 * `FileReport`): it starts the rules, each with a frozen context whose `report` is bound to the rule,
 * and takes each finding the one way: the rule's contract, its severity for the file, suppressions,
 * the per-file budget, then its place, fix and text, and `createDiagnostic`.
 */
export class RuleRun<F extends Finding = Finding> {
  private found: Diagnostic[] = [];
  private readonly budget: FindingBudget | undefined;
  /** The last file each rule reported in, with its severity there: a rule reports many findings in one file. */
  private readonly severities = new Map<
    string,
    { absolutePath: string; severity: Severity | undefined }
  >();

  /** `options.suppressions` by the file they are written in, made on the first finding that may be suppressed. */
  private suppressionsByFile: Map<string, Suppression[]> | undefined;

  constructor(private readonly options: RuleRunOptions<F>) {
    this.budget = options.budget === false ? undefined : new FindingBudget();
  }

  /** The severity `rule` is configured to have for a file; undefined when it is off there. */
  severityOf(rule: RuleMeta, absolutePath: string): Severity | undefined {
    const last = this.severities.get(rule.id);
    if (last?.absolutePath === absolutePath) return last.severity;
    const severity = configuredSeverity(rule, this.options.settings, absolutePath);
    this.severities.set(rule.id, { absolutePath, severity });
    return severity;
  }

  /**
   * Starts `rules` (those `rulesToStart` keeps, in its order) one after the other, each with the frozen
   * context `contextFor` makes from the rule and its bound report.
   */
  async start<R extends Checked<C>, C>(
    rules: ReadonlyArray<R | PipelineStep>,
    contextFor: (rule: R, report: BoundReport<F>) => C,
  ): Promise<void> {
    for (const rule of rulesToStart(rules, this.options.settings))
      await (rule as R).check(this.contextOf(rule, contextFor));
  }

  /** As `start`, for rules whose `check` only subscribes to what the domain walks (synchronous by contract). */
  listen<R extends Checked<C>, C>(
    rules: readonly R[],
    contextFor: (rule: R, report: BoundReport<F>) => C,
  ): void {
    for (const rule of rulesToStart(rules, this.options.settings))
      void rule.check(this.contextOf(rule, contextFor));
  }

  private contextOf<R extends Checked<C>, C>(
    rule: R,
    contextFor: (rule: R, report: BoundReport<F>) => C,
  ): C {
    return Object.freeze(contextFor(rule, (finding, input) => this.report(rule, finding, input)));
  }

  /**
   * The suppressions written in one file, in their order; undefined for none. A finding is checked
   * against its own file's only: against the whole list, a run's findings times its suppressions.
   */
  private suppressionsIn(absolutePath: string): readonly Suppression[] | undefined {
    const all = this.options.suppressions;
    if (!all || all.length === 0) return undefined;
    if (!this.suppressionsByFile) {
      this.suppressionsByFile = new Map();
      for (const suppression of all) {
        const file = suppression.scope.absolutePath;
        const list = this.suppressionsByFile.get(file);
        if (list) list.push(suppression);
        else this.suppressionsByFile.set(file, [suppression]);
      }
    }
    return this.suppressionsByFile.get(absolutePath);
  }

  /** Takes one finding of `rule` in `input`. */
  report(rule: RuleMeta, finding: F, input: FindingInput<F>): void {
    // Contract breaches are bugs in the rule: fail loudly, whatever the configuration says.
    if ((finding as { fix?: unknown }).fix && !rule.fixable)
      throw new RuleContractError(rule.id, "returned a fix, but its meta says fixable: false");
    if ("message" in finding)
      throw new RuleContractError(
        rule.id,
        "reported a finished message; a finding names a messageId of its meta.messages",
      );
    const { absolutePath } = input;
    const configured = this.severityOf(rule, absolutePath);
    if (!configured) return;
    const severity = findingSeverity(configured, finding);
    const suppressions = rule.kind === "pipeline" ? undefined : this.suppressionsIn(absolutePath);
    if (suppressions) {
      const suppression = findSuppression(suppressions, rule.id, absolutePath, finding.path);
      if (suppression) {
        suppression.used = true;
        return;
      }
    }
    // A finding past the budget is counted only: no position, fix or text (a hint may be costly to word).
    if (this.budget && !this.budget.admit(rule, severity, input.file, absolutePath)) return;
    const span = finding.span ?? input.locate(finding);
    const fix = (finding as { fix?: unknown }).fix ? input.fix?.(finding) : undefined;
    const text = this.options.words?.(rule, finding);
    // No place object: a spread of the span into one copied its every field (and `exact`, which no
    // diagnostic holds) through a slower generic path, once per finding.
    this.found.push(
      diagnosticAt(
        rule,
        severity,
        finding,
        input.file,
        absolutePath,
        span,
        text,
        fix,
        this.options.omitData !== true,
      ),
    );
  }

  /**
   * The findings taken since the last call (a recording hands them out line by line, and nearly every
   * line has none: those share one empty list instead of a new one each).
   */
  take(): readonly Diagnostic[] {
    const found = this.found;
    if (found.length === 0) return NO_FINDINGS;
    this.found = [];
    return found;
  }

  /** Every finding not taken yet, and one for each rule and file past the budget. */
  finish(): Diagnostic[] {
    return [...this.take(), ...(this.budget?.summaries() ?? [])];
  }
}

/**
 * At most this many findings are kept for one file: a hostile file of 320,000 unknown keys would
 * otherwise hold 320,000 findings (about 1 GB) and print them all. Past it, each rule's further
 * findings in the file are counted, not kept, and said in one finding (see {@link FindingBudget}).
 */
export const MAX_FINDINGS_PER_FILE = 10_000;

const SEVERITY_ORDER: readonly Severity[] = ["error", "warning", "suggestion"];

/**
 * Counts each file's findings and says which may still be kept. A finding past the bound costs a
 * count (no position, no message kept), and `summaries()` gives one finding per file and rule for
 * them: how many of each severity, at the worst severity dropped, so the exit code stays what all
 * the findings make it.
 */
export class FindingBudget {
  private readonly kept = new Map<string, number>();
  private readonly dropped = new Map<
    string,
    {
      rule: Pick<RuleMeta, "id" | "messages">;
      file: string;
      absolutePath: string;
      counts: Map<Severity, number>;
    }
  >();
  constructor(private readonly limit = MAX_FINDINGS_PER_FILE) {}

  admit(
    rule: Pick<RuleMeta, "id" | "messages">,
    severity: Severity,
    file: string,
    absolutePath: string,
  ): boolean {
    const kept = this.kept.get(absolutePath) ?? 0;
    if (kept < this.limit) {
      this.kept.set(absolutePath, kept + 1);
      return true;
    }
    const key = `${absolutePath}\u0000${rule.id}`;
    let entry = this.dropped.get(key);
    if (!entry) this.dropped.set(key, (entry = { rule, file, absolutePath, counts: new Map() }));
    entry.counts.set(severity, (entry.counts.get(severity) ?? 0) + 1);
    return false;
  }

  summaries(): Diagnostic[] {
    return [...this.dropped.values()].map(({ rule, file, absolutePath, counts }) => {
      const severities = SEVERITY_ORDER.filter((severity) => counts.has(severity));
      const total = severities.reduce((sum, severity) => sum + counts.get(severity)!, 0);
      const counted = (count: number, word: string) =>
        `${count.toLocaleString("en")} ${agree(count, word, `${word}s`)}`;
      const bySeverity = severities.map((severity) => counted(counts.get(severity)!, severity));
      const message = `${counted(total, `more ${rule.id} finding`)} in this file (${bySeverity.join(", ")}) not listed: caplint lists at most ${this.limit.toLocaleString("en")} findings a file`;
      const start = { line: 1, column: 1 };
      return createDiagnostic(
        rule,
        severities[0]!,
        { path: [], messageId: "moreFindings" },
        { file, absolutePath, range: { start, end: start }, offset: 0, length: 0 },
        {
          message,
          hint: "fix the findings listed and run again, or check a smaller part of the file",
        },
      );
    });
  }
}
