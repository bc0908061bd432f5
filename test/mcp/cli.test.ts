import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT, run } from "../helpers/run.js";

const DUMPS = path.join(FIXTURES, "mcp", "dumps");

function scratch(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-cli-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe("caplint mcp, offline", () => {
  it("stylish output: code frame, help line, summary; exit 1 on errors", async () => {
    const result = await run(["mcp", "bad.json"], DUMPS);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("bad.json\n");
    expect(result.stdout).toContain(
      '  18:15  warning  server name "Demo MCP v2" carries a version or date ("v2"); a server name stays the same across releases  mcp-server-name',
    );
    expect(result.stdout).toContain(
      '      help: name it "demo_mcp" and put the version in serverInfo.version',
    );
    expect(result.stdout).toMatch(
      /✖ 25 problems \(3 errors, 22 warnings\) in 1 file \(1 checked\)\n$/,
    );
  });

  it("json output follows the diagnostics contract", async () => {
    const result = await run(["mcp", "--format", "json", "raw.json"], DUMPS);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toEqual({
      files: 1,
      errors: 6,
      warnings: 0,
      suggestions: 0,
      fixable: 0,
      config: null,
    });
    expect(report.diagnostics[0]).toMatchObject({
      file: "raw.json",
      ruleId: "mcp-annotations",
      severity: "error",
      line: 32,
      column: 29,
      path: ["pages", 0, "tools", 0, "annotations", "readOnlyHint"],
    });
  });

  it("sarif lists the tool-server rules; github writes annotations", async () => {
    const sarif = JSON.parse((await run(["mcp", "--format", "sarif", "raw.json"], DUMPS)).stdout);
    const ids = sarif.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id);
    expect(ids).toContain("mcp-pagination-contract");
    expect(ids).not.toContain("unknown-permission");
    expect(sarif.runs[0].results[0]).toMatchObject({ ruleId: "mcp-annotations", level: "error" });
    const github = await run(["mcp", "--format", "github", "raw.json"], DUMPS);
    // From the repository root (this checkout), as GitHub reads it.
    expect(github.stdout).toMatch(
      /^::error file=fixtures\/mcp\/dumps\/raw\.json,line=32,endLine=32,col=29/m,
    );
  });

  it("--quiet, --max-warnings, --rule and --only", async () => {
    const quiet = await run(["mcp", "-q", "-f", "compact", "bad.json"], DUMPS);
    expect(
      quiet.stdout
        .split("\n")
        .filter(Boolean)
        .every((line) => line.includes(": error ")),
    ).toBe(true);
    const sse = await run(["mcp", "sse.json"], DUMPS);
    expect(sse.code).toBe(0);
    const gated = await run(["mcp", "--max-warnings", "0", "sse.json"], DUMPS);
    expect(gated.code).toBe(1);
    expect(gated.stderr).toBe("caplint: 1 warning exceeds --max-warnings 0\n");
    const off = await run(
      [
        "mcp",
        "-f",
        "compact",
        "--rule",
        "mcp-stdout-pollution=off",
        "--rule",
        "mcp-annotations=warning",
        "raw.json",
      ],
      DUMPS,
    );
    expect(off.stdout).not.toContain("mcp-stdout-pollution");
    expect(off.stdout).toContain('error tool "raw_get_status": annotations.readOnlyHint'); // escalated findings stay errors
    const only = await run(
      ["mcp", "-f", "compact", "--only", "mcp-server-name", "bad.json"],
      DUMPS,
    );
    expect(only.stdout.trim().split("\n")).toHaveLength(1);
  });

  it("--output writes the report atomically", async () => {
    const dir = scratch({});
    const result = await run(
      ["mcp", "-f", "json", "-o", path.join(dir, "report.json"), path.join(DUMPS, "good.json")],
      ROOT,
    );
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8")).summary.errors).toBe(0);
  });

  it("--server-name-style, --service and --verbs", async () => {
    const dir = scratch({
      "node.json": JSON.stringify({
        serverInfo: { name: "demo-mcp-server", version: "1" },
        tools: [],
      }),
      "bare.json": JSON.stringify({
        tools: [
          {
            name: "get_item",
            inputSchema: { type: "object", additionalProperties: false },
            title: "Get",
            annotations: {
              readOnlyHint: true,
              destructiveHint: false,
              idempotentHint: true,
              openWorldHint: false,
            },
          },
        ],
      }),
    });
    expect((await run(["mcp", "-f", "compact", "node.json"], dir)).stdout).toBe("");
    expect(
      (await run(["mcp", "-f", "compact", "--server-name-style", "python", "node.json"], dir))
        .stdout,
    ).toContain("mcp-server-name");
    expect(
      (await run(["mcp", "-f", "compact", "--server-name-style", "node", "node.json"], dir)).stdout,
    ).toBe("");
    expect((await run(["mcp", "-f", "compact", "bare.json"], dir)).stdout).toBe("");
    expect(
      (await run(["mcp", "-f", "compact", "--service", "shop", "bare.json"], dir)).stdout,
    ).toContain('does not start with the service prefix "shop_"');
    const verb = [
      "mcp",
      "-f",
      "compact",
      "--service",
      "shop",
      "--only",
      "mcp-tool-verb",
      "verb.json",
    ];
    writeFileSync(
      path.join(dir, "verb.json"),
      JSON.stringify({
        tools: [{ name: "shop_frobnicate_item", inputSchema: { type: "object" } }],
      }),
    );
    expect((await run(verb, dir)).stdout).toContain('"frobnicate" is not a verb');
    expect((await run([...verb, "--verbs", "frobnicate,twiddle"], dir)).stdout).toBe("");
  });

  it("accepts every documented input shape", async () => {
    const tool = {
      name: "demo_get_item",
      title: "Get",
      inputSchema: { type: "object", additionalProperties: false },
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    };
    const serverInfo = { name: "demo_mcp", version: "1.0.0" };
    const dir = scratch({
      "page.json": JSON.stringify({ serverInfo, tools: [tool] }),
      "pages.json": JSON.stringify([
        { tools: [tool], nextCursor: "2" },
        { tools: [{ ...tool, name: "demo_get_note" }] },
      ]),
      "jsonrpc.json": JSON.stringify([
        {
          jsonrpc: "2.0",
          id: 1,
          result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo },
        },
        { jsonrpc: "2.0", id: 2, result: { tools: [tool] } },
      ]),
    });
    const result = await run(
      ["mcp", "-f", "compact", "page.json", "pages.json", "jsonrpc.json"],
      dir,
    );
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const twice = scratch({
      "dup.json": JSON.stringify([{ tools: [tool], nextCursor: "2" }, { tools: [tool] }]),
    });
    expect((await run(["mcp", "-f", "compact", "dup.json"], twice)).stdout).toContain(
      'error tool name "demo_get_item" is listed twice (first at [0].tools[0])',
    );
  });

  it("bad input: broken JSON and empty files are findings with a position; missing paths are fatal", async () => {
    const dir = scratch({
      "broken.json": '{"tools": [\n  {"name": "x",}\n]}',
      "empty.json": "",
      "binary.json": "\u0000\u0001",
      "bom.json": '\ufeff{"tools": []}',
      "deep.json": "[".repeat(300) + "]".repeat(300),
    });
    const broken = await run(
      ["mcp", "-f", "compact", "broken.json", "empty.json", "binary.json", "bom.json", "deep.json"],
      dir,
    );
    // Worded for tool servers: no capability files, no "host" (the desktop framework capability files are for).
    expect(broken.stdout).toBe(
      "binary.json:1:1: error the file contains NUL bytes: it looks binary, not JSON or TOML [parse]\n" +
        "bom.json:1:1: error the file starts with a UTF-8 byte order mark, which JSON.parse and MCP clients reject; save it without BOM [parse]\n" +
        'broken.json:2:16: error invalid JSON: expected a property name in double quotes near "}" (trailing commas are not allowed in JSON) [parse]\n' +
        "deep.json:1:257: error nesting deeper than 256 levels; no tools/list result needs that [parse]\n" +
        "empty.json:1:1: error the file is empty; expected a tools/list result or a caplint mcp dump [parse]\n",
    );
    expect(broken.code).toBe(1);
    const missing = await run(["mcp", "nope.json"], dir);
    expect(missing).toMatchObject({
      code: 2,
      stdout: "",
      stderr: "caplint: nope.json: cannot read file: no such file or directory\n",
    });
  });

  it("usage errors exit 2 with one line", async () => {
    const cases: Array<[string[], string]> = [
      [
        ["mcp"],
        "caplint: mcp: give tools/list dump files, --stdio -- CMD ARGS..., --url URL or --servers CONFIG (see caplint mcp --help)\n",
      ],
      [
        ["mcp", "--url", "http://user:pw@[x"],
        "caplint: --url: not a URL (expected http://HOST:PORT/PATH)\n",
      ],
      [
        ["mcp", "--env", "ghp_abcdefghijklmnopqrstuvwxyz", "--stdio", "--", "node"],
        "caplint: --env expects KEY=VALUE; one value has no KEY= before it\n",
      ],
      [
        ["mcp", "dump", "--servers", "x.json"],
        "caplint: mcp dump: --servers lints every server of a configuration; dump one with --stdio -- CMD ARGS... or --url URL\n",
      ],
      [
        ["mcp", "--probe", "x.json"],
        "caplint: --probe needs a live server: --stdio -- CMD ARGS... or --url URL\n",
      ],
      [
        ["mcp", "--stdio", "--url", "http://127.0.0.1:1/"],
        "caplint: mcp: --stdio and --url exclude each other\n",
      ],
      [
        ["mcp", "--stdio"],
        "caplint: mcp --stdio: give the server command after --, e.g. caplint mcp --stdio -- node server.js\n",
      ],
      [
        ["mcp", "--url", "ftp://example.com/"],
        "caplint: --url ftp://example.com/: only http: and https: URLs are supported\n",
      ],
      [
        ["mcp", "--rule", "mcp-tool-nam=off", "x.json"],
        'caplint: --rule mcp-tool-nam=off: unknown rule "mcp-tool-nam"; did you mean "mcp-tool-name" or "mcp-tool-verb"?\n',
      ],
      [
        ["mcp", "--service", "Shop Co", "x.json"],
        'caplint: --service "Shop Co": expected a snake_case service name such as "slack"\n',
      ],
      [["mcp", "dump", "x.json"], "caplint: mcp dump: give --stdio -- CMD ARGS... or --url URL\n"],
    ];
    for (const [argv, stderr] of cases) {
      const result = await run(argv, ROOT);
      expect({ argv, ...result }).toEqual({ argv, code: 2, stdout: "", stderr });
    }
    const timeout = await run(["mcp", "--timeout", "0", "--stdio", "--", "node"], ROOT);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain("--timeout");
  });

  it("escapes control characters that a server puts in names", async () => {
    const dir = scratch({
      "evil.json": JSON.stringify({
        serverInfo: { name: "evil\u001b[31m_mcp", version: "1" },
        tools: [{ name: "evil_get\u001b]8;;x\u0007", inputSchema: { type: "object" } }],
      }),
    });
    const result = await run(["mcp", "-f", "compact", "evil.json"], dir);
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(result.stdout).toContain("evil\\u001b[31m_mcp");
  });
});
