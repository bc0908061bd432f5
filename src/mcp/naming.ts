import { readFileSync } from "node:fs";
import { BoundedMemo } from "../core/bounded-memo.js";
import { packageFile } from "../core/package-files.js";

/**
 * Names in the tool-server conventions: `{service}_mcp` servers (or the TypeScript community's
 * `{service}-mcp-server`), `{service}_{action}_{object}` tools.
 */
export type ServerNameStyle = "any" | "python" | "node";

export const SERVER_NAME_PATTERNS: Record<
  Exclude<ServerNameStyle, "any">,
  { pattern: RegExp; example: string; suffix: string }
> = {
  python: { pattern: /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_mcp$/, example: "slack_mcp", suffix: "_mcp" },
  node: {
    pattern: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-mcp-server$/,
    example: "slack-mcp-server",
    suffix: "-mcp-server",
  },
};

/** The protocol's tool-name charset and length (2025-11-25, "Tool Names"). */
export const TOOL_NAME_CHARSET = /^[A-Za-z0-9_.-]+$/;
export const TOOL_NAME_MAX_LENGTH = 128;
export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * The verbs of create-read-update-delete and of running things: they read as the action wherever
 * they stand, also last (`monitor_create`, `web_search`, `screencast_stop`).
 */
const CRUD_VERBS = [
  "get",
  "list",
  "search",
  "find",
  "fetch",
  "create",
  "read",
  "update",
  "write",
  "delete",
  "check",
  "run",
  "start",
  "stop",
];

/**
 * Tool verbs, each with where tools use it as a command: the verbs WordNet lacks (`init`, `rebase`,
 * `rerank`, `upsert`, `exec`, `cherry_pick`), and the verbs SemCor mostly reads as nouns (`list`,
 * `type`, `index`, `import`) that commands and APIs use as imperatives. A word here starts an action
 * whatever follows it. Extend with `--verbs`; docs/rules/mcp-tool-verb.md lists them with their sources.
 */
export const TOOL_VERBS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    CRUD_VERBS.map((verb) => [
      verb,
      "CRUD and HTTP (the conventions' own hint: get, list, search, create, update, delete)",
    ]),
  ),
  autocomplete: "Google Places Autocomplete API",
  checkout: "git checkout",
  cherry_pick: "git cherry-pick",
  cleanup: "npm cache clean, kubectl/helm cleanup jobs",
  close: "Playwright page.close",
  dedupe: "npm dedupe",
  diff: "git diff",
  enqueue: "job queues (BullMQ, Cloud Tasks)",
  exec: "kubectl exec, docker exec",
  force: "git push --force, kill --force: force_push, force_terminate",
  geocode: "Google Geocoding API",
  gzip: "gzip(1)",
  import: "SQL and ES import",
  index: "search engines (Elasticsearch index API)",
  init: "git init, npm init",
  lint: "ESLint, npm run lint: lint files",
  lookup: "DNS lookup, nslookup(1)",
  post: "HTTP POST (RFC 9110)",
  prefetch: "HTML prefetch, git fetch --prefetch",
  rebase: "git rebase",
  reconnect: "database and socket clients",
  refetch: "data-fetching clients (React Query refetch)",
  reindex: "Elasticsearch reindex API",
  rerank: "Cohere and Pinecone rerank APIs",
  reupload: "file-hosting APIs",
  resync: "sync clients (rclone, Argo CD)",
  rollback: "database transactions, helm rollback",
  tokenize: "NLP libraries (tokenize)",
  type: "Playwright and Puppeteer page.type",
  unarchive: "GitHub and Slack APIs",
  unassign: "issue trackers (Jira, GitHub)",
  unfollow: "social APIs",
  uninstall: "npm uninstall, helm uninstall",
  unlink: "unlink(2)",
  unset: "git config --unset, shell unset",
  unshare: "file-sharing APIs",
  unstar: "GitHub API",
  unsubscribe: "pub/sub clients",
  unwatch: "GitHub API",
  upsert: "SQL upsert, Pinecone upsert",
  whoami: "whoami(1), a query of the current identity",
};

