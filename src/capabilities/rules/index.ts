import type { PipelineStep, Rule } from "./types.js";

import * as LIST from "./list.js";

const LISTED = Object.values(LIST);

/** The id of a capability rule or pipeline step, derived from the list (a typo in a literal id does not compile). */
export type CapabilityRuleId = (typeof LIST)[keyof typeof LIST]["id"];

/** The capability rules and pipeline steps, sorted by id; src/registry.ts adds them to the other domains' rules. */
export const CAPABILITY_RULES: ReadonlyArray<(Rule | PipelineStep) & { id: CapabilityRuleId }> = [
  ...LISTED,
].sort((a, b) => (a.id < b.id ? -1 : 1));

export const CAPABILITY_RULES_BY_ID: ReadonlyMap<
  string,
  (Rule | PipelineStep) & { id: CapabilityRuleId }
> = new Map(CAPABILITY_RULES.map((rule) => [rule.id, rule]));
