#!/usr/bin/env node
// caplint's benchmark: each measurement is the median of several runs, next to a reference measured
// side by side in the same run, and the ratio between them. Deterministic inputs (seeded generator).
// Usage: npm run bench [-- --runs N] [-- --keep] [-- --rows 1,12,13]
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prng } from "./lib/prng.mjs";
import { capability } from "./lib/synthetic-capability.mjs";
import { realWorldApp } from "./lib/real-world-app.mjs";
import { monorepo } from "./lib/monorepo.mjs";
import { frontendApp } from "./lib/frontend-app.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "caplint.js");
const AJV_CLI = path.join(ROOT, "node_modules", "ajv-cli", "dist", "index.js");
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1]) || 7;
const KEEP = args.includes("--keep");
/** The rows to run (`--rows 1,12`); all by default. */
const ROWS = args.includes("--rows")
  ? new Set(args[args.indexOf("--rows") + 1].split(",").map(Number))
  : undefined;
const want = (row) => !ROWS || ROWS.has(row);

/** An app with `files` capability files of `perFile` capabilities each, forms mixed. */
function generateApp(dir, { files, perFile = 1, windows: windowCount = 200, seed = 42 }) {
  const random = prng(seed);
  const windows = Array.from(
    { length: windowCount },
    (_, i) => `${["main", "editor", "tool", "panel"][i % 4]}-${i}`,
  );
  const src = path.join(dir, "src-tauri");
  mkdirSync(path.join(src, "capabilities"), { recursive: true });
  writeFileSync(
    path.join(src, "tauri.conf.json"),
    JSON.stringify(
      { identifier: "bench.app", app: { windows: windows.map((label) => ({ label })) } },
      null,
      2,
    ),
  );
  let n = 0;
  for (let f = 0; f < files; f++) {
    const caps = Array.from({ length: perFile }, () => capability(random, `cap-${n++}`, windows));
    const form = f % 3;
    const value =
      perFile === 1 && form === 0 ? caps[0] : form === 2 ? { capabilities: caps } : caps;
    writeFileSync(
      path.join(src, "capabilities", `cap-${String(f).padStart(5, "0")}.json`),
      JSON.stringify(value, null, 2),
    );
  }
  return { src, windows };
}

/** A floor script: read every file and parse it (JSON.parse, or smol-toml for TOML), nothing else. */
function floorScript(name, files) {
  const script = path.join(work, `${name}.mjs`);
  writeFileSync(
    script,
    `import { readFileSync, writeFileSync } from "node:fs"; import { parse } from ${JSON.stringify(path.join(ROOT, "node_modules", "smol-toml", "dist", "index.js"))};
     const files = JSON.parse(readFileSync(${JSON.stringify(script + ".files.json")}, "utf8"));
     for (const f of files) { const text = readFileSync(f, "utf8"); f.endsWith(".toml") ? parse(text) : JSON.parse(text); }`,
  );
  writeFileSync(`${script}.files.json`, JSON.stringify(files));
  return script;
}

/** The capability files below a folder (JSON and TOML in a `capabilities` folder), as the floors read them. */
function capabilityFilesUnder(dir) {
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (
        /\.(json|toml)$/.test(entry.name) &&
        full.includes(`${path.sep}capabilities${path.sep}`)
      )
        found.push(full);
    }
  };
  walk(dir);
  return found.sort();
}

const RSS_PROBE = path.join(tmpdir(), `caplint-bench-rss-${process.pid}.mjs`);
writeFileSync(
  RSS_PROBE,
  `import { writeSync } from "node:fs"; process.on("exit", () => writeSync(2, "\\ncaplint-bench-maxrss=" + process.resourceUsage().maxRSS + "\\n"));`,
);

const CPU_PROBE = path.join(tmpdir(), `caplint-bench-cpu-${process.pid}.mjs`);
writeFileSync(
  CPU_PROBE,
  `import { writeSync } from "node:fs"; process.on("exit", () => { const u = process.cpuUsage(); writeSync(2, "\\ncaplint-bench-cpu=" + (u.user + u.system) + "\\n"); });`,
);

