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
const FIXTURE = path.join(
  FIXTURES,
  "capabilities",
  "manifest-mismatch",
  "invalid",
  "added-permission",
);
const REGISTRY = 'source = "registry+https://github.com/rust-lang/crates.io-index"\n';

type Variant = (srcTauri: string) => void;

const VARIANTS: Record<string, Variant> = {
  "a verified Cargo.lock": () => {},
  "no Cargo.lock, no Cargo.toml": (srcTauri) => rmSync(path.join(srcTauri, "Cargo.lock")),
  "no Cargo.lock, a Cargo.toml": (srcTauri) => {
    rmSync(path.join(srcTauri, "Cargo.lock"));
    writeFileSync(
      path.join(srcTauri, "Cargo.toml"),
      '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ntauri = "2"\ntauri-plugin-fs = "2"\n',
    );
  },
  "a lock entry without a source": (srcTauri) => {
    const lock = path.join(srcTauri, "Cargo.lock");
    writeFileSync(
      lock,
      readFileSync(lock, "utf8").replace(`version = "2.5.1"\n${REGISTRY}`, 'version = "2.5.1"\n'),
    );
    expect(readFileSync(lock, "utf8")).not.toContain(
      'name = "tauri-plugin-fs"\nversion = "2.5.1"\nsource',
    );
    writeFileSync(
      path.join(srcTauri, "Cargo.toml"),
      '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\ntauri = "2"\ntauri-plugin-fs = "2"\n',
    );
  },
};

describe(
  "a committed manifest cannot make up an official plugin's permission",
  { timeout: 120_000 },
  () => {
    it.each(Object.entries(VARIANTS))(
      "%s: the made-up name is an error, and so is the capability naming it",
      (_, change) => {
        const dir = mkdtempSync(path.join(tmpdir(), "caplint-forged-manifest-"));
        cpSync(FIXTURE, dir, { recursive: true });
        change(path.join(dir, "src-tauri"));
        const result = spawnSync(process.execPath, [BIN, "check", "-f", "compact"], {
          cwd: dir,
          encoding: "utf8",
          env: { ...process.env, NO_COLOR: "1" },
        });
        expect(result.stdout).toMatch(
          /^src-tauri\/capabilities\/main\.json:\d+:\d+: error unknown permission "fs:allow-raed-file"/m,
        );
        expect(result.stdout).toMatch(
          /^src-tauri\/gen\/schemas\/acl-manifests\.json:\d+:\d+: error plugin "fs": the manifest defines "fs:allow-raed-file", which no release of tauri-plugin-fs( through 2\.\d+\.\d+)? has \[manifest-mismatch\]$/m,
        );
        expect(result.stderr).toBe("");
        expect(result.status).toBe(1);
      },
    );
  },
);

describe(
  "a committed manifest that redefines core says which answers it changes",
  { timeout: 120_000 },
  () => {
    const REDEFINED = path.join(
      FIXTURES,
      "capabilities",
      "manifest-mismatch",
      "invalid",
      "redefined-core",
    );
    const caplint = (cwd: string, ...args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], {
        cwd,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      });

    it("a warning per definition no release writes, and the answers it names are the ones access and resolve give", () => {
      const check = caplint(REDEFINED, "check", "-f", "json");
      const findings = (
        JSON.parse(check.stdout) as {
          diagnostics: Array<{ ruleId: string; severity: string; message: string }>;
        }
      ).diagnostics;
      expect(
        findings.map((d) => `${d.severity} ${d.ruleId}: ${d.message.split(", unlike")[0]}`),
      ).toEqual([
        'warning manifest-mismatch: plugin "core": "core:default" in the manifest adds "core:window:allow-destroy"',
        'warning manifest-mismatch: plugin "core:window": "core:window:allow-set-title" in the manifest also allows "destroy"',
      ]);
      expect(check.status).toBe(0);
      // The union: caplint answers that main may destroy windows, which the warning says the build does not grant.
      const access = caplint(
        REDEFINED,
        "access",
        "--window",
        "main",
        "--command",
        "plugin:window|destroy",
        "-f",
        "json",
      );
      expect(
        (JSON.parse(access.stdout) as { explanation: { verdict: string } }).explanation.verdict,
      ).toBe("allowed");
    });

    it("with a verified lock the added set member is the edit error it was, the added command still a warning", () => {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-redefined-core-"));
      cpSync(REDEFINED, dir, { recursive: true });
      writeFileSync(
        path.join(dir, "src-tauri", "Cargo.lock"),
        `version = 4\n\n[[package]]\nname = "tauri"\nversion = "2.8.5"\n${REGISTRY}`,
      );
      const check = caplint(dir, "check", "-f", "compact");
      expect(check.stdout).toMatch(
        /error plugin "core": "core:default" in the manifest adds "core:window:allow-destroy", unlike tauri 2\.8\.5 \[manifest-mismatch\]/,
      );
      expect(check.stdout).toMatch(
        /warning plugin "core:window": "core:window:allow-set-title" in the manifest also allows "destroy", unlike every release of tauri through 2\.11\.5/,
      );
      expect(check.status).toBe(1);
    });
  },
);
