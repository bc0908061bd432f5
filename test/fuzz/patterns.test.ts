/**
 * Property 3: random window/webview label globs and remote URL patterns, in capability files (as
 * `windows`, `webviews`, `remote.urls` and http scope URLs) and as query arguments (window labels
 * in tauri.conf.json and `--window`, origins in `--url`), through `check`, `access`, `matrix` and
 * `who-can`: nothing throws, exit codes and outputs keep their contracts (a blow-up shows as the test's time-out)
 * (a generous wall-clock bound, only to catch hangs and blow-ups). The glob and URLPattern engines
 * have their own differential tests in test/capabilities/engine/ and test/fuzz/glob-differential.test.ts; these go through the whole CLI.
 */
import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  expectCheckReport,
  expectFatalShape,
  inTempDir,
  params,
  parseJson,
  RUNS,
  SEED,
  timedRun,
  timeoutFor,
  type TimedResult,
} from "./support.js";

const GLOB_PIECES = [
  "*",
  "**",
  "***",
  "?",
  "[",
  "]",
  "[!",
  "!",
  "-",
  "a",
  "b",
  "main",
  "/",
  ":",
  "_",
  "\\",
  "{",
  "}",
  ",",
  "é",
  "日本",
  "🙂",
  " ",
  ".",
  "[a-z]",
  "[z-a]",
  "[!a]",
  "**/",
  "/**",
  "[]]",
  "[!]]",
  "[-]",
  "[a-]",
  "[🙂-🙃]",
];

const globPattern: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(
        fc.oneof(
          { weight: 5, arbitrary: fc.constantFrom(...GLOB_PIECES) },
          { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
        ),
        {
          maxLength: 10,
        },
      )
      .map((p) => p.join("")),
  },
  // Long patterns whose naive (backtracking) matching is exponential.
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom("*a", "a*", "[a-z]", "?", "**/", "*?", "*/"),
        fc.integer({ min: 20, max: 400 }),
        fc.constantFrom("", "b", "*", "!"),
      )
      .map(([unit, n, tail]) => unit.repeat(n) + tail),
  },
);

const windowLabel: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "main",
      "main-1",
      "main-editor",
      "settings",
      "a/b/c",
      "日本",
      "x:y",
      "a_b",
      "-",
      "",
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.constantFrom("a", "b", "-", "/", ":", "_", "main", "é", "1"), { maxLength: 12 })
      .map((p) => p.join("")),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("a", "ab", "a/", "a-"), fc.integer({ min: 50, max: 2000 }))
      .map(([unit, n]) => unit.repeat(n)),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
);

const SCHEMES = [
  "https",
  "http",
  "*",
  "app",
  "tauri",
  "file",
  "ws",
  "",
  "http{s}?",
  "(https?)",
  "h*",
  "data",
  "javascript",
  "HTTPS",
];
const SEPARATORS = ["://", ":", ":///", "//", ""];
const HOSTS = [
  "*",
  "*.example.com",
  "example.com",
  "localhost",
  "[::1]",
  "127.0.0.1",
  ":sub.x.dev",
  "(a|b).x",
  "(.*)",
  "((a+)+)",
  "a*a*a*",
  "*.*.*",
  "{a,b}.com",
  "ex%41mple.com",
  "xn--nxasmq6b",
  "日本.jp",
  "",
  "user:pass@host",
  "\\*",
  "[",
  "*:*@*",
];
const PORTS = ["", ":*", ":8080", ":port", ":99999", ":(\\d+)", ":", ":0"];
const PATHS = [
  "",
  "/",
  "/*",
  "/:id",
  "/(\\d+)",
  "/a/**",
  "/(a+)+b",
  "/*a*a*a*b",
  "/{a}?",
  "/%zz",
  "/:x+",
  "/:x*/:y?",
  "/\\(",
  "/[",
  "/(?<n>x)",
  "/(.*)*",
  "/(a|aa)+$",
  "/*/*/*",
];
const QUERIES = ["", "?*", "?q=1", "?(a|b)", "?"];
const HASHES = ["", "#*", "#frag", "#(.*)"];