/** CPU time (user + system) of one run, in ms: steadier than wall time on a loaded machine. */
function cpuTime(commandArgs, options = {}) {
  const result = spawnSync(process.execPath, ["--import", CPU_PROBE, ...commandArgs], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    ...options,
  });
  if (result.status !== 0 && !options.allowExit?.includes(result.status))
    throw new Error(
      `${commandArgs.join(" ")} exited ${result.status}: ${result.stderr.slice(0, 500)}`,
    );
  const match = /caplint-bench-cpu=(\d+)/.exec(result.stderr);
  return match ? Number(match[1]) / 1000 : NaN;
}

/** Peak resident memory of one run, in MB (the child reports its own maxRSS at exit). */
function peakMemory(commandArgs, options = {}) {
  const result = spawnSync(process.execPath, ["--import", RSS_PROBE, ...commandArgs], {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    ...options,
  });
  const match = /caplint-bench-maxrss=(\d+)/.exec(result.stderr);
  return match ? Number(match[1]) / 1024 : NaN;
}

function time(command, commandArgs, options = {}) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, commandArgs, {
    encoding: "utf8",
    maxBuffer: 1 << 30,
    ...options,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0 && !options.allowExit?.includes(result.status)) {
    throw new Error(
      `${command} ${commandArgs.join(" ")} exited ${result.status}: ${result.stderr.slice(0, 500)}`,
    );
  }
  return ms;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Runs the subject and its reference alternately, so machine noise hits both alike. */
function sideBySide(subject, reference, runs = RUNS) {
  const a = [];
  const b = [];
  subject();
  reference();
  for (let i = 0; i < runs; i++) {
    a.push(subject());
    b.push(reference());
  }
  return { subject: median(a), reference: median(b) };
}

const work = mkdtempSync(path.join(tmpdir(), "caplint-bench-"));
const rows = [];
const report = (name, subject, reference, referenceName, target) => {
  const ratio = subject / reference;
  rows.push({ name, subject, reference, referenceName, ratio, target });
  console.log(
    `${name.padEnd(34)} ${subject.toFixed(1).padStart(9)} ms   ${referenceName.padEnd(30)} ${reference.toFixed(1).padStart(9)} ms   ratio ${ratio.toFixed(2)}${target ? ` (target ${target})` : ""}`,
  );
};

/**
 * What a check row's ratio is made of: the same check with no rule but the schema (the walk, the
 * reads, parsing with positions, the schema, the project's load) next to the same floor. When that
 * part alone is near the target, the rules cannot bring the row under it however fast they run.
 */
function beforeTheRules(label, app, floor, reference, runs) {
  const schemaOnly = sideBySide(
    () =>
      time(
        process.execPath,
        [BIN, "check", "--only", "schema", "--app", app, "--format", "compact"],
        {
          allowExit: [0, 1],
        },
      ),
    () => time(process.execPath, [floor]),
    runs,
  );
  console.log(
    `   ${label} before the rules (--only schema: walk, read, parse, schema, load): ${schemaOnly.subject.toFixed(1)} ms, ratio ${(schemaOnly.subject / schemaOnly.reference).toFixed(2)}; the rules and their findings: ${(reference.subject - schemaOnly.subject).toFixed(1)} ms`,
  );
  rows.push({
    name: `${label} before the rules`,
    subject: schemaOnly.subject,
    reference: schemaOnly.reference,
    ratio: schemaOnly.subject / schemaOnly.reference,
  });
  return schemaOnly;
}

/** What the rules and their findings add to a check of `app`: the full check beside `--only schema`. */
function rulesAdd(app, runs) {
  const check = (only) => () =>
    time(process.execPath, [BIN, "check", ...only, "--app", app, "--format", "compact"], {
      allowExit: [0, 1],
    });
  const { subject, reference } = sideBySide(check([]), check(["--only", "schema"]), runs);
  return subject - reference;
}

/**
 * What the rules cost whatever the app's size (compiling them once, their first passes): the
 * intercept of what they add to a check of `half` and of `whole` (twice `half`'s input). When it is
 * above what the target leaves the rules (`budget`), no faster pass over the entries brings the row
 * under its target.
 */
