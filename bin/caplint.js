#!/usr/bin/env node
// CommonJS (bin/package.json) on purpose: the ES module loader is half of a short run's start-up on
// Node 20. The CLI is one bundle (dist/cli-bundle/main.cjs, else prebuilt/; a check of named files runs
// check.cjs, the same CLI without the other commands) compiled from the V8 code cache made at build
// time; without a usable cache V8 compiles it as usual.
"use strict";
const {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const vm = require("node:vm");

const argv = process.argv.slice(2);
// dist/: a built checkout, the npm package. prebuilt/: the build committed on main, for pre-commit
// and the GitHub Action, which run a commit as it is (scripts/prebuilt.mjs).
const built = path.join(__dirname, "..", "dist", "cli-bundle");
const bundleDir = existsSync(path.join(built, "main.cjs"))
  ? built
  : path.join(__dirname, "..", "prebuilt", "cli-bundle");
const main = path.join(bundleDir, "main.cjs");
// A check of named files (`caplint check a.json`, an editor's or a script's call) runs the check bundle, which holds no other command
// (scripts/bundle.mjs); a build without it runs the main bundle.
const checkBundle = path.join(bundleDir, "check.cjs");
const bundle = filesCheck(argv) && existsSync(checkBundle) ? checkBundle : main;
// A CommonJS module body is a function: `return` ends the run here, before the bundle is read.
if (answeredWithoutTheBundle(argv)) return;
// The bundle's text, then its code cache, are read into one buffer: each page of memory read into for
// the first time is a page fault (about 3 us here), and the text's buffer is free once it is a string.
// A one-file check read its 0.9 MB of cache into a buffer of its own (225 of its 2,600 faults above
// node -e 0: docs/performance.md, helper "row1").
const cache = [codeCacheFor(argv), `${bundle}.cache`]
  .map((file) => ({ file, size: sizeOf(file) }))
  .find(({ size }) => size !== undefined);
let buffer;
let source;
try {
  buffer = readWhole(bundle, cache?.size ?? 0);
  // The build keeps the bundle ASCII (scripts/bundle.mjs), so Latin-1 reads the same text without
  // decoding UTF-8 (2 MB: 3 % of a one-file check's instructions).
  source = buffer.data.toString("latin1", 0, buffer.length);
} catch (error) {
  // A checkout that was never built (the npm package always ships the bundle): dist/ is named, what "npm run build" makes.
  const missing = path.join(built, "main.cjs");
  process.stderr.write(
    `caplint: ${path.relative(process.cwd(), missing) || missing} is missing (${error.code}): run "npm run build" in ${path.join(__dirname, "..")}\n`,
  );
  process.exit(2);
}
let cachedData;
try {
  // No cache (a build without one), or one that cannot be read: V8 compiles the bundle from source.
  if (cache) cachedData = readWhole(cache.file, 0, buffer.data).bytes;
} catch {
  cachedData = undefined;
}
// `caplint mcp --stdio -- CMD ARGS...`: the tool server starts now, before the CLI loads, so that its
// start-up and caplint's overlap; the run adopts it, or stops it (src/mcp/server-process.ts).
let liveServer;
if (argv[0] === "mcp" && argv.includes("--stdio")) {
  try {
    liveServer = require(path.join(bundleDir, "mcp-server.cjs"));
  } catch {
    // A partial build: the run reports the missing chunk when it needs it.
  }
  liveServer?.startEarly(argv);
}

/** The V8 flags {@link tuneTheOptimizer} set, each as V8 reads it and as V8's default: empty while V8 has its own. */
const optimizerFlags = [];
// The bundle is written wrapped as a CommonJS module body (scripts/bundle.mjs): compiled as read, the
// source is one flat string, where Module.wrap's concatenation made V8 copy all 2.3 MB once more.
const script = compiledWithTheCacheFlags(
  () => new vm.Script(source, { filename: bundle, cachedData }),
);
// A live tool server's run compiles the MCP SDK's chunk later, from a code cache of its own: the chunk
// reads it through the same function (scripts/bundle.mjs), under the flags the build made it with.
globalThis[Symbol.for("caplint.compiledWithTheCacheFlags")] = compiledWithTheCacheFlags;
if (bundle === main) tuneTheOptimizer(argv);
const cli = { exports: {} };
script.runInThisContext()(
  cli.exports,
  Module.createRequire(bundle),
  cli,
  bundle,
  path.dirname(bundle),
);

// `check --watch` runs until Ctrl-C and then exits 0; every other command keeps Node's default Ctrl-C
// (and has no signal: an AbortController loads Node modules a one-file check does not need).
let interrupt;
if (argv.includes("--watch")) {
  interrupt = new AbortController();
  process.once("SIGINT", () => interrupt.abort());
}
// Node makes each standard stream when it is first read (on a pipe, a net socket with the stream
// modules behind it: 18 M instructions, a one-file check's 3 %): standard output and error on a pipe
// or a file are written with fs.writeSync instead, and Node's stream is made only if a write cannot be
// written whole at once (a non-blocking pipe with a slow reader: src/core/output.ts). Each is made only
// when a command uses it.
const io = {
  argv,
  cwd: process.cwd(),
  env: process.env,
  ...(interrupt ? { signal: interrupt.signal } : {}),
};
// Whether anything made one of Node's standard streams (a terminal, /dev/null, a write the descriptor
// refused, standard input, the language server's own use): what such a stream holds is written as the
// event loop runs. Node defines each as a getter that makes it on first read.
let nodeStreams = false;
for (const name of ["stdin", "stdout", "stderr"]) {
  const node = Object.getOwnPropertyDescriptor(process, name);
  if (typeof node?.get !== "function" || !node.configurable) nodeStreams = true;
  else
    Object.defineProperty(process, name, {
      ...node,
      get() {
        nodeStreams = true;
        return node.get.call(this);
      },
    });
}
for (const [name, fd] of [
  ["stdout", 1],
  ["stderr", 2],
]) {
  const stream = cli.exports.standardStream(fd, () => process[name]);
  Object.defineProperty(io, name, { enumerable: true, get: stream });
}
Object.defineProperty(io, "stdin", { enumerable: true, get: () => process.stdin });
cli.exports.main(io).then(async (code) => {
  // Never below what a refused write already set (2).
  process.exitCode = Math.max(code, process.exitCode ?? 0);
  await liveServer?.stopUnadopted();
  // Done, with every byte written by fs.writeSync and nothing pending in Node's loop (no stream, timer,
  // request or child): the process ends now instead of when the loop finds itself empty, which skips
  // a scavenge V8 schedules for the idle loop and the heap's teardown (a one-file check: 4 M
  // instructions and 70 page faults). Anything pending (an app's check leaves an Immediate) ends as before.
  if (!nodeStreams && !interrupt && !liveServer && process.getActiveResourcesInfo().length === 0)
    process.exit();
});

/**
 * A run of the main bundle (an app's check, a query, events, mcp, the language server) asks V8 for four
 * times Node's default work before it compiles a function with TurboFan: Node 20's V8 (11.3) tiers up
 * by an interrupt budget, Node 22's and 24's (12.4, 13.6) by a count of calls. Node's pool has four
 * threads for V8's background work; on two cores (a common CI runner) the compiles a short run asks for
 * took the cores from the check's own thread and the collector's helpers, and most paid back too late.
 * On this project's 2-core machine, wall time: 24 corpus copies 675 -> 553 ms, a 100-app monorepo
 * 548 -> 417, 2,000 generated files 306 -> 273, the demo app 122 -> 115; the 1M-event recording the
 * same; with the pool down to one thread (no core taken from the check) still level or faster
 * (docs/performance.md, session 32).
 * On Node 20, a run over an app's capabilities (a check, a query) also inlines only small functions
 * (bytecode up to 60 bytes, V8's default 460): its hot functions are many and each runs briefly, so
 * large inlines made every compile larger for code that ran little after it. 24 corpus copies and
 * 2,000 generated files 3-6 % faster, CPU 8-13 % lower, with the pool of one thread too; 1,000 URL
 * patterns at the length bound level, where no inlining at all was 3-4 % slower (session 33). Events,
 * mcp and the language server keep V8's budget: a recording's hot loops are few and long (300,000 bad
 * lines +10 % with it), and the server runs for hours. On Node 22 and 24, whose V8 has a middle tier
 * (Maglev), the same budget read -5 to +3.5 %: not set.
 * node:v8 costs about 1 ms to load, so the check bundle (named files: an editor's or pre-commit's
 * few) leaves V8's defaults. A flag given to node is kept; another V8, whose flags may differ (V8
 * prints an unknown one to standard error), is left as it is. Each flag is a number V8 reads when it
 * next weighs or starts compiling a function; the collector's flags, set the same way mid-run, crashed
 * V8 here: none is set.
 */
function tuneTheOptimizer(args) {
  // By V8's version, not Node's: Electron's Node 20 (an editor running the language server) has a newer
  // V8. Each flag with V8's default.
  const tuning = {
    11.3: {
      threshold: ["--interrupt-budget", 67584],
      inlining: ["--max-inlined-bytecode-size", 460],
    },
    12.4: { threshold: ["--invocation-count-for-turbofan", 3000] },
    13.6: { threshold: ["--invocation-count-for-turbofan", 3000] },
  }[/^\d+\.\d+/.exec(process.versions.v8)?.[0]];
  if (tuning === undefined) return;
  // Given on node's command line (NODE_OPTIONS takes no V8 flag), with dashes or underscores; another
  // flag of the same stem (`--interrupt-budget-for-feedback-allocation`) is not the one.
  const given = (name) =>
    process.execArgv.some((arg) => arg.replaceAll("_", "-").split("=")[0] === name);
  const set = ([name, byDefault], value) => {
    if (!given(name))
      optimizerFlags.push({ set: `${name}=${value}`, byDefault: `${name}=${byDefault}` });
  };
  set(tuning.threshold, 4 * tuning.threshold[1]);
  if (tuning.inlining && !["events", "mcp", "lsp"].includes(args[0])) set(tuning.inlining, 60);
  if (optimizerFlags.length === 0) return;
  const v8 = require("node:v8");
  for (const flag of optimizerFlags) v8.setFlagsFromString(flag.set);
}

/**
 * `--version` and `--help` alone are answered without reading or compiling the 1.2 MB bundle (most of
 * such a run's start-up). The version is package.json's, as the CLI prints it; the help is the CLI's
 * own, written at build time (scripts/build-code-cache.mjs) for output that is no terminal: commander
 * wraps help to a terminal's width, so a terminal gets it from the CLI. Anything missing: the CLI answers.
 */
function answeredWithoutTheBundle(args) {
  if (args.length !== 1) return false;
  let text;
  try {
    if (args[0] === "--version" || args[0] === "-v")
      text = `${JSON.parse(readFileSync(path.join(__dirname, "..", "package.json"), "utf8")).version}\n`;
    else if ((args[0] === "--help" || args[0] === "-h") && !process.stdout.isTTY)
      text = readFileSync(path.join(bundleDir, "help.txt"), "utf8");
  } catch {
    return false;
  }
  // Never a control character but line feeds, as the CLI's terminal-safe output.
  if (text === undefined || /[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(text)) return false;
  // Written with fs.writeSync, as the CLI writes to a pipe or a file (src/core/output.ts): Node's
  // process.stdout on a pipe is a net socket, made with the modules behind it (18 M instructions, a
  // fifth of what such a run adds to node -e 0). What the descriptor does not take at once (a pipe a
  // Node parent made non-blocking, full) goes to Node's stream, which waits for the reader.
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
    return true;
  } catch (error) {
    // A reader that closed the pipe (`caplint --help | head -1`) ends the run quietly, as in the CLI.
    if (error.code === "EPIPE") return true;
    if (error.code !== "EAGAIN") return cannotWrite(error);
  }
  process.stdout.on("error", (error) => {
    if (error.code !== "EPIPE") cannotWrite(error);
  });
  try {
    process.stdout.write(bytes.subarray(written));
  } catch (error) {
    if (error.code !== "EPIPE") return cannotWrite(error);
  }
  return true;
}

/** A write that failed (a full disk: `caplint --version > /dev/full`): one line and exit 2, as the CLI. */
function cannotWrite(error) {
  process.stderr.write(`caplint: cannot write the output: ${error.code ?? "write failed"}\n`);
  process.exitCode = 2;
  return true;
}

/** A file's size, or undefined when it cannot be read (a build without that code cache). */
function sizeOf(file) {
  try {
    return statSync(file).size;
  } catch {
    return undefined;
  }
}

/**
 * A file's bytes, `{ data, length, bytes }`: read into `into` when they fit, else into a new buffer of
 * at least `atLeast` bytes (for the next read). A file that grows while it is read is read no further
 * than its size when opened (the build writes these files whole).
 */
function readWhole(file, atLeast, into) {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const data =
      into !== undefined && into.length >= size
        ? into
        : Buffer.allocUnsafeSlow(Math.max(size, atLeast));
    let length = 0;
    while (length < size) {
      const read = readSync(fd, data, length, size - length, null);
      if (read === 0) break;
      length += read;
    }
    return { data, length, bytes: data.subarray(0, length) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The build makes a code cache of the bundle per kind of run, each warmed by that run alone
 * (scripts/build-code-cache.mjs): a run evaluates only its own command's modules, so it reads no
 * compiled code of the others. Any cache fits any run (each is of the same source); the choice costs
 * time, never correctness. The check bundle has one cache, warmed by a check of named files; of the
 * main bundle's, events and mcp runs read their own, an app's check and the other commands the main one.
 */
function codeCacheFor(args) {
  if (bundle === main && (args[0] === "events" || args[0] === "mcp"))
    return `${bundle}.${args[0]}.cache`;
  return `${bundle}.cache`;
}

/**
 * A check of named JSON or TOML files and nothing else, `caplint [check] FILE...`: no option, so no
 * line that could need another command (an unknown option is worded with every command's options).
 */
function filesCheck(args) {
  const operands = args[0] === "check" ? args.slice(1) : args;
  return (
    operands.length > 0 &&
    operands.every((arg) => !arg.startsWith("-") && /\.(json5?|toml)$/i.test(arg))
  );
}

/**
 * V8 accepts a code cache only under the V8 flags it was made with (a hash of every flag not at its
 * default), and the build makes it under Node's defaults: a heap size in NODE_OPTIONS, common in CI
 * (`--max-old-space-size=4096`), made V8 reject it and compile the bundle from source (a one-file
 * check 1.5x the instructions). V8 reads the heap sizes only when it makes a heap (the main thread's,
 * made already, or a worker's), and no bytecode depends on them, so they are set back to their
 * defaults while the cache is read and restored at once: the heap keeps the size asked for, and a
 * worker would get it too. So are the optimizer's flags the bin set once the bundle's cache was taken,
 * for a chunk read later (the MCP SDK's): V8 reads them only when it weighs or compiles a function.
 * Any other V8 flag still makes V8 compile from source, as before. caplint writes no cache for a flag
 * set of its own (docs/security.md).
 */
function compiledWithTheCacheFlags(compile) {
  // Each flag to set back: as V8's default, and as it is to be restored.
  const changed = [...optimizerFlags];
  for (const arg of [...(process.env.NODE_OPTIONS ?? "").split(/\s+/), ...process.execArgv]) {
    const heapSize = /^--(max[-_]old[-_]space[-_]size|max[-_]semi[-_]space[-_]size)=(\d+)$/.exec(
      arg,
    );
    if (heapSize) {
      const name = `--${heapSize[1].replaceAll("_", "-")}`;
      changed.push({ set: `${name}=${heapSize[2]}`, byDefault: `${name}=0` });
    }
  }
  if (changed.length === 0) return compile();
  // node:v8 (and the stream modules it loads) is compiled from source here: Node's own code cache is refused under these flags too.
  const v8 = require("node:v8");
  for (const flag of changed) v8.setFlagsFromString(flag.byDefault);
  try {
    return compile();
  } finally {
    for (const flag of changed) v8.setFlagsFromString(flag.set);
  }
}
