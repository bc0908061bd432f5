import { isObject } from "../listing.js";
import { defineMcpRule } from "./types.js";
import { toolLabel } from "./support.js";

export const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

export default defineMcpRule({
  id: "mcp-annotations",
  domain: "mcp",
  input: "static",
  description: "Every tool has a title and all four hints as explicit booleans (warnings); a hint of the wrong type or readOnlyHint with destructiveHint is an error.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  check({ tools, report }) {
    for (const tool of tools) {
      if (!isObject(tool.value)) continue;
      const annotations = isObject(tool.value.annotations) ? tool.value.annotations : undefined;
      const annotationsPath = [...tool.path, "annotations"];
      const namePath = [...tool.path, "name"];
      const at = annotations ? annotationsPath : namePath;
      const hasTitle = nonEmptyString(tool.value.title) || nonEmptyString(annotations?.title);
      if (!hasTitle) {
        report({
          path: tool.value.title !== undefined ? [...tool.path, "title"] : namePath,
          message: `${toolLabel(tool)} has no title (neither title nor annotations.title)`,
          hint: 'add a human-readable "title", e.g. "List Items"',
        });
      }
      const missing: string[] = [];
      for (const hint of HINTS) {
        const value = annotations?.[hint];
        if (value === undefined) missing.push(hint);
        else if (typeof value !== "boolean") {
          report({
            path: [...annotationsPath, hint],
            message: `${toolLabel(tool)}: annotations.${hint} is ${JSON.stringify(value) ?? typeof value}, not a boolean; clients ignore or misread it`,
            hint: `write ${hint}: true or false`,
            escalate: true,
          });
        }
      }
      if (missing.length > 0) {
        report({
          path: at,
          message: `${toolLabel(tool)} does not declare ${missing.join(", ")}; clients then assume the defaults (not read-only, destructive, not idempotent, open world)`,
          hint: "declare all four hints explicitly in annotations",
        });
      }
      if (annotations?.readOnlyHint === true && annotations.destructiveHint === true) {
        report({
          path: [...annotationsPath, "destructiveHint"],
          message: `${toolLabel(tool)} is declared both read-only and destructive`,
          hint: "a read-only tool is not destructive: set destructiveHint: false (or readOnlyHint: false)",
          escalate: true,
        });
      }
    }
  },
});

function nonEmptyString(value: unknown): boolean {
  return typeof value === "string" && value.trim() !== "";
}
