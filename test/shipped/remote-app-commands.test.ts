import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/**
 * App commands called from remote pages follow the tauri release the app builds with: up to 2.11.0 the
 * webview checks an app command only when the app defines permissions, whatever the origin; from 2.11.1
 * (tauri-apps/tauri#15266) a remote page's call is checked even then. Two copies of one app that shows a
 * hosted site in its main window, locked to 2.0.6 and to 2.11.5; every query answers by its release.
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const HERE = path.join(FIXTURES, "queries", "remote-app-commands");
const top = mkdtempSync(path.join(tmpdir(), "caplint-remote-app-commands-"));
afterAll(() => rmSync(top, { recursive: true, force: true }));

function caplint(cwd: string, args: string[], input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    input,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const SITE = ["--url", "https://docs.example.com", "--platform", "linux"];
const QUERIES: Array<[string, string[], string?]> = [
  ["access-command", ["access", "--window", "main", ...SITE, "--command", "save_note"]],
  ["access", ["access", "--window", "main", ...SITE]],
  ["who-can", ["who-can", "save_note", "--platform", "linux"]],
  ["matrix", ["matrix", ...SITE]],
  [
    "explain",
    ["explain", "--window", "main", ...SITE, "-"],
    "Command save_note not allowed by ACL",
  ],
  ["check", ["check", "--format", "compact"]],
];
const expected = (app: string, name: string) =>
  readFileSync(path.join(HERE, "expected", app, `${name}.out`), "utf8");

describe("app commands from remote pages, by the locked tauri release", () => {
  for (const app of ["tauri-2.0.6", "tauri-2.11.5"]) {
    for (const [name, args, input] of QUERIES) {
      it(`${app}: ${name} answers as expected/${app}/${name}.out`, () => {
        expect(caplint(path.join(HERE, app), args, input).stdout).toBe(expected(app, name));
      });
    }
  }

  it("2.0.6: the remote page may call the app command (exit 0, not checked) and check fails on the exposure", () => {
    const cwd = path.join(HERE, "tauri-2.0.6");
    const access = caplint(cwd, [
      "access",
      "--window",
      "main",
      ...SITE,
      "--command",
      "save_note",
      "-f",
      "json",
    ]);
    expect(access.code).toBe(0);
    expect(JSON.parse(access.stdout).explanation).toMatchObject({
      verdict: "unchecked",
      enforced: false,
    });
    const check = caplint(cwd, ["check", "-f", "json"]);
    expect(check.code).toBe(1);
    const diagnostics = (
      JSON.parse(check.stdout) as { diagnostics: Array<{ ruleId: string; severity: string }> }
    ).diagnostics;
    expect(diagnostics).toEqual([
      expect.objectContaining({ ruleId: "remote-app-commands", severity: "error" }),
    ]);
    const whoCan = JSON.parse(caplint(cwd, ["who-can", "save_note", "-f", "json"]).stdout);
    expect(whoCan).toMatchObject({ checkedFromLocalPages: false, checkedFromRemotePages: false });
    expect(
      JSON.parse(caplint(cwd, ["matrix", ...SITE, "-f", "json"]).stdout).uncheckedAppCommands,
    ).toContain("tauri 2.0.6 (src-tauri/Cargo.lock)");
  });

  it("2.11.5: the same call is checked and refused (exit 1), and check is clean", () => {
    const cwd = path.join(HERE, "tauri-2.11.5");
    const access = caplint(cwd, [
      "access",
      "--window",
      "main",
      ...SITE,
      "--command",
      "save_note",
      "-f",
      "json",
    ]);
    expect(access.code).toBe(1);
    expect(JSON.parse(access.stdout).explanation).toMatchObject({
      verdict: "not-granted",
      enforced: true,
    });
    expect(caplint(cwd, ["check"]).code).toBe(0);
    expect(
      JSON.parse(caplint(cwd, ["matrix", ...SITE, "-f", "json"]).stdout).uncheckedAppCommands,
    ).toBeUndefined();
  });

  it("without a Cargo.lock the newest release Cargo.toml allows decides, and the answer says so", () => {
    const app = path.join(top, "unlocked");
    cpSync(path.join(HERE, "tauri-2.0.6"), app, { recursive: true });
    rmSync(path.join(app, "src-tauri", "Cargo.lock"));
    const manifest = path.join(app, "src-tauri", "Cargo.toml");
    writeFileSync(
      manifest,
      readFileSync(manifest, "utf8").replace('tauri = "2"', 'tauri = "~2.0"'),
    );
    const access = caplint(app, ["access", "--window", "main", ...SITE, "--command", "save_note"]);
    expect(access.stdout).toContain(
      "tauri 2.0.6 (the newest release src-tauri/Cargo.toml allows) checks app commands from remote pages only from 2.11.1 on",
    );
    writeFileSync(
      manifest,
      readFileSync(manifest, "utf8").replace('tauri = "~2.0"', 'tauri = "2"'),
    );
    expect(
      caplint(app, ["access", "--window", "main", ...SITE, "--command", "save_note"]).code,
    ).toBe(1);
    expect(caplint(app, ["check"]).code).toBe(0);
  });

  it("an app that defines permissions is checked from remote pages at every release", () => {
    const app = path.join(top, "with-permissions");
    cpSync(path.join(HERE, "tauri-2.0.6"), app, { recursive: true });
    const permissions = path.join(app, "src-tauri", "permissions");
    mkdirSync(permissions);
    writeFileSync(
      path.join(permissions, "save-note.toml"),
      '[[permission]]\nidentifier = "allow-save-note"\ncommands.allow = ["save_note"]\n',
    );
    const access = caplint(app, [
      "access",
      "--window",
      "main",
      ...SITE,
      "--command",
      "save_note",
      "-f",
      "json",
    ]);
    expect(JSON.parse(access.stdout).explanation).toMatchObject({
      verdict: "not-granted",
      enforced: true,
    });
    expect(caplint(app, ["check", "-f", "json"]).stdout).not.toContain("remote-app-commands");
  });
});

describe("explain's first line on a command no capability grants", () => {
  it("says no capability grants it, not that other windows have it (murmur-voice)", () => {
    const app = path.join(FIXTURES, "queries", "rust-windows", "murmur-voice");
    const refusal = 'dialog.save not allowed on window "settings", webview "settings", URL: local';
    const first = caplint(app, ["explain", "-"], refusal).stdout.split("\n")[0];
    expect(first).toBe(
      'Tauri refused plugin:dialog|save for window "settings", webview "settings", origin local (no capability grants it)',
    );
  });
});

describe("the HTML report through the built bin", () => {
  const marks = (html: string) =>
    [
      ...html.matchAll(
        /data-remote-app-commands="[a-z0-9]+"|data-unchecked-remote="[a-z-]+"|every command the app registers \(not checked\)/g,
      ),
    ]
      .map((match) => match[0])
      .sort();

  it("2.0.6: the remote capability and the window it reaches are marked, every app command exposed", () => {
    const report = caplint(path.join(HERE, "tauri-2.0.6"), ["report", "--html", "-"]);
    expect(report.code, report.stderr).toBe(0);
    expect([...new Set(marks(report.stdout))]).toEqual([
      'data-remote-app-commands="unchecked"',
      'data-unchecked-remote="docs-site"',
      "every command the app registers (not checked)",
    ]);
  });

  it("2.11.5: app commands are checked from remote pages: the capability grants its pages none, no window is marked", () => {
    const report = caplint(path.join(HERE, "tauri-2.11.5"), ["report", "--html", "-"]);
    expect(report.code, report.stderr).toBe(0);
    expect([...new Set(marks(report.stdout))]).toEqual(['data-remote-app-commands="0"']);
    expect(report.stdout).toContain("remote pages may call no app command");
  });
});
