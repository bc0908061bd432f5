import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";
import { cleanEnv } from "../helpers/release.js";
import { checkJson } from "../helpers/check-json.js";

/**
 * Plugins the app takes from git (issue 31 item 10): after `cargo fetch` their sources are in
 * `$CARGO_HOME/git/checkouts/<repository>-<hash>/<commit prefix>/`, and caplint reads the crate's
 * permissions there as the build does, so an unknown permission of a fork is an error, not a hedged
 * warning, and a third-party git plugin is checked at all. A fake CARGO_HOME in a temp folder.
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const top = mkdtempSync(path.join(tmpdir(), "caplint-git-checkouts-"));
afterAll(() => rmSync(top, { recursive: true, force: true }));

const COMMIT = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d";
const FORK = `git+https://github.com/me/Plugins-Workspace.git?branch=mine#${COMMIT}`;
const THIRD_PARTY_COMMIT = "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c";
const THIRD_PARTY = `git+https://gitlab.com/someone/tauri-plugin-pinger#${THIRD_PARTY_COMMIT}`;

function write(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

/** An app taking fs from a fork and a third-party plugin from git, granting a name each has and one none has. */
function app(
  name: string,
  forkSource = FORK,
  permissions = ["fs:allow-fork-only", "fs:allow-nope", "pinger:allow-ping", "pinger:allow-nope"],
): string {
  const dir = path.join(top, name);
  write(dir, {
    "src-tauri/Cargo.toml": [
      '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ntauri = "2"',
      'tauri-plugin-fs = { git = "https://github.com/me/Plugins-Workspace.git", branch = "mine" }',
      'tauri-plugin-pinger = { git = "https://gitlab.com/someone/tauri-plugin-pinger" }\n',
    ].join("\n"),
    "src-tauri/Cargo.lock": [
      'version = 4\n\n[[package]]\nname = "tauri"\nversion = "2.8.5"\nsource = "registry+https://github.com/rust-lang/crates.io-index"',
      `[[package]]\nname = "tauri-plugin-fs"\nversion = "2.4.0"\nsource = "${forkSource}"`,
      `[[package]]\nname = "tauri-plugin-pinger"\nversion = "0.1.0"\nsource = "${THIRD_PARTY}"\n`,
    ].join("\n\n"),
    "src-tauri/tauri.conf.json": JSON.stringify({
      identifier: "com.example.app",
      app: { windows: [{ label: "main" }], security: {} },
    }),
    "src-tauri/capabilities/main.json": JSON.stringify({
      identifier: "main",
      windows: ["main"],
      permissions,
    }),
  });
  return dir;
}

/**
 * Cargo's home with both checkouts: the fork is a workspace (the crate two folders down, with a build
 * script whose commands the build turns into allow-/deny- permissions), the third-party plugin a crate at the top.
 */
function cargoHome(name: string, change: (home: string) => void = () => {}): string {
  const home = path.join(top, name);
  const fork = path.join(
    home,
    "git",
    "checkouts",
    "plugins-workspace-0f1e2d3c4b5a6978",
    COMMIT.slice(0, 7),
  );
  write(fork, {
    ".cargo-ok": "",
    "Cargo.toml": '[workspace]\nmembers = ["plugins/*"]\n',
    "plugins/fs/Cargo.toml":
      '[package]\nname = "tauri-plugin-fs"\nversion = "2.4.0"\nlinks = "tauri-plugin-fs"\n',
    "plugins/fs/build.rs":
      'const COMMANDS: &[&str] = &["read_file", "fork_only"];\nfn main() { tauri_plugin::Builder::new(COMMANDS).build(); }\n',
    "plugins/fs/permissions/default.toml": '[default]\npermissions = ["allow-read-file"]\n',
    // Another package of the workspace: not the one the lock names.
    "plugins/dialog/Cargo.toml": '[package]\nname = "tauri-plugin-dialog"\nversion = "2.4.0"\n',
    "plugins/dialog/permissions/default.toml": '[default]\npermissions = ["allow-nope"]\n',
  });
  const pinger = path.join(
    home,
    "git",
    "checkouts",
    "tauri-plugin-pinger-a1b2c3d4e5f60718",
    THIRD_PARTY_COMMIT.slice(0, 7),
  );
  write(pinger, {
    ".cargo-ok": "",
    "Cargo.toml": '[package]\nname = "tauri-plugin-pinger"\nversion = "0.1.0"\n',
    "permissions/ping.toml":
      '[[permission]]\nidentifier = "allow-ping"\ncommands.allow = ["ping"]\n',
  });
  change(home);
  return home;
}

