import { remotePatterns } from "./support/remote-patterns.js";
import {
  componentMatches,
  exampleHost,
  isLoopback,
  loadRemotePatternTools,
  matchesAnyScheme,
} from "../dangers/url-reach.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "insecure-remote",
  description:
    "Disallow `remote.urls` patterns on plain `http:` for hosts other than loopback: anyone on the network can inject script into such pages.",
  category: "security",
  security: { severity: 6.5, cwe: [319] },
  defaultSeverity: "warning",
  fixable: false,
  scope: "document",
  messages: {
    plainHttp:
      'remote URL pattern "{{url}}" allows plain http for {{hosts}}: anyone on the network path can alter the page and use capability "{{capability}}"',
  },
  async check(context) {
    const tools = await loadRemotePatternTools();
    for (const remote of remotePatterns(context, tools)) {
      // Read here, not before the loop: the polyfill loads on first read (url-reach.ts).
      const { URLPattern } = tools;
      // A pattern for every scheme is broad-remote's finding, which already covers plain http.
      if (
        !componentMatches(URLPattern, "protocol", remote.protocol, "http") ||
        matchesAnyScheme(URLPattern, remote.protocol)
      )
        continue;
      const example = exampleHost(URLPattern, remote.hostname);
      if (example === undefined || isLoopback(example)) continue;
      // Filled two ways, a host without wildcards comes out the same: then it can be named.
      const literal = exampleHost(URLPattern, remote.hostname, "x") === example;
      const secure = /^http:\/\//.test(remote.url)
        ? remote.url.replace(/^http:/, "https:")
        : undefined;
      context.report({
        at: remote.capability.source,
        path: remote.item.path,
        messageId: "plainHttp",
        data: {
          url: remote.url,
          hosts: literal ? `hostname "${example}"` : "non-loopback hosts",
          capability: remote.capability.identifier,
        },
        hint: `${secure ? `use "${secure}"` : 'use the "https" scheme'}; plain http is only safe for loopback hosts (localhost, 127.0.0.1, [::1])`,
      });
    }
  },
});
