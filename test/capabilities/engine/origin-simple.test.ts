import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  compileRemotePattern,
  componentPatternMatches,
  parseUrlPattern,
  plainComponentValue,
  simpleComponents,
  URL_PATTERN_COMPONENTS,
} from "../../../src/capabilities/engine/match/origin.js";
import { work } from "../../../src/capabilities/work.js";

const { URLPattern } = createRequire(import.meta.url)("urlpattern-polyfill/urlpattern") as {
  URLPattern: new (pattern: string | Record<string, string>) => Record<string, string> & {
    exec(input: Record<string, string>): Record<string, { input: string }> | null;
  };
};

function polyfillComponents(pattern: string): Record<string, string> | string {
  try {
    const parsed = new URLPattern(pattern);
    return Object.fromEntries(
      URL_PATTERN_COMPONENTS.map((component) => [component, parsed[component]!]),
    );
  } catch (error) {
    return (error as Error).message;
  }
}

// Every combination of the shapes simpleComponents reads, with the cases where the URL parser rewrites
// what is written (IP numbers, punycode, default ports, `file`) and some it must refuse.
const SCHEMES = [
  "http",
  "https",
  "ws",
  "wss",
  "ftp",
  "file",
  "app",
  "asset",
  "tauri",
  "a1",
  "x",
  "http{s}?",
  "ws{s}?",
  "app{s}?",
  "file{s}?",
];
const HOSTS = [
  "*",
  "*.*",
  "localhost",
  "sub.localhost",
  "*.example.com",
  "api.openai.com",
  "a-b.c",
  "a",
  "1a.b",
  "example.com1",
  "foo.*",
  "127.0.0.1",
  "0.0.0.0",
  "255.255.255.255",
  "127.1",
  "1.2.3.256",
  "01.2.3.4",
  "1.2.3.4.5",
  "1.2.3.*",
  "*.1",
  "1.*",
  "x.123",
  "example.0x1f",
  "0x10",
  "xn--abc.com",
  "a.xn--p1ai",
];
const PORTS = ["", ":*", ":1", ":21", ":80", ":443", ":8080", ":65535", ":65536", ":99999"];
const PATHS = ["", "/", "/*", "/a", "/a/", "/a/*", "/A_b-1/c", "/v1/x/*"];

describe("simple URL patterns", () => {
  it("get the polyfill's components, for every combination of the shapes read without it", () => {
    let read = 0;
    let total = 0;
    const differ: unknown[] = [];
    for (const scheme of SCHEMES)
      for (const host of HOSTS)
        for (const port of PORTS)
          for (const path of PATHS) {
            const pattern = `${scheme}://${host}${port}${path}`;
            total++;
            const simple = simpleComponents(pattern);
            if (simple === undefined) continue;
            read++;
            const expected = polyfillComponents(pattern);
            if (JSON.stringify({ ...simple }) !== JSON.stringify(expected))
              differ.push({ pattern, simple, expected });
          }
    expect(differ).toEqual([]);
    // Many of the combinations (9,296 of 31,200) are simple: the comparison is not vacuous.
    expect(read).toBe(9296);
    expect(total).toBe(31200);
  });

  it("leave anything else to the polyfill", () => {
    for (const pattern of [
      "https://EXAMPLE.com",
      "https://example.com/a/./b",
      "https://example.com/a/../b",
      "https://example.com/*?q",
      "https://example.com/#x",
      "https://user@example.com",
      "https://:name.example.com",
      "https://(a|b).example.com",
      "https://example.com/*.js",
      "https://example.com:0080",
      "https://**",
      "http{s}://x.com",
      "http{s}?://x.com:8080",
      "https://a*.example.com",
      "https://[::1]",
      "file://localhost/x",
      "http://127.1",
      "http://localhost:80",
      "http://a.0x1f",
      "http://xn--abc.com",
      "example.com",
      "",
    ])
      expect(simpleComponents(pattern), pattern).toBeUndefined();
  });

  it("are parsed without the polyfill's constructor, and as it would", () => {
    const before = { ...work };
    const simple = [
      "https://*.discord.com/*",
      "http://localhost:*",
      "app://*",
      "http://127.0.0.1:6124",
      "http{s}?://localhost:*/*",
    ];
    for (const pattern of simple) {
      const parsed = parseUrlPattern(pattern);
      expect(parsed).toEqual({ ok: true, components: polyfillComponents(pattern) });
    }
    expect(work.urlPatternsParsed - before.urlPatternsParsed).toBe(simple.length);
    expect(work.urlPatternsConstructed - before.urlPatternsConstructed).toBe(0);
    expect(parseUrlPattern("https://(a|b).example.com/:path*").ok).toBe(true);
    expect(work.urlPatternsConstructed - before.urlPatternsConstructed).toBe(1);
  });
});