describe("git plugins are read from Cargo's git checkouts", () => {
  const home = cargoHome("home");
  const fork = path.join(
    home,
    "git",
    "checkouts",
    "plugins-workspace-0f1e2d3c4b5a6978",
    COMMIT.slice(0, 7),
    "plugins",
    "fs",
  );
  const pinger = path.join(
    home,
    "git",
    "checkouts",
    "tauri-plugin-pinger-a1b2c3d4e5f60718",
    THIRD_PARTY_COMMIT.slice(0, 7),
  );

  it("reads the fork's and the third-party plugin's permissions at the locked commit: exact verdicts, each named in a note", () => {
    const result = checkJson(app("read"), { CARGO_HOME: home });
    expect(result.stderr).toBe("");
    expect(result.findings).toEqual([
      'error unknown-permission: unknown permission "fs:allow-nope": plugin "fs" has no permission or set "allow-nope"',
      'error unknown-permission: unknown permission "pinger:allow-nope": plugin "pinger" has no permission or set "allow-nope"',
    ]);
    expect(result.notes).toEqual([
      `tauri-plugin-fs (https://github.com/me/Plugins-Workspace.git?branch=mine#${COMMIT}): permissions read from Cargo's git checkouts (${fork})`,
      `tauri-plugin-pinger (https://gitlab.com/someone/tauri-plugin-pinger#${THIRD_PARTY_COMMIT}): permissions read from Cargo's git checkouts (${pinger})`,
    ]);
    expect(result.code).toBe(1);
  });

  it("the fork's permissions stand for the release's in the queries too", () => {
    const result = spawnSync(
      process.execPath,
      [BIN, "access", "--window", "main", "--format", "json"],
      {
        cwd: app("access"),
        encoding: "utf8",
        env: cleanEnv({ CARGO_HOME: home }),
      },
    );
    const commands = (
      JSON.parse(result.stdout) as { allowed: Array<{ command: string }> }
    ).allowed.map((a) => a.command);
    expect(commands).toContain("plugin:fs|fork_only");
    expect(commands).toContain("plugin:pinger|ping");
  });

  it("without the checkouts, the fork is checked against its newest release (a warning) and the third-party plugin is not checked", () => {
    for (const result of [
      checkJson(app("off"), { CARGO_HOME: home }, "--no-cargo-registry"),
      checkJson(app("off-env"), { CARGO_HOME: home, CAPLINT_CARGO_REGISTRY: "off" }),
    ]) {
      expect(result.findings).toEqual([
        `warning unknown-permission: unknown permission "fs:allow-fork-only": plugin "fs" has no permission or set "allow-fork-only"; tauri-plugin-fs comes from git (https://github.com/me/Plugins-Workspace.git?branch=mine#${COMMIT}), whose permissions may differ from the release's`,
        `warning unknown-permission: unknown permission "fs:allow-nope": plugin "fs" has no permission or set "allow-nope"; tauri-plugin-fs comes from git (https://github.com/me/Plugins-Workspace.git?branch=mine#${COMMIT}), whose permissions may differ from the release's`,
      ]);
      expect(result.notes).toEqual([
        `tauri-plugin-fs (https://github.com/me/Plugins-Workspace.git?branch=mine#${COMMIT}): from git, not a release; checked against the newest release's catalog, so a permission it lacks is a warning (reading Cargo's git checkouts is turned off)`,
        `tauri-plugin-pinger (https://gitlab.com/someone/tauri-plugin-pinger#${THIRD_PARTY_COMMIT}): its permissions could not be checked: caplint has no catalog for it, and reading Cargo's git checkouts is turned off`,
      ]);
      expect(result.code).toBe(0);
    }
    const empty = checkJson(app("empty"), { CARGO_HOME: path.join(top, "no-such-home") });
    expect(empty.notes).toContain(
      `tauri-plugin-pinger (https://gitlab.com/someone/tauri-plugin-pinger#${THIRD_PARTY_COMMIT}): its permissions could not be checked: commit ${THIRD_PARTY_COMMIT.slice(0, 12)} is not in Cargo's git checkouts at ${path.join(top, "no-such-home", "git", "checkouts")}: run cargo fetch`,
    );
  });

  it("a commit the lock does not pin is not read: another commit's checkout, or a forged commit that would lead out", () => {
    const other = checkJson(
      app("other-commit", FORK.replace(COMMIT, "ffffffffffffffffffffffffffffffffffffffff")),
      { CARGO_HOME: home },
    );
    expect(other.findings.filter((f) => f.includes('"fs:'))).toEqual([
      expect.stringMatching(/^warning unknown-permission: unknown permission "fs:allow-fork-only"/),
      expect.stringMatching(/^warning unknown-permission: unknown permission "fs:allow-nope"/),
    ]);
    const forged = checkJson(app("forged", FORK.replace(COMMIT, "../../../../outside")), {
      CARGO_HOME: home,
    });
    expect(forged.notes).toContain(
      `"tauri-plugin-fs" ("https://github.com/me/Plugins-Workspace.git?branch=mine#../../../../outside"): from git, not a release; checked against the newest release's catalog, so a permission it lacks is a warning (Cargo.lock names a commit that is no git object id, and Cargo refuses such a lock)`,
    );
  });

  it("an unfinished checkout (no .cargo-ok) is not read", () => {
    const unfinished = cargoHome("unfinished", (h) =>
      rmSync(
        path.join(
          h,
          "git",
          "checkouts",
          "tauri-plugin-pinger-a1b2c3d4e5f60718",
          THIRD_PARTY_COMMIT.slice(0, 7),
          ".cargo-ok",
        ),
      ),
    );
    const result = checkJson(app("unfinished"), { CARGO_HOME: unfinished });
    expect(result.notes.join("\n")).toContain(
      "tauri-plugin-pinger (https://gitlab.com/someone/tauri-plugin-pinger#",
    );
    expect(result.notes.join("\n")).toMatch(
      /its permissions could not be checked: its checkout .* is unfinished \(no \.cargo-ok; run cargo fetch\)/,
    );
    expect(result.findings.some((f) => f.includes("pinger:allow-nope"))).toBe(false);
  });

  it("never follows a link: a linked checkout is not used, and a permission file linking out of the crate is not read", () => {
    const outside = path.join(top, "outside-permissions");
    write(outside, {
      "nope.toml": '[[permission]]\nidentifier = "allow-nope"\ncommands.allow = ["nope"]\n',
    });
    const linked = cargoHome("linked", (h) => {
      // The third-party checkout is a link to a folder that defines allow-nope.
      const checkout = path.join(
        h,
        "git",
        "checkouts",
        "tauri-plugin-pinger-a1b2c3d4e5f60718",
        THIRD_PARTY_COMMIT.slice(0, 7),
      );
      rmSync(checkout, { recursive: true });
      write(path.join(top, "linked-target"), {
        ".cargo-ok": "",
        "Cargo.toml": '[package]\nname = "tauri-plugin-pinger"\n',
        "permissions/nope.toml":
          '[[permission]]\nidentifier = "allow-nope"\ncommands.allow = ["nope"]\n',
      });
      symlinkSync(path.join(top, "linked-target"), checkout);
      // The fork's permissions folder holds a link to a file outside the crate.
      symlinkSync(
        path.join(outside, "nope.toml"),
        path.join(
          h,
          "git",
          "checkouts",
          "plugins-workspace-0f1e2d3c4b5a6978",
          COMMIT.slice(0, 7),
          "plugins",
          "fs",
          "permissions",
          "nope.toml",
        ),
      );
    });
    const result = checkJson(app("linked"), { CARGO_HOME: linked });
    expect(result.findings).toContain(
      'error unknown-permission: unknown permission "fs:allow-nope": plugin "fs" has no permission or set "allow-nope"',
    );
    expect(result.findings.some((f) => f.includes("pinger:allow-nope"))).toBe(false);
    expect(result.notes.join("\n")).toMatch(
      /tauri-plugin-pinger .*: its permissions could not be checked: commit 9f8e7d6c5b4a is not in Cargo's git checkouts/,
    );
  });
});