function rulesAtNoInput(label, half, whole, sizes, budget, runs, unit) {
  const atHalf = rulesAdd(half, runs);
  const atWhole = rulesAdd(whole, runs);
  const intercept = 2 * atHalf - atWhole;
  console.log(
    `   ${label} the rules at no input (from ${sizes}: ${atHalf.toFixed(1)} and ${atWhole.toFixed(1)} ms): ${intercept.toFixed(1)} ms; the target leaves them ${budget.toFixed(1)} ms`,
  );
  rows.push({ name: `${label} the rules at no input (ms)`, ratio: intercept, budget });
  // The other half of the line: what the rules cost for each unit of input, beside what the target
  // leaves a unit once their cost at no input is paid. When the intercept fits and this does not,
  // it is the per-unit work that misses.
  const perUnit = (atWhole - atHalf) / (unit.whole / 2);
  const leftPerUnit = (budget - intercept) / unit.whole;
  console.log(
    `   ${label} the rules ${unit.name}: ${perUnit.toFixed(2)} ms; ${leftPerUnit > 0 ? `the target leaves ${unit.name} ${leftPerUnit.toFixed(2)} ms` : "the target leaves nothing for it once their cost at no input is paid"}`,
  );
  rows.push({ name: `${label} the rules ${unit.name} (ms)`, ratio: perUnit, budget: leftPerUnit });
}

