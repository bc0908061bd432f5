import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/run.js";
import { caplint, startHttpFixture } from "../../mcp/helpers.js";

/**
 * `caplint mcp --servers FILE`: the servers of the client configurations users already have, linted
 * live one after another, each finding at the line of its server's entry in FILE (issue 21 item 3).
 */
const LIVE = { timeout: 120_000 };
const fixture = (name: string) => path.join(ROOT, "fixtures/mcp", name);

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-servers-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  // A server without dependencies, run as ${workspaceFolder}/server.mjs.
  copyFileSync(fixture("hostile-stdio-server.mjs"), path.join(dir, "server.mjs"));
  return dir;
}

/** The compact lines of the findings, without their messages: FILE:LINE:COL severity [rule]. */
const where = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => line.replace(/^(\S+:\d+:\d+): (\w+) .* \[([\w-]+)\]$/, "$1 $2 $3"));

describe("caplint mcp --servers", () => {
  let http: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    http = await startHttpFixture("http-server.mjs");
  }, 30_000);
  afterAll(() => http?.stop());

  it(
    "VS Code .vscode/mcp.json: JSONC, ${workspaceFolder}, ${env:X}, inputs; every server linted, findings at its entry",
    LIVE,
    async () => {
      const dir = project({
        ".vscode/mcp.json": [
          "{",
          "  // comments and trailing commas, as VS Code allows",
          '  "inputs": [{ "type": "promptString", "id": "api-key", "description": "Demo API key", "password": true }],',
          '  "servers": {',
          '    "clean": { "type": "stdio", "command": "node", "args": ["${workspaceFolder}/server.mjs", "plain"], "env": { "DEMO": "${env:DEMO_VALUE}" } },',
          `    "bad": { "command": "node", "args": [${JSON.stringify(fixture("bad-server.mjs"))}] },`,
          '    "prompted": { "command": "node", "args": ["server.mjs"], "env": { "KEY": "${input:api-key}" } },',
          `    "remote": { "type": "http", "url": "${http.url}" },`,
          "  },",
          "}",
        ].join("\n"),
      });
      const result = await caplint(["mcp", "-f", "compact", "--servers", ".vscode/mcp.json"], {
        cwd: dir,
        env: { DEMO_VALUE: "x" },
      });
      expect(result.stderr).toBe("");
      expect(result.code).toBe(1);
      const lines = where(result.stdout);
      // "clean" (line 5) and "remote" (line 8) follow the conventions; "bad" has findings, all on its line.
      expect(
        lines.every((line) => /^\.vscode\/mcp\.json:(6|7):5 /.test(line)),
        result.stdout,
      ).toBe(true);
      expect(lines).toContain(".vscode/mcp.json:6:5 error mcp-tool-name");
      expect(result.stdout).toContain(
        '.vscode/mcp.json:7:5: error server "prompted" uses "${input:api-key}" (VS Code would prompt for: Demo API key); caplint asks for nothing, so it cannot start this server [mcp-server-start]',
      );
    },
  );

  it(
    "Claude Desktop claude_desktop_config.json: a server that fails to start is a finding at its entry, and the others still run",
    LIVE,
    async () => {
      const dir = project({
        "claude_desktop_config.json": JSON.stringify(
          {
            mcpServers: {
              broken: { command: "node", args: [fixture("misbehaving-server.mjs"), "exit"] },
              missing: { command: "caplint-no-such-server" },
              bad: { command: "node", args: [fixture("bad-server.mjs")] },
            },
          },
          null,
          2,
        ),
      });
      const result = await caplint(
        ["mcp", "-f", "compact", "--servers", "claude_desktop_config.json"],
        { cwd: dir },
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        'claude_desktop_config.json:3:5: error server "broken" could not be linted: the server (node ' +
          `${fixture("misbehaving-server.mjs")} exit) exited with code 3 before answering initialize; its last stderr line: fatal: missing API_TOKEN [mcp-server-start]`,
      );
      expect(result.stdout).toContain(
        'claude_desktop_config.json:10:5: error server "missing" could not be linted: cannot run "caplint-no-such-server": command not found [mcp-server-start]',
      );
      expect(where(result.stdout)).toContain("claude_desktop_config.json:13:5 error mcp-tool-name");
    },
  );

  it(
    "Cursor .cursor/mcp.json: url and headers, ${userHome}; SARIF artifactLocation is the file, GitHub annotations name it",
    LIVE,
    async () => {
      const config = {
        mcpServers: {
          remote: { url: http.url, headers: { Authorization: "Bearer ${env:REMOTE_TOKEN}" } },
          local: { command: "node", args: [fixture("bad-server.mjs"), "--home", "${userHome}"] },
        },
      };
      const dir = project({ ".cursor/mcp.json": JSON.stringify(config, null, 2) });
      const env = { REMOTE_TOKEN: "cursor-token-value" };
      const sarif = await caplint(["mcp", "-f", "sarif", "--servers", ".cursor/mcp.json"], {
        cwd: dir,
        env,
      });
      expect(sarif.code).toBe(1);
      const results = (
        JSON.parse(sarif.stdout) as {
          runs: Array<{
            results: Array<{
              locations: Array<{
                physicalLocation: {
                  artifactLocation: { uri: string };
                  region: { startLine: number };
                };
              }>;
            }>;
          }>;
        }
      ).runs[0]!.results;
      expect(results.length).toBeGreaterThan(5);
      for (const result of results) {
        expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe(".cursor/mcp.json");
        expect(result.locations[0]!.physicalLocation.region.startLine).toBe(9);
      }
      const github = await caplint(["mcp", "-f", "github", "--servers", ".cursor/mcp.json"], {
        cwd: dir,
        env,
      });
      expect(
        github.stdout
          .split("\n")
          .filter(Boolean)
          .every((line) => line.includes("file=.cursor/mcp.json,line=9,")),
      ).toBe(true);
    },
  );

  it(
    ".mcp.json (Claude Code): ${VAR:-default}, an unset ${VAR} is a finding; --server picks servers, an unknown one is a usage error",
    LIVE,
    async () => {
      const dir = project({
        ".mcp.json": JSON.stringify(
          {
            mcpServers: {
              defaulted: { command: "node", args: ["${SERVER_DIR:-.}/server.mjs", "plain"] },
              unset: {
                command: "node",
                args: ["server.mjs"],
                env: { API_KEY: "${CAPLINT_TEST_UNSET_KEY}" },
              },
              remote: { type: "http", url: http.url },
            },
          },
          null,
          2,
        ),
      });
      const all = await caplint(["mcp", "-f", "compact", "--servers", ".mcp.json"], { cwd: dir });
      expect(all.stdout).toBe(
        '.mcp.json:10:5: error server "unset" uses "${CAPLINT_TEST_UNSET_KEY}", and the environment variable is not set (nor a default given with :-) [mcp-server-start]\n',
      );
      expect(all.code).toBe(1);
      const picked = await caplint(
        ["mcp", "--servers", ".mcp.json", "--server", "defaulted", "--server", "remote"],
        { cwd: dir },
      );
      expect(picked).toMatchObject({
        code: 0,
        stderr: "",
        stdout: "2 files checked, no problems\n",
      });
      const unknown = await caplint(["mcp", "--servers", ".mcp.json", "--server", "nope"], {
        cwd: dir,
      });
      expect(unknown).toMatchObject({
        code: 2,
        stdout: "",
        stderr:
          'caplint: --server "nope": not declared in .mcp.json (it declares "defaulted", "unset", "remote")\n',
      });
    },
  );

  it("a file that is not a client configuration: one line with its position, exit 2", async () => {
    const dir = project({ "a.json": '{"servers": {"x": {}}', "b.json": '{"tools": []}' });
    expect(await caplint(["mcp", "--servers", "a.json"], { cwd: dir })).toMatchObject({
      code: 2,
      stderr: "caplint: a.json:1:22: not a client configuration: close brace expected\n",
    });
    expect((await caplint(["mcp", "--servers", "b.json"], { cwd: dir })).stderr).toBe(
      'caplint: b.json: declares no servers: expected "servers" (VS Code .vscode/mcp.json) or "mcpServers" (Claude Desktop, Cursor, .mcp.json) holding an object\n',
    );
  });
});

