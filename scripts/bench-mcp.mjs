#!/usr/bin/env node
// Benchmarks of `caplint mcp` (issue 13's speed targets), through the built bin like users run it:
//  1. offline: a dump of 1,000 tools (one in five breaks a convention) linted, whole process, target < 1 s;
//  2. live stdio: `caplint mcp --stdio -- node fixtures/mcp/good-server.mjs` against the server's own
//     start-up, measured as spawning the same server and timing its answer to `initialize` (no caplint,
//     no SDK on the client side); target: caplint adds at most 200 ms.
// Each figure is the median of --runs N (default 7) with its range, the two live measurements
// interleaved (and their paired differences); the load average before and after is printed, since
// the machine may be shared.
// Usage: npm run build && node scripts/bench-mcp.mjs [--runs N]
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "caplint.js");
const SERVER = path.join(ROOT, "fixtures", "mcp", "good-server.mjs");
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1]) || 7;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${Math.round(value)} ms`;
const range = (values) =>
  `${Math.round(Math.min(...values))} to ${Math.round(Math.max(...values))} ms`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

function tool(i) {
  const broken = i % 5 === 0;
  return {
    name: broken ? `demoTool${i}` : `demo_get_item_${i}`,
    title: `Get Item ${i}`,
    description: `Gets item ${i}.`,
    inputSchema: {
      type: "object",
      properties: {
        item_id: {
          type: "string",
          description: "The item's id",
          ...(broken ? {} : { maxLength: 64 }),
        },
        limit: {
          type: "integer",
          description: "Most items",
          default: 20,
          minimum: 1,
          maximum: 100,
        },
        offset: { type: "integer", description: "Items to skip", default: 0, minimum: 0 },
        response_format: {
          type: "string",
          enum: ["markdown", "json"],
          default: "markdown",
          description: "Output format",
        },
        tags: {
          type: "array",
          items: { type: "string", maxLength: 20 },
          maxItems: 10,
          description: "Tags",
        },
      },
      required: ["item_id"],
      ...(broken ? {} : { additionalProperties: false }),
    },
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  };
}

function timed(argv) {
  const start = performance.now();
  const result = spawnSync(process.execPath, argv, {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  const elapsed = performance.now() - start;
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`${argv.join(" ")} exited ${result.status}: ${result.stderr}`);
  return { elapsed, stdout: result.stdout };
}

/** The server's own start-up: spawn, send initialize, wait for the answer, kill. */
function serverStartup() {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [SERVER], { stdio: ["pipe", "pipe", "ignore"] });
    child.on("error", reject);
    child.stdout.once("data", () => {
      const elapsed = performance.now() - start;
      child.kill("SIGKILL");
      child.once("exit", () => resolve(elapsed));
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
  });
}

const loadBefore = load();
const dir = mkdtempSync(path.join(tmpdir(), "caplint-bench-mcp-"));
try {
  const dump = path.join(dir, "tools-1000.json");
  writeFileSync(
    dump,
    JSON.stringify(
      {
        serverInfo: { name: "demo_mcp", version: "1.0.0" },
        tools: Array.from({ length: 1000 }, (_, i) => tool(i)),
      },
      null,
      2,
    ),
  );
  const offline = [];
  let findings = 0;
  for (let run = 0; run < RUNS; run++) {
    const { elapsed, stdout } = timed([BIN, "mcp", "--format", "json", dump]);
    offline.push(elapsed);
    findings = JSON.parse(stdout).diagnostics.length;
  }
  const startup = [];
  const live = [];
  for (let run = 0; run < RUNS; run++) {
    startup.push(await serverStartup());
    live.push(
      timed([BIN, "mcp", "--format", "json", "--stdio", "--", process.execPath, SERVER]).elapsed,
    );
  }
  const added = live.map((value, run) => value - startup[run]);
  console.log(
    `caplint mcp benchmarks (median of ${RUNS} [range]; Node ${process.version}, ${cpus().length} CPUs; load average ${loadBefore} before, ${load()} after)`,
  );
  console.log(
    `offline, 1,000 tools (${findings} findings), whole process: ${ms(median(offline))} [${range(offline)}] (target < 1 s)`,
  );
  console.log(
    `live stdio, good-server.mjs: caplint ${ms(median(live))} [${range(live)}]; the server's own start-up to its initialize answer ${ms(median(startup))} [${range(startup)}]; caplint adds ${ms(median(live) - median(startup))} (target <= 200 ms; paired runs: median ${ms(median(added))} [${range(added)}])`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