try {
  // The load average goes with the figures: on a shared machine it says how far to trust the wall times.
  console.log(
    `caplint bench: node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}, ${RUNS} runs each, medians\n`,
  );

  // 1. Cold start (also the start-up subtracted from rows 4 and 5's growth).
  let cold = { subject: NaN };
  if (want(1) || want(4) || want(5)) {
    const small = path.join(work, "small");
    mkdirSync(small);
    writeFileSync(
      path.join(small, "default.json"),
      JSON.stringify({
        identifier: "main",
        windows: ["main"],
        permissions: ["core:default", "core:window:allow-set-title"],
      }),
    );
    cold = sideBySide(
      () => time(process.execPath, [BIN, "check", "default.json"], { cwd: small }),
      () => time(process.execPath, ["-e", ""]),
    );
    report("1. cold start: check one file", cold.subject, cold.reference, 'node -e ""', "≤ 1.25");
    const version = sideBySide(
      () => time(process.execPath, [BIN, "--version"]),
      () => time(process.execPath, ["-e", ""]),
    );
    report("1b. cold start: --version", version.subject, version.reference, 'node -e ""', "≤ 1.15");
    // What row 1 pays before it checks anything: the bundle, its code cache and the check command's
    // modules loaded, the line parsed, the help printed. The check itself is what row 1 adds to it.
    const loaded = sideBySide(
      () => time(process.execPath, [BIN, "check", "--help"], { cwd: small }),
      () => time(process.execPath, ["-e", ""]),
    );
    report("1c. cold start: check --help", loaded.subject, loaded.reference, 'node -e ""');
    console.log(
      `   row 1 above node -e "": ${(cold.subject - cold.reference).toFixed(1)} ms, of which the check's modules loaded (1c) ${(loaded.subject - loaded.reference).toFixed(1)} ms`,
    );
  }

  if (want(2) || want(3)) {
    // 2. Throughput: 2,000 files of 20 permissions each.
    const big = path.join(work, "throughput");
    const { src } = generateApp(big, { files: 2000 });
    const floor = path.join(work, "floor.mjs");
    writeFileSync(
      floor,
      `import { readdirSync, readFileSync } from "node:fs"; const dir = ${JSON.stringify(path.join(src, "capabilities"))};
     let n = 0; for (const f of readdirSync(dir)) { JSON.parse(readFileSync(dir + "/" + f, "utf8")); n++; } if (n !== 2000) process.exit(1);`,
    );
    const throughput = sideBySide(
      () =>
        time(process.execPath, [BIN, "check", "--app", big, "--format", "compact"], {
          allowExit: [0, 1],
        }),
      () => time(process.execPath, [floor]),
    );
    report(
      "2. throughput: check 2,000 files",
      throughput.subject,
      throughput.reference,
      "read + JSON.parse floor",
      "≤ 3.0",
    );
    const beforeRules = beforeTheRules("2.", big, floor, throughput, RUNS);
    const half = path.join(work, "throughput-1000");
    generateApp(half, { files: 1000 });
    rulesAtNoInput(
      "2.",
      half,
      big,
      "1,000 and 2,000 files",
      3 * throughput.reference - beforeRules.subject,
      RUNS,
      { name: "per 1,000 files", whole: 2 },
    );

    // 3. Peer: ajv-cli validating the same files against the same schema; caplint schema-only and in full.
    const schemaFile = path.join(ROOT, "schema", "capability.schema.json");
    const ajvCli = () =>
      time(
        process.execPath,
        [
          AJV_CLI,
          "validate",
          "--spec=draft7",
          "--strict=false",
          "-s",
          schemaFile,
          "-d",
          path.join(src, "capabilities", "*.json"),
        ],
        {
          allowExit: [0, 1],
        },
      );
    const peerRuns = Math.max(3, Math.ceil(RUNS / 2));
    const schemaOnly = sideBySide(
      () =>
        time(
          process.execPath,
          [BIN, "check", "--only", "schema", "--app", big, "--format", "compact"],
          { allowExit: [0, 1] },
        ),
      ajvCli,
      peerRuns,
    );
    report(
      "3a. peer: schema only vs ajv-cli",
      schemaOnly.subject,
      schemaOnly.reference,
      "ajv-cli validate (schema only)",
      "< 1.0",
    );
    const peer = sideBySide(
      () =>
        time(process.execPath, [BIN, "check", "--app", big, "--format", "compact"], {
          allowExit: [0, 1],
        }),
      ajvCli,
      peerRuns,
    );
    report(
      "3b. peer: full check vs ajv-cli",
      peer.subject,
      peer.reference,
      "ajv-cli validate (schema only)",
      "< 1.0",
    );
  }

  if (want(4)) {
    // 4. Queries: 5,000 capabilities over 200 windows with globs, and how time grows from 500.
    const growth = [];
    for (const count of [500, 5000]) {
      const app = path.join(work, `queries-${count}`);
      generateApp(app, { files: count / 10, perFile: 10, seed: 7 });
      const matrix = median(
        Array.from({ length: Math.max(3, Math.ceil(RUNS / 2)) }, () =>
          time(process.execPath, [
            BIN,
            "matrix",
            "--app",
            app,
            "--format",
            "json",
            "--platform",
            "linux",
          ]),
        ),
      );
      const access = median(
        Array.from({ length: Math.max(3, Math.ceil(RUNS / 2)) }, () =>
          time(process.execPath, [
            BIN,
            "access",
            "--app",
            app,
            "--window",
            "main-0",
            "--format",
            "json",
            "--platform",
            "linux",
          ]),
        ),
      );
      growth.push({ count, matrix, access });
      console.log(
        `4. queries on ${String(count).padStart(5)} capabilities × 200 windows: matrix ${matrix.toFixed(1)} ms, access ${access.toFixed(1)} ms${count === 5000 ? " (target: matrix < 500 ms)" : ""}`,
      );
    }
    const [from, to] = growth;
    const factor = (key) => (to[key] - cold.subject) / Math.max(1, from[key] - cold.subject);
    console.log(
      `   growth 500 → 5,000 (×10 input), start-up subtracted: matrix ×${factor("matrix").toFixed(1)}, access ×${factor("access").toFixed(1)} (linear would be ×10; must not be worse)`,
    );
    rows.push({ name: "4. growth", matrix: factor("matrix"), access: factor("access") });
  }

  if (want(5)) {
    // 5. Real-world content: 24 copies of the corpus's capability files, and how check grows from 2 to 20 copies.
    const realDir = path.join(work, "real-world");
    const realFiles = realWorldApp(realDir, 24);
    const realFloor = floorScript("real-floor", realFiles);
    // As many runs as row 2: three (from when a run took 14 s) left the ratio's passes ±8 % apart.
    const real = sideBySide(
      () =>
        time(process.execPath, [BIN, "check", "--app", realDir, "--format", "compact"], {
          allowExit: [0, 1],
        }),
      () => time(process.execPath, [realFloor]),
    );
    report(
      `5. real-world: check ${realFiles.length} files`,
      real.subject,
      real.reference,
      "read + parse floor",
      "≤ 6.0",
    );
    const realSchemaOnly = beforeTheRules(
      "5.",
      realDir,
      realFloor,
      real,
      Math.max(3, Math.ceil(RUNS / 2)),
    );
    const realHalf = path.join(work, "real-world-12");
    realWorldApp(realHalf, 12);
    rulesAtNoInput(
      "5.",
      realHalf,
      realDir,
      "12 and 24 copies",
      6 * real.reference - realSchemaOnly.subject,
      Math.max(3, Math.ceil(RUNS / 2)),
      { name: "a corpus copy", whole: 24 },
    );
    // The line above fits a straight line through 12 and 24 copies; the copies are not alike to the
    // check: the first meets every judgement, pattern and memo for the first time and the others find
    // them made. The rules on one copy say how much of that "cost at no input" is the first copy's.
    const realOne = path.join(work, "real-world-1");
    realWorldApp(realOne, 1);
    const firstCopy = rulesAdd(realOne, Math.max(3, Math.ceil(RUNS / 2)));
    console.log(`   5. the rules on one corpus copy (an app's first): ${firstCopy.toFixed(1)} ms`);
    rows.push({ name: "5. the rules on one corpus copy (ms)", ratio: firstCopy });
    const realGrowth = [2, 20].map((copies) => {
      const dir = path.join(work, `real-world-${copies}`);
      realWorldApp(dir, copies);
      return median(
        Array.from({ length: 3 }, () =>
          time(process.execPath, [BIN, "check", "--app", dir, "--format", "compact"], {
            allowExit: [0, 1],
          }),
        ),
      );
    });
    const realFactor = (realGrowth[1] - cold.subject) / Math.max(1, realGrowth[0] - cold.subject);
    console.log(
      `   growth 2 → 20 copies (×10 input), start-up subtracted: check ×${realFactor.toFixed(1)} (target ≤ ×11)`,
    );
    rows.push({ name: "5. growth", check: realFactor, ratio: realFactor, target: "≤ 11" });
  }

  if (want(6)) {
    // 6. One file holding a list of 20,000 capabilities: time and peak memory.
    const list = path.join(work, "list");
    mkdirSync(list);
    const random = prng(11);
    const listWindows = Array.from({ length: 200 }, (_, i) => `main-${i}`);
    writeFileSync(
      path.join(list, "caps.json"),
      JSON.stringify(
        Array.from({ length: 20_000 }, (_, i) => capability(random, `cap-${i}`, listWindows)),
      ),
    );
    // 15 MB: over the default file-size bound, which is raised so that the check, not the refusal, is measured
    // (the 30,000-entries-per-file bound still applies: caplint checks the first 30,000 permissions and says so).
    const listArgs = [
      BIN,
      "check",
      "caps.json",
      "--format",
      "compact",
      "--max-file-size",
      String(64 * 1024 * 1024),
    ];
    const listTime = median(
      Array.from({ length: 3 }, () =>
        time(process.execPath, listArgs, { cwd: list, allowExit: [0, 1] }),
      ),
    );
    const listMemory = peakMemory(listArgs, { cwd: list });
    console.log(
      `6. 20,000-capability list: ${listTime.toFixed(0)} ms, peak ${listMemory.toFixed(0)} MB (targets < 1,000 ms, < 200 MB)`,
    );
    rows.push({ name: "6. 20,000-capability list", subject: listTime, memory: listMemory });
  }

  if (want(7)) {
    // 7. Event streams: 1,000,000 events through `caplint events` vs a read + JSON.parse floor (scripts/bench-events.mjs).
    const { benchEvents } = await import("./bench-events.mjs");
    const events = await benchEvents(["--runs", String(Math.min(RUNS, 3))]);
    rows.push({
      name: "7. events",
      subject: events.subject,
      reference: events.reference,
      ratio: events.ratio,
      target: "≤ 2.0",
      memory: events.subjectRss,
    });
  }

  if (want(8)) {
    // 8. Issue 25's worst cases at 3,000, 30,000 and 300,000 (scripts/bench-worst.mjs): linear time, flat memory.
    const { benchWorstCases } = await import("./bench-worst.mjs");
    benchWorstCases();
  }

  if (want(9)) {
    // 9. The build model's loading cost (issue 20): the build-truth apps (real Cargo.toml and Cargo.lock files,
    // build.rs, in-repo plugins) checked as they are, against the same apps with their Cargo files removed
    // (the built-in catalogs then stand, as before the build model). Third-party plugins are never read from
    // this machine's Cargo registry, so the figure does not depend on what `cargo fetch` left here.
    const buildTruth = path.join(ROOT, "fixtures", "real-world", "build-truth");
    const apps = readdirSync(buildTruth, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const withCargo = path.join(work, "build-truth-with-cargo");
    const withoutCargo = path.join(work, "build-truth-without-cargo");
    cpSync(buildTruth, withCargo, { recursive: true });
    cpSync(buildTruth, withoutCargo, {
      recursive: true,
      filter: (source) => !/^Cargo\.(toml|lock)$/.test(path.basename(source)),
    });
    const checkApps = (root) => () =>
      apps.reduce(
        (sum, app) =>
          sum +
          time(process.execPath, [BIN, "check", "--no-cargo-registry", "--format", "compact"], {
            cwd: path.join(root, app),
            allowExit: [0, 1],
          }),
        0,
      );
    const buildModel = sideBySide(
      checkApps(withCargo),
      checkApps(withoutCargo),
      Math.max(3, Math.ceil(RUNS / 2)),
    );
    report(
      `9. build model: ${apps.length} real apps`,
      buildModel.subject,
      buildModel.reference,
      "same apps, Cargo files removed",
      "≤ 1.10",
    );
  }

  if (want(10)) {
    // 10. The language server (scripts/bench-lsp.mjs): didChange → publishDiagnostics on an app of 50 capability
    // files (median and p95, target ≤ 150 ms), and a soak of 10,000 edits with the server's RSS sampled.
    const { benchLsp } = await import("./bench-lsp.mjs");
    const lsp = await benchLsp();
    rows.push({
      name: "10. lsp didChange → diagnostics (p95)",
      ratio: lsp.withDebounce.p95,
      target: "≤ 150",
      memory: lsp.memory?.peak,
    });
  }

  if (want(11)) {
    // 11. Hostile capability inputs (test/performance/capability-size.test.ts checks their findings, with no clock): time and peak memory.
    const hostile = path.join(work, "hostile");
    const hostileCases = [
      [
        "20,000 URLs, windows and webviews; 6,000 permissions",
        {
          "caps/urls.json": {
            identifier: "urls",
            windows: ["main"],
            permissions: [],
            remote: {
              urls: Array.from({ length: 20_000 }, (_, i) => `https://h${i}.example.com/*`),
            },
          },
          "caps/labels.json": {
            identifier: "labels",
            windows: Array.from({ length: 20_000 }, (_, i) => `w${i}`),
            webviews: Array.from({ length: 20_000 }, (_, i) => `v${i}`),
            permissions: [],
          },
          "caps/entries.json": {
            identifier: "entries",
            windows: ["main"],
            permissions: Array.from({ length: 6_000 }, (_, i) => `core:app:allow-nope-${i}`),
          },
        },
      ],
      [
        "60 long globs × 1,200 long labels",
        {
          "src-tauri/tauri.conf.json": {
            app: {
              windows: Array.from({ length: 1_200 }, (_, i) => ({
                label: `${"a".repeat(1_000)}w${i}`,
              })),
            },
          },
          "src-tauri/capabilities/main.json": {
            identifier: "main",
            windows: Array.from({ length: 60 }, (_, i) => `${"*a".repeat(500)}b${i}`),
            permissions: [],
          },
        },
      ],
      [
        "3 files of 1,000 URL patterns at the length bound",
        Object.fromEntries(
          [0, 1, 2].map((f) => [
            `caps/c${f}.json`,
            {
              identifier: `c${f}`,
              windows: ["main"],
              permissions: [],
              remote: {
                urls: Array.from(
                  { length: 1_000 },
                  (_, i) => `https://h${i}x${f}.example.com/${"*a".repeat(2_030)}`,
                ),
              },
            },
          ]),
        ),
      ],
    ];
    for (const [index, [name, files]] of hostileCases.entries()) {
      const dir = path.join(hostile, String(index));
      for (const [file, value] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), JSON.stringify(value));
      }
      const caseArgs = [
        BIN,
        "check",
        "--format",
        "compact",
        ...(files["src-tauri/tauri.conf.json"] ? [] : ["caps"]),
      ];
      const ms = median(
        Array.from({ length: 3 }, () =>
          time(process.execPath, caseArgs, { cwd: dir, allowExit: [0, 1] }),
        ),
      );
      console.log(
        `11. hostile: ${name}: ${ms.toFixed(0)} ms, peak ${peakMemory(caseArgs, { cwd: dir }).toFixed(0)} MB`,
      );
    }
  }

  // 12. A monorepo: 1, 10, 50 and 100 apps copied from the corpus (configs, Cargo files and committed
  // manifests included), checked from its root, each next to a floor that reads and parses the same
  // capability files; the cost per app is the growth from 1 to 100 apps beyond the floor's, per app.
  if (want(12)) {
    const monorepoRuns = Math.max(3, Math.ceil(RUNS / 2));
    /** A monorepo of `count` apps (`apps` taken in turn) checked from its root, beside its read + parse floor. */
    const monorepoBesideFloor = (name, count, apps) => {
      const dir = path.join(work, `${name}-${count}`);
      monorepo(dir, count, apps);
      const files = capabilityFilesUnder(dir);
      const floorFile = floorScript(`${name}-floor-${count}`, files);
      const measured = sideBySide(
        () =>
          time(process.execPath, [BIN, "check", "--format", "compact", "--no-cargo-registry"], {
            cwd: dir,
            allowExit: [0, 1],
          }),
        () => time(process.execPath, [floorFile]),
        monorepoRuns,
      );
      return { count, files: files.length, ...measured };
    };
    const perAppBeyondFloor = (first, last) =>
      (last.subject - last.reference - (first.subject - first.reference)) /
      (last.count - first.count);

    const sizes = [1, 10, 50, 100].map((count) => {
      const measured = monorepoBesideFloor("monorepo", count);
      report(
        `12. monorepo: ${count} apps, ${measured.files} files`,
        measured.subject,
        measured.reference,
        "read + parse floor",
      );
      return measured;
    });
    const perApp = perAppBeyondFloor(sizes[0], sizes[3]);
    console.log(
      `   cost per app beyond the floor, 1 → 100 apps: ${perApp.toFixed(1)} ms (target ≤ 2 ms)`,
    );
    rows.push({ name: "12. monorepo cost per app (ms)", ratio: perApp, target: "≤ 2" });

    // The fixed cost per app: one small corpus app (a capability file, its config and Cargo.lock)
    // copied 100 times, so every copy after the first shares its catalog and expansions and pays only
    // what any app pays for being one. Row 12's corpus apps add their own files' work to it.
    const smallApp = [
      path.join(ROOT, "fixtures", "real-world", "second-set", "Martichou__rquickshare__main"),
    ];
    const one = monorepoBesideFloor("monorepo-same", 1, smallApp);
    const hundred = monorepoBesideFloor("monorepo-same", 100, smallApp);
    const fixedPerApp = perAppBeyondFloor(one, hundred);
    console.log(
      `12b. the same small app 1 → 100 times: ${one.subject.toFixed(1)} → ${hundred.subject.toFixed(1)} ms; fixed cost per app beyond the floor ${fixedPerApp.toFixed(1)} ms (target ≤ 2 ms)`,
    );
    rows.push({ name: "12b. fixed cost per app (ms)", ratio: fixedPerApp, target: "≤ 2" });

    // What row 12's apps add beyond that fixed cost is their own files' work: each app added from 1 to
    // 100 apps, checked alone in its folder, beside the small app alone (start-up and a minimal app);
    // the sum of what each costs beyond it is then near what the monorepo grows by.
    const checkIn = (dir) => () =>
      time(process.execPath, [BIN, "check", "--format", "compact", "--no-cargo-registry"], {
        cwd: dir,
        allowExit: [0, 1],
      });
    const inFolder = (dir) =>
      readdirSync(dir)
        .sort()
        .map((name) => path.join(dir, name));
    const [smallAlone] = inFolder(path.join(work, "monorepo-same-1"));
    let alone = 0;
    for (const app of inFolder(path.join(work, "monorepo-100")).slice(1)) {
      alone += checkIn(app)() - checkIn(smallAlone)();
    }
    console.log(
      `   12. the 99 apps added from 1 to 100, each checked alone: ${alone.toFixed(0)} ms beyond the small app alone, summed; the monorepo grows by ${(sizes[3].subject - sizes[0].subject).toFixed(0)} ms: an app adds what its own files cost`,
    );
  }

  // 13. Growth: generated apps of 500 to 8,000 files and 12, 24 and 48 copies of the corpus, each next to
  // its floor; linear work keeps the ratio flat as the input doubles.
  if (want(13)) {
    const growthRuns = Math.max(3, Math.ceil(RUNS / 2));
    for (const files of [500, 1000, 2000, 4000, 8000]) {
      const dir = path.join(work, `growth-${files}`);
      const { src: grown } = generateApp(dir, { files });
      const floorFile = floorScript(`growth-floor-${files}`, capabilityFilesUnder(grown));
      const measured = sideBySide(
        () =>
          time(process.execPath, [BIN, "check", "--app", dir, "--format", "compact"], {
            allowExit: [0, 1],
          }),
        () => time(process.execPath, [floorFile]),
        growthRuns,
      );
      report(
        `13. growth: ${files} generated files`,
        measured.subject,
        measured.reference,
        "read + JSON.parse floor",
      );
    }
    for (const copies of [12, 24, 48]) {
      const dir = path.join(work, `growth-real-${copies}`);
      const files = realWorldApp(dir, copies);
      const floorFile = floorScript(`growth-real-floor-${copies}`, files);
      const measured = sideBySide(
        () =>
          time(process.execPath, [BIN, "check", "--app", dir, "--format", "compact"], {
            allowExit: [0, 1],
          }),
        () => time(process.execPath, [floorFile]),
        growthRuns,
      );
      report(
        `13. growth: ${copies} corpus copies, ${files.length} files`,
        measured.subject,
        measured.reference,
        "read + parse floor",
      );
    }
  }

  // 14. The frontend scan's cost (issue 30): `check` on a generated app of 300 frontend modules (two
  // pages, components and services importing each other, a third of them calling Tauri), with the scan
  // (the default) and without it (the rules that read the frontend turned off, so it is never scanned).
  // CPU time of the child, alternated: the ratio is the scan's share, whatever the machine's load.
  if (want(14)) {
    const dir = path.join(work, "frontend-300");
    const modules = frontendApp(dir, { files: 300 });
    const withoutScan = [
      "frontend-command-not-granted",
      "frontend-calls-unregistered-plugin",
      "frontend-version-skew",
      "unused-permission",
      "unused-dangerous-permission",
    ].flatMap((id) => ["--rule", `${id}=off`]);
    const check = (extra) =>
      cpuTime([BIN, "check", "--app", dir, "--format", "compact", ...extra], { allowExit: [0, 1] });
    const measured = sideBySide(
      () => check([]),
      () => check(withoutScan),
    );
    report(
      `14. check + frontend scan, ${modules} modules (CPU)`,
      measured.subject,
      measured.reference,
      "check without the scan (CPU)",
      "≤ 1.30",
    );
  }

  const failed = rows.filter(
    (r) =>
      r.target &&
      !(r.target.startsWith("≤")
        ? r.ratio <= Number(r.target.slice(2))
        : r.ratio < Number(r.target.slice(2))),
  );
  console.log(
    failed.length
      ? `\ntargets missed: ${failed.map((r) => r.name).join("; ")}`
      : "\nall ratio targets met",
  );
} finally {
  if (KEEP) console.log(`inputs kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  rmSync(RSS_PROBE, { force: true });
  rmSync(CPU_PROBE, { force: true });
}
