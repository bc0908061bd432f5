import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { execFile, spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { replaceFile } from "../../src/core/file-output.js";
import { FIXTURES, run, type RunResult } from "../helpers/run.js";
import { binForAnyUser } from "../helpers/bin-for-any-user.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "caplint-output-"));
  cpSync(
    path.join(FIXTURES, "sarif", "app", "src-tauri", "capabilities"),
    path.join(dir, "capabilities"),
    { recursive: true },
  );
});
afterEach(() => {
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

const isRoot = process.getuid?.() === 0;
const setprivAvailable = spawnSync("setpriv", ["--version"]).status === 0;

/** The built bin (a copy every user can read), run as user "nobody" (uid 65534) through util-linux's setpriv. */
function runAsNobody(argv: string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      "setpriv",
      [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        process.execPath,
        binForAnyUser(),
        ...argv,
      ],
      { cwd, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe("replaceFile", () => {
  it("creates a file and replaces it, keeping an existing file's mode", async () => {
    const file = path.join(dir, "report.txt");
    await replaceFile(file, "first\n");
    expect(readFileSync(file, "utf8")).toBe("first\n");
    chmodSync(file, 0o640);
    await replaceFile(file, "second\n");
    expect(readFileSync(file, "utf8")).toBe("second\n");
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).sort()).toEqual(["capabilities", "report.txt"]);
  });

  it("never writes through a symbolic link", async () => {
    mkdirSync(path.join(dir, "real"));
    writeFileSync(path.join(dir, "real", "report.txt"), "old\n");
    symlinkSync(path.join("real", "report.txt"), path.join(dir, "link.txt"));
    await expect(replaceFile(path.join(dir, "link.txt"), "new\n")).rejects.toThrow(
      "is a symbolic link; not written through it",
    );
    expect(lstatSync(path.join(dir, "link.txt")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(dir, "link.txt"))).toBe(path.join("real", "report.txt"));
    expect(readFileSync(path.join(dir, "real", "report.txt"), "utf8")).toBe("old\n");
  });

  it("refuses a folder before writing anything", async () => {
    mkdirSync(path.join(dir, "taken"));
    await expect(replaceFile(path.join(dir, "taken"), "text")).rejects.toThrow("is a directory");
    expect(readdirSync(dir).sort()).toEqual(["capabilities", "taken"]);
    expect(readdirSync(path.join(dir, "taken"))).toEqual([]);
  });
});

describe("caplint check --output", { timeout: 120_000 }, () => {
  it("writes the report to the file instead of standard output, with the same exit code", async () => {
    const toStdout = await run(["check", "--format", "sarif", "capabilities"], dir);
    const written = await run(
      ["check", "--format", "sarif", "--output", "out/report.sarif", "capabilities"],
      dir,
    );
    expect(written).toEqual({ code: toStdout.code, stdout: "", stderr: "" });
    expect(toStdout.code).toBe(1);
    expect(readFileSync(path.join(dir, "out", "report.sarif"), "utf8")).toBe(toStdout.stdout);
    expect(readdirSync(path.join(dir, "out"))).toEqual(["report.sarif"]);
  });

  it("exits 0 and writes the report of a clean run", async () => {
    const result = await run(
      [
        "check",
        "-f",
        "json",
        "-o",
        "clean.json",
        "capabilities/copy.json",
        "--rule",
        "unused-suppression=off",
      ],
      dir,
    );
    expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(JSON.parse(readFileSync(path.join(dir, "clean.json"), "utf8")).summary.errors).toBe(0);
  });

  it("writes the stylish report without colour codes, though standard output is a terminal", async () => {
    const terminal = async (argv: string[]) => {
      let stdout = "";
      const code = await main({
        argv,
        cwd: dir,
        env: {},
        stdout: { isTTY: true, write: (s: string) => (stdout += s) },
        stderr: { write: () => true },
      });
      return { code, stdout };
    };
    // The control: on the terminal itself the report is coloured.
    expect((await terminal(["check", "capabilities"])).stdout).toMatch(/\u001b\[/);
    expect(await terminal(["check", "-o", "report.txt", "capabilities"])).toEqual({
      code: 1,
      stdout: "",
    });
    const text = readFileSync(path.join(dir, "report.txt"), "utf8");
    expect(text).toContain("capabilities/main.json");
    expect(text).not.toMatch(/\u001b\[/);
  });

  it("makes missing folders, as ESLint's --output-file does", async () => {
    const result = await run(
      ["check", "--format", "sarif", "--output", "missing/ci/report.sarif", "capabilities"],
      dir,
    );
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: "" });
    expect(readdirSync(path.join(dir, "missing", "ci"))).toEqual(["report.sarif"]);
  });

  it("fails with exit 2 and one line when a folder on the way is a file", async () => {
    writeFileSync(path.join(dir, "notes.txt"), "");
    const result = await run(
      ["check", "--format", "sarif", "--output", "notes.txt/report.sarif", "capabilities"],
      dir,
    );
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "caplint: --output notes.txt/report.sarif: cannot write the report: not a directory\n",
    });
    expect(readdirSync(dir).sort()).toEqual(["capabilities", "notes.txt"]);
  });

  it("fails with exit 2 and leaves no temporary file when the target is a folder", async () => {
    mkdirSync(path.join(dir, "report.sarif"));
    const result = await run(
      ["check", "--format", "sarif", "--output", "report.sarif", "capabilities"],
      dir,
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^caplint: --output report\.sarif: cannot write the report: [^\n]+\n$/,
    );
    expect(readdirSync(dir).sort()).toEqual(["capabilities", "report.sarif"]);
    expect(readdirSync(path.join(dir, "report.sarif"))).toEqual([]);
  });

  // Root writes into read-only folders anyway, so as root the real bin runs as user "nobody".
  it("fails with exit 2 and leaves no temporary file in a read-only folder", async ({ skip }) => {
    skip(
      isRoot && !setprivAvailable,
      "running as root, and util-linux's setpriv (to run as nobody) is missing",
    );
    mkdirSync(path.join(dir, "locked"));
    chmodSync(path.join(dir, "locked"), 0o555);
    chmodSync(dir, 0o755);
    const argv = ["check", "--format", "sarif", "--output", "locked/report.sarif", "capabilities"];
    try {
      const result = isRoot ? await runAsNobody(argv, dir) : await run(argv, dir);
      expect(result).toEqual({
        code: 2,
        stdout: "",
        stderr:
          "caplint: --output locked/report.sarif: cannot write the report: permission denied\n",
      });
      expect(readdirSync(path.join(dir, "locked"))).toEqual([]);
    } finally {
      chmodSync(path.join(dir, "locked"), 0o755);
    }
  });

  it("keeps an earlier report intact when writing a new one fails", async () => {
    writeFileSync(path.join(dir, "report.sarif"), "earlier\n");
    // A report that cannot be produced (unknown format) must not touch the file.
    expect(
      (await run(["check", "--format", "xml", "--output", "report.sarif", "capabilities"], dir))
        .code,
    ).toBe(2);
    expect(readFileSync(path.join(dir, "report.sarif"), "utf8")).toBe("earlier\n");
  });
});
