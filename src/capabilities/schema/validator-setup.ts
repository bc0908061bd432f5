/**
 * How Ajv is set up for the capability schema, in one place for both ways it runs: compiled at run
 * time (from sources: the tests) by validate.ts, and compiled to standalone code at build time by
 * scripts/build-validator.mjs, which imports the built copy of this file.
 */
import type { FileForm } from "../model/capability.js";

/** `verbose` errors carry the schema of each failed `anyOf` branch, which the messages are made from. */
export const VALIDATOR_OPTIONS = { allErrors: true, strict: false, verbose: true } as const;

/**
 * Adds the capability schema and one schema per file form to an Ajv instance, and returns the ids
 * to compile. The schema goes in without `uniqueItems`, whose findings belong to duplicate-permission:
 * Ajv decides it with a deep equality that is quadratic in the list's length (seconds for a few
 * thousand object entries) and throws on an entry with a `toString` or `valueOf` key.
 */
export function addCapabilitySchemas(ajv: { addSchema(schema: object): unknown }, schema: { $id: string }): Record<FileForm, string> {
  const capability = `${schema.$id}#/definitions/Capability`;
  ajv.addSchema(JSON.parse(JSON.stringify(schema), (key, value: unknown) => (key === "uniqueItems" ? undefined : value)) as object);
  ajv.addSchema({ $id: "caplint:single", $ref: capability });
  ajv.addSchema({ $id: "caplint:list", type: "array", items: { $ref: capability } });
  ajv.addSchema({ $id: "caplint:wrapped", $ref: `${schema.$id}#/anyOf/2` });
  return { single: "caplint:single", list: "caplint:list", wrapped: "caplint:wrapped" };
}
