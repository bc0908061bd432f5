/**
 * What a tools/list dump holds reaches the findings as the file writes it, and a malformed part of a
 * `caplint mcp dump` file is a finding at its position, never an internal error (issue 36 item 7).
 * Through the built bin; every dump is generated here.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");

function caplint(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-values-"));

describe("tools/list dumps: bytes, numbers and probe calls", { timeout: 120_000 }, () => {
  it("bytes that are not UTF-8 are a parse error at the first of them, not a tool named with U+FFFD", () => {
    writeFileSync(
      path.join(dir, "bytes.json"),
      Buffer.concat([
        Buffer.from('{"tools":[{"name":"x'),
        Buffer.from([0xff]),
        Buffer.from('","inputSchema":{"type":"object"}}]}'),
      ]),
    );
    const result = caplint(["mcp", "-f", "compact", "bytes.json"], dir);
    expect(result.stdout).toBe(
      "bytes.json:1:21: error the file is not valid UTF-8 (first bad byte here) [parse]\n",
    );
    expect(result.stdout).not.toContain("\ufffd");
    expect(result.code).toBe(1);
  });

  it("a client configuration (--servers) that is not UTF-8 is one line with the position, exit 2", () => {
    writeFileSync(
      path.join(dir, "servers.json"),
      Buffer.concat([
        Buffer.from('{"servers": {"a'),
        Buffer.from([0xfe]),
        Buffer.from('": {"command": "x"}}}'),
      ]),
    );
    const result = caplint(["mcp", "--servers", "servers.json"], dir);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "caplint: servers.json:1:16: not a client configuration: the file is not valid UTF-8 (first bad byte here)\n",
    });
  });

  it("numbers are shown as written: 1e400 is not null", () => {
    const limit = '{"type": "integer", "default": 1e400, "minimum": -1e400, "maximum": 1E+400}';
    const format = '{"type": "string", "enum": ["markdown", 1e999], "default": 2e500}';
    writeFileSync(
      path.join(dir, "numbers.json"),
      `{"tools": [{"name": "list_items", "description": "Lists items.", "inputSchema": {"type": "object", "properties": {"limit": ${limit}, "offset": {"type": "integer", "default": 0, "minimum": 0}, "response_format": ${format}}}}]}`,
    );
    const result = caplint(["mcp", "-f", "compact", "numbers.json"], dir);
    expect(result.stdout).toContain(
      '"limit" defaults to 1e400, not 20, has minimum -1e400, not 1, has maximum 1E+400, not 100 [mcp-pagination-params]',
    );
    expect(result.stdout).toContain(
      'response_format allows "markdown", 1e999 and defaults to 2e500;',
    );
    expect(result.stdout).not.toMatch(/\bnull\b|Infinity/);
  });

  it.each([
    ["arguments", null, '"arguments" must be the object of arguments sent to the tool'],
    ["arguments", [1], '"arguments" must be the object of arguments sent to the tool'],
    ["tool", 7, '"tool" must be the name of the tool called (a string)'],
    [
      "purpose",
      "anything",
      '"purpose" must be one of "baseline", "unknown-field", "pagination", "limit-over-max"',
    ],
    ["error", "boom", '"error" must be a JSON-RPC error (an object with a "message" string)'],
  ])(
    "a probe call whose %s is %j is a parse error at it, and the rest is linted",
    (field, value, message) => {
      const call = (purpose: string, args: unknown) => ({
        tool: "list_items",
        purpose,
        arguments: args,
        result: { content: [{ type: "text", text: "{}" }] },
      });
      const calls = [
        { ...call("pagination", { limit: 1, offset: 0 }), [field]: value },
        call("limit-over-max", { limit: "LIMIT" }),
      ];
      const tool = { name: "list_items", inputSchema: { type: "object" } };
      const dump = { format: "caplint-mcp-dump/1", pages: [{ tools: [tool] }], probe: { calls } };
      writeFileSync(
        path.join(dir, "probe.json"),
        JSON.stringify(dump, null, 1).replace('"LIMIT"', "1e400"),
      );
      const result = caplint(["mcp", "-f", "compact", "probe.json"], dir);
      expect(result.stderr).toBe("");
      const found = result.stdout.split("\n").find((line) => line.includes("probe call 1"));
      expect(found).toMatch(/^probe\.json:\d+:\d+: error probe call 1: /);
      expect(found).toContain(message);
      // The other call is still read: the limit over 100 it was accepted with is reported as written.
      expect(result.stdout).toContain(
        'tool "list_items" accepted limit 1e400, over the maximum of 100 [mcp-pagination-contract]',
      );
      expect(result.code).toBe(1);
    },
  );
});
