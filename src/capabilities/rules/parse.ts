import { defineRule } from "./types.js";

/** Reported by the pipeline when a file cannot be read or parsed; listed here for docs, config and SARIF. */
export default defineRule({
  id: "parse",
  description: "Require capability files to be readable, valid JSON or TOML.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  reservedForPipeline: true,
  check() {},
});
