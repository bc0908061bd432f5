import type { ResolutionRule } from "../engine/index.js";
import { quoteList } from "../util/did-you-mean.js";
import type { RuleContext } from "./types.js";

/**
 * Reports the engine's resolution problems of some kinds at the capability entry that leads to them.
 * Every platform is resolved, so a problem in a mobile-only capability is found on a desktop run;
 * the pipeline folds the identical findings of several platforms into one.
 */
export async function reportResolutionProblems(context: RuleContext, kinds: readonly ResolutionRule[]): Promise<void> {
  const capabilities = new Map(context.capabilities.map((c) => [`${c.source.file}\u0000${c.identifier}`, c]));
  for (const model of await context.resolutions()) {
    for (const problem of model.problems) {
      if (!kinds.includes(problem.ruleId)) continue;
      const capability = capabilities.get(`${problem.file}\u0000${problem.capability}`);
      if (!capability) continue;
      const via = problem.chain.length > 1 ? ` (via ${problem.chain.join(" › ")})` : "";
      context.report({
        at: capability.source,
        path: problem.path,
        message: `${problem.message}${via}`,
        hint: problem.suggestions?.length ? `did you mean ${quoteList(problem.suggestions)}?` : undefined,
      });
    }
  }
}
