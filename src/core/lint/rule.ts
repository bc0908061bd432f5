/**
 * The one rule contract of every kind of input (ESLint's `meta` + `create`): metadata beside the
 * check, declared with {@link defineRule}. The core knows no kind of input by name: a rule's `domain`
 * is the name of the Domain (src/core/lint/domain.ts) that registers it.
 */
import type { Severity } from "../diagnostics.js";
import type { MessageReport, RuleMessages } from "../messages.js";

export type RuleCategory = "correctness" | "security" | "suspicious" | "style";

/** What every rule of every domain declares: the registry, config, reporters and `caplint rules` read only this. */
export interface RuleMeta {
  /** Public contract: the id users configure and CI scripts filter on; unique across domains. */
  id: string;
  /** The kind of input the rule checks: the name of the domain that registers it. */
  domain: string;
  /** One sentence, shown by `caplint rules` and in SARIF. */
  description: string;
  category: RuleCategory;
  defaultSeverity: Severity;
  /** True when the rule offers safe fixes applied by `--fix`. */
  fixable: boolean;
  /**
   * `"pipeline"`: findings the pipeline itself reports (a file that does not parse, a schema
   * violation): no `check`, always errors, cannot be turned off or suppressed. Listed with the rules
   * for docs, config and SARIF. Default: an ordinary rule.
   */
  kind?: "rule" | "pipeline";
  /** messageId → message template with `{{name}}` placeholders (src/core/messages.ts). */
  messages: RuleMessages;
  /**
   * For security rules: how bad a finding is on the CVSS-like 0.0-10.0 scale GitHub code scanning
   * ranks alerts by (SARIF `security-severity`), and the CWE weaknesses it is an instance of.
   */
  security?: { severity: number; cwe: readonly number[] };
  /** Reads what the other rules did (the suppressions they used), so the runner starts it after them. */
  runsLast?: boolean;
  /**
   * `"document"`: what the rule reports about a file depends on that file's parsed value alone (and on
   * the inputs every file shares, which an edit of one file leaves as they were: the catalog, the app
   * config, the build). The domain's linter then gives it only the files it is to check and refuses
   * reads of any other, and an editor's re-check runs it again only over the files whose value changed
   * (the others keep their findings). Default: its findings may depend on the whole input.
   */
  scope?: "document";
}

/** The docs page of a rule is derived from its id (src/core/tool.ts `docsUrl`), never written by hand. */

/** A domain's rule context: what its rules read, and `report()`, bound to the running rule. */
export interface RuleContextBase {
  report(report: never): void;
}

/** What a domain's rules report, without the message part (`messageId`, `data`). */
type ReportFields<Context extends RuleContextBase> = Context extends {
  report(report: infer R): void;
}
  ? Omit<R, "messageId" | "data">
  : never;

/** The context one rule's `check` sees: the domain's, with `report()` typed by the rule's own messages. */
export type ContextFor<Context extends RuleContextBase, M extends RuleMessages> = Omit<
  Context,
  "report"
> & {
  report(report: ReportFields<Context> & MessageReport<M>): void;
};

/** A runnable rule of a domain whose rules see `Context`. */
export interface Rule<Context extends RuleContextBase> extends RuleMeta {
  kind?: "rule";
  check(context: Context): void | Promise<void>;
}

/** A rule as its file declares it: `check` sees a context typed by its own messages. */
export type RuleDefinition<
  Context extends RuleContextBase,
  Id extends string,
  M extends RuleMessages,
  Extra,
> = Omit<RuleMeta, "domain" | "id" | "kind" | "messages"> &
  Extra & {
    id: Id;
    messages: M;
    check(context: ContextFor<Context, M>): void | Promise<void>;
  };

/**
 * The one `defineRule`: each domain makes its own with its context type and name
 * (`export const defineRule = ruleDefiner<RuleContext>(NAME)`), and every rule file of
 * the domain declares itself through it. The literal stays type-checked (arethetypeswrong's
 * `defineCheck`), `report()` accepts only the rule's messageIds with their placeholders, and the
 * domain is stamped, never written by hand.
 */
export function ruleDefiner<Context extends RuleContextBase, Extra extends object = object>(
  domain: string,
) {
  return <const Id extends string, const M extends RuleMessages>(
    rule: RuleDefinition<Context, Id, M, Extra>,
  ) =>
    ({ ...rule, domain }) as unknown as Rule<Context> &
      Extra & { id: Id; domain: string; messages: M };
}

/** A pipeline step listed with the rules (parse, schema): metadata only; the domain's linter reports its findings. */
export interface PipelineStep<M extends RuleMessages = RuleMessages> extends RuleMeta {
  kind: "pipeline";
  messages: M;
}

/** Declares the pipeline steps of a domain, as {@link ruleDefiner} declares its rules. */
export function pipelineStepDefiner(domain: string) {
  return <const Id extends string, const M extends RuleMessages>(
    step: Omit<RuleMeta, "domain" | "id" | "kind" | "messages"> & { id: Id; messages: M },
  ) => ({ ...step, kind: "pipeline", domain }) as PipelineStep<M> & { id: Id; domain: string };
}
