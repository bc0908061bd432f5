import { effectiveRoot, propertiesOf, schemaOf, type SchemaNode } from "../input-schema.js";
import type { ToolEntry } from "../listing.js";
import { actionWords } from "../naming.js";
import { quote } from "../text.js";

/**
 * A list tool in the sense of the pagination conventions: its action verb is `list` or `search`,
 * or it takes a `limit`.
 */
export function isListTool(tool: ToolEntry, service: string | undefined): boolean {
  if (tool.name !== undefined && ["list", "search"].includes(actionWords(tool.name, service)[0] ?? "")) return true;
  const input = inputOf(tool);
  return input !== undefined && propertiesOf(input.document, input.root).some((p) => p.name === "limit");
}

/** The tool's input schema and the object that holds its parameters (see effectiveRoot). */
export function inputOf(tool: ToolEntry): { document: SchemaNode; root: SchemaNode; wrapper?: string } | undefined {
  const document = schemaOf(tool, "inputSchema");
  return document && { document, ...effectiveRoot(document) };
}

/** Every tool with an input schema, and that schema: the walk the input rules share. */
export function* toolInputs(tools: Iterable<ToolEntry>): Generator<{ tool: ToolEntry; input: NonNullable<ReturnType<typeof inputOf>> }> {
  for (const tool of tools) {
    const input = inputOf(tool);
    if (input) yield { tool, input };
  }
}

export function toolLabel(tool: ToolEntry): string {
  return tool.name === undefined ? `tool #${String(tool.path[tool.path.length - 1])}` : `tool ${quote(tool.name)}`;
}
