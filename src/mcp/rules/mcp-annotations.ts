import { isObject } from "../listing.js";
import { defineMcpRule } from "./types.js";
import { toolLabel } from "./support.js";

export const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

export default defineMcpRule({
  id: "mcp-annotations",
  domain: "mcp",
  input: "static",
  description:
    "Every tool has a title and all four hints as explicit booleans (warnings); a hint of the wrong type or readOnlyHint with destructiveHint is an error.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noTitle: "{{tool}} has no title (neither title nor annotations.title)",
    hintNotBoolean: "{{tool}}: annotations.{{hint}} is {{value}}, not a boolean; clients ignore or misread it",
    hintsMissing: "{{tool}} does not declare {{missing}}; clients then assume the defaults (not read-only, destructive, not idempotent, open world)",
    readOnlyDestructive: "{{tool}} is declared both read-only and destructive",
  },
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
          messageId: "noTitle",
          data: { tool: toolLabel(tool) },
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
            messageId: "hintNotBoolean",
            data: { tool: toolLabel(tool), hint, value: JSON.stringify(value) ?? typeof value },
            hint: `write ${hint}: true or false`,
            escalate: true,
          });
        }
      }
      if (missing.length > 0) {
        report({
          path: at,
          messageId: "hintsMissing",
          data: { tool: toolLabel(tool), missing: missing.join(", ") },
          hint: "declare all four hints explicitly in annotations",
        });
      }
      if (annotations?.readOnlyHint === true && annotations.destructiveHint === true) {
        report({
          path: [...annotationsPath, "destructiveHint"],
          messageId: "readOnlyDestructive",
          data: { tool: toolLabel(tool) },
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
