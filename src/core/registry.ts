import type { RuleMeta } from "./rule.js";

export interface RuleRegistry<R extends RuleMeta = RuleMeta> {
  /** Every rule of every domain, sorted by id. */
  readonly rules: readonly R[];
  readonly byId: ReadonlyMap<string, R>;
}

/** Collects the rules of every domain; a rule id used twice (even across domains) is a programming error. */
export function createRegistry<R extends RuleMeta>(...domains: ReadonlyArray<readonly R[]>): RuleRegistry<R> {
  const byId = new Map<string, R>();
  for (const rule of domains.flat()) {
    const other = byId.get(rule.id);
    if (other) throw new Error(`rule id "${rule.id}" is registered twice (domains ${other.domain} and ${rule.domain})`);
    byId.set(rule.id, rule);
  }
  const rules = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { rules, byId: new Map(rules.map((rule) => [rule.id, rule])) };
}
