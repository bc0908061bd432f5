import { actionWords } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "mcp-tool-verb",
  domain: "mcp",
  input: "static",
  description: "The word after the service prefix is an action verb (get, list, search, create, update, delete, send, ...; extend with --verbs).",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: { noVerb: "tool name {{name}} does not start with an action verb ({{verb}} is not one)" },
  check({ tools, service, settings, report }) {
    for (const tool of tools) {
      if (tool.name === undefined) continue;
      const action = actionWords(tool.name, service);
      // Without a known service the first word may be an unknown prefix: a verb second is accepted.
      const verb = service === undefined && action.length > 1 && !settings.verbs.has(action[0]!) ? action[1] : action[0];
      if (verb === undefined || settings.verbs.has(verb) || settings.verbs.has(action[0]!)) continue;
      report({
        path: [...tool.path, "name"],
        messageId: "noVerb",
        data: { name: quote(tool.name), verb: quote(verb) },
        hint: `start with a verb such as get, list, search, create, update, delete or send${service ? ` after ${quote(`${service}_`)}` : ""}; if ${quote(verb)} is a verb in your domain, add it with --verbs ${verb}`,
      });
    }
  },
});
