import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/** Runs the built bin with `text` on standard input. */
function caplint(
  args: string[],
  cwd: string,
  text: string,
): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(ROOT, "bin/caplint.js"), ...args],
      { cwd, env: { ...process.env, NO_COLOR: "1" } },
      (error, stdout) =>
        resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout }),
    );
    child.stdin!.end(text);
  });
}

describe("--stdin-filename (built bin)", () => {
  it("checks an unsaved file in the context of the app its path belongs to, as the saved file would be", async () => {
    const app = mkdtempSync(path.join(tmpdir(), "caplint-stdin-app-"));
    cpSync(path.join(FIXTURES, "capabilities", "default-without-set", "valid", "app"), app, {
      recursive: true,
    });
    // Grants the app's own "default" set: only the app's permissions/ folder makes it known.
    const text =
      'identifier = "drafts"\nwindows = ["settings"]\npermissions = ["default", "dafault"]\n';
    const unsaved = await caplint(
      ["check", "-", "--stdin-filename", "src-tauri/capabilities/drafts.toml", "-f", "compact"],
      app,
      text,
    );
    expect(unsaved.stdout).not.toContain("no app permissions are known");
    expect(unsaved.stdout).toContain(
      'src-tauri/capabilities/drafts.toml:3:27: error unknown permission "dafault"',
    );
    writeFileSync(path.join(app, "src-tauri", "capabilities", "drafts.toml"), text);
    const saved = await caplint(
      ["check", "src-tauri/capabilities/drafts.toml", "-f", "compact"],
      app,
      "",
    );
    expect(unsaved).toEqual(saved);
    expect(readFileSync(path.join(app, "src-tauri", "capabilities", "drafts.toml"), "utf8")).toBe(
      text,
    );
  });
});
