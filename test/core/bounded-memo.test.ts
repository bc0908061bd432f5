/**
 * Caches in a long-running process (the language server, `--watch`): a memo keeps at most its stated
 * number of entries (a long session of ever new input: test/performance/memo-session.test.ts), and the
 * read log that guards `--output` belongs to one run. Counts entries, never times anything.
 */
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BoundedMemo } from "../../src/core/bounded-memo.js";
import {
  forgetFilesRead,
  readTextFile,
  wasReadThisRun,
  withOpenBuffers,
} from "../../src/core/source/read.js";
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
