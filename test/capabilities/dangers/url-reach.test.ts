import { describe, expect, it } from "vitest";
import {
  isForeignReach,
  loadRemotePatternTools,
  reachesOneLiteralHost,
  urlReach,
} from "../../../src/capabilities/dangers/url-reach.js";

describe("reachesOneLiteralHost", () => {
  // The http scope URLs of the real-world corpus with a literal host, and a few more shapes.
  const literal = [
    "https://api.mclo.gs/*",
    "https://github.com/readest/*",
    "https://translate.googleapis.com",
    "http://localhost:3003",
    "http://localhost:8000/*",
    "https://a-b.example.co.uk:443/x/**",
    "https://example.com/:name/(\\d+)",
    "http://intranet/",
  ];
  // Wildcards or groups in the host, IP addresses, a probe host, what the pattern parser must read.
  const parsed = [
    "https://*",
    "https://**/*",
    "https://*.anthropic.*",
    "http://*.*.*.*:*/**",
    "http://127.0.0.1:*",
    "http://203.0.113.7/",
    "http://0xcb.0.113.7/",
    "https://caplint-probe.invalid/",
    "https://Example.com/",
    "http{s}?://localhost:*/*",
    "http://localhost:*",
    "https://user@example.com/",
    "https://example.com?x",
    "alipays:*",
    "https://example.*",
  ];

  it("names only URLs whose reach is not foreign, as the URL-pattern parser finds", async () => {
    const tools = await loadRemotePatternTools();
    for (const url of literal) {
      expect(reachesOneLiteralHost(url), url).toBe(true);
      const reach = urlReach(tools.URLPattern, url);
      expect(reach === undefined || !isForeignReach(reach), url).toBe(true);
    }
  });

  it("leaves every other URL to the parser", async () => {
    for (const url of parsed) expect(reachesOneLiteralHost(url), url).toBe(false);
    // The parser finds these foreign: the fast path must not answer for them.
    const tools = await loadRemotePatternTools();
    for (const url of ["https://*", "http://203.0.113.7/", "https://caplint-probe.invalid/"])
      expect(isForeignReach(urlReach(tools.URLPattern, url)!), url).toBe(true);
  });
});