describe("plain protocol and host values", () => {
  it("are their own canonical form, as the polyfill's canonicalisers give it", () => {
    const values = {
      protocol: ["http", "https", "caplint-probe", "a+b", "a.b", "x1", "HTTP", "1x", "a b", ""],
      hostname: [
        ...HOSTS.filter((host) => !host.includes("*")),
        "caplint-probe.invalid",
        "203.0.113.7",
        "169.254.169.254",
        "attacker",
        "attacker.attacker",
        "x.localhost",
        "a--b.com",
        "-a.com",
        "a-.com",
        "256.1.1.1",
        "1.2.3",
        "Example.com",
        "ex_ample.com",
        "a..b",
        "a.",
        ".a",
        "",
      ],
    };
    let plain = 0;
    for (const component of ["protocol", "hostname"] as const) {
      const canonicalizer = new URLPattern({ [component]: "*" });
      for (const value of values[component]) {
        const own = plainComponentValue(component, value);
        if (own === undefined) continue;
        plain++;
        expect({ value, own }).toEqual({
          value,
          own: canonicalizer.exec({ [component]: value })?.[component]!.input,
        });
      }
    }
    expect(plain).toBeGreaterThan(20);
    for (const refused of ["HTTP", "1x", "127.1", "Example.com", "xn--abc.com", "a..b", "-a.com"])
      expect(
        plainComponentValue(
          refused === "HTTP" || refused === "1x" ? "protocol" : "hostname",
          refused,
        ),
        refused,
      ).toBeUndefined();
  });
});

describe("remote pattern compiles", () => {
  it("compile each distinct component once, whichever patterns share it", () => {
    const first = compileRemotePattern("https://shared-components-a.example/*");
    expect(first.ok && first.test("https://shared-components-a.example/x")).toBe(true);
    const before = work.urlComponentsCompiled;
    // Only the hostname is new: the scheme, `*` components and `/*` path were compiled for the first.
    const second = compileRemotePattern("https://shared-components-b.example/*");
    expect(work.urlComponentsCompiled - before).toBe(1);
    expect(second.ok && second.test("https://shared-components-b.example/x")).toBe(true);
    expect(second.ok && second.test("https://shared-components-a.example/x")).toBe(false);
    // The lenient compile of the same pattern compiles nothing again.
    expect(
      compileRemotePattern("https://shared-components-b.example/*", { allowUnsafe: true }).ok,
    ).toBe(true);
    expect(work.urlComponentsCompiled - before).toBe(1);
  });

  it("share their components' automata with the danger judge's component matches", () => {
    expect(compileRemotePattern("https://*.shared-components-c.example/*").ok).toBe(true);
    const before = work.urlComponentsCompiled;
    expect(
      componentPatternMatches(
        "hostname",
        "*.shared-components-c.example",
        "a.shared-components-c.example",
      ),
    ).toBe(true);
    expect(componentPatternMatches("protocol", "https", "http")).toBe(false);
    expect(work.urlComponentsCompiled - before).toBe(0);
  });

  it("keep refusing an unsafe component in strict mode once a lenient compile shared it", () => {
    const pattern = "https://shared-components.example/(a+)+";
    const lenient = compileRemotePattern(pattern, { allowUnsafe: true });
    expect(lenient.ok && lenient.test("https://shared-components.example/aaa")).toBe(true);
    const strict = compileRemotePattern(pattern);
    expect(strict.ok).toBe(false);
    expect(!strict.ok && strict.unsafe).toBe(true);
    const other = compileRemotePattern("http://shared-components.example/(a+)+");
    expect(!other.ok && other.unsafe).toBe(true);
  });
});
