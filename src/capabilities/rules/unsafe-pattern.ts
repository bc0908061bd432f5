import { compileRemotePattern } from "../engine/match/origin.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "unsafe-pattern",
  description: "Report remote URL patterns with regular-expression groups that backtrack catastrophically in JavaScript engines.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  check(context) {
    for (const capability of context.capabilities) {
      capability.remote?.urls.forEach((url, index) => {
        const compiled = compileRemotePattern(url);
        if (compiled.ok || !compiled.unsafe) return;
        context.report({
          at: capability.source,
          path: [...capability.source.path, "remote", "urls", index],
          message: `remote URL pattern "${url}" is unsafe: ${compiled.message.replace(/^unsafe pattern: /, "")}`,
          hint: /\*\*/.test(url)
            ? `URL patterns have no "**": one "*" already matches any text, "/" included; write "${url.replace(/\*{2,}/g, "*")}"`
            : "use wildcards (*) or a simple group such as (a|b) instead of nested repetition; caplint matches it in linear time, but other tools may hang",
        });
      });
    }
  },
});
