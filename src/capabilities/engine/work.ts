/**
 * Counts of the engine's and the rules' unit operations, for tests that guard linear growth without
 * timing anything: ten times the input must cost about ten times these counts. Plain increments: the
 * cost is a few nanoseconds on paths that do far more per step.
 */
export const work = {
  /** Resolved (command, capability, context) entries created. */
  resolvedEntries: 0,
  /** Set members walked while expanding permission sets (memoised expansions count once). */
  setMembers: 0,
  /** Scope values examined by dangerous-permission. */
  scopeValues: 0,
  /** Window or webview patterns compared with each other by diff. */
  patternComparisons: 0,
  /** Grants a rule walked that the engine's counters do not see (dead-scope's shell grants). */
  ruleSteps: 0,
};

export type WorkCounter = keyof typeof work;

export function resetWork(): void {
  for (const key of Object.keys(work) as WorkCounter[]) work[key] = 0;
}
