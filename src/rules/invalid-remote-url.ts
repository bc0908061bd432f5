import { compileRemotePattern } from "../engine/origin.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "invalid-remote-url",
  description: "Disallow `remote.urls` entries that are not valid URLPattern strings (the host's build panics on them).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  check(context) {
    for (const capability of context.capabilities) {
      capability.remote?.urls.forEach((url, index) => {
        const compiled = compileRemotePattern(url);
        if (compiled.ok || compiled.unsafe) return;
        context.report({
          at: capability.source,
          path: [...capability.source.path, "remote", "urls", index],
          message: `remote URL pattern "${url}" does not parse: ${compiled.message.replace(/^invalid URL pattern: /, "")}`,
          hint: 'write a URL with optional wildcards, e.g. "https://*.example.com" or "https://example.com/app/*"',
        });
      });
    }
  },
});
