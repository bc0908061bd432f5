import { compileRemotePattern } from "../engine/match/origin.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "invalid-remote-url",
  description: "Disallow `remote.urls` entries that are not valid URLPattern strings (the host's build panics on them).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  check(context) {
    for (const capability of context.capabilities) {
      for (const { value: url, path } of capability.remote?.urls ?? []) {
        const compiled = compileRemotePattern(url);
        if (compiled.ok || compiled.unsafe) continue;
        // URLPattern reads a string without a scheme as a relative URL and asks for a base URL, which
        // says nothing to someone who wrote "example.com".
        const relative = /base URL must be provided/i.test(compiled.message);
        context.report({
          at: capability.source,
          path,
          message: relative
            ? `remote URL pattern "${url}" does not parse: it has no scheme, so it reads as a relative URL`
            : `remote URL pattern "${url}" does not parse: ${compiled.message.replace(/^invalid URL pattern: /, "")}`,
          hint:
            relative && /^[\w*]/.test(url)
              ? `write the scheme: "https://${url}"`
              : 'write a URL with optional wildcards, e.g. "https://*.example.com" or "https://example.com/app/*"',
        });
      }
    }
  },
});
