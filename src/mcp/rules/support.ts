import {
  effectiveRoot,
  hasNoProperties,
  nonNullMember,
  propertiesOf,
  resolveRef,
  schemaOf,
  typesOf,
  type Property,
  type SchemaNode,
} from "../input-schema.js";
import { isObject, type ToolEntry } from "../listing.js";
import { isPlural, splitToolName, toolNaming, type ToolNaming } from "../naming.js";
import { quote } from "../text.js";

/** Per tool list, so it lives as long as the run's listing (a WeakMap keeps nothing alive). */
const namings = new WeakMap<readonly ToolEntry[], Map<string | undefined, ToolNaming>>();

/** The naming of a listing's tools (see toolNaming), worked out once per listing and service. */
export function namingOf(tools: readonly ToolEntry[], service: string | undefined): ToolNaming {
  let byService = namings.get(tools);
  if (!byService) namings.set(tools, (byService = new Map<string | undefined, ToolNaming>()));
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
  ["pageoffset", "number"],
  ["nextpagetoken", "string"],
]);
/** Output fields of a page of results: the total beside the items, or what comes next. */
const PAGE_RESULT_FIELDS = new Set([
  "total",
  "totalcount",
  "hasmore",
  "nextcursor",
  "nextoffset",
  "nextpagetoken",
]);
/** Action words of tools whose `limit` is how much to fetch or crawl, not a page size. */
const BUDGET_VERBS = new Set(["crawl", "map", "scrape", "spider"]);
/** Parameters of a crawl's reach: a `limit` beside them is a budget too. */
const BUDGET_PARAMETER = /depth|breadth/;

const normalised = (name: string) => name.toLowerCase().replace(/[_-]/g, "");

/** Where a page starts, under the names pagination uses: bounded below only, or an opaque cursor. */
const PAGE_POSITIONS = new Set([
  "offset",
  "skip",
  "page",
  "pageidx",
  "pageindex",
  "pagenumber",
  "pageoffset",
  "cursor",
  "startcursor",
  "nextcursor",
  "pagetoken",
  "nextpagetoken",
]);
/** A description of where a page starts, for a name that does not say it (Datadog's `start`: "Starting offset for pagination"). */
const DESCRIBED_AS_OFFSET = /\boffset\b/i;
const PAGE_SIZE_NAME = /size|count|limit|max|num/i;

/** Whether a list tool's parameter says where a page starts (offset, pageIdx, start_cursor..., or a `start` described as an offset). */
export function isPagePosition(property: Property): boolean {
  if (PAGE_POSITIONS.has(normalised(property.name))) return true;
  return (
    DESCRIBED_AS_OFFSET.test(descriptionOf(property.resolved)) &&
    !PAGE_SIZE_NAME.test(property.name)
  );
}

/** How many items to return, under names that are no page size: `maxResults`, `maxCount`, `top_k`, `num_results`. */
const RESULT_COUNTS = new Set([
  "maxresults",
  "maxcount",
  "maxitems",
  "maxentries",
  "numresults",
  "topk",
]);
/** Action words of tools that start work in the background and answer with its id (`start_search`), not with a page. */
const JOB_STARTERS = new Set(["start", "begin", "launch", "submit", "trigger", "spawn", "enqueue"]);
/** A description that answers with a job: "returns immediately with a session ID", "returns a job id". */
const RETURNS_JOB_ID = /\breturns?\b[^.]{0,60}\b(?:session|job|task|operation|run)[ _-]?id\b/i;
/** An offset into the lines of one text: "'offset' (start line", "line offset", "offset ... lines". */
const LINE_OFFSET = /\boffset\b[^.\n]{0,40}\blines?\b|\bline[ _-]?offset\b/i;

/**
 * A list tool in the sense of the pagination conventions: one that returns items of a collection
 * with a control of how many or from where. Recognised from its name (an action word list or
 * search, or find with a plural object: `find_teams`), its input (a `limit` that is a page size,
 * pagination under another name: `page_size`, `start_cursor`, `pageIdx`, or a result count:
 * `maxResults`, `maxCount`) or its declared result (an array beside a total or a next cursor).
 * Not one: a `limit` next to crawl depths, or on a crawl or map tool (a budget of pages to fetch);
 * a tool declared `readOnlyHint: false` by its name or result count alone (`search_feedback`
 * sends feedback, `monitor_create` takes `maxResults` for later); a tool that pages the lines of one
 * text (`read_file` with a line `offset`, negative for a tail); a tool that starts a job and
 * returns its id (`start_search`). `--list-tools` pins the answer for named tools.
 */
export function isListTool(
  tool: ToolEntry,
  naming: ToolNaming,
  pinned?: ReadonlyMap<string, boolean>,
): boolean {
  const pin = tool.name === undefined ? undefined : pinned?.get(tool.name);
  if (pin !== undefined) return pin;
  let judged = listToolsByNaming.get(naming);
  if (!judged) listToolsByNaming.set(naming, (judged = new WeakMap()));
  let listTool = judged.get(tool);
  if (listTool === undefined) judged.set(tool, (listTool = readsAsListTool(tool, naming)));
  return listTool;
}

/** What the heuristics say of each tool of a listing, worked out once for the three rules that ask (WeakMaps keep no listing alive). */
const listToolsByNaming = new WeakMap<ToolNaming, WeakMap<ToolEntry, boolean>>();

