import type { JsonPath } from "../../core/location.js";
import type { Capability } from "../model/types.js";
import { defineRule, type RuleContext } from "./types.js";
import { describeReach, hostReach, isForeignReach, loadRemotePatternTools, type RemotePatternTools } from "../dangers/url-reach.js";


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
  // Many capabilities share a pattern: parse each distinct one once.
  const parsedOnce = new Map<string, { protocol: string; hostname: string }>();
  for (const capability of context.capabilities) {
    for (const { value: url, path } of capability.remote?.urls ?? []) {
      const compiled = tools.compileRemotePattern(url);
      const judged = compiled.ok ? url : compiled.unsafe ? url.replace(/\*{2,}/g, "*") : undefined;
      if (judged === undefined || (judged !== url && !tools.compileRemotePattern(judged).ok)) continue;
      let parsed = parsedOnce.get(judged);
      if (!parsed) {
        const pattern = new tools.URLPattern(judged);
        parsedOnce.set(judged, (parsed = { protocol: pattern.protocol, hostname: pattern.hostname }));
      }
      out.push({ capability, url, path, protocol: parsed.protocol, hostname: parsed.hostname });
    }
  }
  return out;
}

export default defineRule({
  id: "broad-remote",
  description: "Report `remote.urls` patterns that match any scheme or any host, which lets arbitrary web pages use the capability.",
  category: "security",
  security: { severity: 8.1, cwe: [942] },
  defaultSeverity: "warning",
  fixable: false,
  async check(context) {
    const tools = await loadRemotePatternTools();
    for (const remote of remotePatterns(context, tools)) {
      const reach = hostReach(tools.URLPattern, remote.protocol, remote.hostname);
      const foreign = isForeignReach(reach);
      if (!reach.anyScheme && !foreign) continue;
      const problems: string[] = [];
      const fixes: string[] = [];
      if (reach.anyScheme) {
        problems.push("any scheme");
        fixes.push(`write the scheme, e.g. "${remote.url.replace(/^[^:/]*:\/\//, "https://")}"`);
      }
      if (foreign) {
        problems.push(describeReach(reach));
        fixes.push('name the hosts, e.g. "https://app.example.com", or a subdomain wildcard of a domain you control, e.g. "https://*.example.com"');
      }
      const who = reach.anyHost ? "every web site" : foreign ? "sites outside your control" : "pages over plain http or any custom scheme";
      context.report({
        at: remote.capability.source,
        path: remote.path,
        message: `remote URL pattern "${remote.url}" matches ${problems.join(" and ")}, so ${who} can use capability "${remote.capability.identifier}"`,
        hint: fixes.join("; "),
      });
    }
  },
});
