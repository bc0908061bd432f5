/**
 * A committed `gen/schemas/acl-manifests.json` cannot make up a permission of an official plugin
 * (issue 36 item 7, issue 31 item 9): a name no release of the plugin has is an error, and a capability
 * naming it is an unknown permission, whatever the Cargo files say: a verified lock, no Cargo.lock, only
 * Cargo.toml, no Cargo file at all, or a lock entry without a `source` that no Cargo.toml backs with a
 * path. Before, the last three hid the error (exit 0). Through the built bin, on variants generated
 * from the added-permission fixture.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");
const FIXTURE = path.join(FIXTURES, "manifest-mismatch", "invalid", "added-permission");
const REGISTRY = 'source = "registry+https://github.com/rust-lang/crates.io-index"\n';

type Variant = (srcTauri: string) => void;

const VARIANTS: Record<string, Variant> = {
  "a verified Cargo.lock": () => {},
  "no Cargo.lock, no Cargo.toml": (srcTauri) => rmSync(path.join(srcTauri, "Cargo.lock")),
  "no Cargo.lock, a Cargo.toml": (srcTauri) => {
    rmSync(path.join(srcTauri, "Cargo.lock"));
    writeFileSync(path.join(srcTauri, "Cargo.toml"), '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ntauri = "2"\ntauri-plugin-fs = "2"\n');
  },
  "a lock entry without a source": (srcTauri) => {
    const lock = path.join(srcTauri, "Cargo.lock");
    writeFileSync(lock, readFileSync(lock, "utf8").replace(`version = "2.5.1"\n${REGISTRY}`, 'version = "2.5.1"\n'));
    expect(readFileSync(lock, "utf8")).not.toContain('name = "tauri-plugin-fs"\nversion = "2.5.1"\nsource');
    writeFileSync(path.join(srcTauri, "Cargo.toml"), '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ntauri = "2"\ntauri-plugin-fs = "2"\n');
  },
};

describe("a committed manifest cannot make up an official plugin's permission", { timeout: 120_000 }, () => {
  it.each(Object.entries(VARIANTS))("%s: the made-up name is an error, and so is the capability naming it", (_, change) => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-forged-manifest-"));
    cpSync(FIXTURE, dir, { recursive: true });
    change(path.join(dir, "src-tauri"));
    const result = spawnSync(process.execPath, [BIN, "check", "-f", "compact"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
    expect(result.stdout).toMatch(/^src-tauri\/capabilities\/main\.json:\d+:\d+: error unknown permission "fs:allow-raed-file"/m);
    expect(result.stdout).toMatch(
      /^src-tauri\/gen\/schemas\/acl-manifests\.json:\d+:\d+: error plugin "fs": the manifest defines "fs:allow-raed-file", which no release of tauri-plugin-fs( through 2\.\d+\.\d+)? has \[manifest-mismatch\]$/m,
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(1);
  });
});