const urlPattern: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.tuple(
          ...[SCHEMES, SEPARATORS, HOSTS, PORTS, PATHS, QUERIES, HASHES].map((list) =>
            fc.constantFrom(...list),
          ),
        ),
        fc.option(fc.tuple(fc.nat(), fc.string({ unit: "binary", maxLength: 3 })), {
          nil: undefined,
        }),
      )
      .map(([pieces, noise]) => {
        const pattern = pieces.join("");
        if (!noise) return pattern;
        const at = noise[0] % (pattern.length + 1);
        return pattern.slice(0, at) + noise[1] + pattern.slice(at);
      }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom("/*a", "/(a+)", "/:a", "*.", "/**"), fc.integer({ min: 20, max: 300 }))
      .map(([unit, n]) => `https://example.com${unit.repeat(n)}b`),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 16 }) },
);

/** An origin for `--url`: usually a URL, sometimes something that is not one (a usage error). */
const originUrl: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "local",
      "https://example.com/",
      "https://a.example.com/x?q=1#f",
      "http://localhost:1420/",
      "app://x/",
      "https://日本.jp/",
      "http://[::1]:8080/",
      "https://sub.x.dev/a/b",
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 2000 }))
      .map(([n, m]) => `https://${"a.".repeat(n)}com/${"a".repeat(m)}b`),
  },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
);

const COMMANDS = [
  "plugin:fs|read_file",
  "plugin:window|close",
  "plugin:http|fetch",
  "plugin:shell|open",
  "plugin:event|emit",
  "my_command",
];

