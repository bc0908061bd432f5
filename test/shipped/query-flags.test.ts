/**
 * Issue 22 item 5: query and flag defects a new user meets, each through the built bin (bin/caplint.js).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

const APP = path.join(FIXTURES, "queries", "app");

function bin(args: string[], cwd = APP) {
  const result = spawnSync(process.execPath, [path.join(ROOT, "bin/caplint.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("access and matrix with a window nothing knows", () => {
  it("access --window nope is a usage error naming the known windows (exit 2), not '0 commands'", () => {
    const result = bin(["access", "--window", "mian"]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toBe(
      `caplint: --window mian: no window in tauri.conf.json, no capability pattern and no window made in the app's sources has this label (known windows: "main", "main-editor", "settings" and "docs"); did you mean "main"?\n`,
    );
  });

  it("matrix --window nope too; a window a capability pattern covers is answered", () => {
    expect(bin(["matrix", "--window", "nope"])).toMatchObject({ code: 2, stdout: "" });
    // main-* covers main-2, which no declaration names.
    const covered = bin([
      "matrix",
      "--window",
      "main-2",
      "--platform",
      "linux",
      "--format",
      "json",
    ]);
    expect(covered.code).toBe(0);
    expect(bin(["access", "--window", "main-2", "--platform", "linux"]).code).toBe(0);
  });

  it("a window made in the app's Rust sources is known", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-window-"));
    cpSync(APP, dir, { recursive: true });
    mkdirSync(path.join(dir, "src-tauri", "src"));
    writeFileSync(
      path.join(dir, "src-tauri", "src", "lib.rs"),
      'fn open(app: &App) { WebviewWindowBuilder::new(app, "reader", url).build(); }\n',
    );
    const result = bin(["access", "--window", "reader", "--platform", "linux"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("allowed: 0 commands");
  });
});

describe("access --command with a misspelt command of a known plugin", () => {
  it("says did you mean, and proposes no permission that does not exist", () => {
    const result = bin(["access", "-w", "main", "-C", "fs.read_text_fle", "--platform", "linux"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'note: no known plugin has the command "plugin:fs|read_text_fle", and no permission can allow a command its plugin does not have; did you mean "plugin:fs|read_text_file"',
    );
    expect(result.stdout).not.toContain("fs:allow-read-text-fle");
    expect(result.stdout).not.toContain("to allow it");
    const json = JSON.parse(
      bin(["access", "-w", "main", "-C", "fs.read_text_fle", "--format", "json"]).stdout,
    );
    expect(json.call.suggestion).toBeUndefined();
    expect(json.call.didYouMean).toContain("plugin:fs|read_text_file");
  });
});

describe("access --format json --command: the top-level verdict agrees with the platforms'", () => {
  it("names the platforms it holds on and says whether every platform allows the call", () => {
    for (const command of ["fs.read_text_file", "plugin:dialog|save", "greet"]) {
      const result = bin(["access", "-w", "main", "-C", command, "--format", "json"]);
      const data = JSON.parse(result.stdout);
      const refused = (v: { verdict: string }) =>
        v.verdict !== "allowed" && v.verdict !== "unchecked";
      expect(data.allowed, command).toBe(!data.call.verdicts.some(refused));
      expect(result.code, command).toBe(data.allowed ? 0 : 1);
      const group = data.call.verdicts.find(
        (v: { platforms: string[] }) => v.platforms.join() === data.explanation.platforms.join(),
      );
      expect(group, command).toBeDefined();
      expect(data.explanation.verdict, command).toBe(group.verdict);
      if (!data.allowed) expect(refused(data.explanation), command).toBe(true);
    }
  });
});

describe("resolve answers for every platform, or the list asked", () => {
  it("by default: one model per platform", () => {
    const data = JSON.parse(bin(["resolve"]).stdout);
    expect(data.platforms.map((p: { platform: string }) => p.platform)).toEqual([
      "linux",
      "macOS",
      "windows",
      "android",
      "iOS",
    ]);
    expect(Object.keys(data.platforms[0])).toEqual([
      "platform",
      "allowed",
      "denied",
      "globalScope",
    ]);
  });

  it("a list gives those platforms; one platform keeps the conformance format", () => {
    const two = bin(["resolve", "--platform", "linux,macos"]);
    expect(two.code).toBe(0);
    expect(JSON.parse(two.stdout).platforms.map((p: { platform: string }) => p.platform)).toEqual([
      "linux",
      "macOS",
    ]);
    expect(Object.keys(JSON.parse(bin(["resolve", "--platform", "ios"]).stdout))).toEqual([
      "platform",
      "allowed",
      "denied",
      "globalScope",
    ]);
    expect(bin(["resolve", "--help"]).stdout).toMatch(/for every platform unless --platform/);
  });
});

describe("check flags", () => {
  it("-q says warnings were hidden instead of 'no problems'", () => {
    const dir = path.join(FIXTURES, "capabilities", "unmatched-window", "invalid", "typos");
    const loud = bin(["check"], dir);
    expect(loud.stdout).toMatch(/warning/);
    const quiet = bin(["check", "-q"], dir);
    expect(quiet.stdout).not.toContain("no problems");
    expect(quiet.stdout).toMatch(/checked, no errors \(\d+ warnings? not shown: --quiet\)\n/);
  });

  it("--fix with --fix-dry-run is a usage error (exit 2), nothing written", () => {
    const result = bin(
      ["check", "--fix", "--fix-dry-run"],
      path.join(FIXTURES, "capabilities", "unmatched-window", "invalid", "typos"),
    );
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toBe(
      "caplint: --fix writes the fixes and --fix-dry-run only shows them: give one of the two\n",
    );
  });
});

describe("access says when the committed manifest and the catalog disagree (issue 20: the union policy)", () => {
  // ActivityWatch's committed acl-manifests.json was written by an older core than its locked tauri 2.10.2.
  const STALE = path.join(FIXTURES, "real-world", "build-truth", "ActivityWatch__aw-tauri");

  it("names the permissions the answer reads from the union, in text and in JSON", () => {
    const text = bin(
      ["access", "--window", "main", "--platform", "linux", "--no-cargo-registry"],
      STALE,
    );
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      "note: this answer reads 7 permissions (core:app:allow-bundle-type, core:app:allow-identifier, core:app:allow-register-listener, core:app:allow-remove-listener, core:app:default, core:window:allow-is-always-on-top, core:window:default) from the union of src-tauri/gen/schemas/acl-manifests.json and the built-in catalog",
    );
    const json = JSON.parse(
      bin(
        [
          "access",
          "--window",
          "main",
          "--platform",
          "linux",
          "--format",
          "json",
          "--no-cargo-registry",
        ],
        STALE,
      ).stdout,
    ) as {
      manifestUnion: Array<{ identifier: string; file: string; difference: string }>;
    };
    expect(json.manifestUnion).toContainEqual({
      identifier: "core:window:allow-is-always-on-top",
      file: "src-tauri/gen/schemas/acl-manifests.json",
      difference:
        'the manifest lacks "core:window:allow-is-always-on-top", which tauri 2.10.2 defines',
    });
  });

  it("matrix and resolve carry the same note: text, JSON, and stderr beside a CSV", () => {
    const identifiers = [
      "core:app:allow-bundle-type",
      "core:app:allow-identifier",
      "core:app:allow-register-listener",
      "core:app:allow-remove-listener",
      "core:app:default",
      "core:window:allow-is-always-on-top",
      "core:window:default",
    ];
    const note = `note: this answer reads 7 permissions (${identifiers.join(", ")}) from the union of src-tauri/gen/schemas/acl-manifests.json and the built-in catalog`;
    const text = bin(["matrix", "--platform", "linux", "--no-cargo-registry"], STALE);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(note);
    const csv = bin(
      ["matrix", "--platform", "linux", "--format", "csv", "--no-cargo-registry"],
      STALE,
    );
    expect(csv.stdout).not.toContain("note:");
    expect(csv.stderr).toContain(note);
    const ids = (stdout: string) =>
      (JSON.parse(stdout) as { manifestUnion: Array<{ identifier: string }> }).manifestUnion.map(
        (n) => n.identifier,
      );
    expect(ids(bin(["matrix", "--format", "json", "--no-cargo-registry"], STALE).stdout)).toEqual(
      identifiers,
    );
    expect(
      ids(bin(["resolve", "--platform", "linux", "--no-cargo-registry"], STALE).stdout),
    ).toEqual(identifiers);
    expect(ids(bin(["resolve", "--no-cargo-registry"], STALE).stdout)).toEqual(identifiers);
  });

  it("matrix notes only what the shown windows go through", () => {
    // A window no capability covers reads nothing from the manifest (ActivityWatch has no deny, which would hold for every window).
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-union-"));
    cpSync(STALE, dir, { recursive: true });
    writeFileSync(
      path.join(dir, "src-tauri", "src", "reader.rs"),
      'fn open(app: &App) { WebviewWindowBuilder::new(app, "reader", url).build(); }\n',
    );
    const reader = bin(
      ["matrix", "--window", "reader", "--platform", "linux", "--no-cargo-registry"],
      dir,
    );
    expect(reader.code).toBe(0);
    expect(reader.stdout).toContain("reader: 0 callable, via no capability");
    expect(reader.stdout).not.toContain("note:");
    expect(
      bin(["matrix", "--window", "main", "--platform", "linux", "--no-cargo-registry"], dir).stdout,
    ).toContain("note: this answer reads 7 permissions");
  });

  it("says nothing when no committed manifest disagrees", () => {
    const text = bin(["access", "--window", "main", "--platform", "linux"]);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain("union");
    expect(
      JSON.parse(
        bin(["access", "--window", "main", "--platform", "linux", "--format", "json"]).stdout,
      ),
    ).not.toHaveProperty("manifestUnion");
    expect(bin(["matrix", "--platform", "linux"]).stdout).not.toContain("union");
    expect(JSON.parse(bin(["matrix", "--format", "json"]).stdout)).not.toHaveProperty(
      "manifestUnion",
    );
    expect(JSON.parse(bin(["resolve"]).stdout)).not.toHaveProperty("manifestUnion");
  });
});

describe("report --against and the pattern severities, through the built bin", () => {
  it("report --against counts and lists the wider scope caplint diff finds", () => {
    const result = bin(
      [
        "report",
        "fixtures/queries/app",
        "--against",
        "fixtures/queries/app-v2",
        "--platform",
        "linux",
        "--html",
        "-",
      ],
      ROOT,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'id="diff-scopes">Wider scopes <span class="count">1 scope value</span>',
    );
    expect(result.stdout).toContain(
      "plugin:fs|write_text_file allowed {&quot;path&quot;:&quot;$APPDATA/notes/*&quot;}",
    );
    const diff = bin(
      [
        "diff",
        "fixtures/queries/app-v2",
        "fixtures/queries/app",
        "--platform",
        "linux",
        "--format",
        "json",
      ],
      ROOT,
    );
    expect((JSON.parse(diff.stdout) as { widenedScopes: unknown[] }).widenedScopes).toHaveLength(1);
  });

  it("a pattern the host cannot compile is an error only where the capability resolves a command", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-pattern-"));
    mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
    writeFileSync(
      path.join(dir, "src-tauri", "tauri.conf.json"),
      '{"identifier": "x", "app": {"windows": [{"label": "main"}]}}',
    );
    writeFileSync(
      path.join(dir, "src-tauri", "capabilities", "a.json"),
      '{"identifier": "empty", "windows": ["main-**"], "permissions": []}',
    );
    const warning = bin(["check", "--platform", "linux", "--format", "compact"], dir);
    expect(warning.code).toBe(0);
    expect(warning.stdout).toContain('warning invalid window pattern "main-**"');
    expect(warning.stdout).toContain(
      "the build passes only because the capability resolves to no command",
    );
    writeFileSync(
      path.join(dir, "src-tauri", "capabilities", "a.json"),
      '{"identifier": "empty", "windows": ["main-**"], "permissions": ["core:window:deny-close"]}',
    );
    const error = bin(["check", "--platform", "linux", "--format", "compact"], dir);
    expect(error.code).toBe(1);
    expect(error.stdout).toContain('error invalid window pattern "main-**"');
  });
});
