import { definePipelineStep } from "./types.js";

/**
 * Reported by the pipeline when a file cannot be read or parsed; listed here for docs, config and
 * SARIF. The reader and the JSON/TOML parsers word the problem themselves (with its position), so
 * the one template passes their text through.
 */
export default definePipelineStep({
  id: "parse",
  description: "Require capability files to be readable, valid JSON or TOML.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: { unreadable: "{{problem}}" },
});
