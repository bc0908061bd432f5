// Makes dist/cli-bundle/main.cjs.cache (and mcp-sdk.cjs.cache, below): the V8 code cache of the CLI bundle, taken after a warm-up run
// of `check` on the example app, so the functions every run needs are in it already compiled. The bin
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
const bundle = path.join(ROOT, "dist", "cli-bundle", "main.cjs");
const script = new vm.Script(Module.wrap(readFileSync(bundle, "utf8")), { filename: bundle });
const module = { exports: {} };
script.runInThisContext()(
  module.exports,
  createRequire(bundle),
  module,
  bundle,
  path.dirname(bundle),
);

const sink = { write: () => true, isTTY: false };
const code = await module.exports.main({
  argv: ["check", "--app", path.join(ROOT, "examples", "demo-app"), "--format", "stylish"],
  stdout: sink,
  stderr: sink,
  cwd: ROOT,
  env: {},
  signal: new AbortController().signal,
});
if (code !== 0 && code !== 1) throw new Error(`the warm-up run of the bundle exited ${code}`);
// A check of one file outside any app (pre-commit's call) takes paths the app's check does not.
const loose = mkdtempSync(path.join(tmpdir(), "caplint-warm-up-"));
writeFileSync(
  path.join(loose, "default.json"),
  JSON.stringify({ identifier: "main", windows: ["main"], permissions: ["core:default"] }),
);
const looseCode = await module.exports.main({
  argv: ["check", "default.json"],
  stdout: sink,
  stderr: sink,
  cwd: loose,
  env: {},
  signal: new AbortController().signal,
});
rmSync(loose, { recursive: true, force: true });
if (looseCode !== 0) throw new Error(`the warm-up check of one file exited ${looseCode}`);
writeFileSync(`${bundle}.cache`, script.createCachedData());

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
