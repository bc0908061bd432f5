import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/**
 * One view of the app's windows (issue 31 item 5) on a real app: murmur-voice declares `main` and
 * `preview` in tauri.conf.json and creates `settings` and `onboarding` in src/lib.rs
 * (`WebviewWindowBuilder::new`); its capability names all four. check (unmatched-window), matrix,
 * access, who-can and explain must agree on the windows made in Rust, here and when the capability
 * misspells one of them.
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const APP = path.join(FIXTURES, "queries", "rust-windows", "murmur-voice");
const top = mkdtempSync(path.join(tmpdir(), "caplint-rust-windows-"));
afterAll(() => rmSync(top, { recursive: true, force: true }));

function caplint(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
const json = <T>(cwd: string, ...args: string[]) =>
  JSON.parse(caplint(cwd, ...args, "-f", "json").stdout) as T;

const REFUSAL =
  'opener.open_url not allowed on window "onboarding", webview "onboarding", URL: local\n\nPermissions associated with this command: opener:allow-open-url, opener:default';

describe("windows created in Rust, in a real app", () => {
  it("every command sees the four windows, and the capability reaches the two made in Rust", () => {
    const check = json<{ diagnostics: Array<{ ruleId: string }> }>(APP, "check");
    expect(check.diagnostics.map((d) => d.ruleId)).not.toContain("unmatched-window");
    expect(json<{ windows: string[] }>(APP, "matrix").windows).toEqual([
      "main",
      "preview",
      "settings",
      "onboarding",
    ]);
    for (const window of ["settings", "onboarding"]) {
      const access = json<{ allowed: boolean; capabilities: string[] }>(
        APP,
        "access",
        "--window",
        window,
        "--command",
        "plugin:event|emit",
      );
      expect(access, window).toMatchObject({ allowed: true, capabilities: ["default"] });
    }
    const whoCan = json<{ allowedBy: Array<{ windows: string[] }> }>(
      APP,
      "who-can",
      "plugin:event|emit",
    );
    expect(whoCan.allowedBy.flatMap((grant) => grant.windows)).toEqual(
      expect.arrayContaining(["settings", "onboarding"]),
    );
    // explain proposes the capability that already covers the Rust-made window, not a new file first.
    const explain = caplint(APP, "explain", REFUSAL);
    expect(explain.stdout).toContain(
      'add this entry to "permissions" of capability default  (src-tauri/capabilities/default.json:6), which already covers window "onboarding"',
    );
  });

  it("a misspelt Rust-made window: check warns, access refuses it, matrix still shows it, who-can leaves it out", () => {
    const dir = path.join(top, "misspelt");
    cpSync(APP, dir, { recursive: true });
    const capability = path.join(dir, "src-tauri", "capabilities", "default.json");
    writeFileSync(
      capability,
      readFileSync(capability, "utf8").replace('"onboarding"', '"onbording"'),
    );
    const check = json<{ diagnostics: Array<{ ruleId: string; message: string }> }>(dir, "check");
    const unmatched = check.diagnostics.filter((d) => d.ruleId === "unmatched-window");
    expect(unmatched).toHaveLength(1);
    expect(unmatched[0]!.message).toContain('"onbording"');
    expect(json<{ windows: string[] }>(dir, "matrix").windows).toEqual([
      "main",
      "preview",
      "settings",
      "onboarding",
    ]);
    expect(
      json<{ allowed: boolean }>(
        dir,
        "access",
        "--window",
        "onboarding",
        "--command",
        "plugin:event|emit",
      ).allowed,
    ).toBe(false);
    const whoCan = json<{ allowedBy: Array<{ windows: string[] }> }>(
      dir,
      "who-can",
      "plugin:event|emit",
    );
    expect(whoCan.allowedBy.flatMap((grant) => grant.windows)).not.toContain("onboarding");
    const refusal = caplint(dir, "access", "--window", "onbordin");
    expect(refusal.code).toBe(2);
    expect(refusal.stderr).toContain(
      'known windows: "main", "preview", "settings" and "onboarding"',
    );
  });
});
