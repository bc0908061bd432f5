import type { ResolutionProblem, ResolutionRule } from "../../engine/index.js";
import { Catalog } from "../../catalog/catalog.js";
import { APP_KEY } from "../../catalog/types.js";
import { quoteList } from "../../../core/did-you-mean.js";
import { entryPath } from "../../model/capability.js";
import type { RuleContext } from "../types.js";

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
      const via = routeOf(problem);
      context.report({
        at: capability.source,
        path: entryPath(capability, problem.path),
        message: `${problem.message}${via}`,
        hint: problem.suggestions?.length ? `did you mean ${quoteList(problem.suggestions)}?` : (unknownPluginHint(context, problem) ?? defaultWithoutSetHint(problem)),
      });
    }
  }
}

/**
 * A member such as `keyring:allow-get-password` whose plugin caplint does not know: the host looks the
 * whole string up in the set's own plugin, so it fails unless the plugin is installed; say so.
 */
function unknownPluginHint(context: RuleContext, problem: ResolutionProblem): string | undefined {
  if (problem.ruleId !== "unknown-set-member") return undefined;
  const member = /^permission (\S+) not found from set /.exec(problem.message)?.[1];
  const parts = member === undefined ? undefined : Catalog.keyOf(member);
  if (!parts || parts.key === APP_KEY || context.catalog.has(parts.key)) return undefined;
  return `no plugin "${parts.key}" is known: if the app uses it, give caplint its manifest with --manifest FILE or --plugins DIR; otherwise remove the member`;
}

/** `<plugin>:default` of a plugin without a default set: what to write instead. */
function defaultWithoutSetHint(problem: ResolutionProblem): string | undefined {
  if (problem.ruleId !== "default-without-set") return undefined;
  const parts = Catalog.keyOf(problem.chain[problem.chain.length - 1] ?? "");
  if (!parts) return undefined;
  return parts.key === APP_KEY
    ? "add a [default] set to the app's permission files, or grant the app's permissions by name"
    : `grant the permissions it needs by name instead; list them with: caplint permissions ${parts.key}`;
}

/**
 * ` (via a › b)`: how the entry reaches the problem. A cycle's message already spells the loop out,
 * so only the way into it is shown, and nothing when the entry itself is on the loop.
 */
function routeOf(problem: ResolutionProblem): string {
  let chain = problem.chain;
  if (problem.ruleId === "set-cycle" && problem.set !== undefined) {
    const entered = chain.indexOf(problem.set);
    if (entered >= 0) chain = chain.slice(0, entered + 1);
  }
  return chain.length > 1 ? ` (via ${chain.join(" › ")})` : "";
}
