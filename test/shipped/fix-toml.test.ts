import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

const exec = promisify(execFile);

async function caplint(
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(
      process.execPath,
      [path.join(ROOT, "bin/caplint.js"), ...args],
      { cwd, env: { ...process.env, NO_COLOR: "1" } },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function capability(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-fix-toml-"));
  writeFileSync(path.join(dir, "main.toml"), text);
  return dir;
}

describe("--fix on TOML capability files (built bin)", () => {
  it("removes duplicates from an inline array and renames legacy names, keeping comments and layout", async () => {
    const dir = capability(
      [
        "# the main window",
        'identifier = "main"',
        'windows = ["main"]',
        "permissions = [",
        '  "core:default", # always',
        '  "window:allow-close",',
        '  "core:default",',
        "  { identifier = 'fs:allow-read-file' },",
        "]",
        "",
      ].join("\n"),
    );
    const result = await caplint(["check", "--fix", "main.toml", "-f", "compact"], dir);
    expect(result.stderr).toBe("");
    expect(readFileSync(path.join(dir, "main.toml"), "utf8")).toBe(
      [
        "# the main window",
        'identifier = "main"',
        'windows = ["main"]',
        "permissions = [",
        '  "core:default", # always',
        '  "core:window:allow-close",',
        "  { identifier = 'fs:allow-read-file' },",
        "]",
        "",
      ].join("\n"),
    );
    expect(result.stdout).not.toMatch(/duplicate-permission|legacy-identifier/);
  });

  it("says per file which fixes it could not apply (an entry of an array of tables)", async () => {
    const text = [
      'identifier = "main"',
      'windows = ["main"]',
      "",
      "[[permissions]]",
      'identifier = "fs:allow-read-file"',
      "",
      "[[permissions]]",
      'identifier = "fs:allow-read-file"',
      "",
    ].join("\n");
    const dir = capability(text);
    const result = await caplint(["check", "--fix", "main.toml"], dir);
    expect(readFileSync(path.join(dir, "main.toml"), "utf8")).toBe(text);
    expect(result.stdout).toContain(
      "note: main.toml: 1 fixable finding was left: TOML arrays of tables ([[permissions]])",
    );
    const json = await caplint(["check", "--fix", "main.toml", "-f", "json"], dir);
    expect(JSON.parse(json.stdout).summary.notes).toEqual([
      expect.stringContaining("main.toml: 1 fixable finding was left"),
    ]);
  });

  it("prints fixes of a TOML file as a diff in TOML, and hints in TOML syntax", async () => {
    const dir = capability(
      [
        'identifier = "tools"',
        'windows = ["main"]',
        "local = false",
        'permissions = ["core:default", "core:default"]',
        "",
      ].join("\n"),
    );
    const result = await caplint(["check", "--fix-dry-run", "main.toml"], dir);
    expect(result.stdout).toContain(
      '-permissions = ["core:default", "core:default"]\n+permissions = ["core:default"]',
    );
    expect(result.stdout).toContain(
      'help: remove local = false to grant the app\'s own pages, or list the remote origins in remote = { urls = ["https://example.com"] }',
    );
    expect(readFileSync(path.join(dir, "main.toml"), "utf8")).toContain(
      '"core:default", "core:default"',
    );
  });
});
