import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/run.js";
import { caplint, freePort, isAlive, runningWith, startHttpFixture } from "../../mcp/helpers.js";
import { plural } from "../../../src/core/wording.js";

/**
 * Live runs through the built bin against real processes: the fixture servers written with the SDK,
 * failing servers, and @modelcontextprotocol/server-everything, a published server nobody here wrote.
 */
const fixture = (name: string) => path.join("fixtures/mcp", name);
const golden = (name: string) =>
  readFileSync(path.join(ROOT, "fixtures/mcp/dumps", `${name}.json`), "utf8");
const LIVE = { timeout: 60_000 };

/** What --probe writes on stderr: one line per call as it starts, then the count (issue 32). */
function probeProgress(calls: { tool: string; purpose: string }[]): string {
  const tools = new Set(calls.map((call) => call.tool)).size;
  return `${calls.map((call, index) => `caplint: probe ${index + 1}/${calls.length}: ${call.tool} (${call.purpose})\n`).join("")}caplint: probe done: ${plural(calls.length, "call")} to ${plural(tools, "read-only tool")}\n`;
}
const onlyProgress = (stderr: string) =>
  expect(stderr).toMatch(
    /^(?:caplint: probe \d+\/\d+: \S+ \([a-z-]+\)\n)+caplint: probe done: \d+ calls? to \d+ read-only tools?\n$/,
  );

