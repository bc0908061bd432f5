import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
// @ts-expect-error: a plain ES module shared with the benchmark (scripts/bench.mjs), no types.
import { realWorldApp } from "../../scripts/lib/real-world-app.mjs";
// @ts-expect-error: a plain ES module shared with the benchmark (scripts/bench.mjs), no types.
import { corpusApps, monorepo } from "../../scripts/lib/monorepo.mjs";
import { resetWork, work, type WorkCounter } from "../../src/capabilities/work.js";
import { RULES } from "../../src/registry.js";
import { run } from "../helpers/run.js";

/**
 * Linear growth, guarded by operation counts rather than time (timings flake on a busy machine):
 * four copies of the real-world corpus must cost at most ~4.4 times the work of one copy, for `check`
 * and for the queries. A quadratic step (every grant walking every capability's global scope, as
 * dangerous-permission once did) shows here as a factor near 16. Four copies, not ten: the factor
 * between linear and quadratic is already 4, and the suite's time stays in budget.
 */
const work_dir = mkdtempSync(path.join(tmpdir(), "caplint-linearity-"));
afterAll(() => rmSync(work_dir, { recursive: true, force: true }));

/** The input grows GROWTH times; linear work may grow 10 % more than that (fixed costs shrink it). */
const GROWTH = 4;
const BOUND = GROWTH * 1.1;

const apps = new Map<number, string>();
function app(copies: number): string {
  let dir = apps.get(copies);
  if (!dir) {
    dir = path.join(work_dir, `copies-${copies}`);
    realWorldApp(dir, copies);
    apps.set(copies, dir);
  }
  return dir;
}

/** Every counter the smaller run moved grew at most BOUND times for GROWTH times the input. */
function expectLinear(one: Record<WorkCounter, number>, four: Record<WorkCounter, number>): void {
  for (const counter of Object.keys(one) as WorkCounter[]) {
    if (one[counter] === 0) continue;
    expect(
      four[counter] / one[counter],
      `${counter}: ${one[counter]} → ${four[counter]}`,
    ).toBeLessThanOrEqual(BOUND);
  }
}

async function counted(
  argv: (dir: string) => string[],
  copies: number,
): Promise<Record<WorkCounter, number>> {
  resetWork();
  const result = await run(argv(app(copies)), work_dir);
  expect(result.stderr).toBe("");
  return { ...work };
}

describe.each([
  ["check", (dir: string) => ["check", "--app", dir, "--format", "compact"]],
  ["matrix", (dir: string) => ["matrix", "--app", dir, "--format", "json"]],
  ["who-can", (dir: string) => ["who-can", "--app", dir, "plugin:fs|write_file"]],
])("%s on real capability files", (_name, argv) => {
  it("does at most ~4x the work for 4x the input", async () => {
    const one = await counted(argv, 1);
    const four = await counted(argv, GROWTH);
    expect(one.resolvedEntries).toBeGreaterThan(0);
    expectLinear(one, four);
  }, 120_000);
});

describe("every capability rule alone on real capability files", () => {
  // Each rule with only parse and schema beside it, so the engine work it asks for and its own counted
  // steps are its own: a rule that walked every grant for every grant (dead-scope's shell check once
  // did) shows as a factor near 16 in its steps.
  const ids = RULES.filter((rule) => rule.domain === "capabilities").map((rule) => rule.id);
  it.each(ids)(
    "%s does at most ~4x the work for 4x the input",
    async (id) => {
      const argv = (dir: string) => ["check", "--app", dir, "--format", "compact", "--only", id];
      const one = await counted(argv, 1);
      const four = await counted(argv, GROWTH);
      expectLinear(one, four);
    },
    120_000,
  );

  it("counts dead-scope's steps (the shell grants of the corpus)", async () => {
    const one = await counted(
      (dir) => ["check", "--app", dir, "--format", "compact", "--only", "dead-scope"],
      1,
    );
    expect(one.ruleSteps).toBeGreaterThan(0);
  }, 120_000);

  it("dead-scope names a finding's other dead commands from its capability's grants alone", async () => {
    // `count` capabilities each granting shell execute and spawn without a scope: each grant is a
    // finding, and each finding names the other dead commands its entry grants. Walking all of a
    // command's grants for each finding (as dead-scope once did) is a factor near 16 here.
    const steps = async (count: number) => {
      const dir = path.join(work_dir, `unscoped-shell-${count}`, "src-tauri");
      mkdirSync(path.join(dir, "capabilities"), { recursive: true });
      writeFileSync(path.join(dir, "tauri.conf.json"), "{}");
      for (let i = 0; i < count; i++)
        writeFileSync(
          path.join(dir, "capabilities", `c${i}.json`),
          JSON.stringify({
            identifier: `c${i}`,
            windows: [`w${i}`],
            permissions: ["shell:allow-execute", "shell:allow-spawn"],
          }),
        );
      resetWork();
      const result = await run(
        ["check", "--app", dir, "--format", "compact", "--only", "dead-scope"],
        work_dir,
      );
      expect(
        result.stdout.split("\n").filter((line) => line.endsWith("[dead-scope]")),
      ).toHaveLength(2 * count);
      return work.ruleSteps;
    };
    const one = await steps(50);
    const four = await steps(50 * GROWTH);
    expect(one).toBeGreaterThan(0);
    expect(four / one, `${one} → ${four}`).toBeLessThanOrEqual(BOUND);
  }, 120_000);
});

