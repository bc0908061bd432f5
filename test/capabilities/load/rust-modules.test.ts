import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../helpers/run.js";

/** A repository holding an app whose main.rs pulls a window module in from `modulePath`, written at `moduleFile`. */
function appWithModule(modulePath: string, moduleFile: (top: string) => string): string {
  const top = mkdtempSync(path.join(tmpdir(), "caplint-rust-modules-"));
  const repository = path.join(top, "repo");
  const srcTauri = path.join(repository, "app", "src-tauri");
  mkdirSync(path.join(repository, ".git"), { recursive: true });
  mkdirSync(path.join(srcTauri, "src"), { recursive: true });
  mkdirSync(path.join(srcTauri, "capabilities"), { recursive: true });
  writeFileSync(
    path.join(srcTauri, "tauri.conf.json"),
    JSON.stringify({ identifier: "com.example.modules", app: { windows: [{ label: "main" }] } }),
  );
  writeFileSync(
    path.join(srcTauri, "capabilities", "default.json"),
    JSON.stringify({
      identifier: "default",
      windows: ["main", "reader"],
      permissions: ["core:default"],
    }),
  );
  writeFileSync(
    path.join(srcTauri, "src", "main.rs"),
    `#[path = "${modulePath}"]\nmod window;\nfn main() {}\n`,
  );
  const target = moduleFile(top);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(
    target,
    'pub fn open(app: &tauri::AppHandle) { tauri::WebviewWindowBuilder::new(app, "reader", tauri::WebviewUrl::default()).build().unwrap(); }\n',
  );
  return path.join(repository, "app");
}

describe("Rust modules pulled in with #[path]", () => {
  it("reads window labels from a module elsewhere in the repository", async () => {
    const app = appWithModule("../../../shared/window.rs", (top) =>
      path.join(top, "repo", "shared", "window.rs"),
    );
    const result = await run(["check", "--format", "compact"], app);
    expect(result.stdout).not.toMatch(/unmatched-window/);
    expect(result.code).toBe(0);
  });

  it("never reads a module outside the repository: its labels do not count", async () => {
    const app = appWithModule("../../../../outside/window.rs", (top) =>
      path.join(top, "outside", "window.rs"),
    );
    const result = await run(["check", "--format", "compact"], app);
    expect(result.stdout).toMatch(/"reader" matches no window label .*\[unmatched-window\]/);
    expect(result.stdout).not.toContain("the modules declared there");
  });

  it("names the modules it read outside src/ where a pattern matches nothing, the first three of them", async () => {
    const app = appWithModule("../../../shared/window.rs", (top) =>
      path.join(top, "repo", "shared", "window.rs"),
    );
    const shared = path.join(app, "..", "shared");
    writeFileSync(path.join(shared, "window.rs"), "pub mod a;\npub mod b;\npub mod c;\n");
    for (const name of ["a", "b", "c"])
      writeFileSync(path.join(shared, `${name}.rs`), "pub fn noop() {}\n");
    const result = await run(["check", "--format", "compact"], app);
    expect(result.stdout).toContain(
      'window pattern "reader" matches no window label ("main") declared in src-tauri/tauri.conf.json or created in src-tauri/src/**/*.rs, the modules declared there from outside it (../shared/window.rs, ../shared/a.rs, ../shared/b.rs and 1 more) or the app\'s frontend sources [unmatched-window]',
    );
  });
});
