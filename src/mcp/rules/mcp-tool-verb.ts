import { isActionWord, readAsAction, splitToolName, words, type ToolNaming } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";
import { namingOf } from "./support.js";

export default defineMcpRule({
  id: "mcp-tool-verb",
  input: "static",
  description:
    "The words after the service prefix read as an action, {action}_{object}: a verb first (WordNet 3.1 with SemCor's counts of how often a word is a verb, two-word verbs, tool verbs such as init or rerank, or one given with --verbs), not a noun phrase such as web_search.",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    noVerb:
      "tool name {{name}} does not start with an action verb{{after}}: {{word}} is not a verb",
    nounPhrase:
      "tool name {{name}} reads as a noun phrase{{after}}: start with the action, e.g. {{example}}",
  },
  check({ tools, service, settings, report }) {
    const naming = namingOf(tools, service);
    for (const tool of tools) {
      if (tool.name === undefined) continue;
      const split = splitToolName(tool.name, naming);
      // Another namespace than the service's (browser_click, API-get-user, kubectl_get) is
      // mcp-tool-prefix's to report: the action follows it. Only a namespace the tools share.
      const namespace =
        split.prefix === undefined &&
        split.action.length > 1 &&
        split.action[0] === naming.namespace?.word
          ? naming.namespace
          : undefined;
      const action = namespace ? split.action.slice(1) : split.action;
      const problem = readAsAction(action, settings.verbs);
      if (!problem || isNamedByItsAction(split.prefix, tool.name, settings.verbs)) continue;
      const lead =
        split.prefix !== undefined
          ? tool.name.slice(0, split.prefix.length + 1)
          : namespace
            ? tool.name.slice(0, namespace.word.length + 1)
            : "";
      const after =
        lead === ""
          ? ""
          : ` after ${quote(lead)}${namespace ? ` (${namespaceNote(namespace)})` : ""}`;
      report({
        path: [...tool.path, "name"],
        messageId: problem.reason,
        data: {
          name: quote(tool.name),
          after,
          word: quote(problem.word),
          example: quote(lead + (problem.example ?? []).join(separatorOf(tool.name))),
        },
        hint: hintFor(
          tool.name,
          naming,
          split.prefix || namespace ? undefined : action,
          settings.verbs,
          problem.word,
        ),
      });
    }
  },
});

/** A service named by what it does (`fetch`, of the "zcaceres/fetch" server): `fetch_html` is the action and its object. */
function isNamedByItsAction(
  prefix: string | undefined,
  name: string,
  verbs: ReadonlySet<string>,
): boolean {
  return (
    prefix !== undefined &&
    /^[a-z]+$/.test(prefix) &&
    isActionWord(prefix, verbs) &&
    readAsAction(words(name), verbs) === undefined
  );
}

function namespaceNote(namespace: NonNullable<ToolNaming["namespace"]>): string {
  return namespace.fromServerName
    ? `a word of the server's name, on ${namespace.shared} of ${namespace.total} tools`
    : `the namespace ${namespace.shared} of ${namespace.total} tools share`;
}

function separatorOf(name: string): string {
  return /[_.-]/.exec(name)?.[0] ?? "_";
}

function hintFor(
  name: string,
  naming: ToolNaming,
  unprefixed: readonly string[] | undefined,
  verbs: ReadonlySet<string>,
  word: string,
): string {
  const start = "start with what the tool does: get, list, search, create, update, delete, send...";
  // `performance_start_trace` would read as an action after a namespace: say why it is none.
  const first =
    unprefixed && unprefixed.length > 1 && readAsAction(unprefixed.slice(1), verbs) === undefined
      ? /^[^_.-]+[_.-]/.exec(name)?.[0]
      : undefined;
  const shared = naming.namespace ? ` (here ${quote(naming.namespace.word)})` : "";
  const where = first
    ? `; ${quote(first)} is no namespace: the action may follow only a first word most of the server's tools share${shared}`
    : "";
  return `${start}${where}; if ${quote(word)} is a verb in your domain, add it with --verbs ${word}`;
}
