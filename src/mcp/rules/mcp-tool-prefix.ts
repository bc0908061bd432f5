import { splitToolName, words } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";
import { namingOf } from "./support.js";

export default defineMcpRule({
  id: "mcp-tool-prefix",
  input: "static",
  description:
    "Tool names start with the service taken from the server name without framework words (MongoDB MCP Server: mongodb_), in any case and spelling of it, or with --service.",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noPrefix:
      "tool name {{name}} does not start with the service prefix {{prefix}}; tools of different servers share one namespace in the client",
  },
  check({ tools, service, report }) {
    const naming = namingOf(tools, service);
    if (naming.preferred === undefined) return;
    const prefix = `${naming.preferred}_`;
    for (const tool of tools) {
      if (tool.name === undefined || splitToolName(tool.name, naming).prefix !== undefined)
        continue;
      const rest = words(tool.name);
      // A service written at the end (`web_search_exa`) moves to the front.
      const serviceWords = naming.preferred.split("_");
      const trailing =
        rest.length > serviceWords.length &&
        serviceWords.every(
          (word, index) => rest[rest.length - serviceWords.length + index] === word,
        );
      report({
        path: [...tool.path, "name"],
        messageId: "noPrefix",
        data: { name: quote(tool.name), prefix: quote(prefix) },
        hint: `name it ${quote(`${prefix}${(trailing ? rest.slice(0, rest.length - serviceWords.length) : rest).join("_")}`)}`,
      });
    }
  },
});
