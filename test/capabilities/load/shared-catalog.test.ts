import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadProject } from "../../../src/index.js";

/**
 * The built-in catalog of a (release set, spelling) is built once per run and shared by every app that
 * locks those releases (a monorepo of 100 apps paid it 100 times). Sharing must change nothing an app
 * sees: another app's releases or spelling never leak into it.
 */
const root = mkdtempSync(path.join(tmpdir(), "caplint-shared-catalog-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function app(name: string, locks: Record<string, string>, permissions: string[]): string {
  const src = path.join(root, name, "src-tauri");
  mkdirSync(path.join(src, "capabilities"), { recursive: true });
  writeFileSync(
    path.join(src, "capabilities", "main.json"),
    JSON.stringify({ identifier: "main", windows: ["main"], permissions }),
  );
  const packages = Object.entries(locks).map(
    ([crate, version]) =>
      `[[package]]\nname = "${crate}"\nversion = "${version}"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n`,
  );
  writeFileSync(path.join(src, "Cargo.lock"), `version = 4\n\n${packages.join("\n")}`);
  return path.join(root, name);
}

const load = (dir: string) => loadProject({ cwd: dir, app: dir });

describe("the built-in catalog of a release set", () => {
  it("is one object for every app that locks the same releases, and apart for other releases", async () => {
    const locks = { tauri: "2.1.0", "tauri-plugin-fs": "2.0.3" };
    const first = await load(app("first", locks, ["core:default", "fs:default"]));
    const second = await load(app("second", locks, ["fs:allow-read-file"]));
    expect(second.catalog.get("fs")).toBe(first.catalog.get("fs"));
    expect(second.catalog.get("core:app")).toBe(first.catalog.get("core:app"));

    // fs 2.0.3 lacks the permissions 2.6.0 has; an app on 2.6.0 sees them, and the 2.0.3 apps still do not.
    const fsBefore = JSON.stringify(first.catalog.get("fs"));
    const newer = await load(
      app("newer", { ...locks, "tauri-plugin-fs": "2.6.0" }, ["fs:default"]),
    );
    expect(newer.catalog.get("fs")).not.toBe(first.catalog.get("fs"));
    expect(Object.keys(newer.catalog.get("fs")!.permissions).length).toBeGreaterThan(
      Object.keys(first.catalog.get("fs")!.permissions).length,
    );
    expect(JSON.stringify(first.catalog.get("fs"))).toBe(fsBefore);
    expect(newer.catalog.get("core:app")).toBe(first.catalog.get("core:app"));
  });

  it("is spelled per app: an app writing `tauri` gets its spelling, and the `host` apps keep theirs", async () => {
    const locks = { tauri: "2.2.0" };
    const host = await load(app("host-spelled", locks, ["core:app:allow-host-version"]));
    const tauri = await load(app("tauri-spelled", locks, ["core:app:allow-tauri-version"]));
    const hostAgain = await load(app("host-spelled-again", locks, ["core:app:allow-host-version"]));
    expect(tauri.catalog.spelling).toBe("tauri");
    expect(Object.keys(tauri.catalog.get("core:app")!.permissions)).toContain(
      "allow-tauri-version",
    );
    expect(Object.keys(host.catalog.get("core:app")!.permissions)).toContain("allow-host-version");
    expect(Object.keys(host.catalog.get("core:app")!.permissions)).not.toContain(
      "allow-tauri-version",
    );
    expect(hostAgain.catalog.get("core:app")).toBe(host.catalog.get("core:app"));
  });
});
