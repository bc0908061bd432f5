#!/usr/bin/env node
// caplint's language server under editing: how long from a `didChange` to the `publishDiagnostics` that
// reflects it, on an app of 50 capability files (a real app, ActivityWatch's, with 48 generated capability
// files beside its own two), and a soak of 10,000 edits with the server's resident memory sampled.
// Run alone: node scripts/bench-lsp.mjs [--edits N] [--soak N, 0 for none] [--bin PATH, another build's
// bin/caplint.js, to compare builds with one script] [--heap DIR: the soak alone, with the heap used after
// forced collections every 500 edits written to DIR/heap.jsonl; with --snapshots, heap snapshots after
// 2,000 and 8,000 edits there too]   (npm run bench runs it as row 10)
import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { frontendApp } from "./lib/frontend-app.mjs";
import { prng } from "./lib/prng.mjs";
import { capability } from "./lib/synthetic-capability.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "caplint.js");
const HEAP_PROBE = path.join(ROOT, "scripts", "lib", "heap-probe.cjs");
const APP = path.join(ROOT, "fixtures", "real-world", "build-truth", "ActivityWatch__aw-tauri");
const CAPABILITY_FILES = 50;
/** The edited entry of the app's own default.json, and the typo that toggles in it. */
const GOOD = '"shell:allow-open"';
const TYPO = '"shell:allow-opne"';

function option(args, name, fallback) {
  const value = Number(args[args.indexOf(name) + 1]);
  return args.includes(name) && Number.isInteger(value) && value >= 0 ? value : fallback;
}

const quantile = (values, q) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

