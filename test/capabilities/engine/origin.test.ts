import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  compileRemotePattern,
  remoteUrlMatches,
} from "../../../src/capabilities/engine/match/origin.js";

interface UrlCase {
  pattern: string;
  url: string;
  matches: boolean;
  source: string;
  note?: string;
}

const cases = JSON.parse(
  readFileSync(new URL("../../../fixtures/conformance/url-patterns.json", import.meta.url), "utf8"),
) as UrlCase[];

describe("url-patterns.json conformance", () => {
  it("has the 47 documented cases", () => expect(cases).toHaveLength(47));
  it.each(cases.map((c) => [c.pattern, c.url, c.matches] as const))(
    "%j against %j → %j",
    (pattern, url, matches) => {
      const compiled = compileRemotePattern(pattern);
      expect(compiled.ok).toBe(true);
      expect(compiled.ok && compiled.test(url)).toBe(matches);
    },
  );
});

describe("remote URL patterns", () => {
  it("excludes the apex from a wildcard subdomain", () => {
    expect(remoteUrlMatches("https://*.x.dev", "https://x.dev/")).toBe(false);
    expect(remoteUrlMatches("https://*.x.dev", "https://a.x.dev/")).toBe(true);
  });

  it("does not widen an omitted port", () => {
    expect(remoteUrlMatches("http://localhost", "http://localhost:1420/")).toBe(false);
    expect(remoteUrlMatches("http://localhost", "http://localhost/")).toBe(true);
    expect(remoteUrlMatches("http://localhost:1420", "http://localhost:1420/index.html")).toBe(
      true,
    );
  });

  it("supports named groups, optional groups and custom regexps", () => {
    expect(remoteUrlMatches("https://x.dev/users/:id", "https://x.dev/users/42")).toBe(true);
    expect(remoteUrlMatches("https://x.dev/users/:id", "https://x.dev/users/42/edit")).toBe(false);
    expect(remoteUrlMatches("https://x.dev/users/:id(\\d+)", "https://x.dev/users/abc")).toBe(
      false,
    );
    expect(remoteUrlMatches("https://x.dev/users/:id(\\d+)", "https://x.dev/users/7")).toBe(true);
    expect(remoteUrlMatches("https://x.dev/docs{/:page}?", "https://x.dev/docs")).toBe(true);
    expect(remoteUrlMatches("https://x.dev/docs{/:page}?", "https://x.dev/docs/intro")).toBe(true);
    expect(remoteUrlMatches("https://x.dev/files/:path+", "https://x.dev/files/a/b/c")).toBe(true);
    expect(remoteUrlMatches("https://x.dev/files/:path+", "https://x.dev/files")).toBe(false);
    expect(remoteUrlMatches("https://(www|api).x.dev", "https://api.x.dev/")).toBe(true);
    expect(remoteUrlMatches("https://(www|api).x.dev", "https://cdn.x.dev/")).toBe(false);
  });

  it("treats the URL's host case-insensitively through WHATWG parsing and rejects unparsable URLs", () => {
    expect(remoteUrlMatches("https://x.dev", "HTTPS://X.DEV/Path")).toBe(true);
    expect(remoteUrlMatches("https://x.dev", "not a url")).toBe(false);
  });

  it("reports invalid patterns", () => {
    const relative = compileRemotePattern("/just/a/path");
    expect(relative).toMatchObject({ ok: false, unsafe: false });
    expect(relative.ok ? "" : relative.message).toMatch(/^invalid URL pattern: /);
    expect(compileRemotePattern("https://x.dev/(a")).toMatchObject({ ok: false, unsafe: false });
  });

  it("rejects regexp features the host's engine lacks", () => {
    const lookahead = compileRemotePattern("https://x.dev/((?=a)a)");
    expect(lookahead).toMatchObject({
      ok: false,
      unsafe: false,
      message: expect.stringContaining("lookaround"),
    });
  });

  it.each([
    "https://(a+)+b.x",
    "https://x.dev/((?:a|aa)+)",
    "https://x.dev/(a*)*",
    "https://x.dev/*+",
    "https://x.dev/{:a}+",
  ])("rejects %j as unsafe", (pattern) => {
    const compiled = compileRemotePattern(pattern);
    expect(compiled.ok).toBe(false);
    expect(compiled.ok ? "" : compiled.message).toMatch(/^unsafe pattern: /);
    expect(compiled).toMatchObject({ unsafe: true });
  });

  it.each([
    "https://x.dev/:id(\\d+)",
    "https://x.dev/files/:path+",
    "https://x.dev/(v[0-9]+)/*",
    "https://*.x.dev/*/*/*",
  ])("accepts %j as safe", (pattern) => {
    expect(compileRemotePattern(pattern).ok).toBe(true);
  });

  it("still matches unsafe patterns, in linear time, when asked to", () => {
    const lenient = compileRemotePattern("https://(a+)+b.x", { allowUnsafe: true });
    expect(lenient.ok).toBe(true);
    if (!lenient.ok) throw new Error(lenient.message);
    // No clock: a backtracking matcher takes 2^200 steps on the miss, so it would never reach the time-out's end.
    expect(lenient.test(`https://${"a".repeat(200)}.x/`)).toBe(false);
    expect(lenient.test(`https://${"a".repeat(200)}b.x/`)).toBe(true);
  });

  it("matches many wildcards against a long URL without backtracking", () => {
    const pattern = compileRemotePattern("https://x.dev/*a*a*a*a*a*a*a*b");
    expect(pattern.ok).toBe(true);
    if (!pattern.ok) throw new Error(pattern.message);
    // No clock: backtracking over seven wildcards is some 20,000^7 steps on the miss, never done within the time-out.
    expect(pattern.test(`https://x.dev/${"a".repeat(20_000)}`)).toBe(false);
    expect(pattern.test(`https://x.dev/${"a".repeat(20_000)}b`)).toBe(true);
  });

  it("caches compiled patterns", () => {
    expect(compileRemotePattern("https://cache.dev")).toBe(
      compileRemotePattern("https://cache.dev"),
    );
  });
});