describe("caplint mcp --stdio", () => {
  it(
    "finds nothing in the server that follows the conventions, with --probe too",
    LIVE,
    async () => {
      const result = await caplint([
        "mcp",
        "--probe",
        "--stdio",
        "--",
        "node",
        fixture("good-server.mjs"),
      ]);
      onlyProgress(result.stderr);
      expect(result.stdout).toBe("1 file checked, no problems\n");
      expect(result.code).toBe(0);
    },
  );

  for (const name of ["good", "bad", "raw"]) {
    it(
      `dump --probe of ${name}-server.mjs is its golden dump (the rule tests lint it offline)`,
      LIVE,
      async () => {
        const result = await caplint([
          "mcp",
          "dump",
          "--probe",
          "--stdio",
          "--",
          "node",
          fixture(`${name}-server.mjs`),
        ]);
        expect(result.stderr).toBe(probeProgress(JSON.parse(result.stdout).probe.calls));
        expect(result.code).toBe(0);
        expect(result.stdout).toBe(golden(name));
      },
    );
  }

  it(
    "reports the bad server live as it reports its dump, with no made-up position (a live server is no file)",
    LIVE,
    async () => {
      const live = await caplint([
        "mcp",
        "--probe",
        "-f",
        "compact",
        "--stdio",
        "--",
        "node",
        fixture("bad-server.mjs"),
      ]);
      const offline = await caplint(["mcp", "-f", "compact", "fixtures/mcp/dumps/bad.json"]);
      expect(live.code).toBe(1);
      const label = `stdio:node ${fixture("bad-server.mjs")}`;
      // The same findings, in the same order; the dump has a line and column, the live server none.
      expect(live.stdout.replaceAll(`${label}: `, "fixtures/mcp/dumps/bad.json: ")).toBe(
        offline.stdout.replace(/^(fixtures\/mcp\/dumps\/bad\.json):\d+:\d+: /gm, "$1: "),
      );
      expect(live.stdout).toMatch(
        new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: warning `, "m"),
      );
      expect(live.stdout).not.toMatch(/\.mjs:\d+:\d+: /);
      const stylish = await caplint(["mcp", "--stdio", "--", "node", fixture("bad-server.mjs")]);
      expect(stylish.stdout).toMatch(/^ {2}warning {2}server name "Demo MCP v2"/m);
      expect(stylish.stdout).not.toMatch(/^ {2}\d+:\d+ /m);
      expect(stylish.stdout).not.toMatch(/^ {2}> \d+ \|/m);
    },
  );

  it("reports stdout noise of the low-level server", LIVE, async () => {
    const result = await caplint([
      "mcp",
      "-f",
      "compact",
      "--only",
      "mcp-stdout-pollution",
      "--stdio",
      "--",
      "node",
      fixture("raw-server.mjs"),
    ]);
    expect(result.stdout).toContain(
      'error the server wrote a line on stdout that is not a JSON-RPC message: "raw_mcp starting (this line is not JSON-RPC)"',
    );
    expect(result.code).toBe(1);
  });

  it("passes the server's stderr through with --verbose only", LIVE, async () => {
    const quiet = await caplint(["mcp", "--stdio", "--", "node", fixture("good-server.mjs")]);
    expect(quiet.stderr).toBe("");
    const verbose = await caplint([
      "mcp",
      "--verbose",
      "--stdio",
      "--",
      "node",
      fixture("good-server.mjs"),
    ]);
    expect(verbose.stderr).toContain("demo_mcp listening on stdio");
    expect(verbose.stderr).toContain("caplint: stdio: 3 tools in 1 page from");
  });

  it("writes the dump with --output and lints it offline", LIVE, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-dump-"));
    const file = path.join(dir, "tools.json");
    const dump = await caplint([
      "mcp",
      "dump",
      "-o",
      file,
      "--stdio",
      "--",
      "node",
      path.join(ROOT, fixture("raw-server.mjs")),
    ]);
    expect(dump).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const lint = await caplint(["mcp", "-f", "compact", "tools.json"], { cwd: dir });
    expect(lint.stdout).toContain(
      'tools.json:102:19: error tool name "raw_get_status" is listed twice',
    );
    expect(lint.code).toBe(1);
  });

  it(
    "--env reaches the server; --probe honours --max-calls and names the tools left out",
    LIVE,
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-env-"));
      const pidFile = path.join(dir, "pid");
      const result = await caplint([
        "mcp",
        "--probe",
        "--max-calls",
        "1",
        "--env",
        `PID_FILE=${pidFile}`,
        "--stdio",
        "--",
        "node",
        fixture("misbehaving-server.mjs"),
        "malformed",
      ]);
      expect(Number(readFileSync(pidFile, "utf8"))).toBeGreaterThan(0);
      expect(result.code).toBe(1);
      const limited = await caplint([
        "mcp",
        "dump",
        "--probe",
        "--max-calls",
        "2",
        "--stdio",
        "--",
        "node",
        fixture("good-server.mjs"),
      ]);
      expect(JSON.parse(limited.stdout).probe.calls).toHaveLength(2);
      expect(limited.stderr).toBe(probeProgress(JSON.parse(limited.stdout).probe.calls));
      const quiet = await caplint([
        "mcp",
        "dump",
        "--probe",
        "-q",
        "--max-calls",
        "2",
        "--stdio",
        "--",
        "node",
        fixture("good-server.mjs"),
      ]);
      expect(quiet.stderr).toBe("");
      const tight = await caplint([
        "mcp",
        "dump",
        "--probe",
        "--max-calls",
        "1",
        "--stdio",
        "--",
        "node",
        fixture("good-server.mjs"),
      ]);
      expect(tight.stderr).toBe(
        `${probeProgress(JSON.parse(tight.stdout).probe.calls)}caplint: --max-calls 1 reached; read-only tools not probed: "demo_get_item"\n`,
      );
    },
  );
});

describe("--probe safety", () => {
  it("calls only tools that declare readOnlyHint: true", LIVE, async () => {
    const dumps = await Promise.all(
      ["good", "bad", "raw"].map(async (name) =>
        JSON.parse(
          (
            await caplint([
              "mcp",
              "dump",
              "--probe",
              "--max-calls",
              "100",
              "--stdio",
              "--",
              "node",
              fixture(`${name}-server.mjs`),
            ])
          ).stdout,
        ),
      ),
    );
    for (const dump of dumps) {
      const readOnly = new Set(
        dump.pages
          .flatMap(
            (page: { tools: Array<{ name: string; annotations?: { readOnlyHint?: unknown } }> }) =>
              page.tools,
          )
          .filter(
            (tool: { annotations?: { readOnlyHint?: unknown } }) =>
              tool.annotations?.readOnlyHint === true,
          )
          .map((tool: { name: string }) => tool.name),
      );
      expect(dump.probe.calls.length).toBeGreaterThan(0);
      for (const call of dump.probe.calls) expect(readOnly.has(call.tool), call.tool).toBe(true);
    }
    // Never called: demo_delete_item (good: not read-only; bad: read-only and destructive at once),
    // demo_send message (bad: not read-only), raw_get_status (raw: readOnlyHint "yes", not a boolean).
    const called = dumps.flatMap((dump) =>
      dump.probe.calls.map((call: { tool: string }) => call.tool),
    );
    expect(called).not.toContain("demo_delete_item");
    expect(called).not.toContain("demo_send message");
    expect(called).not.toContain("raw_get_status");
  });
});

describe("failing servers: one line, exit 2, the child stopped", () => {
  // --timeout 1 for the servers that never answer; the others get time to start on a busy machine.
  const failing = async (mode: string, extra: string[] = [], timeout = "1") => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-fail-"));
    const pidFile = path.join(dir, "pid");
    const result = await caplint([
      "mcp",
      "--timeout",
      timeout,
      ...extra,
      "--env",
      `PID_FILE=${pidFile}`,
      "--stdio",
      "--",
      "node",
      fixture("misbehaving-server.mjs"),
      mode,
    ]);
    const pid = Number(readFileSync(pidFile, "utf8"));
    return { ...result, pid };
  };

  it("a server that never answers", LIVE, async () => {
    const result = await failing("silent");
    expect(result.stderr).toBe(
      `caplint: the server (node ${fixture("misbehaving-server.mjs")} silent) did not answer initialize within 1 s (--timeout)\n`,
    );
    expect(result.code).toBe(2);
    expect(isAlive(result.pid)).toBe(false);
  });

  it("a server that ignores SIGTERM is killed", LIVE, async () => {
    const result = await failing("stubborn");
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")).toHaveLength(2);
    expect(isAlive(result.pid)).toBe(false);
  });

  it("a server that exits", LIVE, async () => {
    const result = await failing("exit", [], "20");
    expect(result.stderr).toBe(
      `caplint: the server (node ${fixture("misbehaving-server.mjs")} exit) exited with code 3 before answering initialize; its last stderr line: fatal: missing API_TOKEN\n`,
    );
    expect(result.code).toBe(2);
  });

  it("a server that writes garbage", LIVE, async () => {
    const result = await failing("garbage", [], "5");
    expect(result.stderr).toMatch(
      /did not answer initialize within 5 s \(--timeout\); it wrote 1 non-protocol line\(s\) on stdout, first: "<html>not json<\/html>"\n$/,
    );
    expect(result.code).toBe(2);
    expect(isAlive(result.pid)).toBe(false);
  });

  it("a server with malformed results gives findings, not a crash", LIVE, async () => {
    const result = await failing("malformed", ["-f", "compact"], "20");
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      "error tools/list result: tools[0].name must be string [mcp-schema]",
    );
    expect(result.stdout).toContain(
      'error initialize result: serverInfo lacks required field "version" [mcp-schema]',
    );
    expect(result.code).toBe(1);
    expect(isAlive(result.pid)).toBe(false);
  });

  it("a command that does not exist", async () => {
    const result = await caplint(["mcp", "--stdio", "--", "caplint-no-such-server"]);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: 'caplint: cannot run "caplint-no-such-server": command not found\n',
    });
  });

  it("a URL where nothing listens", async () => {
    const port = await freePort();
    const result = await caplint(["mcp", "--url", `http://127.0.0.1:${port}/mcp`]);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `caplint: the server at http://127.0.0.1:${port}/mcp failed initialize: connection refused\n`,
    });
  });
});