/** How much WordNet 3.1 reads a word as a verb (data/wordnet-verbs.txt): senses plus SemCor tags, as a verb and otherwise. */
interface VerbEvidence {
  verb: number;
  other: number;
}

let lexicon: string | undefined;

/** The lemmas of the lexicon: one word, or two joined by `_` (`set_up`), lowercase a-z. */
const LEMMA = /^[a-z]+(?:_[a-z]+)?$/;

/**
 * The lexicon is read as one string and searched where a word would be (its lines are sorted by
 * lemma, as scripts/build-verb-lexicon.mjs writes them): a name asks for a few words, and splitting
 * all 11,105 lines into a Map cost a `caplint mcp` run 15-25 ms (issue 32: 9 ms before the counts).
 */
function lexiconEntry(word: string): VerbEvidence | undefined {
  // Names of a listing are mostly unique words (`tool12`, `s3_bucket`): one the lexicon cannot hold is
  // not searched for. Keep in step with the lemmas scripts/build-verb-lexicon.mjs writes.
  if (!LEMMA.test(word)) return undefined;
  const text = (lexicon ??= readFileSync(packageFile("data", "wordnet-verbs.txt"), "utf8"));
  let low = 0;
  let high = text.length;
  while (low < high) {
    const lineStart = text.lastIndexOf("\n", ((low + high) >>> 1) - 1) + 1;
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const order = compareLemma(text, lineStart, word);
    if (order === 0) {
      const counts = text.slice(lineStart + word.length + 1, lineEnd).split(" ");
      return { verb: Number(counts[0]), other: Number(counts[1]) };
    }
    if (order < 0) low = lineEnd + 1;
    else high = lineStart;
  }
  return undefined;
}

/**
 * What a word reads as: its lexicon entry, or for a word WordNet lacks that is `un` before a verb, a
 * reversative verb, which has no other reading (`unmute`, `unapprove`, `unprotect`: Datadog's and
 * GitLab's API verbs). Counter-examples: adjectives such as `unread` and `unstable` read as verbs too.
 */
function evidenceOf(word: string): VerbEvidence | undefined {
  return readings.get(word, readingOf);
}

/** The words of a listing repeat (`get`, `list`, the namespace): each is looked up once. */
const readings = new BoundedMemo<string, VerbEvidence | undefined>(4096);

function readingOf(word: string): VerbEvidence | undefined {
  const entry = lexiconEntry(word);
  if (entry !== undefined || !/^un[a-z]{3,}$/.test(word)) return entry;
  const reversed = lexiconEntry(word.slice(2));
  return reversed !== undefined ? { verb: reversed.verb, other: 0 } : undefined;
}

/** How the lemma of the line at `lineStart` sorts against `word` (by UTF-16 code units, as the build script sorts), read in place. */
function compareLemma(text: string, lineStart: number, word: string): number {
  for (let index = 0; ; index++) {
    const code = text.charCodeAt(lineStart + index);
    const lemmaCode = code === 32 ? -1 : code;
    const wordCode = index < word.length ? word.charCodeAt(index) : -1;
    if (lemmaCode !== wordCode) return lemmaCode - wordCode;
    if (lemmaCode === -1) return 0;
  }
}

/**
 * Whether a word can be a verb: a WordNet 3.1 verb (data/wordnet-verbs.txt, read on first use), a
 * tool verb, or one given with `--verbs`.
 */
export function isVerb(word: string, extra: ReadonlySet<string>): boolean {
  return extra.has(word) || Object.hasOwn(TOOL_VERBS, word) || evidenceOf(word) !== undefined;
}

/** A word that reads as a verb wherever it stands: a tool verb, one of --verbs, or a WordNet verb with no other part of speech (`create`, `upload`). */
export function isActionWord(word: string, extra: ReadonlySet<string>): boolean {
  return extra.has(word) || Object.hasOwn(TOOL_VERBS, word) || evidenceOf(word)?.other === 0;
}

