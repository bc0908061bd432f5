import { defineRule } from "./types.js";
import {
  describeReach,
  hostReach,
  isForeignReach,
  loadRemotePatternTools,
  type HostReach,
} from "../dangers/url-reach.js";
import { work } from "../work.js";
import { remotePatterns } from "./support/remote-patterns.js";

export default defineRule({
  id: "broad-remote",
  description:
    "Report `remote.urls` patterns that match any scheme or any hostname, which lets arbitrary web pages use the capability.",
  category: "security",
  security: { severity: 8.1, cwe: [942] },
  defaultSeverity: "warning",
  fixable: false,
  scope: "document",
  messages: {
    broadPattern:
      'remote URL pattern "{{url}}" matches {{reach}}, so {{who}} can use capability "{{capability}}"',
  },
  async check(context) {
    const tools = await loadRemotePatternTools();
    // Apps repeat their patterns (row 5: 24 copies of each): a reach is worked out once per scheme
    // and host components.
    const reaches = new Map<string, Map<string, HostReach>>();
    for (const remote of remotePatterns(context, tools)) {
      let byHost = reaches.get(remote.protocol);
      if (byHost === undefined)
        reaches.set(remote.protocol, (byHost = new Map<string, HostReach>()));
      let reach = byHost.get(remote.hostname);
      if (reach === undefined) {
        work.hostReachesWorkedOut++;
        reach = hostReach(tools.URLPattern, remote.protocol, remote.hostname);
        byHost.set(remote.hostname, reach);
      }
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
        fixes.push(
          'name the hosts, e.g. "https://app.example.com", or a subdomain wildcard of a domain you control, e.g. "https://*.example.com"',
        );
      }
      const who = reach.anyHost
        ? "every web site"
        : foreign
          ? "sites outside your control"
          : "pages over plain http or any custom scheme";
      context.report({
        at: remote.capability.source,
        path: remote.item.path,
        messageId: "broadPattern",
        data: {
          url: remote.url,
          reach: problems.join(" and "),
          who,
          capability: remote.capability.identifier,
        },
        hint: fixes.join("; "),
      });
    }
  },
});