describe("the server starts before the SDK loads: nothing lost, one line and exit 2 on failure, no child left", () => {
  const scratch = () => mkdtempSync(path.join(tmpdir(), "caplint-mcp-early-"));

  it(
    "a server that writes on stdout before the client's initialize: nothing is lost",
    LIVE,
    async () => {
      const server = ["--stdio", "--", "node", fixture("misbehaving-server.mjs"), "early"];
      const result = await caplint(["mcp", "-f", "compact", ...server]);
      expect(result.stderr).toBe("");
      expect(result.stdout).toMatch(
        /^stdio:node \S+ early: error the server wrote a line on stdout that is not a JSON-RPC message: "early_mcp booting \(this line is not JSON-RPC\)"; clients may drop the connection \[mcp-stdout-pollution\]\n$/,
      );
      expect(result.code).toBe(1);
      const dump = JSON.parse((await caplint(["mcp", "dump", ...server])).stdout);
      expect(dump.stdoutNoise).toEqual(["early_mcp booting (this line is not JSON-RPC)"]);
      expect(dump.initialize.serverInfo).toEqual({ name: "early_mcp", version: "1.0.0" });
      expect(dump.pages[0].tools.map((tool: { name: string }) => tool.name)).toEqual([
        "early_get_status",
      ]);
    },
  );

  it("a command that does not exist: mcp dump too", async () => {
    const result = await caplint([
      "mcp",
      "dump",
      "--stdio",
      "--",
      "caplint-no-such-server",
      "--flag",
    ]);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: 'caplint: cannot run "caplint-no-such-server": command not found\n',
    });
  });

  it("a server that exits at once: mcp dump too", LIVE, async () => {
    const result = await caplint([
      "mcp",
      "dump",
      "--stdio",
      "--",
      "node",
      fixture("misbehaving-server.mjs"),
      "exit",
    ]);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `caplint: the server (node ${fixture("misbehaving-server.mjs")} exit) exited with code 3 before answering initialize; its last stderr line: fatal: missing API_TOKEN\n`,
    });
  });

  it(
    "a usage or fatal error after the server started (--timeout 0, a mistyped --rule, a broken config): one line, exit 2, the server stopped",
    LIVE,
    async () => {
      const dir = scratch();
      writeFileSync(
        path.join(dir, "caplint.config.json"),
        '{ "rules": { "mcp-tool-name": "loud" } }',
      );
      const cases: Array<[string[], RegExp]> = [
        // The bin starts the server before commander reads --timeout: the usage error stops it.
        [["--timeout", "0"], /^caplint: --timeout 0: expected seconds/],
        [
          ["--rule", "mcp-tool-nam=off"],
          /^caplint: --rule mcp-tool-nam=off: unknown rule "mcp-tool-nam"; did you mean/,
        ],
        [
          ["-c", path.join(dir, "caplint.config.json")],
          /^caplint: \S*caplint\.config\.json: rules\.mcp-tool-name must be "off", "suggestion", "warning" or "error"$/m,
        ],
      ];
      for (const [options, message] of cases) {
        // The silent server ignores its closed stdin: only caplint's SIGTERM ends it. The token finds it
        // even when it is stopped before it could write anything.
        const token = `caplint-token-${path.basename(dir)}-${options[0]}`;
        const result = await caplint([
          "mcp",
          ...options,
          "--stdio",
          "--",
          "node",
          fixture("misbehaving-server.mjs"),
          "silent",
          token,
        ]);
        expect(result.stderr).toMatch(message);
        expect(result.stderr.split("\n")).toHaveLength(2);
        expect(result).toMatchObject({ code: 2, stdout: "" });
        expect(runningWith(token)).toEqual([]);
      }
    },
  );

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(
      `${signal} to caplint while the server runs: the server is stopped and reaped, caplint ends by ${signal}`,
      LIVE,
      async () => {
        const pidFile = path.join(scratch(), "pid");
        // The stubborn server never answers and ignores SIGTERM: only SIGKILL ends it.
        const child = spawn(
          process.execPath,
          [
            path.join(ROOT, "bin/caplint.js"),
            "mcp",
            "--env",
            `PID_FILE=${pidFile}`,
            "--stdio",
            "--",
            "node",
            fixture("misbehaving-server.mjs"),
            "stubborn",
          ],
          { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
        );
        let stderr = "";
        child.stderr.on("data", (chunk) => (stderr += chunk));
        const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
          (resolve) => child.on("close", (code, signal) => resolve({ code, signal })),
        );
        for (
          let waited = 0;
          !existsSync(pidFile) || readFileSync(pidFile, "utf8") === "";
          waited += 50
        ) {
          if (waited > 30_000) throw new Error(`the server never started: ${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const serverPid = Number(readFileSync(pidFile, "utf8"));
        child.kill(signal);
        expect(await ended).toEqual({ code: null, signal });
        expect(isAlive(serverPid)).toBe(false);
      },
    );
  }
});

describe("caplint mcp --url", () => {
  it(
    "lints the streamable HTTP fixture (probe included): no findings; its dump is the golden one",
    LIVE,
    async () => {
      const server = await startHttpFixture("http-server.mjs");
      try {
        const result = await caplint(["mcp", "--probe", "--url", server.url]);
        expect(result).toMatchObject({ code: 0, stdout: "1 file checked, no problems\n" });
        onlyProgress(result.stderr);
        const dump = await caplint(["mcp", "dump", "--probe", "--url", server.url]);
        expect(dump.stdout.replaceAll(new URL(server.url).host, "127.0.0.1:8000")).toBe(
          golden("http"),
        );
      } finally {
        await server.stop();
      }
    },
  );

  it("reports a server that answers only the legacy SSE transport", LIVE, async () => {
    const server = await startHttpFixture("sse-server.mjs");
    try {
      const result = await caplint(["mcp", "-f", "compact", "--url", server.url]);
      expect(result.stdout).toBe(
        `${server.url}: warning only the legacy HTTP+SSE transport answered; streamable HTTP (protocol 2025-03-26 and later) did not [mcp-transport]\n`,
      );
      expect(result.code).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe("@modelcontextprotocol/server-everything (a published server nobody here wrote)", () => {
  const everything = [
    "node",
    "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    "stdio",
  ];

  it(
    "finishes with the findings it deserves; exit 1 as a CI gate (--max-warnings 0)",
    LIVE,
    async () => {
      const result = await caplint([
        "mcp",
        "-f",
        "json",
        "--max-warnings",
        "0",
        "--stdio",
        "--",
        ...everything,
      ]);
      expect(result.code).toBe(1);
      const { diagnostics } = JSON.parse(result.stdout) as {
        diagnostics: Array<{ ruleId: string; message: string; severity: string }>;
      };
      const has = (ruleId: string, text: string) =>
        diagnostics.some((d) => d.ruleId === ruleId && d.message.includes(text));
      // Its name is a path, not {service}_mcp; its tools are kebab-case and unprefixed.
      expect(
        has(
          "mcp-server-name",
          'server name "mcp-servers/everything" does not follow the {service}_mcp or {service}-mcp-server convention',
        ),
      ).toBe(true);
      expect(has("mcp-tool-name", 'tool name "get-sum" is not snake_case')).toBe(true);
      expect(
        has(
          "mcp-tool-prefix",
          'tool name "echo" does not start with the service prefix "everything_"',
        ),
      ).toBe(true);
      // zod objects without .strict(): unknown arguments are silently dropped.
      expect(has("mcp-input-strict", 'tool "echo": the input does not reject unknown fields')).toBe(
        true,
      );
      expect(
        has(
          "mcp-input-bounds",
          'tool "get-sum": number parameter "a" has no minimum and no maximum',
        ),
      ).toBe(true);
      expect(
        has(
          "mcp-input-described",
          'tool "get-resource-reference": parameter "resourceType" has no description',
        ),
      ).toBe(true);
      // Every name starts with a verb of the lexicon (gzip among the computing verbs WordNet lacks).
      expect(diagnostics.filter((d) => d.ruleId === "mcp-tool-verb")).toEqual([]);
      // Valid against the specification's schema, and every tool carries a title and all four hints.
      expect(
        diagnostics.filter((d) => d.ruleId === "mcp-schema" || d.ruleId === "mcp-annotations"),
      ).toEqual([]);
    },
  );

  it(
    "--probe finds that it accepts unknown arguments, and calls only its read-only tools",
    { timeout: 180_000 },
    async () => {
      const result = await caplint([
        "mcp",
        "dump",
        "--probe",
        "--max-calls",
        "4",
        "--stdio",
        "--",
        ...everything,
      ]);
      expect(result.code).toBe(0);
      const dump = JSON.parse(result.stdout);
      expect(
        dump.probe.calls.map(
          (call: { tool: string; purpose: string }) => `${call.tool} ${call.purpose}`,
        ),
      ).toEqual([
        "echo baseline",
        "get-annotated-message baseline",
        "get-env baseline",
        "get-resource-links baseline",
      ]);
      // Nine read-only tools get their plain call first (trigger-long-running-operation takes 10 s; a
      // timeout would be recorded as that call's outcome), then the tenth call is echo's unknown argument.
      const withUnknown = await caplint([
        "mcp",
        "-f",
        "compact",
        "--probe",
        "--max-calls",
        "10",
        "--timeout",
        "30",
        "--only",
        "mcp-unknown-field-accepted",
        "--stdio",
        "--",
        ...everything,
      ]);
      expect(withUnknown.stdout).toContain(
        'warning tool "echo" accepted a call with the unknown argument "caplint_probe_unknown_field"',
      );
    },
  );
});
