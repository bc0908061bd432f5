import {
  MAX_SET_DEPTH,
  qualifiedIdentifier,
  type ResolutionProblem,
  type ResolutionProblemKind,
  type SetLimit,
} from "../../engine/index.js";
import { Catalog } from "../../catalog/catalog.js";
import { APP_KEY } from "../../catalog/types.js";
import { quoteList } from "../../../core/did-you-mean.js";
import { entryPath } from "../../model/capability.js";
import type { Capability } from "../../model/types.js";
import type { RuleContext } from "../types.js";
import { work } from "../../work.js";

/**
 * Reports the engine's resolution problems of some kinds at the capability entry that leads to them,
 * each with the rule's messageId for its kind (templates "{{problem}}{{via}}", worded by
 * describeProblem). Every platform is resolved at once, so a problem in a mobile-only capability is
 * found on a desktop run, and reported once however many platforms it holds on.
 */
export async function reportResolutionProblems(
  context: RuleContext,
  messageIds: Partial<Readonly<Record<ResolutionProblemKind, string>>>,
): Promise<void> {
  // Only the kinds this rule reports are made (most apps have none of them).
  const kinds = Object.keys(messageIds) as ResolutionProblemKind[];
  const problems = (await context.resolution()).problemsOf(kinds);
  if (problems.length === 0) return;
  const capabilities = capabilitiesByFile(context.capabilities);
  for (const problem of problems) {
    const messageId = messageIds[problem.kind];
    if (messageId === undefined) continue;
    const capability = capabilities.get(problem.file)?.get(problem.capability);
    if (!capability) continue;
    context.report({
      at: capability.source,
      path: entryPath(capability, problem.path),
      messageId,
      data: { problem: describeProblem(problem), via: routeOf(problem) },
      hint:
        problem.kind === "unknown-set-member" && problem.suggestions.length
          ? `did you mean ${quoteList(problem.suggestions)}?`
          : (unknownPluginHint(context, problem) ?? defaultWithoutSetHint(problem)),
    });
  }
}

/** By capabilities list: the rules of a run that report resolution problems share one index of it. */
const indexed = new WeakMap<
  readonly Capability[],
  ReadonlyMap<string, ReadonlyMap<string, Capability>>
>();

/**
 * The capabilities by file, then identifier (the last of a repeated identifier in a file): made once
 * per list, without a joined key string per capability.
 */
function capabilitiesByFile(
  capabilities: readonly Capability[],
): ReadonlyMap<string, ReadonlyMap<string, Capability>> {
  let byFile = indexed.get(capabilities);
  if (byFile === undefined) {
    work.problemCapabilityIndexes++;
    const made = new Map<string, Map<string, Capability>>();
    for (let i = 0; i < capabilities.length; i++) {
      const capability = capabilities[i]!;
      let inFile = made.get(capability.source.file);
      if (inFile === undefined)
        made.set(capability.source.file, (inFile = new Map<string, Capability>()));
      inFile.set(capability.identifier, capability);
    }
    indexed.set(capabilities, (byFile = made));
  }
  return byFile;
}

/** The problem in words, as the host's build error would put it. */
export function describeProblem(problem: ResolutionProblem): string {
  switch (problem.kind) {
    case "set-cycle":
      return `permission sets include each other in a cycle: ${problem.loop.join(" → ")}`;
    case "unknown-set-member":
      return `permission ${problem.member} not found from set ${problem.set}`;
    case "invalid-set-member":
      return `invalid identifier \`${problem.member}\` in permission set ${problem.set}: ${problem.reason}`;
    case "default-without-set": {
      const owner = problem.key === APP_KEY ? "the app defines" : `plugin \`${problem.key}\` has`;
      return `\`${qualifiedIdentifier(problem.key, "default")}\` grants nothing: ${owner} no default permission set`;
    }
    case "set-too-large":
      return `permission set ${problem.set} ${describeLimit(problem.limit)}; it was not resolved`;
    case "unresolved": {
      const identifier = problem.chain[0] ?? problem.identifier;
      if (problem.reason === "invalid-identifier")
        return `\`${identifier}\` is not a valid permission identifier`;
      if (problem.reason === "no-app-permissions")
        return `unknown permission \`${identifier}\`: the app defines no permissions`;
      if (problem.reason === "unknown-plugin")
        return `unknown plugin \`${problem.key}\` in \`${identifier}\``;
      return `unknown permission \`${problem.base}\` for \`${problem.key === APP_KEY ? "the app" : problem.key}\``;
    }
  }
}

function describeLimit(limit: SetLimit): string {
  switch (limit.kind) {
    case "leaves":
      return `expands to ${limit.count.toLocaleString("en-US")} permissions (more than ${limit.limit.toLocaleString("en-US")}): its sets include each other over and over`;
    case "depth":
      return `nests sets more than ${MAX_SET_DEPTH} levels deep`;
    case "walks":
      return `takes more than ${limit.limit.toLocaleString("en-US")} steps to expand: its sets reach a cycle over and over`;
  }
}

/**
 * A member such as `keyring:allow-get-password` whose plugin caplint does not know: the host looks the
 * whole string up in the set's own plugin, so it fails unless the plugin is installed; say so.
 */
function unknownPluginHint(context: RuleContext, problem: ResolutionProblem): string | undefined {
  if (problem.kind !== "unknown-set-member") return undefined;
  const parts = Catalog.keyOf(problem.member);
  if (!parts || parts.key === APP_KEY || context.catalog.has(parts.key)) return undefined;
  return `no plugin "${parts.key}" is known: if the app uses it, give caplint its manifest with --manifest FILE or --plugins DIR; otherwise remove the member`;
}

/** `<plugin>:default` of a plugin without a default set: what to write instead. */
function defaultWithoutSetHint(problem: ResolutionProblem): string | undefined {
  if (problem.kind !== "default-without-set") return undefined;
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
  if (problem.kind === "set-cycle") {
    const entered = chain.indexOf(problem.set);
    if (entered >= 0) chain = chain.slice(0, entered + 1);
  }
  return chain.length > 1 ? ` (via ${chain.join(" › ")})` : "";
}
