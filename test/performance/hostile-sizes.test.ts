import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { placingWork } from "../../src/core/source/toml-key-index.js";
import { globMatchingWork } from "../../src/capabilities/engine/match/glob.js";
import { ROOT, run } from "../helpers/run.js";
import { cleanEnv } from "../helpers/release.js";

/**
 * The shapes that were quadratic or overflowed the stack in the third round of hostile inputs, at ten
 * times the size that failed, held by counted work rather than time (timings flake on a busy machine):
 * TOML capabilities of unknown keys, tables and quoted keys (32,000 took 70 s: each finding searched
 * the whole text), 320,000 TOML and 1,000,000 JSON unknown keys (listed up to MAX_FINDINGS_PER_FILE),
 * 3,000,000 capability references in tauri.conf.json (300,000 ended in "Maximum call stack size
 * exceeded"), and matrix on 1,000 long glob patterns × 1,000 long labels (47 s).
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const work_dir = mkdtempSync(path.join(tmpdir(), "caplint-hostile-sizes-"));
afterAll(() => rmSync(work_dir, { recursive: true, force: true }));

function app(name: string, files: Record<string, string>): string {
  const dir = path.join(work_dir, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const CONFIG = JSON.stringify({
  identifier: "com.example.app",
  app: { windows: [{ label: "main" }], security: {} },
});

async function placed(name: string, toml: string): Promise<{ steps: number; lines: string[] }> {
  const dir = app(name, {
    "src-tauri/tauri.conf.json": CONFIG,
    "src-tauri/capabilities/big.toml": toml,
  });
  placingWork.steps = 0;
  const result = await run(
    ["check", "--app", dir, "--format", "compact", "--only", "unknown-field"],
    work_dir,
  );
  expect(result.stderr).toBe("");
  return { steps: placingWork.steps, lines: result.stdout.trim().split("\n") };
}

const HEAD = 'identifier = "big"\nwindows = ["main"]\npermissions = ["core:default"]\n';

describe("placing findings in TOML costs a lookup per finding", () => {
  it.each([
    ["unknown keys", (i: number) => `unknown${i} = 1\n`, 'unknown capability field "unknown9999"'],
    ["unknown tables", (i: number) => `[t${i}]\n`, 'unknown capability field "t9999"'],
    // Keys that can only be written quoted were searched for in the whole text, each (issue 36).
    ["quoted keys", (i: number) => `"k ${i}" = 1\n`, 'unknown capability field "k 9999"'],
    [
      "escaped quoted keys",
      (i: number) => `"k\\u0041 ${i}" = 1\n`,
      'unknown capability field "kA 9999"',
    ],
    ["quoted tables", (i: number) => `["t ${i}"]\n`, 'unknown capability field "t 9999"'],
  ])(
    "%s: 10,000 findings (the most a file lists) cost ~10x the steps of 1,000, each finding at its line",
    async (name, line, last) => {
      const text = (count: number) =>
        HEAD + Array.from({ length: count }, (_, i) => line(i)).join("");
      const one = await placed(`${name}-1`, text(1_000));
      const ten = await placed(`${name}-10`, text(10_000));
      expect(one.lines).toHaveLength(1_000);
      expect(ten.lines).toHaveLength(10_000);
      // The last finding at its own line: 3 lines of head, then one line each.
      expect(ten.lines.at(-1)).toMatch(
        new RegExp(`big\\.toml:10003:\\d+: warning ${last.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
      expect(ten.steps / one.steps, `${one.steps} → ${ten.steps}`).toBeLessThanOrEqual(11);
      // About a step per finding, not a search of the text.
      expect(ten.steps).toBeLessThan(10_000 * 40);
    },
    300_000,
  );

  it.each([
    [
      "TOML",
      320_000,
      "10× the 32,000 keys that took 70 s",
      (count: number) =>
        HEAD + Array.from({ length: count }, (_, i) => `unknown${i} = 1\n`).join(""),
    ],
    [
      "JSON",
      1_000_000,
      "10× the 100,000 keys that took 58 s",
      (count: number) => {
        const capability: Record<string, unknown> = {
          identifier: "big",
          windows: ["main"],
          permissions: ["core:default"],
        };
        for (let i = 0; i < count; i++) capability[`unknown${i}`] = 1;
        return JSON.stringify(capability);
      },
    ],
  ])(
    "%s: %i unknown keys (%s): 10,000 listed and one finding counting the rest; placing costs the 10,000",
    async (format, count, _, text) => {
      const dir = app(`listed-${format}`, {
        "src-tauri/tauri.conf.json": CONFIG,
        [`src-tauri/capabilities/big.${format.toLowerCase()}`]: text(count),
      });
      placingWork.steps = 0;
      const result = await run(
        [
          "check",
          "--app",
          dir,
          "--format",
          "compact",
          "--only",
          "unknown-field",
          "--max-file-size",
          "40000000",
        ],
        work_dir,
      );
      expect(result.stderr).toBe("");
      const lines = result.stdout.trim().split("\n");
      expect(lines).toHaveLength(10_001);
      expect(lines[0]).toBe(
        `listed-${format}/src-tauri/capabilities/big.${format.toLowerCase()}:1:1: warning ${(count - 10_000).toLocaleString("en")} more unknown-field findings in this file (${(count - 10_000).toLocaleString("en")} warnings) not listed: caplint lists at most 10,000 findings a file [unknown-field]`,
      );
      if (format === "TOML") expect(placingWork.steps).toBeLessThan(10_000 * 40);
    },
    600_000,
  );
});

describe("matrix compares patterns with labels up to a bound", () => {
  it.each([[1_000, "the size that took 47 s"]])(
    "%s long patterns × 1,000 long labels (%s): exit 2 naming the limit, work within it",
    async (patterns) => {
      const windows = Array.from({ length: 1_000 }, (_, i) => ({
        label: `w${i}`.padEnd(1_000, "a"),
      }));
      const files: Record<string, string> = {
        "src-tauri/tauri.conf.json": JSON.stringify({
          identifier: "com.example.app",
          app: { windows, security: {} },
        }),
      };
      // At most 1,000 windows in a capability: the patterns spread over files.
      for (let file = 0; file < patterns / 1_000; file++) {
        const list = Array.from({ length: 1_000 }, (_, i) =>
          `*a?${file * 1_000 + i}`.padEnd(1_000, "a*"),
        );
        files[`src-tauri/capabilities/c${file}.json`] = JSON.stringify({
          identifier: `c${file}`,
          windows: list,
          permissions: ["core:default"],
        });
      }
      const dir = app(`matrix-${patterns}`, files);
      const before = globMatchingWork();
      const result = await run(["matrix", "--app", dir, "--format", "json"], work_dir);
      expect(result).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toBe(
        `caplint: comparing ${patterns} window patterns with 1000 labels reached the limit of 50,000,000 characters compared (long glob patterns against long labels); ask about fewer windows with --window\n`,
      );
      // The bound, plus the one comparison that crossed it (a pattern and a label of 1,000 characters, ×32 words at most).
      expect(globMatchingWork() - before).toBeLessThan(50_000_000 + 100_000);
    },
    300_000,
  );

  it("a few long patterns against a few long labels still answer", async () => {
    const windows = Array.from({ length: 20 }, (_, i) => ({ label: `w${i}`.padEnd(1_000, "a") }));
    const dir = app("matrix-small", {
      "src-tauri/tauri.conf.json": JSON.stringify({
        identifier: "com.example.app",
        app: { windows, security: {} },
      }),
      "src-tauri/capabilities/c.json": JSON.stringify({
        identifier: "c",
        windows: ["w1*", "*a?3*"],
        permissions: ["core:app:allow-version"],
      }),
    });
    const result = await run(
      ["matrix", "--app", dir, "--format", "json", "--platform", "linux"],
      work_dir,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("plugin:app|version");
  });
});

describe("no recursion or argument spread a file can make deep", () => {
  it("3,000,000 capability references in tauri.conf.json (10× the 300,000 that overflowed the stack): the bound is an error, no internal error (the built bin)", () => {
    const references = JSON.stringify(Array.from({ length: 3_000_000 }, () => "main"));
    const dir = app("references", {
      "src-tauri/tauri.conf.json": `{"identifier":"com.example.app","app":{"windows":[{"label":"main"}],"security":{"capabilities":${references}}}}`,
      "src-tauri/capabilities/main.json": JSON.stringify({
        identifier: "main",
        windows: ["main"],
        permissions: ["core:default"],
      }),
    });
    const result = spawnSync(
      process.execPath,
      [
        BIN,
        "check",
        "--app",
        dir,
        "--format",
        "compact",
        "--only",
        "unknown-field",
        "--max-file-size",
        "40000000",
      ],
      {
        cwd: work_dir,
        encoding: "utf8",
        env: cleanEnv(),
      },
    );
    expect(result.stderr).toBe("");
    // Only the first 10,000 are kept (each with its path: 3,000,000 held 1.2 GB), and the bound is said.
    expect(result.stdout).toBe(
      "references/src-tauri/tauri.conf.json:1:96: error app.security.capabilities lists 3,000,000 entries, over the limit of 10,000 caplint checks; the rest are not checked [parse]\n",
    );
    expect(result.status).toBe(1);
  }, 300_000);
});
