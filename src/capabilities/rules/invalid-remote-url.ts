import { compileRemotePattern } from "../engine/match/origin.js";
import { patternImpactOf } from "./support/platform-build.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "invalid-remote-url",
  description:
    "Disallow `remote.urls` entries that are not valid URLPattern strings (Tauri's build panics on them).",
  category: "correctness",
  defaultSeverity: "error",
  scope: "document",
  fixable: false,
  messages: {
    noScheme:
      'remote URL pattern "{{url}}" does not parse: it has no scheme, so it reads as a relative URL{{note}}',
    unparsable: 'remote URL pattern "{{url}}" does not parse: {{problem}}{{note}}',
  },
  async check(context) {
    // The host compiles the patterns when it resolves a build's active capabilities.
    const impactOf = patternImpactOf(context);
    for (const capability of context.capabilities) {
      for (const { value: url, path } of capability.remote?.urls ?? []) {
        const compiled = compileRemotePattern(url);
        if (compiled.ok || compiled.unsafe) continue;
        // URLPattern reads a string without a scheme as a relative URL and asks for a base URL, which
        // says nothing to someone who wrote "example.com".
        const relative = /base URL must be provided/i.test(compiled.message);
        const impact = await impactOf(capability);
        context.report({
          at: capability.source,
          path,
          demote: impact.demote,
          ...(relative
            ? { messageId: "noScheme", data: { url, note: impact.note } }
            : {
                messageId: "unparsable",
                data: {
                  url,
                  problem: compiled.message.replace(/^invalid URL pattern: /, ""),
                  note: impact.note,
                },
              }),
          hint:
            relative && /^[\w*]/.test(url)
              ? `write the scheme: "https://${url}"`
              : 'write a URL with optional wildcards, e.g. "https://*.example.com" or "https://example.com/app/*"',
        });
      }
    }
  },
});
