import { reportResolutionProblems } from "./support/resolution-problems.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "set-cycle",
  description: "Disallow permission sets that include themselves, directly or through other sets (the host's build overflows its stack).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  check: (context) => reportResolutionProblems(context, ["set-cycle", "set-too-large"]),
});