/** A verb that ends a noun phrase as its head: one with no other part of speech, or a CRUD verb (`file_upload`, `monitor_create`, but not `drop_index`). */
function isActionAtTheEnd(word: string): boolean {
  return CRUD_VERBS.includes(word) || evidenceOf(word)?.other === 0;
}

/** Words that say how an action is done when a verb follows them: HubSpot's batch-create, GitLab's bulk publish, Elasticsearch's bulk API. */
const MANNER_WORDS = new Set(["batch", "bulk"]);

/** Below this share of verb evidence a word reads first as a noun or adjective (`web` 0.09, `research` 0.05, `console` 0.33, `list` 0.41). */
const NOUN_LEANING = 0.5;

function verbShare(word: string): number {
  const evidence = evidenceOf(word);
  return evidence ? evidence.verb / (evidence.verb + evidence.other) : 0;
}

/** Why the words of a tool name after its prefix do not read as an action; `example` is the name's words with the action first, when one is found. */
export interface NotAnAction {
  reason: "noVerb" | "nounPhrase";
  word: string;
  example?: string[];
}

/**
 * Whether the words read as an imperative, `{action}_{object}`. English noun phrases end on their
 * head (`web_search`, `file_upload`, `console_messages`), imperatives start with the verb
 * (`search_web`, `upload_file`). So: a two-word verb (`set_up`, `cherry_pick`) or a tool verb first
 * is an action; a first word that is no verb is not; a single verb is one. Then the name reads as a
 * noun phrase when a later word is an action word and either ends the name (`monitor_create`,
 * `web_search`) or follows a word that reads first as a noun (`research_search_papers`), and when a
 * word that reads first as a noun precedes a plural (`console_messages`, `network_requests`).
 */
export function readAsAction(
  action: readonly string[],
  extra: ReadonlySet<string>,
): NotAnAction | undefined {
  const [first, second] = action;
  if (first === undefined) return undefined;
  // `batch_create_objects`, `bulk_publish_draft_notes`: how the action is done, before it.
  if (
    MANNER_WORDS.has(first) &&
    second !== undefined &&
    readAsAction(action.slice(1), extra) === undefined
  )
    return undefined;
  if (
    second !== undefined &&
    (evidenceOf(`${first}_${second}`) !== undefined ||
      Object.hasOwn(TOOL_VERBS, `${first}_${second}`))
  )
    return undefined;
  const last = action.length - 1;
  if (isActionWord(first, extra)) {
    // Two verbs: the one at the end is the action on the other (`interact_stop`, `download_start`).
    const objectFirst =
      action.length === 2 &&
      !extra.has(first) &&
      !Object.hasOwn(TOOL_VERBS, first) &&
      CRUD_VERBS.includes(action[1]!);
    return objectFirst
      ? { reason: "nounPhrase", word: first, example: [action[1]!, first] }
      : undefined;
  }
  const laterAction = action.findIndex((word, index) => index > 0 && isActionWord(word, extra));
  const withActionFirst = (index: number) => [
    action[index]!,
    ...action.filter((_, other) => other !== index),
  ];
  if (evidenceOf(first) === undefined) {
    const laterVerb =
      laterAction > 0
        ? laterAction
        : action.findIndex((word, index) => index > 0 && verbShare(word) >= NOUN_LEANING);
    return laterVerb > 0
      ? { reason: "nounPhrase", word: first, example: withActionFirst(laterVerb) }
      : { reason: "noVerb", word: first };
  }
  if (second === undefined) return undefined;
  const nounFirst = verbShare(first) < NOUN_LEANING;
  if (laterAction > 0 && ((laterAction === last && isActionAtTheEnd(action[last]!)) || nounFirst))
    return { reason: "nounPhrase", word: first, example: withActionFirst(laterAction) };
  // A noun and its head: `console_messages`, `network_request` (request reads as a verb 0.58, network 0.03).
  if (
    nounFirst &&
    (isPlural(action[last]) || verbShare(action[last]!) > Math.max(NOUN_LEANING, verbShare(first)))
  )
    return { reason: "nounPhrase", word: first, example: ["get", ...action] };
  return undefined;
}

