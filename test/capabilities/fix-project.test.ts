import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fixProject } from "../../src/capabilities/fix-project.js";
import { writeFixes } from "../../src/core/fix/write-fixes.js";
import { applyFixes } from "../../src/core/fix/apply-fixes.js";
import { unifiedDiff } from "../../src/core/fix/unified-diff.js";
import { FIXTURES, run } from "../helpers/run.js";

const SOURCE = path.join(
  FIXTURES,
  "capabilities",
  "duplicate-permission",
  "invalid",
  "repeats.json",
);

function copy(): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-fix-"));
  const file = path.join(dir, "repeats.json");
  copyFileSync(SOURCE, file);
  return { dir, file };
}

describe("--fix writes safely", () => {
  it("keeps the file mode", async () => {
    const { dir, file } = copy();
    chmodSync(file, 0o640);
    await run(["check", "--fix", "repeats.json"], dir);
    expect(readFileSync(file, "utf8")).not.toBe(readFileSync(SOURCE, "utf8"));
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it("refuses a file that changed on disk after it was read, and leaves the change alone", async () => {
    const { dir, file } = copy();
    const outcome = await fixProject({ cwd: dir, paths: ["repeats.json"] });
    expect(outcome.changes.size).toBe(1);
    writeFileSync(file, '{ "identifier": "edited meanwhile", "permissions": [] }\n');
    await expect(writeFixes(outcome.changes)).rejects.toThrow(
      "repeats.json: changed on disk while caplint was fixing it; not written",
    );
    expect(readFileSync(file, "utf8")).toBe(
      '{ "identifier": "edited meanwhile", "permissions": [] }\n',
    );
  });

  it("leaves the original untouched when the write fails", async () => {
    const { dir, file } = copy();
    const outcome = await fixProject({ cwd: dir, paths: ["repeats.json"] });
    const failing = async () => {
      throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    };
    await expect(writeFixes(outcome.changes, failing)).rejects.toThrow(
      "cannot write the fixed file, original left untouched",
    );
    expect(readFileSync(file, "utf8")).toBe(readFileSync(SOURCE, "utf8"));
  });

  it("--fix-dry-run prints a unified diff and writes nothing", async () => {
    const { dir, file } = copy();
    const result = await run(
      ["check", "--fix-dry-run", "--format", "compact", "repeats.json"],
      dir,
    );
    expect(result.stdout).toMatch(
      /^--- a\/repeats\.json\n\+\+\+ b\/repeats\.json\n@@ -4,9 \+4,6 @@\n/,
    );
    expect(result.stdout).toContain('-    "core:default",\n');
    expect(readFileSync(file, "utf8")).toBe(readFileSync(SOURCE, "utf8"));
  });
});

describe("fix building blocks", () => {
  it("applies non-overlapping fixes and leaves overlapping ones for the next pass", () => {
    const text = "abcdef";
    const fix = (offset: number, length: number, content: string) => ({
      description: "",
      edits: [{ offset, length, content }],
    });
    expect(applyFixes(text, [fix(0, 1, "A"), fix(4, 2, "EF")])).toEqual({
      text: "AbcdEF",
      applied: 2,
    });
    expect(applyFixes(text, [fix(1, 3, "X"), fix(2, 1, "Y")])).toEqual({
      text: "aXef",
      applied: 1,
    });
  });

  it("diffs with context and merged hunks", () => {
    const before = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
    const after = before.replace("line 2\n", "").replace("line 11", "line eleven");
    expect(unifiedDiff("f.txt", before, after)).toBe(
      [
        "--- a/f.txt",
        "+++ b/f.txt",
        "@@ -1,5 +1,4 @@",
        " line 1",
        "-line 2",
        " line 3",
        " line 4",
        " line 5",
        "@@ -8,5 +7,5 @@",
        " line 8",
        " line 9",
        " line 10",
        "-line 11",
        "+line eleven",
        " line 12",
        "",
      ].join("\n"),
    );
    expect(unifiedDiff("f.txt", before, before)).toBe("");
  });

  it("a whole-file rewrite too large to search is shown replaced whole, in bounded time", () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join("\n") + "\n";
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join("\n") + "\n";
    const lines = unifiedDiff("f.txt", before, after).split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "--- a/f.txt",
      "+++ b/f.txt",
      "@@ -1,3000 +1,3000 @@",
      "-old 0",
    ]);
    expect(lines).toHaveLength(2 + 1 + 6000 + 1);
  });
});
