import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

describe("the bin in a checkout that was never built", () => {
  it("says to build, in one line, with exit 2 (no stack trace)", () => {
    const checkout = mkdtempSync(path.join(tmpdir(), "caplint-unbuilt-"));
    cpSync(path.join(ROOT, "bin"), path.join(checkout, "bin"), { recursive: true });
    const result = spawnSync(
      process.execPath,
      [path.join(checkout, "bin", "caplint.js"), "check"],
      { cwd: checkout, encoding: "utf8" },
    );
    expect(result.status).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      `caplint: dist/cli-bundle/main.cjs is missing (ENOENT): run "npm run build" in ${checkout}\n`,
    );
  });
});
