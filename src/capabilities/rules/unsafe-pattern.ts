import { compileRemotePattern } from "../engine/match/origin.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "unsafe-pattern",
  description:
    "Report remote URL patterns with regular-expression groups that backtrack catastrophically in JavaScript engines.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  scope: "document",
  messages: { unsafe: 'remote URL pattern "{{url}}" is unsafe: {{problem}}' },
  check(context) {
    for (const capability of context.capabilities) {
      for (const { value: url, path } of capability.remote?.urls ?? []) {
        const compiled = compileRemotePattern(url);
        if (compiled.ok || !compiled.unsafe) continue;
        // A run of `*` matches exactly what one `*` matches: the host's linear engine treats it so, and
        // its breadth (`http://**` is any host) is broad-remote's finding. Only real nested groups remain.
        if (/\*{2,}/.test(url) && compileRemotePattern(url.replace(/\*{2,}/g, "*")).ok) continue;
        context.report({
          at: capability.source,
          path,
          messageId: "unsafe",
          data: { url, problem: compiled.message.replace(/^unsafe pattern: /, "") },
          hint: "use wildcards (*) or a simple group such as (a|b) instead of nested repetition; caplint matches it in linear time, but other tools may hang",
        });
      }
    }
  },
});
