import type { Severity } from "./diagnostics.js";
import type { RuleMessages } from "./messages.js";

/** The kinds of input caplint checks; each lives in its own folder under src/ and plugs its rules and commands in. */
export const DOMAIN_NAMES = ["capabilities", "events", "mcp"] as const;
export type DomainName = (typeof DOMAIN_NAMES)[number];

/** The command that lints a domain's input (listed by `caplint rules`, used by the fixture tests). */
export const DOMAIN_LINT_COMMANDS: Readonly<Record<DomainName, string>> = { capabilities: "check", events: "events", mcp: "mcp" };

export type RuleCategory = "correctness" | "security" | "suspicious" | "style";

/** What every rule of every domain declares: the registry, config, reporters and `caplint rules` read only this. */
export interface RuleMeta {
  /** Public contract: the id users configure and CI scripts filter on; unique across domains. */
  id: string;
  /** The kind of input the rule checks. */
  domain: DomainName;
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
}
