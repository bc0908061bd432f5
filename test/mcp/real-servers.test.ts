import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { JsonFinding } from "../helpers/expected-output.js";
import { FIXTURES, run } from "../helpers/run.js";

/**
 * The listings of 15 public servers (fixtures/mcp/real, see SOURCE.md there), linted as a new user
 * would. None of them breaks the protocol, so none may give an error (issue 21); each false-positive
 * class and each miss the issue found is pinned on the listing that showed it.
 */
const REAL = path.join(FIXTURES, "mcp", "real");
const SERVERS = readdirSync(REAL)
  .filter((name) => name.endsWith(".json"))
  .map((name) => name.slice(0, -".json".length))
  .sort();

const findings = new Map<string, JsonFinding[]>();
const exitCodes = new Map<string, number>();

beforeAll(async () => {
  for (const server of SERVERS) {
    const result = await run(["mcp", "--format", "json", `${server}.json`], REAL);
    expect(result.stderr).toBe("");
    findings.set(server, (JSON.parse(result.stdout) as { diagnostics: JsonFinding[] }).diagnostics);
    exitCodes.set(server, result.code);
  }
});

/** The findings of a rule on one server, as "tool name: message" would be too long: the messages. */
const of = (server: string, ruleId: string) => findings.get(server)!.filter((finding) => finding.ruleId === ruleId);
const about = (server: string, ruleId: string, tool: string) => of(server, ruleId).filter((finding) => finding.message.includes(`"${tool}"`));

describe("real tool servers (fixtures/mcp/real)", () => {
  it("are at least 10, and give no error: none breaks the protocol", () => {
    expect(SERVERS.length).toBeGreaterThanOrEqual(10);
    for (const server of SERVERS) {
      expect(
        findings.get(server)!.filter((finding) => finding.severity === "error"),
        server,
      ).toEqual([]);
      expect(exitCodes.get(server), server).toBe(0);
    }
  });

  it("mcp-tool-verb: verbs come from a lexicon (click, drag, hover, fill, press, type, take, emulate, handle...)", () => {
    expect(of("chrome-devtools", "mcp-tool-verb")).toEqual([]);
    for (const tool of ["aggregate", "drop-collection"]) expect(about("mongodb", "mcp-tool-verb", tool)).toEqual([]);
    for (const tool of ["tavily_crawl", "tavily_map", "tavily_research"]) expect(about("tavily", "mcp-tool-verb", tool)).toEqual([]);
    for (const tool of ["upgrade_helm_chart", "exec_in_pod", "kubectl_scale", "kubectl_patch", "kubectl_reconnect"])
      expect(about("kubernetes", "mcp-tool-verb", tool)).toEqual([]);
    // What it still finds: names that start with what they act on.
    expect(about("mongodb", "mcp-tool-verb", "collection-schema")).toHaveLength(1);
    expect(about("mongodb", "mcp-tool-verb", "db-stats")).toHaveLength(1);
  });

  it("a foreign namespace gives one finding (mcp-tool-prefix), not a second one from mcp-tool-verb", () => {
    for (const [server, tool] of [
      ["playwright", "browser_click"],
      ["notion", "API-get-user"],
      ["kubernetes", "kubectl_get"],
    ] as const) {
      expect(about(server, "mcp-tool-prefix", tool), `${server} ${tool}`).toHaveLength(1);
      expect(about(server, "mcp-tool-verb", tool), `${server} ${tool}`).toEqual([]);
    }
  });

  it("mcp-tool-prefix: the service without framework words, in any case and form of it", () => {
    expect(of("firecrawl", "mcp-tool-prefix")).toEqual([]);
    expect(of("brave-search", "mcp-tool-prefix")).toEqual([]);
    expect(about("mongodb", "mcp-tool-prefix", "mongodb-logs")).toEqual([]);
    expect(about("mongodb", "mcp-tool-prefix", "find")[0]).toMatchObject({ hint: 'name it "mongodb_find"' });
  });

  it("mcp-input-described and mcp-input-bounds look into anyOf/oneOf alternatives", () => {
    for (const parameter of ["filter", "sort"]) expect(about("notion", "mcp-input-described", parameter), parameter).toEqual([]);
    for (const parameter of ["freshness", "units"]) expect(about("brave-search", "mcp-input-bounds", parameter), parameter).toEqual([]);
    // A string alternative with no bound is still one.
    expect(about("brave-search", "mcp-input-bounds", "goggles").length).toBeGreaterThan(0);
  });

  it("mcp-pagination-params is a warning; a crawl budget and a fixed list are not pagination", () => {
    expect(findings.get("sentry")!.some((finding) => finding.ruleId === "mcp-pagination-params" && finding.severity === "warning")).toBe(true);
    for (const tool of ["tavily_crawl", "tavily_map"]) expect(about("tavily", "mcp-pagination-params", tool)).toEqual([]);
    for (const tool of ["firecrawl_crawl", "firecrawl_map", "firecrawl_search_feedback"]) expect(about("firecrawl", "mcp-pagination-params", tool)).toEqual([]);
    expect(about("chrome-devtools", "mcp-pagination-params", "list_pages")).toEqual([]);
    for (const tool of ["list-connections", "list-knowledge-sources"]) expect(about("mongodb", "mcp-pagination-params", tool)).toEqual([]);
    expect(about("filesystem", "mcp-pagination-result", "list_allowed_directories")).toEqual([]);
  });

  it("mcp-server-name accepts {service}-mcp-server by default", () => {
    expect(of("brave-search", "mcp-server-name")).toEqual([]);
  });

  it("misses found: list tools by name, paging under other names and result shape", () => {
    for (const [server, tool] of [
      ["notion", "API-get-users"],
      ["notion", "API-get-block-children"],
      ["brave-search", "brave_web_search"],
      ["sentry", "find_teams"],
      ["sentry", "find_organizations"],
      ["firecrawl", "firecrawl_monitor_list"],
      ["firecrawl", "firecrawl_search"],
      ["exa", "web_search_exa"],
      ["chrome-devtools", "get_css_styles"],
    ] as const)
      expect(about(server, "mcp-pagination-params", tool).length, `${server} ${tool}`).toBeGreaterThan(0);
  });

  it("misses found: zod's 9007199254740991 is no maximum; a title that repeats the name", () => {
    expect(about("firecrawl", "mcp-pagination-params", "firecrawl_monitor_list").map((finding) => finding.message)).toContainEqual(
      expect.stringContaining("has no maximum (100 expected); 9007199254740991 is zod's"),
    );
    expect(about("chrome-devtools", "mcp-input-bounds", "pageSize").map((finding) => finding.message)).toContainEqual(
      expect.stringContaining('has no maximum (9007199254740991 is zod\'s "no maximum")'),
    );
    const repeated = of("mongodb", "mcp-annotations").filter((finding) => finding.messageId === "titleRepeatsName");
    expect(repeated).toHaveLength(27);
  });
});
