/** The metadata a rule table shows (src/core/lint/rule.ts RuleMeta, an mcp rule's `input`). */
export interface RuleRow {
  id: string;
  domain: string;
  defaultSeverity: string;
  fixable: boolean;
  description: string;
  kind?: string | undefined;
  input?: string | undefined;
}
export function readmeWithRuleTables(readme: string, rules: readonly RuleRow[]): string;
export function whyOf(page: string): string | undefined;
export function contractWithRuleRows(
  contract: string,
  rules: readonly RuleRow[],
  sectionDomain: (heading: string) => string | undefined,
  pageOf: (id: string) => string | undefined,
): string;