const capability = fc.record({
  windows: fc.array(globPattern, { maxLength: 3 }),
  webviews: fc.option(fc.array(globPattern, { maxLength: 2 }), { nil: undefined }),
  local: fc.boolean(),
  urls: fc.option(fc.array(urlPattern, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  scopeUrls: fc.array(urlPattern, { maxLength: 2 }),
  permissions: fc.uniqueArray(
    fc.constantFrom(
      "core:default",
      "core:window:allow-close",
      "core:window:deny-close",
      "fs:allow-read-file",
      "shell:allow-open",
      "core:event:default",
    ),
    { maxLength: 4 },
  ),
});

const scenario = fc.record({
  capabilities: fc.array(capability, { minLength: 1, maxLength: 3 }),
  configLabels: fc.array(windowLabel, { maxLength: 4 }),
  window: windowLabel,
  webview: fc.option(windowLabel, { nil: undefined }),
  url: originUrl,
  command: fc.constantFrom(...COMMANDS),
  matrixFormat: fc.constantFrom("json", "csv", "text"),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function writeApp(dir: string, s: Scenario): void {
  mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "tauri.conf.json"),
    JSON.stringify(
      { identifier: "dev.fuzz", app: { windows: s.configLabels.map((label) => ({ label })) } },
      null,
      2,
    ),
  );
  s.capabilities.forEach((c, i) => {
    const permissions: unknown[] = [
      ...c.permissions,
      ...(c.scopeUrls.length
        ? [{ identifier: "http:default", allow: c.scopeUrls.map((url) => ({ url })) }]
        : []),
    ];
    const value = {
      identifier: `cap-${i}`,
      local: c.local,
      windows: c.windows,
      ...(c.webviews ? { webviews: c.webviews } : {}),
      ...(c.urls ? { remote: { urls: c.urls } } : {}),
      permissions,
    };
    writeFileSync(
      path.join(dir, "src-tauri", "capabilities", `cap-${i}.json`),
      JSON.stringify(value, null, 2),
    );
  });
}

/**
 * A query exits 0 (or 1 for a "not allowed" `--command` answer) or gives one line of usage error
 * (exit 2). The message quotes the offending argument as given, so an argument holding a line break
 * (only a hand-made command line has one) spreads it over two lines: then only its shape is checked.
 */
function expectQuery(result: TimedResult, what: string, allowed: number[], argv: string[]): void {
  if (result.code === 2) {
    if (argv.some((arg) => /[\r\n]/.test(arg)))
      expect(result.stderr).toMatch(/^caplint: (?![^]*internal error)/);
    else expectFatalShape(result);
    return;
  }
  expect(allowed, `${what}: exit ${result.code}, stderr ${result.stderr}`).toContain(result.code);
  expect(result.stderr).toBe("");
}

describe(`fuzz: label globs and URL patterns through the CLI (seed ${SEED}, ${RUNS} runs)`, () => {
  it(
    "check, access, matrix and who-can never throw, and keep their exit codes",
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (s) => {
          await inTempDir("patterns", async (dir) => {
            writeApp(dir, s);
            const check = await timedRun(["check", "--format", "json"], dir);
            expectCheckReport(check, dir);

            const url = s.url === undefined ? [] : [`--url=${s.url}`];
            const webview = s.webview === undefined ? [] : [`--webview=${s.webview}`];
            const accessArgs = [
              "access",
              `--window=${s.window}`,
              ...webview,
              ...url,
              "--format",
              "json",
              "--platform",
              "linux",
            ];
            const access = await timedRun(accessArgs, dir);
            expectQuery(access, "access", [0], accessArgs);
            const accessJson =
              access.code === 0
                ? parseJson<{ allowed: Array<{ command: string }> }>(access, "access")
                : undefined;

            const oneArgs = [
              "access",
              `--window=${s.window}`,
              ...url,
              `--command=${s.command}`,
              "--format",
              "json",
              "--platform",
              "linux",
            ];
            const one = await timedRun(oneArgs, dir);
            expectQuery(one, "access --command", [0, 1], oneArgs);
            // Exit 0 when the host lets the call through: allowed, or not checked at all (an app command of an app without permissions).
            const verdict =
              one.code === 2
                ? undefined
                : parseJson<{ explanation: { verdict: string } }>(one, "access --command")
                    .explanation.verdict;
            if (verdict !== undefined)
              expect(one.code, "exit 1 is 'not allowed'").toBe(
                verdict === "allowed" || verdict === "unchecked" ? 0 : 1,
              );

            const matrixArgs = [
              "matrix",
              `--window=${s.window}`,
              ...url,
              "--format",
              "json",
              "--platform",
              "linux",
            ];
            const matrix = await timedRun(matrixArgs, dir);
            expectQuery(matrix, "matrix --window", [0], matrixArgs);
            if (matrix.code === 0 && accessJson && s.webview === undefined) {
              const rows = parseJson<{ rows: Array<{ granted: string[] }> }>(matrix, "matrix").rows;
              expect(rows[0]!.granted, "a matrix row grants what access allows").toEqual(
                accessJson.allowed.map((a) => a.command),
              );
            }
            // With --webview, access may answer for a window label the app does not know (the webview's label
            // is what matches), where matrix, which takes no webview, refuses the label: only without one must they agree.
            if (s.webview === undefined)
              expect(matrix.code === 2, "matrix and access agree on the origin and the label").toBe(
                access.code === 2,
              );

            const allArgs = ["matrix", ...url, "--format", s.matrixFormat, "--platform", "linux"];
            const all = await timedRun(allArgs, dir);
            expectQuery(all, "matrix", [0], allArgs);

            const whoArgs = ["who-can", s.command, "--format", "json", "--platform", "linux"];
            const who = await timedRun(whoArgs, dir);
            expectQuery(who, "who-can", [0], whoArgs);
            expect(who.code).toBe(0);
          });
        }),
        params(5),
      );
    },
    timeoutFor(80),
  );
});
