/**
 * Issue 30 item 4: `caplint least-privilege` through the built bin, on copies of the bundled demo app:
 * what it shows (per window: calls, grants used and unused, the change as a diff, its confidence),
 * its formats, its exit codes, and `--fix` (formatting kept, TOML kept TOML, nothing the frontend uses
 * lost, never written through a symbolic link).
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

const DEMO = path.join(ROOT, "examples", "demo-app");
const sandbox = mkdtempSync(path.join(tmpdir(), "caplint-least-privilege-"));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function bin(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [path.join(ROOT, "bin/caplint.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let copies = 0;
function demoCopy(): string {
  const copy = path.join(sandbox, `demo-${++copies}`);
  cpSync(DEMO, copy, { recursive: true });
  return copy;
}

const capabilities = (app: string) => path.join(app, "src-tauri", "capabilities");
const read = (file: string) => readFileSync(file, "utf8");

/** The commands each window may call, from `caplint access` (linux, where every capability of the demo applies). */
function allowed(app: string, window: string): Set<string> {
  const result = bin(["access", "--window", window, "--platform", "linux", "-f", "json"], app);
  expect(result.stderr).toBe("");
  return new Set(
    (JSON.parse(result.stdout) as { allowed: Array<{ command: string }> }).allowed.map(
      (entry) => entry.command,
    ),
  );
}

