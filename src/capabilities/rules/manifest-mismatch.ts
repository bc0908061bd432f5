import { defineRule } from "./types.js";

export default defineRule({
  id: "manifest-mismatch",
  description:
    "Disallow a committed acl-manifests.json whose official plugins differ from the built-in catalog of the locked release (an edited build output).",
  category: "security",
  // An edited build output that hides what the app grants (CWE-345: insufficient verification of data authenticity).
  security: { severity: 7.5, cwe: [345] },
  defaultSeverity: "error",
  fixable: false,
  messages: { differs: 'plugin "{{plugin}}": {{difference}}' },
  check(context) {
    // The comparison runs when the manifest is loaded (the catalog takes the union of both definitions there).
    for (const difference of context.project.manifestDifferences ?? []) {
      context.report({
        at: { absolutePath: difference.absolutePath },
        path: difference.path,
        target: "key",
        messageId: "differs",
        hint: "the build regenerates this file: rebuild the app and commit the result; caplint answers with the union of both definitions until then",
        data: { plugin: difference.key, permission: difference.name, difference: difference.message },
      });
    }
  },
});
