/**
 * Issue 33 item 7: the bundled demo app (examples/demo-app) is a small real app, and a newcomer's first
 * run of caplint on it ends with what to fix, not with what caplint could not read. Through the built bin.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

const DEMO = path.join(ROOT, "examples", "demo-app");

function bin(args: string[], cwd = DEMO) {
  const result = spawnSync(process.execPath, [path.join(ROOT, "bin/caplint.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("examples/demo-app", () => {
  it("is an app as the host's template makes one: Cargo files with locked releases, build.rs, Rust sources, a frontend", () => {
    for (const file of [
      "src-tauri/Cargo.toml",
      "src-tauri/Cargo.lock",
      "src-tauri/build.rs",
      "src-tauri/src/lib.rs",
      "package.json",
      "index.html",
      "src/main.ts",
    ])
      expect(existsSync(path.join(DEMO, file)), file).toBe(true);
    const lock = readFileSync(path.join(DEMO, "src-tauri", "Cargo.lock"), "utf8");
    const dependencies = [
      ...readFileSync(path.join(DEMO, "src-tauri", "Cargo.toml"), "utf8").matchAll(
        /^(tauri[\w-]*) = /gm,
      ),
    ].map((m) => m[1]!);
    // Every host crate the app depends on is locked at one release.
    for (const crate of dependencies)
      expect(lock, crate).toMatch(new RegExp(`name = "${crate}"\\nversion = "\\d+\\.\\d+\\.\\d+"`));
    const manifest = JSON.parse(readFileSync(path.join(DEMO, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).toContain("@tauri-apps/api");
  });

  it("every capability's $schema names a file that exists", () => {
    const folder = path.join(DEMO, "src-tauri", "capabilities");
    for (const name of readdirSync(folder).filter((file) => file.endsWith(".json"))) {
      const schema = (
        JSON.parse(readFileSync(path.join(folder, name), "utf8")) as { $schema?: string }
      ).$schema;
      if (schema) expect(existsSync(path.resolve(folder, schema)), `${name}: ${schema}`).toBe(true);
    }
  });

  it("the first run lists the mistakes to fix and ends with their count: no note about what caplint could not read", () => {
    const result = bin([]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/note:|not found|could not|cannot read/i);
    expect(result.stdout.trimEnd().split("\n").slice(-3)).toEqual([
      "✖ 16 problems (4 errors, 12 warnings) in 4 files (7 checked)",
      "  3 suggestions (true, but changing nothing at run time)",
      "  4 fixable with --fix",
    ]);
    // The same from the repository root, as the README's first command runs it.
    expect(bin(["check", "--app", "examples/demo-app"], ROOT).stdout).toBe(
      result.stdout
        .replaceAll("src-tauri/", "examples/demo-app/src-tauri/")
        .replace(/^src\//gm, "examples/demo-app/src/"),
    );
  });

  it("its frontend makes one call its window's capability does not grant, and the window has one grant no code uses", () => {
    const refused = bin([
      "access",
      "--window",
      "settings",
      "--command",
      "fs.read_text_file",
      "--platform",
      "linux",
    ]);
    expect(refused.code).toBe(1);
    expect(readFileSync(path.join(DEMO, "src", "settings.ts"), "utf8")).toContain("readTextFile(");
    // The main window's calls are all granted.
    for (const command of [
      "dialog.open",
      "fs.read_text_file",
      "greet",
      "window.start_dragging",
      "decorum.show_snap_overlay",
      "event.listen",
    ])
      expect(
        bin(["access", "--window", "main", "--command", command, "--platform", "linux", "-q"]).code,
        command,
      ).toBe(0);
    // settings may set its theme; no code does.
    expect(
      bin([
        "access",
        "--window",
        "settings",
        "--command",
        "window.set_theme",
        "--platform",
        "linux",
        "-q",
      ]).code,
    ).toBe(0);
    const sources = ["src/main.ts", "src/settings.ts"]
      .map((file) => readFileSync(path.join(DEMO, file), "utf8"))
      .join("\n");
    expect(sources).not.toContain("setTheme");
  });
});
