import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module shared with the benchmark (scripts/bench.mjs), no types.
import { realWorldApp } from "../../scripts/lib/real-world-app.mjs";
import { work } from "../../src/capabilities/work.js";
import { readWork, SMALL_READ_BYTES } from "../../src/core/source/read.js";
import { ROOT, run } from "../helpers/run.js";

const dir = mkdtempSync(path.join(tmpdir(), "caplint-file-reads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("an app's capability and permission files", () => {
  it("capability files are read without a stat each: the walk already found them regular files (bench row 5)", async () => {
    realWorldApp(dir, 1);
    const folder = path.join(dir, "src-tauri", "capabilities");
    const small = readdirSync(folder).filter((name) => {
      const size = statSync(path.join(folder, name)).size;
      return size > 0 && size < SMALL_READ_BYTES;
    });
    expect(small.length).toBeGreaterThan(100);
    const before = {
      reads: readWork.smallRegularReads,
      parsed: work.filesParsed,
      awaited: work.filesReadAfterAwait,
    };
    const result = await run(
      ["check", "--app", dir, "--format", "compact", "--only", "schema"],
      dir,
    );
    expect(result.stderr).toBe("");
    // Each small capability file once; a stat before its read made five system calls of the floor's four.
    expect(readWork.smallRegularReads - before.reads).toBe(small.length);
    // Every file parsed, in one synchronous loop: no promise and no turn of the microtask queue each.
    expect(work.filesParsed - before.parsed).toBe(readdirSync(folder).length);
    expect(work.filesReadAfterAwait - before.awaited).toBe(0);
  });

  it("a permission folder's files, each read behind an await, are counted as such", async () => {
    const app = path.join(ROOT, "fixtures", "sarif", "app");
    const before = work.filesReadAfterAwait;
    const result = await run(
      ["check", "--app", app, "--format", "compact", "--only", "schema"],
      app,
    );
    expect(result.stderr).toBe("");
    expect(work.filesReadAfterAwait - before).toBe(
      readdirSync(path.join(app, "src-tauri", "permissions")).length,
    );
  });
});
