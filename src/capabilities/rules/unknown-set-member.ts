import { reportResolutionProblems } from "./support/resolution-problems.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "unknown-set-member",
  description:
    "Disallow permission sets whose members name no known permission (the build stops with `permission … not found from set …`).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: { unknownMember: "{{problem}}{{via}}", invalidMember: "{{problem}}{{via}}" },
  check: (context) =>
    reportResolutionProblems(context, {
      "unknown-set-member": "unknownMember",
      "invalid-set-member": "invalidMember",
    }),
});
