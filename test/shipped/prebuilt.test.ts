/**
 * The built CLI committed on main (prebuilt/, scripts/prebuilt.mjs) is the build of these sources: what
 * pre-commit and the GitHub Action run from a commit of main must be what its sources say (issue 33
 * item 1). npm test builds first, so dist/ is the build of the tree under test.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

const SCRIPT = path.join(ROOT, "scripts", "prebuilt.mjs");

describe("prebuilt/", () => {
  it("is byte for byte the build in dist/ (else: npm run prebuilt, and commit prebuilt/)", () => {
    const result = spawnSync(process.execPath, [SCRIPT, "--check"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("the check fails, naming the file and the command, when a built file differs or is gone", () => {
    const copy = path.join(mkdtempSync(path.join(tmpdir(), "caplint-prebuilt-")), "caplint");
    try {
      for (const entry of ["scripts", "prebuilt", "dist/cli-bundle", "dist/generated"])
        cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
      writeFileSync(
        path.join(copy, "dist", "cli-bundle", "mcp-server.cjs"),
        "// changed sources\n",
      );
      const stale = spawnSync(
        process.execPath,
        [path.join(copy, "scripts", "prebuilt.mjs"), "--check"],
        { encoding: "utf8" },
      );
      expect(stale.status).toBe(1);
      expect(stale.stderr).toBe(
        'prebuilt: prebuilt/ is not the build of these sources (prebuilt/cli-bundle/mcp-server.cjs): run "npm run prebuilt" and commit prebuilt/\n',
      );
      // The copy step makes them equal again.
      expect(
        spawnSync(process.execPath, [path.join(copy, "scripts", "prebuilt.mjs")], {
          encoding: "utf8",
        }).status,
      ).toBe(0);
      expect(
        spawnSync(process.execPath, [path.join(copy, "scripts", "prebuilt.mjs"), "--check"], {
          encoding: "utf8",
        }).status,
      ).toBe(0);
    } finally {
      rmSync(path.dirname(copy), { recursive: true, force: true });
    }
  });

  it("bin/caplint.js runs prebuilt/'s CLI where there is no dist/ (a plain commit)", () => {
    const copy = path.join(mkdtempSync(path.join(tmpdir(), "caplint-prebuilt-")), "caplint");
    try {
      for (const entry of [
        "package.json",
        "bin",
        "schema",
        "data",
        "prebuilt",
        "examples/demo-app",
      ])
        cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true });
      const result = spawnSync(
        process.execPath,
        [path.join(copy, "bin", "caplint.js"), "check", "--format", "compact"],
        {
          cwd: path.join(copy, "examples", "demo-app"),
          encoding: "utf8",
        },
      );
      expect(result.stderr).toBe("");
      expect(result.status).toBe(1);
      expect(result.stdout).toContain(
        'src-tauri/capabilities/default.json:12:5: error unknown permission "fs:allow-reed-file"',
      );
    } finally {
      rmSync(path.dirname(copy), { recursive: true, force: true });
    }
  });
});
