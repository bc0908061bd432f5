import type { RemotePatternTools } from "../../dangers/url-reach.js";
import type { Capability, ModelItem } from "../../model/types.js";
import type { RuleContext } from "../types.js";
import { work } from "../../work.js";

export interface RemotePattern {
  capability: Capability;
  url: string;
  /** The `remote.urls` item: its path is made when asked (model/capability.ts), only for a finding. */
  item: ModelItem;
  /** The scheme and host components as the URLPattern constructor string parser reads them. */
  protocol: string;
  hostname: string;
}

/** By capabilities list: broad-remote and insecure-remote of one run share one list. */
const listed = new WeakMap<readonly Capability[], readonly RemotePattern[]>();

/**
 * Every `remote.urls` string the host accepts. Patterns that do not parse are invalid-remote-url's
 * finding. Patterns whose regexp groups could make a backtracking matcher hang are unsafe-pattern's,
 * and skipping them keeps the polyfill's matching below safe to run; the exception is a run of `*`,
 * which matches exactly what one `*` matches, so its breadth is judged on the single-star form.
 */
export function remotePatterns(
  context: RuleContext,
  tools: RemotePatternTools,
): readonly RemotePattern[] {
  let out = listed.get(context.capabilities);
  if (out === undefined) {
    out = listRemotePatterns(context.capabilities, tools);
    listed.set(context.capabilities, out);
  }
  return out;
}

function listRemotePatterns(
  capabilities: readonly Capability[],
  tools: RemotePatternTools,
): RemotePattern[] {
  const out: RemotePattern[] = [];
  for (let c = 0; c < capabilities.length; c++) {
    const capability = capabilities[c]!;
    const urls = capability.remote?.urls;
    if (urls === undefined) continue;
    for (let u = 0; u < urls.length; u++) {
      const item = urls[u]!;
      const url = item.value;
      work.remotePatternsListed++;
      const compiled = tools.compileRemotePattern(url);
      const judged = compiled.ok ? url : compiled.unsafe ? url.replace(/\*{2,}/g, "*") : undefined;
      if (judged === undefined || (judged !== url && !tools.compileRemotePattern(judged).ok))
        continue;
      // Parsed once per distinct pattern for the run (every app and both remote rules ask).
      const parsed = tools.parseUrlPattern(judged);
      if (!parsed.ok) continue;
      const { protocol, hostname } = parsed.components;
      out.push({ capability, url, item, protocol, hostname });
    }
  }
  return out;
}
