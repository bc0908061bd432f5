import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../helpers/run.js";
import { tomlApp } from "./toml-app.js";

describe("Tauri.toml as the app config", () => {
  it("gives the windows, the capability list and the inline capabilities, at the TOML file's positions", async () => {
    const app = tomlApp();
    const result = await run(["check", "--format", "compact"], app);
    // "editor" is declared in Tauri.toml: no unmatched-window. "unused" is not in the list: ignored-file.
    expect(result.stdout).not.toMatch(/unmatched-window/);
    expect(result.stdout).toMatch(
      /^src-tauri\/capabilities\/unused\.json:\d+:\d+: warning .*\[ignored-file\]$/m,
    );
    expect(result.stdout).toMatch(
      /^src-tauri\/Tauri\.toml:6:\d+: error unknown permission "fs:allow-reed-file"/m,
    );
    expect(result.code).toBe(1);
  });

  it("makes a folder an app for monorepo discovery", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "caplint-toml-mono-"));
    const app = tomlApp();
    const target = path.join(root, "apps", "toml-app");
    mkdirSync(path.dirname(target), { recursive: true });
    // The app folder itself holds Tauri.toml (no src-tauri/ level), as `tauri init` can make it.
    mkdirSync(target);
    writeFileSync(path.join(target, "Tauri.toml"), '[[app.windows]]\nlabel = "main"\n');
    mkdirSync(path.join(target, "capabilities"));
    writeFileSync(
      path.join(target, "capabilities", "main.json"),
      JSON.stringify({ identifier: "main", windows: ["mian"], permissions: ["core:default"] }),
    );
    const result = await run(["check", "--format", "compact"], root);
    expect(result.stdout).toMatch(
      /^apps\/toml-app\/capabilities\/main\.json:\d+:\d+: warning .*"mian".*\[unmatched-window\]$/m,
    );
    expect(app).not.toBe("");
  });
});
