import { defineRule } from "./types.js";

/** Reported by the pipeline from the JSON Schema in schema/capability.schema.json. */
export default defineRule({
  id: "schema",
  description: "Require capability files to match the capability schema: required fields, types and one of the three file forms.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  reservedForPipeline: true,
  check() {},
});
