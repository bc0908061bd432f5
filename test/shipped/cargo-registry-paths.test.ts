import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";
import { cleanEnv } from "../helpers/release.js";

/**
 * A Cargo.lock is the repository's text: a version with `../` in it made caplint read a "registry"
 * plugin from a folder of the repository's choosing, whose permission files then hid an
 * `unknown-permission` error (exit 1 became 0). Cargo refuses such a lock; caplint reads nothing for it.
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const top = mkdtempSync(path.join(tmpdir(), "caplint-registry-paths-"));
afterAll(() => rmSync(top, { recursive: true, force: true }));

function appWithLock(name: string, version: string, crate = "tauri-plugin-decorum"): string {
  const dir = path.join(top, name);
  const files: Record<string, string> = {
    "src-tauri/Cargo.toml": `[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ntauri = "2"\n${crate} = "1"\n`,
    "src-tauri/Cargo.lock": `version = 3\n\n[[package]]\nname = "${crate}"\nversion = "${version}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n`,
    "src-tauri/tauri.conf.json": JSON.stringify({
      identifier: "com.example.app",
      app: { windows: [{ label: "main" }], security: {} },
    }),
    "src-tauri/capabilities/main.json": JSON.stringify({
      identifier: "main",
      windows: ["main"],
      permissions: ["decorum:allow-nope"],
    }),
    // The folder the forged version leads to: it defines the permission the real plugin lacks.
    "fake/permissions/default.toml":
      '[[permission]]\nidentifier = "allow-nope"\ncommands.allow = ["nope"]\n',
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const cargoHome = path.join(top, "cargo");
cpSync(path.join(FIXTURES, "cli", "cargo-home"), cargoHome, { recursive: true });

function check(dir: string) {
  const result = spawnSync(process.execPath, [BIN, "check", "--format", "json"], {
    cwd: dir,
    encoding: "utf8",
    env: cleanEnv({ CARGO_HOME: cargoHome }),
  });
  const report = JSON.parse(result.stdout) as {
    diagnostics: Array<{ ruleId: string; message: string }>;
    summary: { notes: string[] };
  };
  return { code: result.status, report, stderr: result.stderr };
}

describe("Cargo.lock names and versions become registry paths only when Cargo would accept them", () => {
  it("the real version reads the real plugin: the typo is an error", () => {
    const result = check(appWithLock("real", "1.1.1"));
    expect(result.code, result.stderr).toBe(1);
    expect(result.report.diagnostics.map((d) => d.ruleId)).toContain("unknown-permission");
  });

  it.each([
    // From the registry's index folder: up out of the crate folder, up four, into the app's fake folder.
    ["a version with ../", "1.1.1/../../../../../forged/fake"],
    ["an absolute version", "/etc"],
    ["a version that is no semver", "1.1"],
  ])(
    "%s is refused: nothing outside the registry is read, and a note says why",
    (_name, version) => {
      const name = `v${Math.random().toString(36).slice(2)}`;
      const dir = appWithLock(name, version.replace("forged", name));
      const result = check(dir);
      expect(result.stderr).toBe("");
      const notes = result.report.summary.notes.join("\n");
      expect(notes).toContain(
        `"tauri-plugin-decorum" ${JSON.stringify(version.replace("forged", name))}: its permissions could not be checked: Cargo.lock names a version that is no semantic version, and Cargo refuses such a lock`,
      );
      expect(notes).not.toContain("permissions read from");
      expect(JSON.stringify(result.report)).not.toContain(path.join(dir, "fake"));
    },
  );
});
