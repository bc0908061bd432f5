/**
 * Issue 25's size and shape classes for `caplint mcp`: schema walks are linear however `$ref`s loop,
 * `--probe` samples arguments of recursive schemas without overflowing the stack, and a listing that
 * never ends (slow pages with fresh cursors, pages too big, too many tools) stops at a documented
 * bound with an error naming it. Inputs: scripts/lib/worst-cases.mjs and fixtures/mcp/paging-server.mjs.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { typesOf, walkProperties, type SchemaNode } from "../../src/mcp/input-schema.js";
import { MAX_TOOLS } from "../../src/mcp/listing.js";
import { planProbe } from "../../src/mcp/probe.js";
// @ts-expect-error: a plain JavaScript module shared with the benchmark
import { manyToolsListing, recursiveSchemaListing } from "../../scripts/lib/worst-cases.mjs";
import { caplint } from "../mcp/helpers.js";

const SERVER = "fixtures/mcp/paging-server.mjs";

function inputOfFirstTool(listing: {
  tools: Array<{ inputSchema: Record<string, unknown> }>;
}): SchemaNode {
  return { schema: listing.tools[0]!.inputSchema, path: ["tools", 0, "inputSchema"] };
}

describe("schema walks are linear", () => {
  it("a model whose 16 properties $ref it again is walked once: 1 + 16 properties, not 16^6", () => {
    const document = inputOfFirstTool(recursiveSchemaListing(16));
    const walked = [...walkProperties(document, document)];
    expect(walked.map((p) => p.name)).toEqual([
      "root",
      ...Array.from({ length: 16 }, (_, i) => `p${i}`),
    ]);
  });

  it("anyOf members that $ref each other are asked once each", () => {
    const members = Array.from({ length: 40 }, () => ({ $ref: "#/$defs/Either" }));
    const schema = {
      $defs: { Either: { anyOf: [...members, { type: "string" }] } },
      anyOf: members,
    };
    expect([...typesOf({ schema, path: [] }, { schema, path: [] })]).toEqual(["string"]);
  });

  it("caplint mcp lints the 16-wide recursive listing (a V8 heap abort before)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-bounds-"));
    writeFileSync(path.join(dir, "tools.json"), JSON.stringify(recursiveSchemaListing(16)));
    const result = await caplint(["mcp", "-f", "compact", "tools.json"], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stderr: "" });
  }, 60_000);

  it(`a file of more than ${MAX_TOOLS.toLocaleString("en")} tools is linted up to the bound, with an error at the first tool past it`, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-mcp-bounds-"));
    writeFileSync(path.join(dir, "tools.json"), JSON.stringify(manyToolsListing(MAX_TOOLS + 1)));
    const result = await caplint(
      ["mcp", "-f", "compact", "--max-file-size", "100000000", "tools.json"],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^tools\.json:1:\d+: error the listing has 100,001 tools; caplint lints the first 100,000 \(no real server lists more\) \[parse\]\n$/,
    );
  }, 120_000);
});

describe("--probe samples recursive schemas", () => {
  it("an array whose items $ref the array, and a model whose required properties $ref it, give small arguments", () => {
    const tree = {
      name: "demo_get_tree",
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: "object",
        required: ["tree", "node"],
        properties: { tree: { $ref: "#/$defs/Tree" }, node: { $ref: "#/$defs/Node" } },
        $defs: {
          Tree: { type: "array", minItems: 1, items: { $ref: "#/$defs/Tree" } },
          Node: {
            type: "object",
            required: Array.from({ length: 16 }, (_, i) => `p${i}`),
            properties: Object.fromEntries(
              Array.from({ length: 16 }, (_, i) => [`p${i}`, { $ref: "#/$defs/Node" }]),
            ),
          },
        },
      },
    };
    const { calls } = planProbe([tree], 3);
    expect(calls[0]!.arguments.tree).toEqual([[]]);
    expect(JSON.stringify(calls[0]!.arguments).length).toBeLessThan(2000);
  });

  it("through the bin, against a live server (a stack overflow before)", async () => {
    const result = await caplint([
      "mcp",
      "--probe",
      "-f",
      "compact",
      "--stdio",
      "--",
      "node",
      SERVER,
      "recursive",
    ]);
    // Only the probe's progress on stderr (one line per call and the count), nothing else.
    expect(
      result.stderr.split("\n").filter((line) => line && !line.startsWith("caplint: probe ")),
    ).toEqual([]);
    expect(result.stdout).toContain("[mcp-unknown-field-accepted]");
  }, 60_000);
});

describe("a listing that never ends stops at a bound, named in the error", () => {
  it("pages answered slowly with fresh cursors: 4 × --timeout for the whole listing", async () => {
    const result = await caplint([
      "mcp",
      "--timeout",
      "0.5",
      "--stdio",
      "--",
      "node",
      SERVER,
      "slow",
      "150",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^caplint: tools\/list: paging took more than 2 s \(\d+ pages, the server offers more\); caplint lists for at most 4 × --timeout in total\n$/,
    );
  }, 60_000);

  it("pages of 9 MB each: 64 MiB for the whole listing", async () => {
    const result = await caplint(["mcp", "--stdio", "--", "node", SERVER, "big", "9"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "caplint: tools/list: the pages add up to more than 64 MiB after 8 pages; caplint reads at most that much of one listing\n",
    );
  }, 120_000);

  it(`pages of 20,000 tools: ${MAX_TOOLS.toLocaleString("en")} tools for the whole listing`, async () => {
    const result = await caplint(["mcp", "--stdio", "--", "node", SERVER, "many", "20000"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "caplint: tools/list: more than 100,000 tools after 6 pages; caplint lints at most that many tools of one server\n",
    );
  }, 120_000);
});
