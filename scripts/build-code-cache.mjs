// Makes dist/cli-bundle/main.cjs.cache (with main.cjs.events.cache and .mcp.cache, check.cjs.cache and
// mcp-sdk.cjs.cache, below): the V8 code caches of the CLI bundle, each taken after a warm-up run of
// its command, so the functions such a run needs are in it already compiled. The bin
// hands it to vm.Script; a cache made by another Node version is rejected by V8 and the bundle is simply
// compiled as usual, so a stale cache costs time, never correctness.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import Module, { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

// V8 accepts a cache only under the V8 flags it was made with: made under Node's defaults, whatever
// NODE_OPTIONS the build runs with (a heap size in CI), it is the one every run can use (bin/caplint.js
// sets heap sizes back to their defaults while it reads the cache).
if (process.env.NODE_OPTIONS || process.execArgv.length > 0) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const clean = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
    env,
    stdio: "inherit",
  });
  process.exit(clean.status ?? 1);
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundles = path.join(ROOT, "dist", "cli-bundle");
const kind = process.argv[2];
// A check of named files runs from the check bundle (scripts/bundle.mjs): its one cache is check.cjs.cache.
const bundle = path.join(bundles, kind === "files" ? "check.cjs" : "main.cjs");

/**
 * One code cache of the bundle per kind of run, each warmed by that run alone: a run registers and
 * evaluates only its command's modules (src/cli/commands/index.ts), and a cache holds every function
 * its warm-up compiled, so one cache warmed by every command would make each run read the others'
 * code (a one-file check read 1.39 MB of cache where its own warm-up makes 0.89 MB). bin/caplint.js
 * picks the cache by the command line (`codeCacheFor` there); `main.cjs.cache` serves every other run,
 * and `check.cjs.cache` the check bundle's (a check of named files).
 * Each is made in a process of its own: V8 shares a script's compiled functions within a process.
 */
const mcpDump = (...parts) => path.join(ROOT, "fixtures", "mcp", ...parts);
const WARM_UPS = {
  // An app's check and a check of one file (`caplint check a.json`) take different paths.
  "": [
    ["check", "--app", path.join(ROOT, "examples", "demo-app"), "--format", "stylish"],
    ["check", "default.json"],
  ],
  files: [["check", "default.json"]],
  events: [
    [
      "events",
      path.join(
        ROOT,
        "fixtures",
        "events",
        "approval-lifecycle",
        "valid",
        "approval-approved.jsonl",
      ),
    ],
  ],
  // Every function of the MCP rules, the verb lexicon and the JSON and SARIF reports a listing meets
  // (on a 1,000-tool dump, 70 M of 1,680 M instructions were lazy compiles before the mcp runs warmed
  // a cache: docs/performance.md, issue 32's speed item).
  mcp: [
    ["mcp", "--format", "json", mcpDump("dumps", "bad.json"), mcpDump("dumps", "good.json")],
    [
      "mcp",
      "--format",
      "sarif",
      mcpDump("real", "github.json"),
      mcpDump("real", "playwright.json"),
    ],
  ],
};

if (kind === undefined) {
  // Made by earlier builds for the main bundle's checks of named files, which now run the check bundle.
  rmSync(path.join(bundles, "main.cjs.files.cache"), { force: true });
  for (const name of Object.keys(WARM_UPS)) {
    const made = spawnSync(process.execPath, [fileURLToPath(import.meta.url), name], {
      stdio: "inherit",
    });
    if (made.status !== 0) process.exit(made.status ?? 1);
  }
} else {
  // The same source as the bin compiles: the bundle is written already wrapped (scripts/bundle.mjs).
  const script = new vm.Script(readFileSync(bundle, "latin1"), { filename: bundle });
  const module = { exports: {} };
  script.runInThisContext()(
    module.exports,
    createRequire(bundle),
    module,
    bundle,
    path.dirname(bundle),
  );
  const sink = { write: () => true, isTTY: false };
  // The one-file check runs outside any app, in a folder of its own.
  const loose = mkdtempSync(path.join(tmpdir(), "caplint-warm-up-"));
  writeFileSync(
    path.join(loose, "default.json"),
    JSON.stringify({ identifier: "main", windows: ["main"], permissions: ["core:default"] }),
  );
  try {
    for (const argv of WARM_UPS[kind]) {
      const code = await module.exports.main({
        argv,
        stdout: sink,
        stderr: sink,
        cwd: argv.includes("default.json") ? loose : ROOT,
        env: {},
      });
      if (code !== 0 && code !== 1)
        throw new Error(`the warm-up run caplint ${argv.join(" ")} exited ${code}`);
    }
  } finally {
    rmSync(loose, { recursive: true, force: true });
  }
  writeFileSync(
    kind === "" || kind === "files" ? `${bundle}.cache` : `${bundle}.${kind}.cache`,
    script.createCachedData(),
  );
  process.exit(0);
}

// `caplint --help` as the CLI prints it to output that is no terminal: the bin answers it from this file
// without loading the bundle (commander wraps help to a terminal's width, so a terminal is answered by the
// CLI). Taken from the bin with its standard output a pipe, whatever this build's own output is.
const helpFile = path.join(path.dirname(bundle), "help.txt");
rmSync(helpFile, { force: true });
const help = spawnSync(process.execPath, [path.join(ROOT, "bin", "caplint.js"), "--help"], {
  cwd: ROOT,
  encoding: "utf8",
  stdio: ["ignore", "pipe", "pipe"],
});
if (help.status !== 0 || !help.stdout.startsWith("Usage: caplint"))
  throw new Error(`caplint --help exited ${help.status}: ${help.stderr.slice(0, 300)}`);
writeFileSync(helpFile, help.stdout);

// The MCP SDK chunk (see scripts/bundle.mjs): its cost is the module bodies (zod builds its schemas as
// it loads), so a cache taken after running them holds what a live run compiles.
const chunk = path.join(ROOT, "dist", "cli-bundle", "mcp-sdk.cjs");
const chunkScript = new vm.Script(Module.wrap(readFileSync(chunk, "utf8")), { filename: chunk });
const chunkModule = { exports: {} };
chunkScript.runInThisContext()(
  chunkModule.exports,
  createRequire(chunk),
  chunkModule,
  chunk,
  path.dirname(chunk),
);
if (typeof chunkModule.exports.Protocol !== "function")
  throw new Error("dist/cli-bundle/mcp-sdk.cjs does not export the SDK");
writeFileSync(`${chunk}.cache`, chunkScript.createCachedData());