function readsAsListTool(tool: ToolEntry, naming: ToolNaming): boolean {
  const action = tool.name === undefined ? [] : splitToolName(tool.name, naming).action;
  const writes =
    isObject(tool.value) &&
    isObject(tool.value.annotations) &&
    tool.value.annotations.readOnlyHint === false;
  const description =
    isObject(tool.value) && typeof tool.value.description === "string"
      ? tool.value.description
      : "";
  if (JOB_STARTERS.has(action[0] ?? "") || RETURNS_JOB_ID.test(description))
    return hasPageResult(tool);
  const input = inputOf(tool);
  const facts = input ? parameterFacts(input, description) : 0;
  if (facts & PAGES_LINES) return false;
  if (
    !writes &&
    (action.some((word) => LIST_WORDS.has(word)) ||
      (action[0] === "find" && isPlural(action[action.length - 1])))
  )
    return true;
  const has = (fact: number) => (facts & fact) !== 0;
  const budget = has(CRAWL_REACH) || action.some((word) => BUDGET_VERBS.has(word));
  return (
    has(PAGE_PARAMETER) ||
    (has(LIMIT) && !budget) ||
    (!writes && !budget && has(RESULT_COUNT)) ||
    hasPageResult(tool)
  );
}

/** What a tool's parameters say of it, as bits: worked out in one pass, without an object or a callback per tool. */
const PAGE_PARAMETER = 1;
const LIMIT = 2;
const CRAWL_REACH = 4;
const RESULT_COUNT = 8;
/** Its `offset` is a line of one text (the first parameter named so, as its description or the tool's says). */
const PAGES_LINES = 16;

function parameterFacts(input: ToolInput, toolDescription: string): number {
  const parameters = input.root.schema.properties;
  if (!isObject(parameters)) return 0;
  let facts = 0;
  let offsetSeen = false;
  // By name first: a parameter's schema is resolved only for the few names that ask for it.
  for (const written of Object.keys(parameters)) {
    if (!isObject(parameters[written])) continue;
    const name = normalised(written);
    if (name === "offset" && !offsetSeen) {
      offsetSeen = true;
      if (
        LINE_OFFSET.test(toolDescription) ||
        LINE_OFFSET.test(`offset ${descriptionOf(parameterSchema(input, written))}`)
      )
        return PAGES_LINES;
    }
    const kind = PAGE_PARAMETERS.get(name);
    if (
      kind !== undefined &&
      !(facts & PAGE_PARAMETER) &&
      hasType(input.document, parameterSchema(input, written), kind)
    )
      facts |= PAGE_PARAMETER;
    if (name === "limit") facts |= LIMIT;
    if (BUDGET_PARAMETER.test(name)) facts |= CRAWL_REACH;
    if (
      RESULT_COUNTS.has(name) &&
      !(facts & RESULT_COUNT) &&
      hasType(input.document, parameterSchema(input, written), "number")
    )
      facts |= RESULT_COUNT;
  }
  return facts;
}

/** A parameter's schema, `$ref`s followed (as {@link propertiesOf} resolves it). */
function parameterSchema(input: ToolInput, name: string): SchemaNode {
  const schema = (input.root.schema.properties as Record<string, Record<string, unknown>>)[name]!;
  return resolveRef(input.document, { schema, path: [...input.root.path, "properties", name] });
}

/** Whether a value (its non-null member) may be a string, or a number (an integer or any number). */
function hasType(document: SchemaNode, value: SchemaNode, type: "string" | "number"): boolean {
  const types = typesOf(document, nonNullMember(document, value));
  return type === "string" ? types.has("string") : types.has("integer") || types.has("number");
}

function descriptionOf(schema: SchemaNode): string {
  return typeof schema.schema.description === "string" ? schema.schema.description : "";
}

/** Whether a list tool takes no arguments at all: a fixed list (open pages, connections, configured sources). */
export function takesNoArguments(tool: ToolEntry): boolean {
  const input = inputOf(tool);
  return input !== undefined && hasNoProperties(input.root);
}

function hasPageResult(tool: ToolEntry): boolean {
  const document = schemaOf(tool, "outputSchema");
  if (!document) return false;
  const fields = propertiesOf(document, effectiveRoot(document).root);
  return (
    fields.some((p) => typesOf(document, p.resolved).has("array")) &&
    fields.some((p) => PAGE_RESULT_FIELDS.has(normalised(p.name)))
  );
}

/** The tool's input schema and the object that holds its parameters (see effectiveRoot). */
export function inputOf(tool: ToolEntry): ToolInput | undefined {
  if (inputs.has(tool)) return inputs.get(tool);
  const document = schemaOf(tool, "inputSchema");
  const input = document && { document, ...effectiveRoot(document) };
  inputs.set(tool, input);
  return input;
}

type ToolInput = Readonly<{ document: SchemaNode; root: SchemaNode; wrapper?: string }>;

/** Each tool's input, found once for the half-dozen rules and heuristics that ask (a WeakMap keeps no listing alive). */
const inputs = new WeakMap<ToolEntry, ToolInput | undefined>();

/** Every tool with an input schema, and that schema: the walk the input rules share. */
export function* toolInputs(
  tools: Iterable<ToolEntry>,
): Generator<{ tool: ToolEntry; input: NonNullable<ReturnType<typeof inputOf>> }> {
  for (const tool of tools) {
    const input = inputOf(tool);
    if (input) yield { tool, input };
  }
}

export function toolLabel(tool: ToolEntry): string {
  return tool.name === undefined
    ? `tool #${String(tool.path[tool.path.length - 1])}`
    : `tool ${quote(tool.name)}`;
}
