import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCfg, targetKeyApplies } from "../../../src/capabilities/load/cfg.js";
import { readAppBuild } from "../../../src/capabilities/load/build.js";
import { TARGETS } from "../../../src/capabilities/model/types.js";
import { FIXTURES, run } from "../../helpers/run.js";

const truths = (key: string) =>
  Object.fromEntries(TARGETS.map((target) => [target, targetKeyApplies(key, target)]));

describe("cfg expressions of [target.'cfg(…)'.dependencies]", () => {
  it("evaluates the template's desktop-only and mobile-only keys", () => {
    expect(truths(`cfg(not(any(target_os = "android", target_os = "ios")))`)).toEqual({
      linux: true,
      macOS: true,
      windows: true,
      android: false,
      iOS: false,
    });
    expect(truths(`cfg(any(target_os = "android", target_os = "ios"))`)).toEqual({
      linux: false,
      macOS: false,
      windows: false,
      android: true,
      iOS: true,
    });
  });

  it("knows desktop, mobile, unix, windows, target_family and target_vendor", () => {
    expect(truths("cfg(desktop)")).toEqual({
      linux: true,
      macOS: true,
      windows: true,
      android: false,
      iOS: false,
    });
    expect(truths("cfg(mobile)")).toEqual({
      linux: false,
      macOS: false,
      windows: false,
      android: true,
      iOS: true,
    });
    expect(truths("cfg(unix)")).toEqual({
      linux: true,
      macOS: true,
      windows: false,
      android: true,
      iOS: true,
    });
    expect(truths("cfg(windows)")).toEqual({
      linux: false,
      macOS: false,
      windows: true,
      android: false,
      iOS: false,
    });
    expect(truths(`cfg(target_family = "windows")`)).toEqual(truths("cfg(windows)"));
    expect(truths(`cfg(target_vendor = "apple")`)).toEqual({
      linux: undefined,
      macOS: true,
      windows: false,
      android: undefined,
      iOS: true,
    });
    expect(truths(`cfg(all(unix, not(target_os = "macos")))`)).toEqual({
      linux: true,
      macOS: false,
      windows: false,
      android: true,
      iOS: true,
    });
  });

  it("an unknown predicate is undefined (the plugin may be there), and carries through not/any/all", () => {
    expect(truths(`cfg(target_arch = "x86_64")`)).toEqual({
      linux: undefined,
      macOS: undefined,
      windows: undefined,
      android: undefined,
      iOS: undefined,
    });
    expect(targetKeyApplies(`cfg(not(feature = "x"))`, "linux")).toBeUndefined();
    // all(): false wins over unknown; any(): true wins over unknown.
    expect(targetKeyApplies(`cfg(all(target_os = "linux", target_arch = "x86_64"))`, "macOS")).toBe(
      false,
    );
    expect(
      targetKeyApplies(`cfg(all(target_os = "linux", target_arch = "x86_64"))`, "linux"),
    ).toBeUndefined();
    expect(targetKeyApplies(`cfg(any(target_os = "linux", target_arch = "x86_64"))`, "linux")).toBe(
      true,
    );
    expect(
      targetKeyApplies(`cfg(any(target_os = "linux", target_arch = "x86_64"))`, "windows"),
    ).toBeUndefined();
  });

  it("target triples apply to one architecture of one platform", () => {
    expect(truths("x86_64-pc-windows-msvc")).toEqual({
      linux: false,
      macOS: false,
      windows: undefined,
      android: false,
      iOS: false,
    });
    expect(targetKeyApplies("aarch64-apple-darwin", "macOS")).toBeUndefined();
    expect(targetKeyApplies("aarch64-linux-android", "linux")).toBe(false);
    expect(targetKeyApplies("aarch64-linux-android", "android")).toBeUndefined();
    expect(targetKeyApplies("wasm32-unknown-unknown", "linux")).toBeUndefined();
  });

  it("unreadable keys are undefined, never an error; hostile ones stay cheap", () => {
    expect(parseCfg("cfg(")).toBeUndefined();
    expect(parseCfg(`cfg(target_os = "linux"`)).toBeUndefined();
    expect(parseCfg(`cfg(target_os = linux)`)).toBeUndefined();
    expect(targetKeyApplies("cfg(a b)", "linux")).toBeUndefined();
    const deep = "cfg(" + "not(".repeat(10_000) + "unix" + ")".repeat(10_001);
    expect(targetKeyApplies(deep, "linux")).toBeUndefined();
  });
});

