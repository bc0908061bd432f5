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
 * a TOML capability of 320,000 unknown keys (32,000 took 70 s: each finding searched the whole text),
 * 300,000 unknown tables, 1,000,000 capability references in tauri.conf.json (300,000 ended in "Maximum
 * call stack size exceeded"), and matrix on 1,000 long glob patterns × 1,000 long labels (47 s).
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

const CONFIG = JSON.stringify({ identifier: "com.example.app", app: { windows: [{ label: "main" }], security: {} } });

async function placed(name: string, toml: string): Promise<{ steps: number; lines: string[] }> {
  const dir = app(name, { "src-tauri/tauri.conf.json": CONFIG, "src-tauri/capabilities/big.toml": toml });
  placingWork.steps = 0;
  const result = await run(["check", "--app", dir, "--format", "compact", "--only", "unknown-field"], work_dir);
  expect(result.stderr).toBe("");
  return { steps: placingWork.steps, lines: result.stdout.trim().split("\n") };
}

const HEAD = 'identifier = "big"\nwindows = ["main"]\npermissions = ["core:default"]\n';

describe("placing findings in TOML costs a lookup per finding", () => {
  it.each([
    ["unknown keys", (i: number) => `unknown${i} = 1\n`, 32_000],
    ["unknown tables", (i: number) => `[t${i}]\n`, 30_000],
  ])(
    "%s: the size that failed costs ~10x the steps of a tenth of it, each finding at its line",
    async (name, line, failing) => {
      // Ten times the failing size is 300,000 findings, about 1 GB of diagnostics: more than a test worker
      // holds. The ratio and the steps per finding are what grow with a quadratic search.
      const text = (count: number) => HEAD + Array.from({ length: count }, (_, i) => line(i)).join("");
      const one = await placed(`${name}-1`, text(failing / 10));
      const ten = await placed(`${name}-10`, text(failing));
      expect(one.lines).toHaveLength(failing / 10);
      expect(ten.lines).toHaveLength(failing);
      // The last finding at its own line: 3 lines of head, then one line each.
      expect(ten.lines.at(-1)).toMatch(new RegExp(`big\\.toml:${failing + 3}:\\d+: warning unknown capability field "(unknown|t)${failing - 1}"`));
      expect(ten.steps / one.steps, `${one.steps} → ${ten.steps}`).toBeLessThanOrEqual(11);
      // About a step per finding, not a search of the text (32,000 findings × 500 KB before).
      expect(ten.steps).toBeLessThan(failing * 40);
    },
    300_000,
  );
});

describe("matrix compares patterns with labels up to a bound", () => {
  it.each([[1_000, "the size that took 47 s"]])(
    "%s long patterns × 1,000 long labels (%s): exit 2 naming the limit, work within it",
    async (patterns) => {
      const windows = Array.from({ length: 1_000 }, (_, i) => ({ label: `w${i}`.padEnd(1_000, "a") }));
      const files: Record<string, string> = {
        "src-tauri/tauri.conf.json": JSON.stringify({ identifier: "com.example.app", app: { windows, security: {} } }),
      };
      // At most 1,000 windows in a capability: the patterns spread over files.
      for (let file = 0; file < patterns / 1_000; file++) {
        const list = Array.from({ length: 1_000 }, (_, i) => `*a?${file * 1_000 + i}`.padEnd(1_000, "a*"));
        files[`src-tauri/capabilities/c${file}.json`] = JSON.stringify({ identifier: `c${file}`, windows: list, permissions: ["core:default"] });
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
      "src-tauri/tauri.conf.json": JSON.stringify({ identifier: "com.example.app", app: { windows, security: {} } }),
      "src-tauri/capabilities/c.json": JSON.stringify({ identifier: "c", windows: ["w1*", "*a?3*"], permissions: ["core:app:allow-version"] }),
    });
    const result = await run(["matrix", "--app", dir, "--format", "json", "--platform", "linux"], work_dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("plugin:app|version");
  });
});

describe("no recursion or argument spread a file can make deep", () => {
  it("1,000,000 capability references in tauri.conf.json: checked, no internal error (the built bin)", () => {
    const references = JSON.stringify(Array.from({ length: 1_000_000 }, () => "main"));
    const dir = app("references", {
      "src-tauri/tauri.conf.json": `{"identifier":"com.example.app","app":{"windows":[{"label":"main"}],"security":{"capabilities":${references}}}}`,
      "src-tauri/capabilities/main.json": JSON.stringify({ identifier: "main", windows: ["main"], permissions: ["core:default"] }),
    });
    const result = spawnSync(process.execPath, [BIN, "check", "--app", dir, "--format", "compact", "--only", "unknown-field", "--max-file-size", "20000000"], {
      cwd: work_dir,
      encoding: "utf8",
      env: cleanEnv(),
    });
    expect(result.stderr).not.toContain("internal error");
    expect(result.stderr).not.toContain("call stack");
    expect(result.status, result.stderr).toBe(0);
  }, 300_000);
});