describe("diff", () => {
  /**
   * OLD and NEW of `count` capabilities, each for its own windows (a label and a glob), with a scoped
   * entry and a global scope value; NEW drops the deny of every third (and narrows its glob to one
   * label) and changes every other global deny. Grants, scope values and patterns all grow with `count`: comparing each with every pattern
   * of the other side (as diff once did) is a factor near 16 here.
   */
  function sides(count: number): string {
    const dir = path.join(work_dir, `diff-${count}`);
    for (const side of ["old", "new"]) {
      mkdirSync(path.join(dir, side), { recursive: true });
      for (let i = 0; i < count; i++) {
        const dropped = side === "new" && i % 3 === 0;
        const permissions = [
          "fs:read-all",
          dropped
            ? "fs:allow-read-file"
            : { identifier: "fs:allow-read-file", deny: [{ path: `$HOME/s${i}` }] },
          {
            identifier: "fs:scope",
            allow: [{ path: `$HOME/a${i}` }],
            deny: [{ path: `$HOME/d${side === "new" && i % 2 ? "x" : ""}${i}` }],
          },
        ];
        // A glob narrowed to one of its labels: grants covered by a glob, and denies whose windows may still call.
        const windows = [`w${i}`, dropped ? `w${i}-x` : `w${i}-*`];
        writeFileSync(
          path.join(dir, side, `c${i}.json`),
          JSON.stringify({ identifier: `c${i}`, windows, permissions }),
        );
      }
    }
    return dir;
  }

  it("does at most ~4x the work for 4x the input", async () => {
    const count = async (n: number) => {
      const dir = sides(n);
      resetWork();
      const result = await run(
        [
          "diff",
          path.join(dir, "old"),
          path.join(dir, "new"),
          "--platform",
          "linux",
          "--format",
          "json",
        ],
        work_dir,
      );
      expect(result.code, result.stderr).toBe(1);
      expect(JSON.parse(result.stdout).widenedScopes.length).toBeGreaterThanOrEqual(n);
      return { ...work };
    };
    const one = await count(30);
    const four = await count(30 * GROWTH);
    expect(one.patternComparisons).toBeGreaterThan(0);
    expectLinear(one, four);
  }, 120_000);
});

describe("a monorepo checked from its root", () => {
  /**
   * The same apps copied GROWTH times: everything an app does is its own, or shared with its copies
   * (committed manifests, their members, lock files, release catalogs: each once per run). A step that
   * walked, parsed or compared something of every other app for each app shows as a factor near 16.
   * Ten corpus apps with a Cargo.lock, those that commit a manifest first.
   */
  const has = (app: string, file: string) => existsSync(path.join(app, "src-tauri", file));
  const sources = (corpusApps() as string[])
    .filter((app) => has(app, "Cargo.lock"))
    .sort(
      (a, b) =>
        Number(has(b, "gen/schemas/acl-manifests.json")) -
        Number(has(a, "gen/schemas/acl-manifests.json")),
    )
    .slice(0, 10);

  /**
   * The work of one run of a fresh process's modules: no memo holds anything from an earlier run.
   * (Last in this file: a test after it would run a fresh copy of main, not the one `work` counts for.)
   */
  async function counted(copies: number): Promise<Record<WorkCounter, number>> {
    const dir = path.join(work_dir, `monorepo-${copies}`);
    monorepo(dir, sources.length * copies, sources);
    vi.resetModules();
    const fresh = await import("../helpers/run.js");
    const counters = await import("../../src/capabilities/work.js");
    const result = await fresh.run(["check", "--format", "compact", "--no-cargo-registry"], dir);
    expect(result.stderr).toBe("");
    return { ...counters.work };
  }

  it("does at most ~4x the work, shared work included, for 4x the apps", async () => {
    const one = await counted(1);
    const four = await counted(GROWTH);
    // The resolution's grants walked by rules: dangerous-permission's (dead-scope, whose model entries
    // were these apps' resolvedEntries, now reads the resolution's sites and makes none).
    for (const counter of [
      "dangerousLeaves",
      "ruleSteps",
      "filesParsed",
      "sourceFoldersRead",
      "manifestsParsed",
      "manifestMembersCompared",
      "lockFilesParsed",
      "releaseManifestsBuilt",
      "urlPatternsParsed",
    ] as const)
      expect(one[counter], counter).toBeGreaterThan(0);
    // What the copies of an app share is done once.
    for (const counter of [
      "manifestsParsed",
      "manifestMembersCompared",
      "lockFilesParsed",
      "urlPatternsParsed",
    ] as const)
      expect(four[counter], counter).toBe(one[counter]);
    // Copies whose catalogs hold the same definitions expand with one expander (10 → 16 here; an app
    // with its own permission files reads them anew, so its copies do not share one).
    expect(one.expandersMade).toBeGreaterThan(0);
    expect(four.expandersMade).toBeLessThanOrEqual(2 * one.expandersMade);
    expectLinear(one, four);
  }, 240_000);
});
