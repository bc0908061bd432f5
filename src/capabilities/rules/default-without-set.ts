import { reportResolutionProblems } from "./support/resolution-problems.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "default-without-set",
  description:
    "Report `<plugin>:default` where the plugin has no default set: the build accepts it and it grants nothing.",
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: false,
  messages: { defaultWithoutSet: "{{problem}}{{via}}" },
  check: (context) =>
    reportResolutionProblems(context, { "default-without-set": "defaultWithoutSet" }),
});
