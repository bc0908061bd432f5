import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { loadRemotePatternTools, urlReach } from "../../../src/capabilities/dangers/url-reach.js";
import { urlPatternPolyfillLoaded } from "../../../src/capabilities/engine/match/origin.js";

// A file of its own: the polyfill is loaded once per module registry, and vitest gives each file one.
describe("the remote pattern tools", () => {
  it("load the URLPattern polyfill only when a pattern is judged, and only the engine's copy", async () => {
    // Every check loads the tools (the remote rules and the danger judge); an app without remote URLs
    // never judges a pattern, and the polyfill's module builds Unicode regular expressions as it loads.
    const tools = await loadRemotePatternTools();
    expect(urlPatternPolyfillLoaded()).toBe(false);
    const { URLPattern } = createRequire(import.meta.url)("urlpattern-polyfill/urlpattern") as {
      URLPattern: unknown;
    };
    expect(tools.URLPattern).toBe(URLPattern);
    expect(urlPatternPolyfillLoaded()).toBe(true);
    expect(urlReach(tools.URLPattern, "https://*")).toBeDefined();
  });
});
