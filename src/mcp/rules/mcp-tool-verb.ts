import { isVerb, splitToolName } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";
import { namingOf } from "./support.js";

export default defineMcpRule({
  id: "mcp-tool-verb",
  input: "static",
  description:
    "The word after the service prefix is a verb (an English verb by the WordNet lexicon, a computing verb such as upsert or exec, or one given with --verbs).",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: { noVerb: "tool name {{name}} does not start with an action verb: {{checked}}" },
  check({ tools, service, settings, report }) {
    const naming = namingOf(tools, service);
    for (const tool of tools) {
      if (tool.name === undefined) continue;
      const { prefix, action } = splitToolName(tool.name, naming);
      const [first, second] = action;
      if (first === undefined || isVerb(first, settings.verbs)) continue;
      // Without the service prefix the first word may be some other namespace (browser_click,
      // API-get-user, kubectl_get), which mcp-tool-prefix reports: the verb is the word after it.
      const namespaced = prefix === undefined && second !== undefined;
      if (namespaced && isVerb(second, settings.verbs)) continue;
      const word = namespaced ? second : first;
      report({
        path: [...tool.path, "name"],
        messageId: "noVerb",
        data: { name: quote(tool.name), checked: namespaced ? `neither ${quote(first)} nor ${quote(second)} is a verb` : `${quote(first)} is not a verb` },
        hint: `start with what the tool does: get, list, search, create, update, delete, send...${prefix ? ` after ${quote(tool.name.slice(0, prefix.length + 1))}` : ""}; if ${quote(word)} is a verb in your domain, add it with --verbs ${word}`,
      });
    }
  },
});
