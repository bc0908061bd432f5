/**
 * Caches in a long-running process (the language server, `--watch`): every memo of user input keeps at
 * most its stated number of entries however much new input a session sees, and the read log that guards
 * `--output` belongs to one run. Counts entries, never times anything.
 */
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkIdentifier } from "../../src/capabilities/catalog/identifier.js";
import { loadRemotePatternTools, urlReach } from "../../src/capabilities/dangers/url-reach.js";
import { compileLabelPattern } from "../../src/capabilities/engine/match/glob.js";
import { compileRemotePattern } from "../../src/capabilities/engine/match/origin.js";
import { BoundedMemo, boundedMemos } from "../../src/core/bounded-memo.js";
import { SourceDocument } from "../../src/core/source/document.js";
import {
  forgetFilesRead,
  readTextFile,
  wasReadThisRun,
  withOpenBuffers,
} from "../../src/core/source/read.js";
import { parseToml } from "../../src/core/source/toml.js";
import { run } from "../helpers/run.js";

describe("a bounded memo", () => {
  it("computes each key once, drops the oldest entry when full, and keeps undefined answers", () => {
    const computed: string[] = [];
    const memo = new BoundedMemo<string, number | undefined>(3);
    const length = (key: string) => {
      computed.push(key);
      return key === "none" ? undefined : key.length;
    };
    expect([
      memo.get("a", length),
      memo.get("bb", length),
      memo.get("none", length),
      memo.get("a", length),
      memo.get("none", length),
    ]).toEqual([1, 2, undefined, 1, undefined]);
    expect(computed).toEqual(["a", "bb", "none"]);
    memo.get("dddd", length);
    expect(memo.size).toBe(3);
    // "a" was the oldest: asked again, it is computed again; "bb" and "none" stayed.
    memo.get("a", length);
    memo.get("none", length);
    expect(computed).toEqual(["a", "bb", "none", "dddd", "a"]);
    expect(memo.size).toBe(3);
    expect(() => new BoundedMemo(0)).toThrow(RangeError);
  });
});

describe("a long session of ever new input", () => {
  /** One round of what a check of a new app asks the memos: identifiers, labels, origins, URL reaches, TOML keys. */
  async function round(tag: string): Promise<void> {
    const tools = await loadRemotePatternTools();
    for (let i = 0; i < 5000; i++) {
      checkIdentifier(`p${tag}:allow-${i}`);
      compileLabelPattern(`w${tag}-${i}-*`);
    }
    // Compiling an origin pattern costs about a millisecond: fewer per round, enough to fill that memo in two.
    for (let i = 0; i < 1100; i++) compileRemotePattern(`https://h${tag}-${i}.example.com/*`);
    for (let i = 0; i < 20; i++)
      compileRemotePattern(`https://h${tag}-${i}.example.com/*`, { allowUnsafe: true });
    for (let i = 0; i < 100; i++) urlReach(tools.URLPattern, `https://*.r${tag}-${i}.example.*`);
    const keys = Array.from({ length: 600 }, (_, i) => `k${tag}_${i}`);
    const text = keys.map((key) => `${key} = 1\n`).join("");
    const document = SourceDocument.parse(`/x/${tag}.toml`, `${tag}.toml`, text, "toml", parseToml);
    for (const key of keys) document.locate([key], "key");
  }

  it("keeps every memo within its stated size, however many rounds", async () => {
    await round("first");
    // Identifiers, labels, origins (two modes), URL reaches, component answers and TOML key patterns.
    expect(boundedMemos().length).toBeGreaterThanOrEqual(7);
    expect(boundedMemos().filter((memo) => memo.size > 0).length).toBeGreaterThanOrEqual(7);
    await round("second");
    for (const memo of boundedMemos()) expect(memo.size).toBeLessThanOrEqual(memo.limit);
    // Labels (4,096) and strict origins (2,048) saw more than they hold: they are full and stay full, so a
    // session grows none of them further. (TOML keys are placed from each document's key index since a4a7e29.)
    const full = boundedMemos().filter((memo) => memo.size === memo.limit);
    expect(full.map((memo) => memo.limit).sort((a, b) => a - b)).toEqual(
      expect.arrayContaining([2048, 4096]),
    );
  }, 60_000);
});

describe("the log of files a run read (which --output never replaces)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-read-log-"));
  const file = path.join(dir, "a.json");
  writeFileSync(file, "{}\n");

  it("belongs to one run: a new run starts with nothing read", () => {
    forgetFilesRead();
    expect(readTextFile(file, 1000).ok).toBe(true);
    expect(wasReadThisRun(statSync(file))).toBe(true);
    forgetFilesRead();
    expect(wasReadThisRun(statSync(file))).toBe(false);
  });

  it("logs nothing of the language server's checks, which write nothing and last for hours", async () => {
    forgetFilesRead();
    await withOpenBuffers(new Map(), async () => {
      expect(readTextFile(file, 1000).ok).toBe(true);
    });
    expect(wasReadThisRun(statSync(file))).toBe(false);
  });

  it("still keeps --output off a file the same CLI run read", async () => {
    const app = path.join(dir, "app", "src-tauri");
    mkdirSync(path.join(app, "capabilities"), { recursive: true });
    writeFileSync(
      path.join(app, "tauri.conf.json"),
      '{"identifier":"x.y","app":{"windows":[{"label":"main"}]}}\n',
    );
    const capability = path.join(app, "capabilities", "main.json");
    writeFileSync(
      capability,
      '{"identifier":"main","windows":["main"],"permissions":["core:default"]}\n',
    );
    // tauri.conf.json is no checked input: only the run's read log knows the run read it.
    const result = await run(
      ["check", "--output", path.join(app, "tauri.conf.json")],
      path.dirname(app),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "tauri.conf.json: cannot write the report: is one of the files being checked",
    );
  });
});
