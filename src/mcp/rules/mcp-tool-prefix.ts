import { words } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "mcp-tool-prefix",
  domain: "mcp",
  input: "static",
  description: "Tool names start with the service taken from the server name (slack_mcp: slack_), or the one given with --service.",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: { noPrefix: "tool name {{name}} does not start with the service prefix {{prefix}}; tools of different servers share one namespace in the client" },
  check({ tools, service, report }) {
    if (service === undefined) return;
    const prefix = `${service}_`;
    for (const tool of tools) {
      if (tool.name === undefined || tool.name.startsWith(prefix)) continue;
      const rest = words(tool.name);
      const serviceWords = words(service);
      const already = serviceWords.every((word, index) => rest[index] === word);
      report({
        path: [...tool.path, "name"],
        messageId: "noPrefix",
        data: { name: quote(tool.name), prefix: quote(prefix) },
        hint: `name it ${quote(`${prefix}${(already ? rest.slice(serviceWords.length) : rest).join("_")}`)}`,
      });
    }
  },
});
