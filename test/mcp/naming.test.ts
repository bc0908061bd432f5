import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOMAIN_VERBS, isVerb, serviceFromServerName, splitToolName, toolNaming } from "../../src/mcp/naming.js";
import { ROOT } from "../helpers/run.js";

const NONE = new Set<string>();

describe("the verb lexicon (mcp-tool-verb)", () => {
  it("knows the verbs real servers start names with, and not their nouns", () => {
    for (const verb of ["click", "drag", "hover", "fill", "press", "type", "take", "drop", "aggregate", "patch", "scale", "crawl", "map", "scrape"])
      expect(isVerb(verb, NONE), verb).toBe(true);
    for (const verb of ["emulate", "handle", "upgrade", "interact", "research", "get", "list", "search", "create", "update", "delete", "send"])
      expect(isVerb(verb, NONE), verb).toBe(true);
    for (const noun of ["item", "user", "browser", "kubectl", "collection", "db", "summarizer", "agent", "whoami", "frobnicate"])
      expect(isVerb(noun, NONE), noun).toBe(false);
    expect(isVerb("frobnicate", new Set(["frobnicate"]))).toBe(true);
  });

  it("the domain verbs are the ones WordNet lacks, listed in the rule's page", () => {
    const wordnet = new Set(readFileSync(path.join(ROOT, "data", "wordnet-verbs.txt"), "utf8").split("\n"));
    expect(wordnet.size).toBeGreaterThan(8000);
    const page = readFileSync(path.join(ROOT, "docs", "rules", "mcp-tool-verb.md"), "utf8");
    for (const verb of DOMAIN_VERBS) {
      expect(wordnet.has(verb), `${verb} is in WordNet already`).toBe(false);
      expect(page, verb).toMatch(new RegExp(`\\b${verb}\\b`));
    }
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
  });

  it("accepts the service in any case and spelling, and a shared first word that starts it", () => {
    const mongodb = toolNaming("mongodb", ["find", "aggregate", "mongodb-logs"]);
    expect(splitToolName("mongodb-logs", mongodb)).toEqual({ prefix: "mongodb", action: ["logs"] });
    expect(splitToolName("MongoDB_find", mongodb).prefix).toBe("mongodb");
    expect(splitToolName("mongodbFind", mongodb)).toEqual({ prefix: "mongodb", action: ["find"] });
    expect(splitToolName("find", mongodb)).toEqual({ prefix: undefined, action: ["find"] });
    const brave = toolNaming("brave_search", ["brave_web_search", "brave_news_search", "brave_summarizer"]);
    expect(brave.preferred).toBe("brave");
    expect(splitToolName("brave_web_search", brave).action).toEqual(["web", "search"]);
    expect(splitToolName("brave-search_web", brave).action).toEqual(["web"]);
    // A shared word that does not start the service is another namespace, not the service's.
    const kubernetes = toolNaming("kubernetes", ["kubectl_get", "kubectl_apply", "ping"]);
    expect(kubernetes.prefixes).not.toContain("kubectl");
    expect(splitToolName("kubectl_get", kubernetes).prefix).toBeUndefined();
  });
});
