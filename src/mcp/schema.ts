import type { ErrorObject, ValidateFunction } from "ajv";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { generatedFile, packageFile } from "../core/package-files.js";

/**
 * Validators for the official MCP schema of protocol 2025-11-25 (JSON Schema 2020-12, vendored in
 * schema/ with its source and licence). The build precompiles them (scripts/build-mcp-validator.mjs
 * writes dist/generated/mcp-validators.cjs); from sources they are compiled with Ajv2020 once.
 */
export type McpValidators = Record<
  "listToolsResult" | "initializeResult" | "implementation",
  ValidateFunction
>;

export const MCP_SCHEMA_FILE = "mcp-schema-2025-11-25.json";
export const MCP_SCHEMA_ID = "https://modelcontextprotocol.io/schema/2025-11-25/schema.json";
/** The definitions checked, by validator name (build script and runtime compile agree on these). */
export const MCP_SCHEMA_ROOTS = {
  listToolsResult: "ListToolsResult",
  initializeResult: "InitializeResult",
  implementation: "Implementation",
} as const;

let validators: McpValidators | undefined;

export async function mcpValidators(): Promise<McpValidators> {
  validators ??= loadGenerated() ?? (await compileAtRuntime());
  return validators;
}

function loadGenerated(): McpValidators | undefined {
  const file = generatedFile("mcp-validators.cjs");
  if (file === undefined) return undefined;
  try {
    return createRequire(import.meta.url)(file) as McpValidators;
  } catch {
    return undefined;
  }
}

async function compileAtRuntime(): Promise<McpValidators> {
  const [{ default: Ajv2020 }, { default: addFormats }] = await Promise.all([
    import("ajv/dist/2020.js"),
    import("ajv-formats"),
  ]);
  const schema = JSON.parse(readFileSync(packageFile("schema", MCP_SCHEMA_FILE), "utf8")) as Record<
    string,
    unknown
  >;
  const ajv = new (Ajv2020 as unknown as typeof import("ajv/dist/2020.js").default)({
    allErrors: true,
    strict: false,
  });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  ajv.addSchema({ ...schema, $id: MCP_SCHEMA_ID });
  const compile = (definition: string) =>
    ajv.compile({ $ref: `${MCP_SCHEMA_ID}#/$defs/${definition}` });
  return {
    listToolsResult: compile(MCP_SCHEMA_ROOTS.listToolsResult),
    initializeResult: compile(MCP_SCHEMA_ROOTS.initializeResult),
    implementation: compile(MCP_SCHEMA_ROOTS.implementation),
  };
}

export type { ErrorObject };
