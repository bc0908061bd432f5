import { effectiveRoot, nonNullMember, propertiesOf, schemaOf, typesOf, type Property, type SchemaNode } from "../input-schema.js";
import { isObject, type ToolEntry } from "../listing.js";
import { splitToolName, toolNaming, type ToolNaming } from "../naming.js";
import { quote } from "../text.js";

/** Per tool list, so it lives as long as the run's listing (a WeakMap keeps nothing alive). */
const namings = new WeakMap<readonly ToolEntry[], Map<string | undefined, ToolNaming>>();

/** The naming of a listing's tools (see toolNaming), worked out once per listing and service. */
export function namingOf(tools: readonly ToolEntry[], service: string | undefined): ToolNaming {
  let byService = namings.get(tools);
  if (!byService) namings.set(tools, (byService = new Map()));
  let naming = byService.get(service);
  if (!naming) byService.set(service, (naming = toolNaming(service, namesOf(tools))));
  return naming;
}

function* namesOf(tools: readonly ToolEntry[]): Generator<string> {
  for (const tool of tools) if (tool.name !== undefined) yield tool.name;
}

/** Verbs that name a listing: `list_issues`, `search_events`, and in object-first names `monitor_list`, `web_search`. */
const LIST_WORDS = new Set(["list", "search"]);
/**
 * Parameters that page through results under other names than limit and offset (normalised:
 * lowercase, no `_`/`-`): page numbers and sizes are numbers, cursors strings. A `page` that is a
 * URL or an object is not one.
 */
const PAGE_PARAMETERS = new Map<string, "number" | "string">([
  ["offset", "number"],
  ["page", "number"],
  ["pagesize", "number"],
  ["pageidx", "number"],
  ["pageindex", "number"],
  ["pagenumber", "number"],
  ["perpage", "number"],
  ["cursor", "string"],
  ["startcursor", "string"],
  ["nextcursor", "string"],
  ["pagetoken", "string"],
]);
/** Output fields of a page of results: the total beside the items, or what comes next. */
const PAGE_RESULT_FIELDS = new Set(["total", "totalcount", "hasmore", "nextcursor", "nextoffset", "nextpagetoken"]);
/** Action words of tools whose `limit` is how much to fetch or crawl, not a page size. */
const BUDGET_VERBS = new Set(["crawl", "map", "scrape", "spider"]);

const normalised = (name: string) => name.toLowerCase().replace(/[_-]/g, "");

/** Where a page starts, under the names pagination uses: bounded below only, or an opaque cursor. */
const PAGE_POSITIONS = new Set(["offset", "skip", "page", "pageidx", "pageindex", "pagenumber", "cursor", "startcursor", "nextcursor", "pagetoken"]);

/** Whether a list tool's parameter says where a page starts (offset, pageIdx, start_cursor...). */
export function isPagePosition(name: string): boolean {
  return PAGE_POSITIONS.has(normalised(name));
}

/**
 * A list tool in the sense of the pagination conventions, recognised from its name (an action word
 * list or search, or find with a plural object: `find_teams`), its input (a `limit` that is a page
 * size, or pagination under another name: `page_size`, `start_cursor`, `pageIdx`) or its declared
 * result (an array beside a total or a next cursor). A `limit` next to crawl depths, or on a
 * crawl or map tool, is a budget of pages to fetch, not pagination. A tool declared
 * `readOnlyHint: false` is not a list by its name alone (`search_feedback` sends feedback).
 */
export function isListTool(tool: ToolEntry, naming: ToolNaming): boolean {
  const action = tool.name === undefined ? [] : splitToolName(tool.name, naming).action;
  const writes = isObject(tool.value) && isObject(tool.value.annotations) && tool.value.annotations.readOnlyHint === false;
  if (!writes && (action.some((word) => LIST_WORDS.has(word)) || (action[0] === "find" && isPlural(action[action.length - 1])))) return true;
  const input = inputOf(tool);
  if (input) {
    const properties = propertiesOf(input.document, input.root);
    const names = properties.map((p) => normalised(p.name));
    const pages = (p: Property, index: number) => {
      const kind = PAGE_PARAMETERS.get(names[index]!);
      const types = typesOf(input.document, nonNullMember(input.document, p.resolved));
      return kind === "string" ? types.has("string") : kind === "number" && (types.has("integer") || types.has("number"));
    };
    if (properties.some(pages)) return true;
    const budget = action.some((word) => BUDGET_VERBS.has(word)) || names.some((name) => /depth|breadth/.test(name));
    if (names.includes("limit") && !budget) return true;
  }
  return hasPageResult(tool);
}

/** Whether a list tool takes no arguments at all: a fixed list (open pages, connections, configured sources). */
export function takesNoArguments(tool: ToolEntry): boolean {
  const input = inputOf(tool);
  return input !== undefined && propertiesOf(input.document, input.root).length === 0;
}

function hasPageResult(tool: ToolEntry): boolean {
  const document = schemaOf(tool, "outputSchema");
  if (!document) return false;
  const fields = propertiesOf(document, effectiveRoot(document).root);
  return fields.some((p) => typesOf(document, p.resolved).has("array")) && fields.some((p) => PAGE_RESULT_FIELDS.has(normalised(p.name)));
}

/** An English plural as tool names write them (`teams`, `dsns`, `releases`), not `status` or `access`. */
function isPlural(word: string | undefined): boolean {
  return word !== undefined && word.length > 2 && word.endsWith("s") && !/(?:ss|us|is)$/.test(word);
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
