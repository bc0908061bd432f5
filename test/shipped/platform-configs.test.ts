import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

/** The built bin, as users run it. */
function bin(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [path.join(ROOT, "bin", "caplint.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** An app with the given files under src-tauri/ (objects are written as JSON). */
function app(files: Record<string, unknown>): string {
  const root = mkdtempSync(path.join(tmpdir(), "caplint-platform-configs-"));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, "src-tauri", name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return root;
}

const BASE = { identifier: "com.example.platforms", app: { windows: [{ label: "main" }] } };
const DEFAULT = { identifier: "default", windows: ["main"], permissions: ["core:default"] };

describe("platform configs through the built bin (tauri.<platform>.conf.json, Tauri.<platform>.toml)", () => {
  it("a window and an inline capability of Tauri.windows.toml exist on windows only, and its capability list replaces the base one there", () => {
    const dir = app({
      "tauri.conf.json": BASE,
      "Tauri.windows.toml": [
        "[[app.windows]]",
        'label = "main"',
        "[[app.windows]]",
        'label = "tray"',
        "[[app.security.capabilities]]",
        'identifier = "tray"',
        'windows = ["tray"]',
        'permissions = ["core:window:allow-hide"]',
        "",
      ].join("\n"),
      "capabilities/default.json": DEFAULT,
      "capabilities/linux-tray.json": {
        identifier: "linux-tray",
        windows: ["tray"],
        platforms: ["linux"],
        permissions: ["core:window:allow-show"],
      },
    });
    const check = bin(["check", "--format", "compact"], dir);
    // "tray" exists on windows only: a linux-only capability for it matches nothing there.
    expect(check.stdout).toContain(
      'src-tauri/capabilities/linux-tray.json:4:5: warning window pattern "tray" matches no window label on linux, the platforms the capability is for: "tray" is declared for windows only, in src-tauri/Tauri.windows.toml (linux: "main") [unmatched-window]',
    );
    expect(check.stdout).not.toMatch(/default\.json.*\[ignored-file\]/);
    // Passed by name (as an editor or a file list does), a platform config means "check this app", never a capability file.
    const byName = bin(["check", "--format", "compact", "src-tauri/Tauri.windows.toml"], dir);
    expect(byName.stdout).not.toMatch(/\[schema\]/);
    expect(byName.stdout).toContain("linux-tray.json:4:5: warning");
    const access = bin(
      ["access", "--window", "tray", "-C", "plugin:window|hide", "--format", "json"],
      dir,
    );
    const answer = JSON.parse(access.stdout) as {
      call: {
        verdicts: Array<{ platforms: string[]; verdict: string }>;
        suggestion: { notes: string[] };
      };
    };
    expect(answer.call.verdicts.find((v) => v.verdict === "allowed")?.platforms).toEqual([
      "windows",
    ]);
    expect(answer.call.suggestion.notes).toEqual([
      'capability "tray" covers this window on windows only: it is declared inline in src-tauri/Tauri.windows.toml, the config of that platform',
      'window "tray" is declared for windows only, in src-tauri/Tauri.windows.toml: on linux, macOS, android and iOS it exists only if the app creates it in code',
    ]);
    // On windows only the inline capability is loaded: "default" grants main nothing there.
    const main = bin(["access", "--window", "main", "-C", "plugin:app|name"], dir);
    expect(main.stdout).toMatch(
      /ALLOWED: plugin:app\|name \(allowed\) on linux, macOS, android, iOS only/,
    );
    expect(main.stdout).toMatch(/NOT ALLOWED: plugin:app\|name \(not-granted\) on windows only/);
    expect(main.stdout).toContain(
      'note: capability "default" covers this window but is not loaded on windows: app.security.capabilities in src-tauri/Tauri.windows.toml does not list it',
    );
  });

  it("a platform config naming a missing capability breaks that platform's build, and says so", () => {
    const dir = app({
      "tauri.conf.json": BASE,
      "tauri.macos.conf.json": { app: { security: { capabilities: ["default", "dock"] } } },
      "capabilities/default.json": DEFAULT,
    });
    const result = bin(["check", "--format", "compact"], dir);
    expect(result.stdout).toContain(
      'src-tauri/tauri.macos.conf.json:6:9: error app.security.capabilities names "dock", but no capability file defines it: the macOS build fails with "capability with identifier dock not found" [ignored-file]',
    );
  });

  it("a platform config that deletes the windows (null) leaves that platform without them", () => {
    const dir = app({
      "tauri.conf.json": BASE,
      "tauri.android.conf.json": { app: { windows: null } },
      "tauri.ios.conf.json": { app: { windows: [{ label: "phone" }] } },
      "capabilities/default.json": DEFAULT,
      "capabilities/mobile.json": {
        identifier: "mobile",
        windows: ["main"],
        platforms: ["android", "iOS"],
        permissions: ["core:default"],
      },
    });
    const result = bin(["check", "--format", "compact"], dir);
    expect(result.stdout).toContain(
      'src-tauri/capabilities/mobile.json:4:5: warning window pattern "main" matches no window label on android and iOS, the platforms the capability is for: "main" is declared for linux, macOS and windows only, in src-tauri/tauri.conf.json (android and iOS: "phone") [unmatched-window]',
    );
    expect(result.stdout).not.toMatch(/default\.json.*unmatched-window/);
  });

  it("a JSON5 platform config is named in a note, not read; a broken JSON one is an error naming it", () => {
    const dir = app({
      "tauri.conf.json": BASE,
      "tauri.linux.conf.json5": "{ app: { windows: [{ label: 'tray' }] } }",
      "tauri.windows.conf.json": '{ "app": { "windows": [ }',
      "capabilities/default.json": DEFAULT,
    });
    expect(bin(["check"], dir).stdout).toContain(
      'src-tauri/tauri.linux.conf.json5: JSON5 platform configs are not read (Tauri reads them only with its "config-json5" Cargo feature); the windows and capabilities it declares for linux are not known',
    );
    const result = bin(["check", "--format", "compact"], dir);
    expect(result.stdout).toMatch(
      /^src-tauri\/tauri\.windows\.conf\.json:1:1: error invalid JSON: .*\(tauri\.windows\.conf\.json is ignored\) \[parse\]$/m,
    );
    expect(result.code).toBe(1);
  });
});