describe("a live run without --servers has no file", () => {
  it(
    "SARIF places it at the folder caplint ran in (GitHub rejects a log with a result without a location) and names the server in the message and properties; annotations have no file",
    LIVE,
    async () => {
      const args = ["--stdio", "--", "node", fixture("hostile-stdio-server.mjs"), "echo-secrets"];
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-live-sarif-"));
      mkdirSync(path.join(dir, ".git"));
      mkdirSync(path.join(dir, "servers"));
      const sarif = await caplint(["mcp", "-f", "sarif", ...args], {
        cwd: path.join(dir, "servers"),
      });
      const [result] = (
        JSON.parse(sarif.stdout) as { runs: Array<{ results: Array<Record<string, unknown>> }> }
      ).runs[0]!.results;
      expect(result!.locations).toEqual([
        { physicalLocation: { artifactLocation: { uri: "servers/", uriBaseId: "%SRCROOT%" } } },
      ]);
      expect((result!.message as { text: string }).text).toMatch(
        /^stdio:node \S+hostile-stdio-server\.mjs echo-secrets: tool name "hostile get status"/,
      );
      expect(result!.properties).toMatchObject({
        server: `stdio:node ${fixture("hostile-stdio-server.mjs")} echo-secrets`,
        path: ["pages", 0, "tools", 0, "name"],
      });
      const github = await caplint(["mcp", "-f", "github", ...args]);
      expect(github.stdout).toMatch(
        /^::error title=mcp-tool-name::stdio:node \S+ echo-secrets: tool name "hostile get status"/,
      );
      expect(github.stdout).not.toContain("file=");
      const json = await caplint(["mcp", "-f", "json", ...args]);
      const [finding] = (JSON.parse(json.stdout) as { diagnostics: Array<Record<string, unknown>> })
        .diagnostics;
      expect(finding).toMatchObject({
        file: null,
        server: `stdio:node ${fixture("hostile-stdio-server.mjs")} echo-secrets`,
      });
    },
  );
});
