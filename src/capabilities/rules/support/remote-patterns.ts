import type { JsonPath } from "../../../core/location.js";
import type { RemotePatternTools } from "../../dangers/url-reach.js";
import type { Capability } from "../../model/types.js";
import type { RuleContext } from "../types.js";

export interface RemotePattern {
  capability: Capability;
  url: string;
  path: JsonPath;
  /** The scheme and host components as the URLPattern constructor string parser reads them. */
  protocol: string;
  hostname: string;
}

/**
 * Every `remote.urls` string the host accepts. Patterns that do not parse are invalid-remote-url's
 * finding. Patterns whose regexp groups could make a backtracking matcher hang are unsafe-pattern's,
 * and skipping them keeps the polyfill's matching below safe to run; the exception is a run of `*`,
 * which matches exactly what one `*` matches, so its breadth is judged on the single-star form.
 */
export function remotePatterns(context: RuleContext, tools: RemotePatternTools): RemotePattern[] {
  const out: RemotePattern[] = [];
  for (const capability of context.capabilities) {
    for (const { value: url, path } of capability.remote?.urls ?? []) {
      const compiled = tools.compileRemotePattern(url);
      const judged = compiled.ok ? url : compiled.unsafe ? url.replace(/\*{2,}/g, "*") : undefined;
      if (judged === undefined || (judged !== url && !tools.compileRemotePattern(judged).ok))
        continue;
      // Parsed once per distinct pattern for the run (every app and both remote rules ask).
      const parsed = tools.parseUrlPattern(judged);
      if (!parsed.ok) continue;
      const { protocol, hostname } = parsed.components;
      out.push({ capability, url, path, protocol, hostname });
    }
  }
  return out;
}