/** The CPU time (user + system) the process has used so far in ms, read from /proc (Linux); NaN elsewhere. */
function cpuMs(pid) {
  try {
    // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** Linux's USER_HZ: /proc counts CPU time in these ticks. */
const CLOCK_TICKS = 100;

/** The server's resident set in MB, read from /proc (Linux); NaN elsewhere. */
function residentMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return kb ? Number(kb[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function benchApp(work) {
  const dir = path.join(work, "app");
  cpSync(APP, dir, { recursive: true });
  const capabilities = path.join(dir, "src-tauri", "capabilities");
  const random = prng(24);
  const windows = ["main", "settings-0", "settings-1", "panel-0"];
  for (let i = 2; i < CAPABILITY_FILES; i++) {
    writeFileSync(
      path.join(capabilities, `generated-${String(i).padStart(2, "0")}.json`),
      JSON.stringify(capability(random, `generated-${i}`, windows), null, 2),
    );
  }
  return { dir, file: path.join(capabilities, "default.json") };
}

/** A server on the app, with the file open; `until(predicate)` resolves at the next publish for the file that satisfies it. */
async function startServer(app, debounceMs, bin = BIN, probe = undefined) {
  // With a probe (--heap): garbage collection on demand and the heap's figures (scripts/lib/heap-probe.cjs).
  const nodeArgs = probe ? ["--expose-gc", "--require", HEAP_PROBE] : [];
  const child = spawn(process.execPath, [...nodeArgs, bin, "lsp", "--stdio"], {
    cwd: app.dir,
    env: {
      ...process.env,
      CAPLINT_CARGO_REGISTRY: "off",
      ...(probe ? { CAPLINT_HEAP_PROBE: probe } : {}),
    },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const uri = pathToFileURL(app.file).href;
  let waiter;
  connection.onNotification("textDocument/publishDiagnostics", (params) => {
    if (params.uri === uri && waiter?.predicate(params.diagnostics)) {
      const { resolve } = waiter;
      waiter = undefined;
      resolve();
    }
  });
  connection.listen();
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: pathToFileURL(app.dir).href,
    workspaceFolders: [{ uri: pathToFileURL(app.dir).href, name: "app" }],
    capabilities: {},
    initializationOptions: { caplint: { debounceMs } },
  });
  await connection.sendNotification("initialized", {});
  const until = (predicate) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no matching diagnostics within 60 s; stderr: ${stderr.slice(-500)}`)),
        60_000,
      );
      waiter = {
        predicate,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  const text = readFileSync(app.file, "utf8");
  const line = text.split("\n").findIndex((l) => l.includes(GOOD));
  const character = text.split("\n")[line].indexOf(GOOD);
  let version = 1;
  const opened = until(() => true);
  await connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "json", version, text },
  });
  await opened;
  const change = (contentChanges) =>
    connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: ++version },
      contentChanges,
    });
  const at = (from, to) => ({ start: { line, character: from }, end: { line, character: to } });
  return {
    pid: child.pid,
    until,
    /** Replaces the permission's last word (`open` or `opne`): one edit, or two (deleted, then typed). */
    toggle: async (typo, steps = 1) => {
      const word = typo ? "opne" : "open";
      if (steps === 1) return change([{ range: at(character + 13, character + 17), text: word }]);
      await change([{ range: at(character + 13, character + 17), text: "" }]);
      await change([{ range: at(character + 13, character + 13), text: word }]);
    },
    /** Types `count` characters at the end of the line, then deletes them: 2 × count edits. */
    type: async (count) => {
      const end = character + GOOD.length + 1;
      for (let i = 0; i < count; i++) await change([{ range: at(end + i, end + i), text: " " }]);
      for (let i = count; i > 0; i--) await change([{ range: at(end + i - 1, end + i), text: "" }]);
    },
    async stop() {
      const exited = new Promise((resolve) => child.on("exit", resolve));
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      await exited;
      connection.dispose();
    },
  };
}

const hasTypo = (diagnostics) => diagnostics.some((d) => d.code === "unknown-permission");
const clean = (diagnostics) => !hasTypo(diagnostics);

/** didChange → publishDiagnostics: `edits` edits, each toggling the typo, timed until the publish that shows it. */
async function latency(app, debounceMs, edits, bin) {
  const server = await startServer(app, debounceMs, bin);
  const times = [];
  let cpuStart = NaN;
  let cpuEnd = NaN;
  try {
    for (let i = 0; i < edits + 10; i++) {
      const typo = i % 2 === 0;
      const published = server.until(typo ? hasTypo : clean);
      // The first ten warm the server up (the first check loads the app and the catalogs).
      if (i === 10) cpuStart = cpuMs(server.pid);
      const start = process.hrtime.bigint();
      await server.toggle(typo);
      await published;
      if (i >= 10) times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    // What the server did for the last edit after its publish (the other files' lists) counts too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    cpuEnd = cpuMs(server.pid);
  } finally {
    await server.stop();
  }
  return {
    median: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    edits: times.length,
    /** The server's CPU time per edit (ms), the 200 ms idle tail included: under load, steadier than wall times. */
    cpuPerEdit: (cpuEnd - cpuStart) / times.length,
  };
}

/**
 * Bursts of 10 edits (4 characters typed and deleted, the typo toggled in two steps), each waited for;
 * RSS sampled every 100 edits. With `heapDir` (--heap DIR): also the heap used after a forced garbage
 * collection every 500 edits, and with `snapshots` heap snapshots after 2,000 and 8,000 edits written there.
 */
async function soak(app, edits, bin, heapDir = undefined, snapshots = false) {
  const probe = heapDir ? path.join(heapDir, "heap.jsonl") : undefined;
  const server = await startServer(app, 50, bin, probe);
  const samples = [];
  const heap = [];
  const measure = async (done) => {
    // Writing a snapshot takes native memory the process keeps: RSS after one is not the server's own.
    const snapshot =
      snapshots && (done === 2_000 || done === 8_000)
        ? path.join(heapDir, `after-${done}.heapsnapshot`)
        : "";
    if (snapshot) writeFileSync(`${probe}.request`, snapshot);
    const before = heap.length;
    process.kill(server.pid, "SIGUSR2");
    // The probe appends one line per signal; a snapshot takes a few seconds.
    for (let waited = 0; waited < 120_000; waited += 20) {
      const lines = existsSync(probe) ? readFileSync(probe, "utf8").trim().split("\n") : [];
      if (lines.length > before) {
        heap.push({ x: done, ...JSON.parse(lines[before]) });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error("the heap probe did not answer within 120 s");
  };
  try {
    if (probe) await measure(0);
    for (let done = 0, burst = 0; done < edits; burst++) {
      const typo = burst % 2 === 0;
      const published = server.until(typo ? hasTypo : clean);
      await server.type(4);
      await server.toggle(typo, 2);
      await published;
      done += 10;
      if (done % 100 === 0 || done >= edits) samples.push({ x: done, y: residentMb(server.pid) });
      if (probe && done % 500 === 0) await measure(done);
    }
  } finally {
    await server.stop();
  }
  const half = samples.slice(Math.floor(samples.length / 2));
  const mb = (bytes) => bytes / 2 ** 20;
  return {
    edits,
    start: samples[0].y,
    end: samples.at(-1).y,
    peak: Math.max(...samples.map((s) => s.y)),
    slope: slope(samples) * 1000,
    secondHalfSlope: slope(half) * 1000,
    heap: heap.length
      ? {
          samples: heap,
          // From 1,000 edits on: the first checks warm the caches (catalogs, code) once.
          slope:
            slope(heap.filter((h) => h.x >= 1_000).map((h) => ({ x: h.x, y: mb(h.heapUsed) }))) *
            1000,
        }
      : undefined,
  };
}

/** The first TypeScript module below a folder (sorted): the module the frontend row edits. */
function firstModule(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = firstModule(full);
      if (found) return found;
    } else if (entry.name.endsWith(".ts")) return full;
  }
  return undefined;
}

/**
 * `edits` whole-text changes of `file` (made by `edit(text, i)`) with no debounce, each timed until the
 * server's log line of the check that took it ("checked in …"); the last such line is returned too.
 */
async function checkedAfterEdits(dir, file, edits, bin, edit) {
  const child = spawn(process.execPath, [bin, "lsp", "--stdio"], {
    cwd: dir,
    env: { ...process.env, CAPLINT_CARGO_REGISTRY: "off" },
  });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  let waiter;
  let last = "";
  connection.onNotification("window/logMessage", ({ message }) => {
    if (!/ checked in /.test(message)) return;
    last = message.replace(/^caplint: [^:]*: /, "");
    const wake = waiter;
    waiter = undefined;
    wake?.();
  });
  connection.onNotification("window/showMessage", () => {});
  connection.onNotification("textDocument/publishDiagnostics", () => {});
  connection.listen();
  const checked = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no check within 60 s")), 60_000);
      waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  await connection.sendRequest("initialize", {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: "app" }],
    capabilities: {},
    initializationOptions: { caplint: { debounceMs: 0 } },
  });
  await connection.sendNotification("initialized", {});
  const uri = pathToFileURL(file).href;
  let text = readFileSync(file, "utf8");
  let version = 1;
  const opened = checked();
  await connection.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: file.endsWith(".ts") ? "typescript" : "json", version, text },
  });
  await opened;
  const times = [];
  let cpuStart = NaN;
  for (let i = 0; i < edits + 10; i++) {
    if (i === 10) cpuStart = cpuMs(child.pid);
    text = edit(text, i);
    const done = checked();
    const start = process.hrtime.bigint();
    await connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: ++version },
      contentChanges: [{ text }],
    });
    await done;
    if (i >= 10) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const cpuEnd = cpuMs(child.pid);
  const exited = new Promise((resolve) => child.on("exit", resolve));
  await connection.sendRequest("shutdown");
  await connection.sendNotification("exit");
  await exited;
  connection.dispose();
  return {
    median: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    cpuPerEdit: (cpuEnd - cpuStart) / times.length,
    last,
  };
}

export async function benchLsp(args = []) {
  const edits = option(args, "--edits", 100);
  const soakEdits = option(args, "--soak", 10_000);
  const bin = args.includes("--bin") ? path.resolve(args[args.indexOf("--bin") + 1]) : BIN;
  const heapDir = args.includes("--heap")
    ? path.resolve(args[args.indexOf("--heap") + 1])
    : undefined;
  const work = mkdtempSync(path.join(tmpdir(), "caplint-bench-lsp-"));
  try {
    const app = benchApp(work);
    if (heapDir) {
      // --heap DIR: the soak alone, with the heap measured after forced collections.
      mkdirSync(heapDir, { recursive: true });
      const memory = await soak(
        app,
        soakEdits || 10_000,
        bin,
        heapDir,
        args.includes("--snapshots"),
      );
      for (const h of memory.heap.samples)
        console.log(
          `    after ${String(h.x).padStart(6)} edits: heap used after GC ${(h.heapUsed / 2 ** 20).toFixed(2)} MB, heap total ${(h.heapTotal / 2 ** 20).toFixed(1)} MB, external ${(h.external / 2 ** 20).toFixed(2)} MB, RSS ${(h.rss / 2 ** 20).toFixed(1)} MB${h.snapshot ? `; snapshot ${h.snapshot}` : ""}`,
        );
      console.log(
        `    soak, ${memory.edits.toLocaleString("en")} edits: RSS start ${memory.start.toFixed(0)} MB, end ${memory.end.toFixed(0)} MB, peak ${memory.peak.toFixed(0)} MB; RSS slope ${memory.slope.toFixed(2)} MB per 1,000 edits; heap used after GC: slope ${memory.heap.slope.toFixed(3)} MB per 1,000 edits from 1,000 edits on; load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
      return { memory };
    }
    const withDebounce = await latency(app, 50, edits, bin);
    console.log(
      `10. lsp: didChange → publishDiagnostics, ${CAPABILITY_FILES} capability files, debounce 50 ms (default): median ${withDebounce.median.toFixed(0)} ms, p95 ${withDebounce.p95.toFixed(0)} ms over ${withDebounce.edits} edits (target ≤ 40 ms); server CPU ${withDebounce.cpuPerEdit.toFixed(1)} ms per edit`,
    );
    const checkOnly = await latency(app, 0, edits, bin);
    console.log(
      `    the same without the debounce (the check alone): median ${checkOnly.median.toFixed(0)} ms, p95 ${checkOnly.p95.toFixed(0)} ms; server CPU ${checkOnly.cpuPerEdit.toFixed(1)} ms per edit`,
    );
    // Edits that change no value of any file (a space typed at the end of a line and deleted), and
    // an edit of one module of a 300-module frontend: timed until the server's log line of the check
    // (debounce 0), which also says what the check ran again.
    const spaces = await checkedAfterEdits(app.dir, app.file, edits, bin, (text, i) =>
      i % 2 === 0 ? text.replace(GOOD, `${GOOD} `) : text.replace(`${GOOD} `, GOOD),
    );
    console.log(
      `    a space typed and deleted (no value changes), no debounce: median ${spaces.median.toFixed(0)} ms, p95 ${spaces.p95.toFixed(0)} ms; server CPU ${spaces.cpuPerEdit.toFixed(1)} ms per edit; last check: ${spaces.last}`,
    );
    const frontendDir = path.join(work, "frontend");
    frontendApp(frontendDir, { files: 300 });
    const module = firstModule(path.join(frontendDir, "src"));
    const frontend = await checkedAfterEdits(frontendDir, module, edits, bin, (text, i) =>
      i % 2 === 0
        ? `console.debug("edited");\n${text}`
        : text.replace('console.debug("edited");\n', ""),
    );
    console.log(
      `    a line added to and removed from one module of a 300-module frontend, no debounce: median ${frontend.median.toFixed(0)} ms, p95 ${frontend.p95.toFixed(0)} ms; server CPU ${frontend.cpuPerEdit.toFixed(1)} ms per edit; last check: ${frontend.last}`,
    );
    // --soak 0: the latency rows only.
    const memory = soakEdits > 0 ? await soak(app, soakEdits, bin) : undefined;
    if (memory)
      console.log(
        `    soak, ${memory.edits.toLocaleString("en")} edits: RSS start ${memory.start.toFixed(0)} MB, end ${memory.end.toFixed(0)} MB, peak ${memory.peak.toFixed(0)} MB; slope ${memory.slope.toFixed(2)} MB per 1,000 edits (second half ${memory.secondHalfSlope.toFixed(2)}); load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
    return { withDebounce, checkOnly, memory };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(
    `caplint bench-lsp: node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}\n`,
  );
  await benchLsp(process.argv.slice(2));
}
