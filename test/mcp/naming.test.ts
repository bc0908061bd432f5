import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  isVerb,
  readAsAction,
  serviceFromServerName,
  splitToolName,
  TOOL_VERBS,
  toolNaming,
} from "../../src/mcp/naming.js";
import { ROOT } from "../helpers/run.js";

const NONE = new Set<string>();

describe("the verb lexicon (mcp-tool-verb)", () => {
  it("knows the verbs real servers start names with, and not their nouns", () => {
    for (const verb of [
      "click",
      "drag",
      "hover",
      "fill",
      "press",
      "type",
      "take",
      "drop",
      "aggregate",
      "patch",
      "scale",
      "crawl",
      "map",
      "scrape",
    ])
      expect(isVerb(verb, NONE), verb).toBe(true);
    for (const verb of [
      "emulate",
      "handle",
      "upgrade",
      "interact",
      "research",
      "get",
      "list",
      "search",
      "create",
      "update",
      "delete",
      "send",
    ])
      expect(isVerb(verb, NONE), verb).toBe(true);
    for (const noun of [
      "item",
      "user",
      "browser",
      "kubectl",
      "collection",
      "db",
      "summarizer",
      "agent",
      "frobnicate",
    ])
      expect(isVerb(noun, NONE), noun).toBe(false);
    expect(isVerb("frobnicate", new Set(["frobnicate"]))).toBe(true);
  });

  it("the tool verbs are the ones WordNet lacks or reads as nouns, each with its source, listed in the rule's page", () => {
    const lexicon = new Map(
      readFileSync(path.join(ROOT, "data", "wordnet-verbs.txt"), "utf8")
        .split("\n")
        .map((line) => line.split(" "))
        .map(([lemma, verb, other]) => [lemma, Number(verb) / (Number(verb) + Number(other))]),
    );
    expect(lexicon.size).toBeGreaterThan(10000);
    const page = readFileSync(path.join(ROOT, "docs", "rules", "mcp-tool-verb.md"), "utf8");
    for (const [verb, source] of Object.entries(TOOL_VERBS)) {
      expect(source, verb).not.toBe("");
      expect(page, verb).toContain(`\`${verb}\``);
    }
    for (const verb of ["init", "rebase", "rerank", "upsert", "cherry_pick"])
      expect(lexicon.has(verb), verb).toBe(false);
    expect(lexicon.get("list")).toBeLessThan(0.5);
  });

  it("finds every lemma of the lexicon and no word between them (the file is searched as sorted text)", () => {
    const lemmas = readFileSync(path.join(ROOT, "data", "wordnet-verbs.txt"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(" ")[0]!);
    expect(lemmas).toEqual([...lemmas].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(lemmas.filter((lemma) => !isVerb(lemma, NONE))).toEqual([]);
    for (const word of [
      "",
      "a",
      "aaa",
      "zzzz",
      "abide_b",
      "abide_bz",
      "search_",
      "_search",
      "constructor",
      "__proto__",
    ])
      expect(isVerb(word, NONE), word).toBe(false);
  });
});

describe("reading a name as an action (mcp-tool-verb)", () => {
  const reads = (name: string, extra = NONE) => readAsAction(name.split("_"), extra);
  it("reads the verb first as an action, whatever the object", () => {
    for (const name of [
      "search_web",
      "upload_file",
      "create_monitor",
      "list_console_messages",
      "type_text",
      "open_nodes",
      "drop_index",
      "check_crawl_status",
      "stop_port_forward",
    ])
      expect(reads(name), name).toBeUndefined();
  });
  it("reads a noun before its head as a noun phrase, and says where the action is", () => {
    expect(reads("web_search")).toEqual({
      reason: "nounPhrase",
      word: "web",
      example: ["search", "web"],
    });
    expect(reads("file_upload")).toEqual({
      reason: "nounPhrase",
      word: "file",
      example: ["upload", "file"],
    });
    expect(reads("monitor_create")).toEqual({
      reason: "nounPhrase",
      word: "monitor",
      example: ["create", "monitor"],
    });
    expect(reads("interact_stop")).toEqual({
      reason: "nounPhrase",
      word: "interact",
      example: ["stop", "interact"],
    });
    expect(reads("research_search_papers")?.example).toEqual(["search", "research", "papers"]);
    expect(reads("console_messages")).toEqual({
      reason: "nounPhrase",
      word: "console",
      example: ["get", "console", "messages"],
    });
    expect(reads("network_request")?.reason).toBe("nounPhrase");
    expect(reads("collection_schema")).toEqual({ reason: "noVerb", word: "collection" });
  });
  it("knows two-word verbs and tool verbs, and the user's own words", () => {
    for (const name of [
      "cherry_pick",
      "set_up_project",
      "look_up_user",
      "init",
      "rebase",
      "rerank_documents",
      "checkout_branch",
    ])
      expect(reads(name), name).toBeUndefined();
    expect(reads("frobnicate_item")?.reason).toBe("noVerb");
    expect(reads("frobnicate_item", new Set(["frobnicate"]))).toBeUndefined();
  });
  it("reads un- before a verb as a verb, and batch or bulk before an action as how it is done (held-out servers, issue 32)", () => {
    for (const name of [
      "unmute_host",
      "unapprove_merge_request",
      "unprotect_branch",
      "lint_files",
      "batch_create_objects",
      "bulk_publish_draft_notes",
    ])
      expect(reads(name), name).toBeUndefined();
    // un- before no verb, and batch or bulk before no action, are still no action.
    for (const name of ["unit_tests", "batch_jobs", "bulk_notes"])
      expect(reads(name), name).toBeDefined();
  });
});

describe("the service and its prefixes (mcp-tool-prefix)", () => {
  it("strips framework words, versions and dates; a camel-case word stays one", () => {
    expect(serviceFromServerName("slack_mcp")).toBe("slack");
    expect(serviceFromServerName("slack-mcp-server")).toBe("slack");
    expect(serviceFromServerName("firecrawl-fastmcp")).toBe("firecrawl");
    expect(serviceFromServerName("MongoDB MCP Server")).toBe("mongodb");
    expect(serviceFromServerName("brave-search-mcp-server")).toBe("brave_search");
    expect(serviceFromServerName("mcp-servers/everything")).toBe("everything");
    expect(serviceFromServerName("Demo MCP v2")).toBe("demo");
    expect(serviceFromServerName("mcp-server")).toBeUndefined();
    // The service is the last segment that names one: an npm scope, a reverse domain without its suffix.
    expect(serviceFromServerName("@shortcut/mcp")).toBe("shortcut");
    expect(serviceFromServerName("ai.perplexity/mcp-server")).toBe("perplexity");
    expect(serviceFromServerName("perplexity.ai")).toBe("perplexity");
    expect(serviceFromServerName("zcaceres/fetch")).toBe("fetch");
  });

  it("accepts the service in any case and spelling, and a shared first word that starts it", () => {
    const mongodb = toolNaming("mongodb", ["find", "aggregate", "mongodb-logs"]);
    expect(splitToolName("mongodb-logs", mongodb)).toEqual({ prefix: "mongodb", action: ["logs"] });
    expect(splitToolName("MongoDB_find", mongodb).prefix).toBe("mongodb");
    expect(splitToolName("mongodbFind", mongodb)).toEqual({ prefix: "mongodb", action: ["find"] });
    expect(splitToolName("find", mongodb)).toEqual({ prefix: undefined, action: ["find"] });
    const brave = toolNaming("brave_search", [
      "brave_web_search",
      "brave_news_search",
      "brave_summarizer",
    ]);
    expect(brave.preferred).toBe("brave");
    expect(splitToolName("brave_web_search", brave).action).toEqual(["web", "search"]);
    expect(splitToolName("brave-search_web", brave).action).toEqual(["web"]);
    // A shared word that does not start the service is another namespace, not the service's.
    const kubernetes = toolNaming("kubernetes", ["kubectl_get", "kubectl_apply", "ping"]);
    expect(kubernetes.prefixes).not.toContain("kubectl");
    expect(splitToolName("kubectl_get", kubernetes).prefix).toBeUndefined();
  });

  it("takes as a namespace a first word most tools share (three at least) or a word of the server's name, never a verb", () => {
    expect(
      toolNaming("kubernetes", ["kubectl_get", "kubectl_apply", "kubectl_logs", "ping"]).namespace,
    ).toEqual({
      word: "kubectl",
      shared: 3,
      total: 4,
      fromServerName: false,
    });
    expect(toolNaming("exa_search", ["web_search_exa", "web_fetch_exa"]).namespace).toBeUndefined();
    expect(
      toolNaming("everything", ["get-env", "get-sum", "get-tiny-image", "echo"]).namespace,
    ).toBeUndefined();
    expect(toolNaming("notion_api", ["API-get-user", "API-post-page", "search"]).namespace).toEqual(
      { word: "api", shared: 2, total: 3, fromServerName: true },
    );
    expect(
      toolNaming("chrome_devtools", [
        "performance_start_trace",
        "performance_stop_trace",
        "click",
        "hover",
        "drag",
      ]).namespace,
    ).toBeUndefined();
  });
});
