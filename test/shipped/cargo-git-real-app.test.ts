import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";
import { cleanEnv } from "../helpers/release.js";
import { checkJson } from "../helpers/check-json.js";

/**
 * A real app taking an official plugin from a git fork (issue 31 item 10): zevnda/steam-game-idler locks
 * tauri-plugin-window-state at commit cc6bd337 of zevnda/plugins-workspace-custom, and the fixture holds
 * Cargo's own checkout of that commit (folder names written by `cargo fetch`; its SOURCE.md says how).
 * With CARGO_HOME there, the fork's permission files decide; with `--no-cargo-registry`, the newest
 * release's catalog does, with a hedged note.
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const FIXTURE = path.join(FIXTURES, "cargo-git", "zevnda__steam-game-idler");
const APP = path.join(FIXTURE, "app");
const CARGO_HOME = path.join(FIXTURE, "cargo-home");
const CRATE = path.join(
  CARGO_HOME,
  "git",
  "checkouts",
  "plugins-workspace-custom-ee27a310d92691fb",
  "cc6bd33",
  "plugins",
  "window-state",
);
const SOURCE =
  "https://github.com/zevnda/plugins-workspace-custom#cc6bd337dbe681ef967322d3afbc1a6a0baecb63";
const FROM_CHECKOUT = `tauri-plugin-window-state (${SOURCE}): permissions read from Cargo's git checkouts (${CRATE})`;
const HEDGED = `tauri-plugin-window-state (${SOURCE}): from git, not a release; checked against the newest release's catalog, so a permission it lacks is a warning (reading Cargo's git checkouts is turned off)`;

const top = mkdtempSync(path.join(tmpdir(), "caplint-cargo-git-real-"));
afterAll(() => rmSync(top, { recursive: true, force: true }));

function caplint(dir: string, ...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: cleanEnv({ CARGO_HOME }),
  });
}

const check = (dir: string, ...args: string[]) => checkJson(dir, { CARGO_HOME }, ...args);

/** The app with one grant added to its real capability: a name window-state had only in 2.0.0-beta.0–beta.4. */
function appGranting(extra: string): string {
  const dir = path.join(top, extra.replace(/\W/g, "-"));
  cpSync(APP, dir, { recursive: true });
  const file = path.join(dir, "src-tauri", "capabilities", "desktop.json");
  const capability = JSON.parse(readFileSync(file, "utf8")) as { permissions: unknown[] };
  capability.permissions.push(extra);
  writeFileSync(file, JSON.stringify(capability, null, 2));
  return dir;
}

describe("a real app's official plugin from a git fork, read from Cargo's checkout of the locked commit", () => {
  it("the app as committed: no finding, and the note names the checkout's crate folder", () => {
    const result = check(APP);
    expect(result.stderr).toBe("");
    expect(result.findings).toEqual([]);
    expect(result.notes).toEqual([FROM_CHECKOUT]);
    expect(result.code).toBe(0);
  });

  it("window-state:default, read from the checkout, resolves to the fork's three commands (the release's too: nothing differs)", () => {
    const result = caplint(APP, "access", "--window", "main", "--format", "json");
    const allowed = (JSON.parse(result.stdout) as { allowed: Array<{ command: string }> }).allowed
      .map((a) => a.command)
      .filter((command) => command.startsWith("plugin:window-state|"));
    expect(allowed).toEqual([
      "plugin:window-state|filename",
      "plugin:window-state|restore_state",
      "plugin:window-state|save_window_state",
    ]);
  });

  it("a name the fork does not define is an error with the checkout, a hedged warning without it", () => {
    const dir = appGranting("window-state:allow-restore-window-state");
    const exact = check(dir);
    expect(exact.findings).toEqual([
      'error unknown-permission: unknown permission "window-state:allow-restore-window-state": plugin "window-state" has no permission or set "allow-restore-window-state"',
    ]);
    expect(exact.notes).toEqual([FROM_CHECKOUT]);
    expect(exact.code).toBe(1);

    const hedged = check(dir, "--no-cargo-registry");
    expect(hedged.findings).toEqual([
      `warning unknown-permission: unknown permission "window-state:allow-restore-window-state": plugin "window-state" has no permission or set "allow-restore-window-state"; tauri-plugin-window-state comes from git (${SOURCE}), whose permissions may differ from the release's`,
    ]);
    expect(hedged.notes).toEqual([HEDGED]);
    expect(hedged.code).toBe(0);
  });

  it("with --no-cargo-registry the app as committed gets the hedged note instead of the checkout's", () => {
    const result = check(APP, "--no-cargo-registry");
    expect(result.findings).toEqual([]);
    expect(result.notes).toEqual([HEDGED]);
    expect(result.code).toBe(0);
  });
});