describe("caplint least-privilege (built bin)", () => {
  it("shows, per window, the calls with their command and narrowest permission, the grants used and unused, the change as a diff, and its confidence; exit 1 (a change is proposed)", () => {
    const result = bin(["least-privilege"], DEMO);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const out = result.stdout;
    expect(out).toMatch(
      /^least privilege: 4 frontend files, 10 calls, 2 windows loading local pages$/m,
    );
    expect(out).toContain('window "settings" (capabilities: "settings")');
    expect(out).toContain(
      "src/settings.ts:17:55  readTextFile() → plugin:fs|read_text_file → fs:allow-read-text-file  REFUSED",
    );
    expect(out).toContain(
      "src/settings.ts:13:9  Window.setSize() → plugin:window|set_size → core:window:allow-set-size  allowed",
    );
    expect(out).toMatch(
      /grants unused\n {4}core:window:default {2}src-tauri\/capabilities\/settings\.toml:6, 26 commands\n {4}core:window:allow-set-theme {2}src-tauri\/capabilities\/settings\.toml:8, 1 command/,
    );
    expect(out).toContain(
      'remove "core:window:allow-set-theme" from capability "settings" (no call uses it)',
    );
    expect(out).toContain(
      'replace "store:default" in capability "settings" with the members the calls use: "store:allow-load", "store:allow-set"',
    );
    expect(out).toContain('capability "remote-docs" serves remote pages: never narrowed');
    // The refused call needs a scope only the developer knows: shown in the file's own syntax, not written.
    expect(out).toContain(
      'src/settings.ts:17:55: add { identifier = "fs:allow-read-text-file", allow = [{ path = "theme.css" }] }',
    );
    expect(out).toMatch(
      /^confidence: every call resolved \(11 commands in 4 files\); no third-party plugin$/m,
    );
    expect(out).toContain(
      "--- a/src-tauri/capabilities/settings.toml\n+++ b/src-tauri/capabilities/settings.toml\n",
    );
    expect(out).toContain('-  "core:window:allow-set-theme",\n');
    // Nothing is written without --fix.
    expect(read(path.join(capabilities(DEMO), "settings.toml"))).toContain(
      "core:window:allow-set-theme",
    );
  });

  it("takes --app like every query, and answers the same from the repository root", () => {
    const here = bin(["least-privilege", "-f", "json"], DEMO);
    const fromRoot = bin(["least-privilege", "--app", "examples/demo-app", "-f", "json"], ROOT);
    expect(fromRoot.code).toBe(1);
    const strip = (text: string) => text.replaceAll("examples/demo-app/", "");
    expect(strip(fromRoot.stdout)).toBe(here.stdout);
  });

  it("-f json carries the windows, calls, grants, changes, diffs and confidence", () => {
    const result = bin(["least-privilege", "-f", "json"], DEMO);
    const answer = JSON.parse(result.stdout) as {
      windows: Array<{
        window: string;
        calls: Array<{
          file: string;
          line: number;
          command: string;
          permission: string;
          refusedOn: string[];
        }>;
        grantsUnused: Array<{ permission: string; line: number }>;
      }>;
      changes: Array<{ kind: string; permission: string; file: string }>;
      diffs: Array<{ file: string; diff: string }>;
      confidence: string;
      written: string[];
    };
    const settings = answer.windows.find((window) => window.window === "settings")!;
    expect(settings.calls.find((call) => call.line === 17)).toMatchObject({
      file: "src/settings.ts",
      command: "plugin:fs|read_text_file",
      permission: "fs:allow-read-text-file",
      // The platforms the demo ships: desktop only (no mobile build, no capability names a mobile platform).
      refusedOn: ["linux", "macOS", "windows"],
    });
    expect(settings.grantsUnused.map((grant) => [grant.permission, grant.line])).toEqual([
      ["core:window:default", 6],
      ["core:window:allow-set-theme", 8],
    ]);
    expect(answer.changes).toContainEqual({
      kind: "remove",
      capability: "settings",
      file: "src-tauri/capabilities/settings.toml",
      permission: "core:window:allow-set-theme",
      reason: "no call uses it",
    });
    expect(answer.diffs.map((d) => d.file)).toEqual([
      "src-tauri/capabilities/default.json",
      "src-tauri/capabilities/settings.toml",
    ]);
    expect(answer.confidence).toMatch(/^every call resolved/);
    expect(answer.written).toEqual([]);
  });

  it("-f sarif reports the frontend findings through the core SARIF reporter, the confidence as a run note", () => {
    const result = bin(["least-privilege", "-f", "sarif"], DEMO);
    expect(result.code).toBe(1);
    const log = JSON.parse(result.stdout) as {
      version: string;
      runs: Array<{
        results: Array<{ ruleId: string }>;
        invocations: Array<{ toolExecutionNotifications: Array<{ message: { text: string } }> }>;
      }>;
    };
    expect(log.version).toBe("2.1.0");
    const rules = new Set(log.runs[0]!.results.map((r) => r.ruleId));
    expect([...rules].sort()).toEqual(["frontend-command-not-granted", "unused-permission"]);
    expect(log.runs[0]!.invocations[0]!.toolExecutionNotifications[0]!.message.text).toMatch(
      /^every call resolved/,
    );
  });

  it("--fix writes the change: formatting and comments kept, TOML stays TOML, every command the frontend uses still granted; then nothing is left to narrow", () => {
    const app = demoCopy();
    const before = { main: allowed(app, "main"), settings: allowed(app, "settings") };
    const shown = bin(["least-privilege", "-f", "json"], app);
    const result = bin(["least-privilege", "--fix"], app);
    expect(result.stderr).toBe("");
    // Still 1: the refused call's scoped permission is left to do by hand.
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("changed (2 files written):");
    expect(result.stdout).not.toContain("--- a/");
    const toml = read(path.join(capabilities(app), "settings.toml"));
    expect(toml).toBe(
      [
        "# The settings window may change its own size and theme.",
        'identifier = "settings"',
        'description = "Settings window"',
        'windows = ["settings"]',
        "permissions = [",
        '  "core:window:allow-set-size",',
        '  "store:allow-load",',
        '  "store:allow-set",',
        "]",
        "",
      ].join("\n"),
    );
    expect(parseToml(toml)).toMatchObject({
      identifier: "settings",
      permissions: ["core:window:allow-set-size", "store:allow-load", "store:allow-set"],
    });
    const json = read(path.join(capabilities(app), "default.json"));
    expect(JSON.parse(json)).toMatchObject({ identifier: "default" });
    expect(json).toContain(
      '    { "identifier": "fs:allow-read-text-file", "allow": [{ "path": "$APPDATA/**" }] },\n',
    );
    // What was written is what the diff showed.
    const diffs = (JSON.parse(shown.stdout) as { diffs: Array<{ file: string; diff: string }> })
      .diffs;
    for (const { file, diff } of diffs)
      for (const line of diff.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")))
        expect(read(path.join(app, file))).toContain(line.slice(1));
    // Nothing the frontend calls is lost; what no call uses is gone.
    const after = { main: allowed(app, "main"), settings: allowed(app, "settings") };
    for (const command of ["plugin:store|load", "plugin:store|set", "plugin:window|set_size"])
      expect(after.settings.has(command), command).toBe(true);
    for (const command of [
      "plugin:window|start_dragging",
      "plugin:dialog|open",
      "plugin:fs|read_text_file",
      "greet",
      "plugin:event|listen",
      "plugin:event|unlisten",
    ])
      expect(after.main.has(command), command).toBe(true);
    expect(after.settings.has("plugin:window|set_theme")).toBe(false);
    expect(after.main.size).toBeLessThan(before.main.size);
    expect(after.settings.size).toBeLessThan(before.settings.size);
    // Run again: nothing left to remove or narrow.
    const again = JSON.parse(bin(["least-privilege", "-f", "json"], app).stdout) as {
      changes: unknown[];
    };
    expect(again.changes).toEqual([]);
  });

  it("--fix on a one-line JSON array: a set narrowed in place, an unused grant removed with its comma, refused calls' permissions added after the last item", () => {
    const app = demoCopy();
    const file = path.join(capabilities(app), "default.json");
    writeFileSync(
      file,
      '{\n  "identifier": "default",\n  "windows": ["main"],\n  "permissions": ["dialog:default", "core:window:allow-set-theme", "allow-greet", "core:event:allow-listen", { "identifier": "fs:allow-read-text-file", "allow": [{ "path": "$APPDATA/**" }] }]\n}\n',
    );
    const result = bin(["least-privilege", "--fix", "--platform", "linux"], app);
    expect(result.stderr).toBe("");
    expect(read(file)).toBe(
      '{\n  "identifier": "default",\n  "windows": ["main"],\n  "permissions": ["dialog:allow-open", "allow-greet", "core:event:allow-listen", { "identifier": "fs:allow-read-text-file", "allow": [{ "path": "$APPDATA/**" }] }, "core:window:allow-start-dragging", "decorum:allow-show-snap-overlay", "core:event:allow-unlisten"]\n}\n',
    );
    // Every call of the main window is allowed now.
    const main = (
      JSON.parse(bin(["least-privilege", "-f", "json", "--platform", "linux"], app).stdout) as {
        windows: Array<{ window: string; calls: Array<{ refusedOn: string[] }> }>;
      }
    ).windows.find((window) => window.window === "main")!;
    expect(main.calls.every((call) => call.refusedOn.length === 0)).toBe(true);
  });

  it("--fix that removes every grant of a capability leaves its array empty: no blank line in JSON, no lone trailing comma in TOML", () => {
    const app = demoCopy();
    const json = path.join(capabilities(app), "unused.json");
    const toml = path.join(capabilities(app), "unused.toml");
    writeFileSync(
      json,
      '{\n  "identifier": "unused-json",\n  "windows": ["main"],\n  "permissions": [\n    "core:tray:default",\n    "core:menu:default"\n  ]\n}\n',
    );
    writeFileSync(
      toml,
      'identifier = "unused-toml"\nwindows = ["main"]\npermissions = [\n  "core:tray:default",\n  "core:menu:default",\n]\n',
    );
    const result = bin(["least-privilege", "--fix", "--platform", "linux"], app);
    expect(result.stderr).toBe("");
    expect(read(json)).toBe(
      '{\n  "identifier": "unused-json",\n  "windows": ["main"],\n  "permissions": []\n}\n',
    );
    expect(read(toml)).toBe('identifier = "unused-toml"\nwindows = ["main"]\npermissions = []\n');
    expect(parseToml(read(toml))).toEqual({
      identifier: "unused-toml",
      windows: ["main"],
      permissions: [],
    });
  });

  it("--fix rewrites a capability inlined in tauri.conf.json (app.security.capabilities): the diff shows it, the rest of the config is kept byte for byte, every call of its window allowed", () => {
    const app = demoCopy();
    const config = path.join(app, "src-tauri", "tauri.conf.json");
    const listed = read(config).replace(
      '"security": { "csp": null }',
      [
        '"security": {',
        '      "csp": null,',
        '      "capabilities": [',
        '        "settings",',
        '        "remote-docs",',
        "        {",
        '          "identifier": "main-inline",',
        '          "windows": ["main"],',
        '          "permissions": [',
        '            "dialog:default",',
        '            "core:window:allow-set-theme",',
        '            "allow-greet",',
        '            "core:event:allow-listen",',
        '            { "identifier": "fs:allow-read-text-file", "allow": [{ "path": "$APPDATA/**" }] }',
        "          ]",
        "        }",
        "      ]",
        "    }",
      ].join("\n"),
    );
    writeFileSync(config, listed);
    // Not listed, so not in force: left as it is.
    const unlisted = read(path.join(capabilities(app), "default.json"));
    const shown = bin(["least-privilege", "--platform", "linux"], app);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(1);
    expect(shown.stdout).toContain(
      'replace "dialog:default" in capability "main-inline" with the members the calls use: "dialog:allow-open"',
    );
    expect(shown.stdout).toContain(
      [
        "--- a/src-tauri/tauri.conf.json",
        "+++ b/src-tauri/tauri.conf.json",
        "@@ -18,11 +18,13 @@",
        '           "identifier": "main-inline",',
        '           "windows": ["main"],',
        '           "permissions": [',
        '-            "dialog:default",',
        '-            "core:window:allow-set-theme",',
        '+            "dialog:allow-open",',
        '             "allow-greet",',
        '             "core:event:allow-listen",',
        '-            { "identifier": "fs:allow-read-text-file", "allow": [{ "path": "$APPDATA/**" }] }',
        '+            { "identifier": "fs:allow-read-text-file", "allow": [{ "path": "$APPDATA/**" }] },',
        '+            "core:window:allow-start-dragging",',
        '+            "decorum:allow-show-snap-overlay",',
        '+            "core:event:allow-unlisten"',
        "           ]",
        "         }",
        "       ]",
      ].join("\n"),
    );
    expect(read(config)).toBe(listed);

    const result = bin(["least-privilege", "--fix", "--platform", "linux"], app);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("src-tauri/tauri.conf.json");
    const written = read(config);
    // Only the inline capability's permissions changed: the text before and after them is the same.
    const before = listed.indexOf('"dialog:default"');
    expect(written.slice(0, before)).toBe(listed.slice(0, before));
    const after = listed.indexOf("          ]\n        }\n      ]");
    expect(written.endsWith(listed.slice(after))).toBe(true);
    expect(JSON.parse(written)).toMatchObject({
      productName: "demo-app",
      app: { windows: [{ label: "main" }, { label: "settings" }, { label: "docs-viewer" }] },
    });
    expect(read(path.join(capabilities(app), "default.json"))).toBe(unlisted);
    const main = (
      JSON.parse(bin(["least-privilege", "-f", "json", "--platform", "linux"], app).stdout) as {
        windows: Array<{ window: string; calls: Array<{ refusedOn: string[] }> }>;
      }
    ).windows.find((window) => window.window === "main")!;
    expect(main.calls.length).toBeGreaterThan(0);
    expect(main.calls.every((call) => call.refusedOn.length === 0)).toBe(true);
    expect(allowed(app, "main").has("plugin:window|set_theme")).toBe(false);
  });

  it("-o writes the answer to a file (atomically), the exit code unchanged", () => {
    const out = path.join(sandbox, "least-privilege.json");
    const result = bin(["least-privilege", "-f", "json", "-o", out], DEMO);
    expect(result).toMatchObject({ code: 1, stdout: "", stderr: "" });
    expect((JSON.parse(read(out)) as { confidence: string }).confidence).toMatch(
      /^every call resolved/,
    );
  });

  it("--write is the same as --fix", () => {
    const app = demoCopy();
    expect(bin(["least-privilege", "--write"], app).stdout).toContain("changed (2 files written):");
    expect(read(path.join(capabilities(app), "settings.toml"))).not.toContain("allow-set-theme");
  });

  it("never writes through a symbolic link: the linked capability is named, the file it names is left as it was, the others are written", () => {
    const app = demoCopy();
    const shared = path.join(app, "src-tauri", "shared");
    mkdirSync(shared);
    renameSync(path.join(capabilities(app), "settings.toml"), path.join(shared, "settings.toml"));
    symlinkSync("../shared/settings.toml", path.join(capabilities(app), "settings.toml"));
    const target = read(path.join(shared, "settings.toml"));
    const result = bin(["least-privilege", "--fix"], app);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "not written: src-tauri/capabilities/settings.toml is a symbolic link",
    );
    expect(lstatSync(path.join(capabilities(app), "settings.toml")).isSymbolicLink()).toBe(true);
    expect(read(path.join(shared, "settings.toml"))).toBe(target);
    expect(read(path.join(capabilities(app), "default.json"))).not.toContain('"dialog:default"');
  });

  it("exits 0 with nothing to change when the capabilities grant exactly what the frontend calls", () => {
    const app = demoCopy();
    rmSync(path.join(capabilities(app), "remote-docs.json"));
    writeFileSync(
      path.join(capabilities(app), "default.json"),
      JSON.stringify(
        {
          identifier: "default",
          windows: ["main"],
          permissions: [
            "core:window:allow-start-dragging",
            "decorum:allow-show-snap-overlay",
            "dialog:allow-open",
            { identifier: "fs:allow-read-text-file", allow: [{ path: "$APPDATA/**" }] },
            "allow-greet",
            "core:event:allow-listen",
            "core:event:allow-unlisten",
          ],
        },
        null,
        2,
      ),
    );
    writeFileSync(
      path.join(capabilities(app), "settings.toml"),
      'identifier = "settings"\nwindows = ["settings"]\npermissions = [\n  "core:window:allow-set-size",\n  "store:allow-load",\n  "store:allow-set",\n  { identifier = "fs:allow-read-text-file", allow = [{ path = "$APPCONFIG/theme.css" }] },\n]\n',
    );
    const result = bin(["least-privilege"], app);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      "nothing to change: the capabilities grant what the frontend uses",
    );
    expect(result.stdout).not.toContain("--- a/");
    expect(result.code).toBe(0);
  });

  it("says what held it back: a command named at run time stops every removal, and the confidence line says so", () => {
    const app = demoCopy();
    writeFileSync(
      path.join(app, "src", "main.ts"),
      `${read(path.join(app, "src", "main.ts"))}\nexport const run = (name: string) => invoke(name);\n`,
    );
    const result = bin(["least-privilege"], app);
    expect(result.stdout).toMatch(
      /^confidence: 1 dynamic call not resolved: no grant is removed or narrowed \(any command could be called\)$/m,
    );
    expect(result.stdout).toContain("unresolved calls (the command is known only at run time)");
    expect(result.stdout).not.toContain('remove "core:window:allow-set-theme"');
  });

  it("leaves a TOML array of tables as it is and says so", () => {
    const app = demoCopy();
    writeFileSync(
      path.join(capabilities(app), "settings.toml"),
      'identifier = "settings"\nwindows = ["settings"]\n\n[[permissions]]\nidentifier = "core:window:allow-set-size"\n\n[[permissions]]\nidentifier = "core:window:allow-set-theme"\n\n[[permissions]]\nidentifier = "store:default"\n',
    );
    const before = read(path.join(capabilities(app), "settings.toml"));
    const result = bin(["least-privilege", "--fix"], app);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      'capability "settings" in src-tauri/capabilities/settings.toml: its permissions are not one array caplint can edit in place',
    );
    expect(result.stdout).toContain(
      'remove "core:window:allow-set-theme" from capability "settings" in src-tauri/capabilities/settings.toml',
    );
    expect(read(path.join(capabilities(app), "settings.toml"))).toBe(before);
  });

  it("is a usage error (exit 2) for files without an app frontend", () => {
    const result = bin(["least-privilege", path.join(capabilities(DEMO), "default.json")], ROOT);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^caplint: no frontend found/);
  });
});

