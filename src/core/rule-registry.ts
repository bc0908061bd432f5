import type { ConfigSection } from "./config.js";
import type { Domain } from "./lint/domain.js";
import type { RuleMeta } from "./lint/rule.js";

/**
 * The rules of every domain by id, which command lints each domain (for messages that send the user
 * there) and the config keys each domain owns (what the settings check caplint.config.json against).
 */
export class RulesById<R extends RuleMeta = RuleMeta> extends Map<string, R> {
  constructor(
    rules: readonly R[],
    private readonly lintCommands: ReadonlyMap<string, string> = new Map(),
    readonly configSections: readonly ConfigSection[] = [],
  ) {
    super(rules.map((rule) => [rule.id, rule]));
  }

  /** The command that lints the domain's input, e.g. `check`. */
  lintCommandOf(domain: string): string | undefined {
    return this.lintCommands.get(domain);
  }
}

export interface RuleRegistry<R extends RuleMeta = RuleMeta> {
  /** Every rule of every domain, sorted by id. */
  readonly rules: readonly R[];
  readonly byId: RulesById<R>;
  /** The domains, in the order they were registered. */
  readonly domains: readonly Domain<R>[];
}

/**
 * Collects the rules of every domain; a rule id used twice (even across domains) is a programming
 * error, but for a pipeline step several domains share (`parse`: the input is readable), which the
 * registry lists once, as the first domain declares it.
 */
export function createRegistry<R extends RuleMeta>(domains: readonly Domain<R>[]): RuleRegistry<R> {
  const byId = new Map<string, R>();
  for (const rule of domains.flatMap((domain) => domain.rules)) {
    const other = byId.get(rule.id);
    if (other?.kind === "pipeline" && rule.kind === "pipeline") continue;
    if (other)
      throw new Error(
        `rule id "${rule.id}" is registered twice (domains ${other.domain} and ${rule.domain})`,
      );
    byId.set(rule.id, rule);
  }
  const rules = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const lintCommands = new Map(domains.map((domain) => [domain.name, domain.lintCommand]));
  const configSections = domains.flatMap((domain) => (domain.config ? [domain.config] : []));
  return { rules, byId: new RulesById(rules, lintCommands, configSections), domains };
}
