import { SNAKE_CASE, TOOL_NAME_CHARSET, TOOL_NAME_MAX_LENGTH, words } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "mcp-tool-name",
  input: "static",
  description:
    "Tool names use only A-Z a-z 0-9 _ - . , at most 128 characters, unique in the server (errors), and snake_case (warning).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    duplicate:
      "tool name {{name}} is listed twice (first at {{first}}); clients cannot tell the two apart",
    length: "tool name {{name}} has {{length}} characters; the protocol allows 1 to {{max}}",
    characters: "tool name {{name}} contains {{bad}}; the protocol allows only A-Z a-z 0-9 _ - .",
    notSnakeCase: "tool name {{name}} is not snake_case",
  },
  check({ tools, report }) {
    const first = new Map<string, (typeof tools)[number]>();
    for (const tool of tools) {
      const name = tool.name;
      if (name === undefined) continue;
      const path = [...tool.path, "name"];
      const earlier = first.get(name);
      if (earlier) {
        report({
          path,
          messageId: "duplicate",
          data: { name: quote(name), first: describe(earlier.path) },
          hint: "give each tool its own name",
          escalate: true,
        });
        continue;
      }
      first.set(name, tool);
      if (name.length === 0 || name.length > TOOL_NAME_MAX_LENGTH) {
        report({
          path,
          messageId: "length",
          data: { name: quote(name), length: name.length, max: TOOL_NAME_MAX_LENGTH },
          hint: "shorten it to {service}_{action}_{object}",
          escalate: true,
        });
      } else if (!TOOL_NAME_CHARSET.test(name)) {
        const bad = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ""))]
          .map((c) => quote(c))
          .join(", ");
        report({
          path,
          messageId: "characters",
          data: { name: quote(name), bad },
          hint: `use snake_case: ${quote(words(name).join("_") || "service_action_object")}`,
          escalate: true,
        });
      } else if (!SNAKE_CASE.test(name)) {
        report({
          path,
          messageId: "notSnakeCase",
          data: { name: quote(name) },
          hint: `name it ${quote(words(name).join("_"))}`,
        });
      }
    }
  },
});

function describe(path: readonly (string | number)[]): string {
  return path
    .map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${segment}`))
    .join("")
    .replace(/^\./, "");
}
