import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module shared with the benchmark (scripts/bench.mjs), no types.
import { realWorldApp } from "../../scripts/lib/real-world-app.mjs";
import { readWork, SMALL_READ_BYTES } from "../../src/core/source/read.js";
import { run } from "../helpers/run.js";

const dir = mkdtempSync(path.join(tmpdir(), "caplint-file-reads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("capability files", () => {
  it("are read without a stat each: the walk already found them regular files (bench row 5)", async () => {
    realWorldApp(dir, 1);
    const folder = path.join(dir, "src-tauri", "capabilities");
    const small = readdirSync(folder).filter((name) => {
      const size = statSync(path.join(folder, name)).size;
      return size > 0 && size < SMALL_READ_BYTES;
    });
    expect(small.length).toBeGreaterThan(100);
    const before = { reads: readWork.smallRegularReads };
    const result = await run(
      ["check", "--app", dir, "--format", "compact", "--only", "schema"],
      dir,
    );
    expect(result.stderr).toBe("");
    // Each small capability file once; a stat before its read made five system calls of the floor's four.
    expect(readWork.smallRegularReads - before.reads).toBe(small.length);
  });
});