/** A repository (a folder holding .git) inside a fresh temporary folder, holding the files given. */
function app(files: Record<string, string>): string {
  const root = path.join(mkdtempSync(path.join(tmpdir(), "caplint-build-")), "repo");
  mkdirSync(path.join(root, ".git"), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return path.join(root, "src-tauri");
}

const read = (srcTauri: string) =>
  readAppBuild(srcTauri, (absolute) => path.relative(path.dirname(srcTauri), absolute), 1 << 20);

describe("the app's build from its Cargo files", () => {
  it("reads renamed, inherited, optional and target dependencies, with sources from the lock", async () => {
    const build = await read(
      app({
        "Cargo.toml":
          '[workspace]\nmembers = ["src-tauri"]\n[workspace.dependencies]\ntauri = "2"\ntauri-plugin-fs = { version = "2" }\nlocal = { path = "plugins/local" }\n',
        "src-tauri/Cargo.toml": [
          '[package]\nname = "demo"\nversion = "0.1.0"',
          "[dependencies]",
          "tauri.workspace = true",
          "tauri-plugin-fs = { workspace = true }",
          'opener = { package = "tauri-plugin-opener", version = "2" }',
          'tauri-plugin-store = { version = "2", optional = true }',
          'tauri-plugin-sql = { version = "2", optional = true }',
          "local = { workspace = true }",
          'serde = "1"',
          "[features]",
          'default = ["persist"]',
          'persist = ["tauri-plugin-store/rustls"]',
          'db = ["dep:tauri-plugin-sql"]',
          "[target.'cfg(desktop)'.dependencies]",
          'tauri-plugin-updater = "2"',
          "",
        ].join("\n"),
        "Cargo.lock":
          '[[package]]\nname = "tauri"\nversion = "2.8.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n\n[[package]]\nname = "tauri-plugin-opener"\nversion = "2.4.0"\nsource = "git+https://github.com/me/plugins-workspace?branch=fix#abc"\n\n[[package]]\nname = "tauri-plugin-fs"\nversion = "2.4.1"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
      }),
    );
    expect(build?.kind).toBe("Cargo.toml");
    const plugins = build!.plugins;
    expect([...plugins.keys()].sort()).toEqual([
      "fs",
      "local",
      "opener",
      "sql",
      "store",
      "updater",
    ]);
    expect(plugins.get("fs")).toMatchObject({
      crate: "tauri-plugin-fs",
      version: "2.4.1",
      source: { kind: "registry" },
      presence: { linux: "yes", android: "yes" },
    });
    expect(plugins.get("opener")).toMatchObject({
      declaredAs: "opener",
      source: { kind: "git", url: "https://github.com/me/plugins-workspace?branch=fix#abc" },
    });
    expect(plugins.get("store")?.presence.linux).toBe("yes");
    expect(plugins.get("sql")).toMatchObject({
      feature: "db",
      presence: { linux: "feature", iOS: "feature" },
    });
    expect(plugins.get("updater")?.presence).toEqual({
      linux: "yes",
      macOS: "yes",
      windows: "yes",
      android: "no",
      iOS: "no",
    });
    // A workspace path is relative to the workspace root.
    expect(plugins.get("local")?.source).toMatchObject({ kind: "path", inside: true });
    expect(
      (plugins.get("local")?.source as { dir: string }).dir.endsWith(path.join("plugins", "local")),
    ).toBe(true);
  });

  it("is undefined for a Cargo.toml that is not the app crate's, and without Cargo files", async () => {
    expect(
      await read(app({ "src-tauri/Cargo.toml": '[workspace]\nmembers = ["app"]\n' })),
    ).toBeUndefined();
    expect(
      await read(
        app({
          "src-tauri/Cargo.toml": '[package]\nname = "x"\n[dependencies]\ntauri-plugin-fs = "2"\n',
        }),
      ),
    ).toBeUndefined();
    expect(await read(app({ "src-tauri/capabilities/a.json": "{}" }))).toBeUndefined();
  });

  it("with only a lock: every plugin crate it holds, on every target", async () => {
    const build = await read(
      app({
        "src-tauri/Cargo.lock":
          '[[package]]\nname = "tauri"\nversion = "2.8.0"\n\n[[package]]\nname = "tauri-plugin-shell"\nversion = "2.3.1"\n',
        "src-tauri/gen/android/settings.gradle.kts": "",
      }),
    );
    expect(build?.kind).toBe("Cargo.lock");
    expect([...build!.plugins.keys()]).toEqual(["shell"]);
    expect(build!.mobileEvidence).toEqual({
      android: [{ says: "src-tauri/gen/android is committed", certain: true }],
    });
  });

  it("finds mobile targets from every piece of evidence, certain before suggestive", async () => {
    const cargo = '[package]\nname = "x"\n[dependencies]\ntauri = "2"\n';
    const evidence = async (files: Record<string, string>) =>
      (await read(app({ "src-tauri/Cargo.toml": cargo, ...files })))!.mobileEvidence;
    expect(await evidence({})).toEqual({});
    expect(
      await evidence({ "src-tauri/tauri.android.conf.json": "{}", "src-tauri/Tauri.ios.toml": "" }),
    ).toEqual({
      android: [{ says: "src-tauri/tauri.android.conf.json configures it", certain: true }],
      iOS: [{ says: "src-tauri/Tauri.ios.toml configures it", certain: true }],
    });
    expect(
      await evidence({
        ".github/workflows/release.yml": "steps:\n  - run: npm run tauri android build -- --apk\n",
      }),
    ).toEqual({
      android: [{ says: ".github/workflows/release.yml builds it", certain: true }],
    });
    // The table `tauri add` writes for desktop-only plugins in every app says nothing; one written for android does, weakly.
    const table = (key: string) => ({
      "src-tauri/Cargo.toml": `${cargo}[target.'${key}'.dependencies]\ntauri-plugin-updater = "2"\n`,
    });
    expect(
      await evidence(table('cfg(not(any(target_os = "android", target_os = "ios")))')),
    ).toEqual({});
    expect(await evidence(table('cfg(not(target_os = "android"))'))).toEqual({
      android: [
        {
          says: `Cargo.toml has a [target.'cfg(not(target_os = "android"))'] table`,
          certain: false,
        },
      ],
    });
  });

  it("never reads a lock or workspace outside the repository", async () => {
    const srcTauri = app({
      "src-tauri/Cargo.toml":
        '[package]\nname = "x"\n[dependencies]\ntauri = { workspace = true }\n',
    });
    const outside = path.dirname(path.dirname(srcTauri));
    writeFileSync(
      path.join(outside, "Cargo.lock"),
      '[[package]]\nname = "tauri"\nversion = "2.0.0"\n',
    );
    const build = await read(srcTauri);
    expect(build?.plugins.size).toBe(0);
  });
});

describe("plugins the build defines: inlined, path, git and registry", () => {
  const APP = path.join(FIXTURES, "cli", "app-build");
  const CARGO_HOME = path.join(FIXTURES, "cli", "cargo-home");
  const check = (env: Record<string, string> = {}, ...args: string[]) =>
    run(["check", "--format", "json", "--app", ".", ...args], APP, env);
  const lines = (stdout: string) =>
    (
      JSON.parse(stdout) as {
        diagnostics: Array<{
          line: number;
          column: number;
          severity: string;
          ruleId: string;
          message: string;
        }>;
      }
    ).diagnostics.map((d) => `${d.severity} ${d.ruleId}: ${d.message}`);

  it("reads inlined and path plugins as the build does, says once that the others could not be checked", async () => {
    const result = await check();
    expect(result.stderr).toBe("");
    expect(lines(result.stdout)).toEqual([
      'suggestion redundant-permission: "database:allow-execute-sql" is already granted by "database:default" in this capability',
      'error unknown-permission: unknown permission "database:allow-nope": plugin "database" has no permission or set "allow-nope"',
      'error unknown-permission: unknown permission "local:allow-nope": plugin "local" has no permission or set "allow-nope"',
      'warning unknown-permission: unknown permission "fs:allow-fork-only": plugin "fs" has no permission or set "allow-fork-only"; tauri-plugin-fs comes from git (https://github.com/me/plugins-workspace?branch=mine#abcdef0123456789abcdef0123456789abcdef01), whose permissions may differ from the release\'s',
    ]);
    expect((JSON.parse(result.stdout) as { summary: { notes: string[] } }).summary.notes).toEqual([
      "tauri-plugin-decorum 1.1.1: its permissions could not be checked: caplint has no catalog for it, and reading the Cargo registry is turned off",
      "tauri-plugin-fs (https://github.com/me/plugins-workspace?branch=mine#abcdef0123456789abcdef0123456789abcdef01): from git, not a release; checked against the newest release's catalog, so a permission it lacks is a warning (reading Cargo's git checkouts is turned off)",
      "tauri-plugin-thirdparty 0.3.0: its permissions could not be checked: caplint has no catalog for it, and reading the Cargo registry is turned off",
    ]);
    expect(result.code).toBe(1);
  });

  it("reads a registry plugin's permission files from $CARGO_HOME, and says so; --no-cargo-registry and CAPLINT_CARGO_REGISTRY=off turn it off", async () => {
    const result = await check({ CARGO_HOME: CARGO_HOME });
    expect(lines(result.stdout)).toContain(
      'error unknown-permission: unknown permission "decorum:allow-nope": plugin "decorum" has no permission or set "allow-nope"',
    );
    const notes = (JSON.parse(result.stdout) as { summary: { notes: string[] } }).summary.notes;
    expect(notes).toContain(
      `tauri-plugin-decorum 1.1.1: permissions read from the Cargo registry (${path.join(CARGO_HOME, "registry", "src", "index.crates.io-6f17d22bba15001f", "tauri-plugin-decorum-1.1.1")})`,
    );
    expect(notes).toContain(
      `tauri-plugin-thirdparty 0.3.0: its permissions could not be checked: it is not in the Cargo registry at ${CARGO_HOME} (run cargo fetch)`,
    );
    // HOME/.cargo is the default, as for Cargo.
    expect((await check({ HOME: path.dirname(CARGO_HOME) })).stdout).not.toContain(
      "decorum:allow-nope",
    );
    for (const off of [
      await check({ CARGO_HOME: CARGO_HOME }, "--no-cargo-registry"),
      await check({ CARGO_HOME: CARGO_HOME, CAPLINT_CARGO_REGISTRY: "off" }),
    ]) {
      expect(off.stdout).not.toContain("decorum:allow-nope");
      expect(off.stdout).toContain("reading the Cargo registry is turned off");
    }
  });

  it("the app's permissions leave out the folders of inlined plugins; the inlined plugin gets its commands and default", async () => {
    const result = await run(["permissions", "--app", ".", "--format", "json"], APP);
    expect(result.code).toBe(0);
    const listed = (
      JSON.parse(result.stdout) as Array<{ identifier: string; plugin: string; allows: string[] }>
    ).filter((p) => ["__app-acl__", "database", "account", "local"].includes(p.plugin));
    expect(listed.map((p) => `${p.identifier} ${p.allows.join(",")}`)).toEqual([
      "allow-greet greet",
      "deny-greet ",
      "account:default plugin:account|login",
      "account:allow-login plugin:account|login",
      "account:allow-logout plugin:account|logout",
      "account:deny-login ",
      "account:deny-logout ",
      "database:default plugin:database|execute_sql,plugin:database|query",
      "database:allow-execute-sql plugin:database|execute_sql",
      "database:allow-query plugin:database|query",
      "database:deny-execute-sql ",
      "database:deny-query ",
      "database:read-only plugin:database|query",
      "local:default plugin:local|ping",
      "local:allow-do-thing plugin:local|do_thing",
      "local:allow-ping plugin:local|ping",
      "local:deny-do-thing ",
      "local:deny-ping ",
    ]);
  });
});

describe("a path plugin outside the repository", () => {
  it("a path plugin outside the repository is never read", async () => {
    const srcTauri = app({
      "src-tauri/Cargo.toml":
        '[package]\nname = "x"\n[dependencies]\ntauri = "2"\ntauri-plugin-secret = { path = "../../outside/tauri-plugin-secret" }\n',
      "src-tauri/capabilities/main.json":
        '{ "identifier": "main", "windows": ["main"], "permissions": ["secret:allow-read"] }\n',
    });
    const outside = path.join(
      path.dirname(path.dirname(srcTauri)),
      "outside",
      "tauri-plugin-secret",
      "permissions",
    );
    mkdirSync(outside, { recursive: true });
    writeFileSync(
      path.join(outside, "default.toml"),
      '[[permission]]\nidentifier = "allow-other"\ncommands.allow = ["other"]\n',
    );
    const result = await run(["check", "--format", "json", "--app", "."], srcTauri);
    const report = JSON.parse(result.stdout) as {
      diagnostics: unknown[];
      summary: { notes: string[] };
    };
    expect(report.diagnostics).toEqual([]);
    expect(report.summary.notes).toContainEqual(
      `tauri-plugin-secret: its permissions could not be checked: its path ${path.dirname(outside)} is outside the repository, which caplint never reads`,
    );
  });
});
