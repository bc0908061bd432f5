#!/usr/bin/env node
// caplint events throughput and memory: a 1,000,000-event realistic recording (generated in a temporary
// folder, never committed) through `caplint events`, next to a floor script that reads the same file
// and JSON.parses each line, alternating runs; and the peak resident memory of both.
// Run alone: node scripts/bench-events.mjs [--runs N] [--events N]   (npm run bench runs it last)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "caplint.js");

function option(args, name, fallback) {
  const index = args.indexOf(name);
  return index >= 0 ? Number(args[index + 1]) || fallback : fallback;
}

/** Wall time and peak RSS (the child reports its own maxRSS at exit) of one run. */
function measure(args, probe) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--import", probe, ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0)
    throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr.slice(0, 500)}`);
  const facts = /caplint-bench-maxrss=(\d+) cpu=(\d+)/.exec(result.stderr);
  return {
    ms,
    mb: facts ? Number(facts[1]) / 1024 : NaN,
    cpu: facts ? Number(facts[2]) : NaN,
    stdout: result.stdout,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchEvents(args = []) {
  const runs = option(args, "--runs", 3);
  const events = option(args, "--events", 1_000_000);
  const work = mkdtempSync(path.join(tmpdir(), "caplint-bench-events-"));
  try {
    const recording = path.join(work, "recording.jsonl");
    // Written by a child process: a child's peak RSS (maxRSS) starts from its parent's size at fork time,
    // so the parent must stay small for the memory figures to be the children's own.
    const generated = spawnSync(
      process.execPath,
      [path.join(ROOT, "scripts", "event-recording.mjs"), recording, String(events)],
      { encoding: "utf8" },
    );
    if (generated.status !== 0)
      throw new Error(`generating the recording failed: ${generated.stderr}`);
    const size = statSync(recording).size;
    const probe = path.join(work, "rss.mjs");
    writeFileSync(
      probe,
      `import { writeSync } from "node:fs"; process.on("exit", () => { const u = process.resourceUsage(); writeSync(2, "\\ncaplint-bench-maxrss=" + u.maxRSS + " cpu=" + Math.round((u.userCPUTime + u.systemCPUTime) / 1000) + "\\n"); });`,
    );
    const floor = path.join(work, "floor.mjs");
    writeFileSync(
      floor,
      `import { createReadStream } from "node:fs";
       let carry = "", n = 0;
       for await (const chunk of createReadStream(process.argv[2], { encoding: "utf8" })) {
         const text = carry + chunk; let start = 0, end;
         while ((end = text.indexOf("\\n", start)) !== -1) { const line = text.slice(start, end); if (line) { JSON.parse(line); n++; } start = end + 1; }
         carry = text.slice(start);
       }
       if (carry) { JSON.parse(carry); n++; }
       console.log(n);`,
    );
    const subject = [];
    const reference = [];
    for (let i = 0; i < runs; i++) {
      subject.push(measure([BIN, "events", "--format", "compact", recording], probe));
      reference.push(measure([floor, recording], probe));
    }
    const row = {
      events: Number(reference[0].stdout.trim()),
      megabytes: size / 1e6,
      subject: median(subject.map((r) => r.ms)),
      reference: median(reference.map((r) => r.ms)),
      subjectCpu: median(subject.map((r) => r.cpu)),
      referenceCpu: median(reference.map((r) => r.cpu)),
      subjectRss: Math.max(...subject.map((r) => r.mb)),
      referenceRss: Math.max(...reference.map((r) => r.mb)),
      findings: subject[0].stdout.split("\n").filter(Boolean).length,
    };
    row.ratio = row.subject / row.reference;
    row.cpuRatio = row.subjectCpu / row.referenceCpu;
    console.log(
      `7. events: ${row.events.toLocaleString("en")} events (${row.megabytes.toFixed(0)} MB): caplint events ${row.subject.toFixed(0)} ms, peak ${row.subjectRss.toFixed(0)} MB; ` +
        `read + JSON.parse floor ${row.reference.toFixed(0)} ms, peak ${row.referenceRss.toFixed(0)} MB; ratio ${row.ratio.toFixed(2)}, CPU time ${row.subjectCpu} / ${row.referenceCpu} ms = ${row.cpuRatio.toFixed(2)} (targets ≤ 2.0, < 100 MB); ${row.findings} findings`,
    );
    return row;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await benchEvents(process.argv.slice(2));
