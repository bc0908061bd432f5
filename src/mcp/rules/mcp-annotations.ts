import { isObject } from "../listing.js";
import { words } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";
import { toolLabel } from "./support.js";

export const HINTS = [
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
] as const;

export default defineMcpRule({
  id: "mcp-annotations",
  input: "static",
  description:
    "Every tool has a title that says more than its name and all four hints as explicit booleans, not both read-only and destructive (warnings); a hint that is not a boolean breaks the schema (error).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noTitle: "{{tool}} has no title (neither title nor annotations.title)",
    titleRepeatsName:
      "{{tool}}: the title {{title}} only repeats the tool name; a title is the name people read",
    hintNotBoolean:
      "{{tool}}: annotations.{{hint}} is {{value}}, not a boolean; clients ignore or misread it",
    hintsMissing: "{{tool}} does not declare {{missing}}; {{consequence}}",
    readOnlyDestructive: "{{tool}} is declared both read-only and destructive",
  },
  check({ tools, report, shown }) {
    for (const tool of tools) {
      if (!isObject(tool.value)) continue;
      const annotations = isObject(tool.value.annotations) ? tool.value.annotations : undefined;
      const annotationsPath = [...tool.path, "annotations"];
      const namePath = [...tool.path, "name"];
      const at = annotations ? annotationsPath : namePath;
      const hasTitle = nonEmptyString(tool.value.title) || nonEmptyString(annotations?.title);
      const title = nonEmptyString(tool.value.title)
        ? tool.value.title
        : nonEmptyString(annotations?.title)
          ? annotations.title
          : undefined;
      // "list-databases" as the title of list-databases; "List Databases" is a display name and passes.
      if (
        title !== undefined &&
        tool.name !== undefined &&
        title.trim().toLowerCase() === tool.name.toLowerCase()
      ) {
        report({
          path: nonEmptyString(tool.value.title)
            ? [...tool.path, "title"]
            : [...annotationsPath, "title"],
          messageId: "titleRepeatsName",
          data: { tool: toolLabel(tool), title: quote(title) },
          hint: `say what it does for a person choosing tools, e.g. ${quote(example(tool.name))}`,
        });
      }
      if (!hasTitle) {
        report({
          path: tool.value.title !== undefined ? [...tool.path, "title"] : namePath,
          messageId: "noTitle",
          data: { tool: toolLabel(tool) },
          hint: 'add a human-readable "title", e.g. "List Items"',
        });
      }
      const missing: (typeof HINTS)[number][] = [];
      for (const hint of HINTS) {
        const value = annotations?.[hint];
        if (value === undefined) missing.push(hint);
        else if (typeof value !== "boolean") {
          report({
            path: [...annotationsPath, hint],
            messageId: "hintNotBoolean",
            data: { tool: toolLabel(tool), hint, value: shown([...annotationsPath, hint], value) },
            hint: `write ${hint}: true or false`,
            escalate: true,
          });
        }
      }
      if (missing.length > 0) {
        report({
          path: at,
          messageId: "hintsMissing",
          data: {
            tool: toolLabel(tool),
            missing: missing.join(", "),
            consequence: consequenceOf(missing, annotations?.readOnlyHint === true),
          },
          hint: "declare all four hints explicitly in annotations",
        });
      }
      if (annotations?.readOnlyHint === true && annotations.destructiveHint === true) {
        report({
          path: [...annotationsPath, "destructiveHint"],
          messageId: "readOnlyDestructive",
          data: { tool: toolLabel(tool) },
          hint: "a read-only tool is not destructive: set destructiveHint: false (or readOnlyHint: false)",
        });
      }
    }
  },
});

/**
 * What clients do without the missing hints, by the protocol's defaults (2025-11-25, ToolAnnotations):
 * readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true, where the
 * destructive and idempotent hints mean something only when readOnlyHint is false.
 */
const DEFAULT_READING: Record<(typeof HINTS)[number], string> = {
  readOnlyHint: "may modify its environment",
  destructiveHint: "destructive",
  idempotentHint: "not idempotent",
  openWorldHint: "open world",
};

function consequenceOf(missing: readonly (typeof HINTS)[number][], readOnly: boolean): string {
  const ignored: (typeof HINTS)[number][] = readOnly
    ? missing.filter((hint) => hint === "destructiveHint" || hint === "idempotentHint")
    : [];
  const assumed = missing
    .filter((hint) => !ignored.includes(hint))
    .map((hint) => DEFAULT_READING[hint]);
  const parts: string[] = [];
  if (assumed.length > 0) parts.push(`clients then assume the defaults: ${assumed.join(", ")}`);
  if (ignored.length > 0)
    parts.push(
      `on a read-only tool clients ignore ${ignored.join(" and ")} (their defaults apply only when readOnlyHint is false), but the conventions ask for all four`,
    );
  return parts.join("; ");
}

/** "List Databases" for list-databases: the name's words capitalised, as a start. */
function example(name: string): string {
  return words(name)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}
