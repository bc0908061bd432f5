import { readFileSync } from "node:fs";
import { packageFile } from "../core/package-files.js";

/**
 * Names in the tool-server conventions: `{service}_mcp` servers (or the TypeScript community's
 * `{service}-mcp-server`), `{service}_{action}_{object}` tools.
 */
export type ServerNameStyle = "any" | "python" | "node";

export const SERVER_NAME_PATTERNS: Record<Exclude<ServerNameStyle, "any">, { pattern: RegExp; example: string; suffix: string }> = {
  python: { pattern: /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_mcp$/, example: "slack_mcp", suffix: "_mcp" },
  node: { pattern: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-mcp-server$/, example: "slack-mcp-server", suffix: "-mcp-server" },
};

/** The protocol's tool-name charset and length (2025-11-25, "Tool Names"). */
export const TOOL_NAME_CHARSET = /^[A-Za-z0-9_.-]+$/;
export const TOOL_NAME_MAX_LENGTH = 128;
export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * Verbs of computing that WordNet lacks (they start real tool names: `exec_in_pod`,
 * `kubectl_reconnect`, `upsert_record`). Extend with `--verbs`; docs/rules/mcp-tool-verb.md lists them.
 */
export const DOMAIN_VERBS: readonly string[] = [
  "autocomplete",
  "dedupe",
  "diff",
  "enqueue",
  "exec",
  "geocode",
  "gzip",
  "lookup",
  "prefetch",
  "reconnect",
  "refetch",
  "reindex",
  "reupload",
  "resync",
  "rollback",
  "tokenize",
  "unarchive",
  "unassign",
  "unfollow",
  "uninstall",
  "unlink",
  "unset",
  "unshare",
  "unstar",
  "unsubscribe",
  "unwatch",
  "upsert",
];

let englishVerbs: ReadonlySet<string> | undefined;

/**
 * Whether a word can be a verb: one of WordNet 3.1's 8,431 one-word verbs (data/wordnet-verbs.txt,
 * read on first use), a domain verb, or one given with `--verbs`. A lexicon rather than a list of
 * usual verbs: tool names use the whole language (click, hover, scrape, aggregate, emulate).
 */
export function isVerb(word: string, extra: ReadonlySet<string>): boolean {
  englishVerbs ??= new Set(readFileSync(packageFile("data", "wordnet-verbs.txt"), "utf8").split("\n"));
  return extra.has(word) || englishVerbs.has(word);
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
  const match = /(?:^|[^a-z0-9])(v\d+(?:\.\d+)*)(?![a-z0-9])|(\d+\.\d+(?:\.\d+)*)|((?:19|20)\d{2}(?:[-_.]?\d{2}(?:[-_.]?\d{2})?)?)(?!\d)/i.exec(name);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** Words of MCP frameworks and packaging in a server name (`firecrawl-fastmcp`, `MongoDB MCP Server`): not the service. */
const FRAMEWORK_WORDS = new Set(["mcp", "fastmcp", "server", "servers", "sdk", "modelcontextprotocol"]);

const VERSION_OR_DATE = /(?:^|[^a-z0-9])v\d+(?:\.\d+)*(?![a-z0-9])|\d+\.\d+(?:\.\d+)*|(?:19|20)\d{2}(?:[-_.]?\d{2}){0,2}(?!\d)/gi;

/**
 * The service a server is for, as snake_case: the last path segment of its name without framework
 * words, versions and dates. A word written in camel case stays one word (`MongoDB` is `mongodb`,
 * not `mongo_db`), since that is how the service spells itself.
 */
export function serviceFromServerName(name: string): string | undefined {
  const lastSegment = name.split(/[/:@]/).filter(Boolean).pop() ?? "";
  const service = lastSegment
    .replace(VERSION_OR_DATE, " ")
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
}

export function toolNaming(service: string | undefined, toolNames: Iterable<string>): ToolNaming {
  if (service === undefined) return { service, prefixes: [], preferred: undefined };
  const serviceWords = service.toLowerCase().split("_");
  const prefixes = new Set(["_", "-", ".", ""].map((separator) => serviceWords.join(separator)));
  const shared = sharedFirstWord(toolNames);
  const sharedForm = shared !== undefined && serviceWords.some((_, end) => serviceWords.slice(0, end + 1).join("") === shared) ? shared : undefined;
  if (sharedForm !== undefined) prefixes.add(sharedForm);
  return {
    service,
    prefixes: [...prefixes].sort((a, b) => b.length - a.length),
    preferred: sharedForm ?? service,
  };
}

/** The first word (up to `_`, `-` or `.`) of most tool names, when at least two share it. */
function sharedFirstWord(toolNames: Iterable<string>): string | undefined {
  const counts = new Map<string, number>();
  let total = 0;
  for (const name of toolNames) {
    total++;
    const first = /^[^_.-]+(?=[_.-])/.exec(name)?.[0].toLowerCase();
    if (first !== undefined) counts.set(first, (counts.get(first) ?? 0) + 1);
  }
  let best: [string, number] | undefined;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  return best && best[1] >= 2 && best[1] * 2 > total ? best[0] : undefined;
}

/** A tool name split into the accepted prefix it starts with (if any) and the words after it. */
export function splitToolName(toolName: string, naming: ToolNaming): { prefix: string | undefined; action: string[] } {
  const lower = toolName.toLowerCase();
  for (const prefix of naming.prefixes) {
    if (!lower.startsWith(prefix) || lower.length <= prefix.length + 1) continue;
    const next = toolName[prefix.length]!;
    if (next === "_" || next === "-" || next === ".") return { prefix, action: words(toolName.slice(prefix.length + 1)) };
    // camelCase after the service: `mongodbFind`
    if (/[A-Z]/.test(next) && /[a-z0-9]/.test(toolName[prefix.length - 1] ?? "")) return { prefix, action: words(toolName.slice(prefix.length)) };
  }
  return { prefix: undefined, action: words(toolName) };
}