describe("access and matrix JSON and the HTML report mark the grants the frontend uses (built bin)", () => {
  it("access -f json: each allowed command says whether the window's frontend calls it", () => {
    const result = bin(
      ["access", "--window", "settings", "--platform", "linux", "-f", "json"],
      DEMO,
    );
    expect(result.code).toBe(0);
    const allowed = (
      JSON.parse(result.stdout) as { allowed: Array<{ command: string; usedByFrontend?: boolean }> }
    ).allowed;
    const used = allowed.filter((entry) => entry.usedByFrontend).map((entry) => entry.command);
    expect(used).toEqual(["plugin:store|load", "plugin:store|set", "plugin:window|set_size"]);
    expect(allowed.find((entry) => entry.command === "plugin:window|set_theme")).toMatchObject({
      usedByFrontend: false,
    });
    // A remote window's answer has no such mark: its pages' code is not in the app.
    const remote = JSON.parse(
      bin(
        [
          "access",
          "--window",
          "docs-viewer",
          "--url",
          "https://docs.example.com",
          "--platform",
          "linux",
          "-f",
          "json",
        ],
        DEMO,
      ).stdout,
    ) as {
      allowed: Array<{ usedByFrontend?: boolean }>;
    };
    expect(remote.allowed.length).toBeGreaterThan(0);
    expect(remote.allowed.every((entry) => entry.usedByFrontend === undefined)).toBe(true);
  });

  it("matrix -f json: each row of a window loading local pages lists the granted commands its frontend calls", () => {
    const result = bin(["matrix", "--platform", "linux", "-f", "json"], DEMO);
    const rows = (
      JSON.parse(result.stdout) as {
        rows: Array<{ window: string; granted: string[]; usedByFrontend?: string[] }>;
      }
    ).rows;
    const settings = rows.find((row) => row.window === "settings")!;
    expect(settings.usedByFrontend).toEqual([
      "plugin:store|load",
      "plugin:store|set",
      "plugin:window|set_size",
    ]);
    expect(settings.granted).toContain("plugin:window|set_theme");
    expect(rows.find((row) => row.window === "docs-viewer")!.usedByFrontend).toBeUndefined();
  });

  it("report --html shows a cell whose grants no frontend code uses in a distinct style, with its legend", () => {
    const out = path.join(sandbox, "report.html");
    const result = bin(["report", "--platform", "linux", "--html", out], DEMO);
    expect(result.code).toBe(0);
    const html = read(out);
    expect(html).toContain(
      '<span class="key key-unused">n</span><span>granted, but the app\'s frontend never calls any of it',
    );
    // settings × window: 26 commands of core:window:default plus set-size and set-theme, one of them called.
    const cell = (window: string, plugin: string) =>
      new RegExp(
        `<td class="([^"]*)" data-row="\\d+" data-col="\\d+" data-plugin="${plugin}"[^>]*aria-label="${window} × ${plugin}: ([^"]*)"`,
      ).exec(html);
    expect(cell("settings", "window")![1]).not.toContain("unused");
    expect(cell("settings", "window")![2]).toMatch(/27 never called by the app&#39;s frontend/);
    // main × fs: read_text_file is called; main × dialog: open is called, ask and message are not.
    expect(cell("main", "fs")![1]).not.toContain("unused");
    const wholly = [...html.matchAll(/<td class="cell[^"]* unused"[^>]*aria-label="([^"]*)"/g)].map(
      (m) => m[1]!,
    );
    expect(wholly.length).toBeGreaterThan(0);
    expect(wholly.every((label) => !label.startsWith("docs-viewer"))).toBe(true);
    expect(html).toMatch(/<script type="application\/json" id="report-data">[^<]*"frontend":true/);
  });
});
