import { definePipelineStep } from "./types.js";

/**
 * Reported by the pipeline from the JSON Schema in schema/capability.schema.json. The validator
 * words each schema problem from the Ajv error (field, expected and found types), so `violation`
 * passes its text through.
 */
export default definePipelineStep({
  id: "schema",
  description:
    "Require capability files to match the capability schema: required fields, types and one of the three file forms.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    violation: "{{problem}}",
    repeatedField:
      'field "{{field}}" is written twice in one object: {{framework}} rejects the file ("duplicate field")',
  },
});