/** An English plural as tool names write them (`teams`, `dsns`, `releases`), not `status` or `access`. */
export function isPlural(word: string | undefined): boolean {
  return word !== undefined && word.length > 2 && word.endsWith("s") && !/(?:ss|us|is)$/.test(word);
}

/** Lowercase words of a name written in snake_case, kebab-case, dotted or camelCase. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/** Version and date tokens in a server name: `v2`, `1.0`, `2024`, `2024-05-01`, `20240501`. */
export function versionToken(name: string): string | undefined {
  const match =
    /(?:^|[^a-z0-9])(v\d+(?:\.\d+)*)(?![a-z0-9])|(\d+\.\d+(?:\.\d+)*)|((?:19|20)\d{2}(?:[-_.]?\d{2}(?:[-_.]?\d{2})?)?)(?!\d)/i.exec(
      name,
    );
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** Words of MCP frameworks and packaging in a server name (`firecrawl-fastmcp`, `MongoDB MCP Server`): not the service. */
const FRAMEWORK_WORDS = new Set([
  "mcp",
  "fastmcp",
  "server",
  "servers",
  "sdk",
  "modelcontextprotocol",
]);

const VERSION_OR_DATE =
  /(?:^|[^a-z0-9])v\d+(?:\.\d+)*(?![a-z0-9])|\d+\.\d+(?:\.\d+)*|(?:19|20)\d{2}(?:[-_.]?\d{2}){0,2}(?!\d)/gi;

/**
 * The service a server is for, as snake_case: the last path segment of its name that names one,
 * without framework words, versions and dates (`@shortcut/mcp` is for shortcut, `ai.perplexity/mcp-server`
 * for perplexity). A word written in camel case stays one word (`MongoDB` is `mongodb`, not
 * `mongo_db`), since that is how the service spells itself.
 */
export function serviceFromServerName(name: string): string | undefined {
  for (const segment of name.split(/[/:@]/).filter(Boolean).reverse()) {
    const service = serviceOfSegment(segment);
    if (service !== undefined) return service;
  }
  return undefined;
}

/** Top-level domains in a dotted name (`ai.perplexity`, `io.github.user`): where the service is registered, not the service. */
const DOMAIN_SUFFIXES = new Set(["ai", "app", "co", "com", "dev", "io", "net", "org"]);

function serviceOfSegment(segment: string): string | undefined {
  const withoutDomain = segment
    .replace(VERSION_OR_DATE, " ")
    .split(".")
    .filter((label, _, labels) => labels.length === 1 || !DOMAIN_SUFFIXES.has(label.toLowerCase()))
    .join(".");
  const service = withoutDomain
    .split(/[^A-Za-z0-9]+/)
    .map((token) =>
      words(token)
        .filter((hump) => !FRAMEWORK_WORDS.has(hump))
        .join(""),
    )
    .filter(Boolean)
    .join("_");
  return service === "" ? undefined : service;
}

/**
 * How the tools of one listing are named: the service, and the prefixes accepted as its namespace.
 * Those are the service written with `_`, `-`, `.` or nothing between its words, in any case
 * (`mongodb_`, `MongoDB-`), and the first word most tools share when it is the start of the service
 * (`brave_` for `brave_search`).
 */
export interface ToolNaming {
  service: string | undefined;
  /** Accepted prefixes, lowercase, without the separator; longest first. */
  prefixes: readonly string[];
  /** The prefix a hint suggests: the accepted one the tools share, else the service. */
  preferred: string | undefined;
  /**
   * A first word that is not the service's but namespaces the tools (`browser_` on Playwright,
   * `kubectl_`, `API-` of the "Notion API"): most tools share it (at least three), or it is a word of
   * the server's name that at least two tools start with. The action may follow it.
   */
  namespace?: { word: string; shared: number; total: number; fromServerName: boolean };
}

export function toolNaming(service: string | undefined, toolNames: Iterable<string>): ToolNaming {
  const first = firstWordCounts(toolNames);
  const shared =
    first.best && first.best[1] >= 2 && first.best[1] * 2 > first.total ? first.best[0] : undefined;
  const serviceWords = service?.toLowerCase().split("_") ?? [];
  const sharedForm =
    shared !== undefined &&
    serviceWords.some((_, end) => serviceWords.slice(0, end + 1).join("") === shared)
      ? shared
      : undefined;
  const namespace = namespaceOf(first, serviceWords, sharedForm);
  const withNamespace = namespace ? { namespace } : {};
  if (service === undefined)
    return { service, prefixes: [], preferred: undefined, ...withNamespace };
  const prefixes = new Set(["_", "-", ".", ""].map((separator) => serviceWords.join(separator)));
  if (sharedForm !== undefined) prefixes.add(sharedForm);
  return {
    service,
    prefixes: [...prefixes].sort((a, b) => b.length - a.length),
    preferred: sharedForm ?? service,
    ...withNamespace,
  };
}

interface FirstWords {
  counts: Map<string, number>;
  total: number;
  best: [string, number] | undefined;
}

/** How many tool names start with each first word (up to `_`, `-` or `.`). */
function firstWordCounts(toolNames: Iterable<string>): FirstWords {
  const counts = new Map<string, number>();
  let total = 0;
  for (const name of toolNames) {
    total++;
    const first = /^[^_.-]+(?=[_.-])/.exec(name)?.[0].toLowerCase();
    if (first !== undefined) counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  let best: [string, number] | undefined;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  return { counts, total, best };
}

const NO_WORDS: ReadonlySet<string> = new Set();

/** A namespace is a word that is not an action itself: `get-` shared by most tools is their verb. */
function namespaceOf(
  first: FirstWords,
  serviceWords: readonly string[],
  prefix: string | undefined,
): ToolNaming["namespace"] {
  const { best, total } = first;
  if (
    best &&
    best[0] !== prefix &&
    !isVerb(best[0], NO_WORDS) &&
    best[1] >= 3 &&
    best[1] * 2 > total
  )
    return { word: best[0], shared: best[1], total, fromServerName: false };
  for (const word of serviceWords) {
    const shared = first.counts.get(word) ?? 0;
    if (word !== prefix && !isVerb(word, NO_WORDS) && serviceWords.length > 1 && shared >= 2)
      return { word, shared, total, fromServerName: true };
  }
  return undefined;
}

/** A tool name's accepted prefix (if any) and the words after it; shared, so never changed. */
export interface SplitName {
  prefix: string | undefined;
  action: readonly string[];
}

/**
 * Names split per naming (so per listing; a WeakMap keeps no listing alive): mcp-tool-verb,
 * mcp-tool-prefix and the list-tool heuristics each split every name.
 */
const splitNames = new WeakMap<ToolNaming, Map<string, SplitName>>();

/** A tool name split into the accepted prefix it starts with (if any) and the words after it. */
export function splitToolName(toolName: string, naming: ToolNaming): SplitName {
  let byName = splitNames.get(naming);
  if (!byName) splitNames.set(naming, (byName = new Map<string, SplitName>()));
  let split = byName.get(toolName);
  if (!split) byName.set(toolName, (split = splitName(toolName, naming)));
  return split;
}

function splitName(toolName: string, naming: ToolNaming): SplitName {
  const lower = toolName.toLowerCase();
  for (const prefix of naming.prefixes) {
    if (!lower.startsWith(prefix) || lower.length <= prefix.length + 1) continue;
    const next = toolName[prefix.length]!;
    if (next === "_" || next === "-" || next === ".")
      return { prefix, action: words(toolName.slice(prefix.length + 1)) };
    // camelCase after the service: `mongodbFind`
    if (/[A-Z]/.test(next) && /[a-z0-9]/.test(toolName[prefix.length - 1] ?? ""))
      return { prefix, action: words(toolName.slice(prefix.length)) };
  }
  return { prefix: undefined, action: words(toolName) };
}
