#!/usr/bin/env node
// Issue 25's worst cases at a base size, 10× and 100× it, through the built bin: time and peak RSS,
// so linear growth shows as ~10× time per step and memory that stays flat. Inputs from lib/worst-cases.mjs.
// Run alone: node scripts/bench-worst.mjs [--base N]   (npm run bench runs it last)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  badLines,
  closedSessions,
  recursiveSchemaListing,
  reusedCallId,
  wideLine,
} from "./lib/worst-cases.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "caplint.js");

function measure(args, cwd) {
  const start = process.hrtime.bigint();
  const result = spawnSync("/usr/bin/time", ["-f", "maxrss=%M", process.execPath, BIN, ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const rss = /maxrss=(\d+)/.exec(result.stderr);
  return { ms, mb: rss ? Number(rss[1]) / 1024 : NaN };
}

export function benchWorstCases(args = []) {
  const at = args.indexOf("--base");
  const base = at >= 0 ? Number(args[at + 1]) : 3_000;
  const work = mkdtempSync(path.join(tmpdir(), "caplint-bench-worst-"));
  const cases = [
    ["events: n findings on one line", (n) => wideLine(n), ["events", "--format", "compact"]],
    ["events: n bad lines, stylish", (n) => [...badLines(n)].join(""), ["events"]],
    ["events: n bad lines, JSON", (n) => [...badLines(n)].join(""), ["events", "--format", "json"]],
    [
      "events: n closed sessions",
      (n) => [...closedSessions(n)].join(""),
      ["events", "--format", "compact"],
    ],
    [
      "events: n calls, then an id reused",
      (n) => [...reusedCallId(n)].join(""),
      ["events", "--format", "compact"],
    ],
    [
      "mcp: a model of n/300 properties that $ref it",
      (n) => JSON.stringify(recursiveSchemaListing(Math.max(2, Math.round(n / 300)))),
      ["mcp", "--format", "compact"],
    ],
  ];
  try {
    for (const [name, make, command] of cases) {
      const cells = [];
      for (const n of [base, base * 10, base * 100]) {
        const file = path.join(work, "input");
        writeFileSync(file, make(n));
        const { ms, mb } = measure(
          [...command, ...(command[0] === "mcp" ? ["--max-file-size", "2000000000"] : []), file],
          work,
        );
        cells.push(`${n.toLocaleString("en")}: ${ms.toFixed(0)} ms, ${mb.toFixed(0)} MB`);
      }
      console.log(`8. ${name}: ${cells.join("; ")}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  benchWorstCases(process.argv.slice(2));
