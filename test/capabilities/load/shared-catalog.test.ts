import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { expandIdentifier, expanderFor } from "../../../src/capabilities/engine/expand.js";
import { resetWork, work } from "../../../src/capabilities/work.js";
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

describe("what is worked out from a catalog's definitions", () => {
  const locks = { tauri: "2.3.1", "tauri-plugin-fs": "2.2.0" };

  it("is shared by apps whose catalogs hold the same definitions, and by no other", async () => {
    const first = await load(app("content-first", locks, ["core:default"]));
    const second = await load(app("content-second", locks, ["fs:default"]));
    const newer = await load(
      app("content-newer", { ...locks, "tauri-plugin-fs": "2.6.0" }, ["fs:default"]),
    );
    expect(second.catalog.contentKey()).toBe(first.catalog.contentKey());
    expect(expanderFor(second.catalog)).toBe(expanderFor(first.catalog));
    expect(newer.catalog.contentKey()).not.toBe(first.catalog.contentKey());
    expect(expanderFor(newer.catalog)).not.toBe(expanderFor(first.catalog));

    // The first app's expansion walks the set; the second app's is the same one, walked by no one.
    resetWork();
    const expanded = expandIdentifier(first.catalog, "fs:default");
    const walked = work.setMembers;
    expect(walked).toBeGreaterThan(0);
    expect(expandIdentifier(second.catalog, "fs:default")).toBe(expanded);
    expect(work.setMembers).toBe(walked);
    // Another release's fs:default is its own.
    expect(expandIdentifier(newer.catalog, "fs:default")).not.toBe(expanded);
  });

  it("is shared between apps that both re-spell the built-ins (no wrapper per key and app)", async () => {
    const one = await load(app("tauri-one", locks, ["core:app:allow-tauri-version"]));
    const two = await load(app("tauri-two", locks, ["core:app:allow-tauri-version", "fs:default"]));
    const host = await load(app("host-one", locks, ["core:app:allow-host-version"]));
    expect(two.catalog.spelling).toBe("tauri");
    expect(two.catalog.contentKey()).toBe(one.catalog.contentKey());
    expect(host.catalog.contentKey()).not.toBe(one.catalog.contentKey());
  });

  it("stays as it was when the catalog it was first made for changes later", async () => {
    // Releases no other app here locks: the expander is made for this app's catalog.
    const own = { tauri: "2.3.1", "tauri-plugin-fs": "2.0.3" };
    const first = await load(app("changed-first", own, ["core:default"]));
    expandIdentifier(first.catalog, "fs:default");
    first.catalog.add(
      {
        extra: {
          default_permission: null,
          permissions: {},
          permission_sets: {},
          global_scope_schema: null,
        },
      },
      { origin: "plugins-dir", file: "extra" },
    );
    const later = await load(app("changed-later", own, ["core:default"]));
    expect(first.catalog.contentKey()).not.toBe(later.catalog.contentKey());
    expect(later.catalog.has("extra")).toBe(false);
    expect(expandIdentifier(later.catalog, "extra:default").problems).toEqual([
      expect.objectContaining({ kind: "unresolved", reason: "unknown-plugin", key: "extra" }),
    ]);
  });
});
