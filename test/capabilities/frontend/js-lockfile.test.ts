import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { jsPackageVersions } from "../../../src/capabilities/frontend/js-lockfile.js";

const temp = mkdtempSync(path.join(tmpdir(), "caplint-js-lock-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

let count = 0;
/** A project folder with these files (relative path → text). */
function project(files: Record<string, string>): string {
  const dir = path.join(temp, `p${count++}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const manifest = (deps: Record<string, string>, dev: Record<string, string> = {}) =>
  JSON.stringify(
    { name: "app", dependencies: { react: "^18.0.0", ...deps }, devDependencies: dev },
    null,
    2,
  );

async function versions(dir: string, frontend = dir) {
  const result = await jsPackageVersions(frontend, { root: dir, maxBytes: 1024 * 1024 });
  return {
    versions: Object.fromEntries(
      [...result.packages].map(([name, entry]) => [name, `${entry.version} (${entry.from})`]),
    ),
    notes: result.notes,
  };
}

describe("the @tauri-apps/* versions a frontend installs", () => {
  it("reads package-lock.json v3 (and a workspace's nested copy first)", async () => {
    const dir = project({
      "package.json": manifest({ "@tauri-apps/api": "^2.0.0" }, { "@tauri-apps/cli": "^2.0.0" }),
      "package-lock.json": JSON.stringify({
        lockfileVersion: 3,
        packages: {
          "": {},
          "node_modules/@tauri-apps/api": { version: "2.1.1" },
          "node_modules/@tauri-apps/cli": { version: "2.1.0" },
          "node_modules/react": { version: "18.3.1" },
        },
      }),
    });
    expect(await versions(dir)).toEqual({
      versions: {
        "@tauri-apps/api": "2.1.1 (package-lock.json)",
        "@tauri-apps/cli": "2.1.0 (package-lock.json)",
      },
      notes: [],
    });

    const monorepo = project({
      "package.json": manifest({}),
      "apps/desktop/package.json": manifest({
        "@tauri-apps/api": "^2.0.0",
        "@tauri-apps/plugin-dialog": "~2.2.0",
      }),
      "package-lock.json": JSON.stringify({
        lockfileVersion: 2,
        packages: {
          "node_modules/@tauri-apps/api": { version: "2.5.0" },
          "apps/desktop/node_modules/@tauri-apps/api": { version: "2.0.3" },
          "node_modules/@tauri-apps/plugin-dialog": { version: "2.2.1" },
        },
      }),
    });
    expect((await versions(monorepo, path.join(monorepo, "apps/desktop"))).versions).toEqual({
      "@tauri-apps/api": "2.0.3 (package-lock.json)",
      "@tauri-apps/plugin-dialog": "2.2.1 (package-lock.json)",
    });
  });

  it("reads package-lock.json v1", async () => {
    const dir = project({
      "package.json": manifest({ "@tauri-apps/api": "^2.0.0" }),
      "package-lock.json": JSON.stringify({
        lockfileVersion: 1,
        dependencies: { "@tauri-apps/api": { version: "2.0.2" } },
      }),
    });
    expect((await versions(dir)).versions).toEqual({
      "@tauri-apps/api": "2.0.2 (package-lock.json)",
    });
  });

  it("reads pnpm-lock.yaml 9 (importers with specifier and version), 6 (inline) and 5 (top-level dependencies)", async () => {
    const pnpm9 = project({
      "package.json": manifest({
        "@tauri-apps/api": "^2.0.0",
        "@tauri-apps/plugin-store": "^2.0.0",
      }),
      "pnpm-lock.yaml": [
        "lockfileVersion: '9.0'",
        "",
        "importers:",
        "",
        "  .:",
        "    dependencies:",
        "      '@tauri-apps/api':",
        "        specifier: ^2.0.0",
        "        version: 2.2.0",
        "      '@tauri-apps/plugin-store':",
        "        specifier: ^2.0.0",
        "        version: 2.1.0(typescript@5.6.3)",
        "",
        "packages:",
        "",
        "  '@tauri-apps/api@2.2.0':",
        "    resolution: {integrity: sha512-x}",
        "",
      ].join("\n"),
    });
    expect((await versions(pnpm9)).versions).toEqual({
      "@tauri-apps/api": "2.2.0 (pnpm-lock.yaml)",
      "@tauri-apps/plugin-store": "2.1.0 (pnpm-lock.yaml)",
    });

    const pnpm6 = project({
      "package.json": manifest({ "@tauri-apps/api": "^2.0.0" }),
      "pnpm-lock.yaml": [
        "lockfileVersion: '6.0'",
        "",
        "importers:",
        "  .:",
        "    dependencies:",
        "      '@tauri-apps/api': {specifier: ^2.0.0, version: 2.0.1}",
        "",
      ].join("\n"),
    });
    expect((await versions(pnpm6)).versions).toEqual({
      "@tauri-apps/api": "2.0.1 (pnpm-lock.yaml)",
    });

    const pnpm5 = project({
      "package.json": manifest({ "@tauri-apps/api": "^2.0.0" }),
      "pnpm-lock.yaml": [
        "lockfileVersion: 5.4",
        "",
        "specifiers:",
        "  '@tauri-apps/api': ^2.0.0",
        "",
        "dependencies:",
        "  '@tauri-apps/api': 2.0.0",
        "",
      ].join("\n"),
    });
    expect((await versions(pnpm5)).versions).toEqual({
      "@tauri-apps/api": "2.0.0 (pnpm-lock.yaml)",
    });
  });

  it("reads yarn.lock v1 and berry, picking the entry of the package.json range", async () => {
    const yarn1 = project({
      "package.json": manifest({ "@tauri-apps/api": "^2.1.0" }),
      "yarn.lock": [
        "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.",
        "# yarn lockfile v1",
        "",
        '"@tauri-apps/api@^2.0.0":',
        '  version "2.0.3"',
        "",
        '"@tauri-apps/api@^2.1.0", "@tauri-apps/api@^2.1.1":',
        '  version "2.3.0"',
        '  resolved "https://registry.yarnpkg.com/@tauri-apps/api/-/api-2.3.0.tgz"',
        "",
      ].join("\n"),
    });
    expect((await versions(yarn1)).versions).toEqual({ "@tauri-apps/api": "2.3.0 (yarn.lock)" });

    const berry = project({
      "package.json": manifest({ "@tauri-apps/plugin-fs": "^2.0.0" }),
      "yarn.lock": [
        "__metadata:",
        "  version: 8",
        "",
        '"@tauri-apps/plugin-fs@npm:^2.0.0":',
        "  version: 2.2.0",
        '  resolution: "@tauri-apps/plugin-fs@npm:2.2.0"',
        "",
      ].join("\n"),
    });
    expect((await versions(berry)).versions).toEqual({
      "@tauri-apps/plugin-fs": "2.2.0 (yarn.lock)",
    });
  });

  it("reads bun.lock (JSON with trailing commas)", async () => {
    const dir = project({
      "package.json": manifest({ "@tauri-apps/api": "^2.0.0" }),
      "bun.lock": [
        "{",
        '  "lockfileVersion": 1,',
        '  "workspaces": { "": { "name": "app", "dependencies": { "@tauri-apps/api": "^2.0.0", }, }, },',
        '  "packages": {',
        '    "@tauri-apps/api": ["@tauri-apps/api@2.4.1", "", {}, "sha512-x"],',
        "  },",
        "}",
      ].join("\n"),
    });
    expect((await versions(dir)).versions).toEqual({ "@tauri-apps/api": "2.4.1 (bun.lock)" });
  });

  it("falls back to the package.json range, and says so when a lockfile lacks the package", async () => {
    const bare = project({ "package.json": manifest({ "@tauri-apps/api": "^2.2.0" }) });
    expect(await versions(bare)).toEqual({
      versions: { "@tauri-apps/api": "^2.2.0 (package.json range)" },
      notes: [],
    });

    const partial = project({
      "package.json": manifest({ "@tauri-apps/api": "^2.2.0" }),
      "package-lock.json": JSON.stringify({
        lockfileVersion: 3,
        packages: { "node_modules/react": { version: "18.3.1" } },
      }),
    });
    const result = await versions(partial);
    expect(result.versions).toEqual({ "@tauri-apps/api": "^2.2.0 (package.json range)" });
    expect(result.notes).toEqual([
      `${path.join(partial, "package-lock.json")}: no entry for @tauri-apps/api; the package.json range ^2.2.0 is used`,
    ]);
  });

  it("never reads a lockfile that links out of the project, nor one above the root", async () => {
    const outside = project({
      "package-lock.json": JSON.stringify({
        lockfileVersion: 3,
        packages: { "node_modules/@tauri-apps/api": { version: "2.0.0" } },
      }),
    });
    const dir = project({ "app/package.json": manifest({ "@tauri-apps/api": "^2.1.0" }) });
    symlinkSync(path.join(outside, "package-lock.json"), path.join(dir, "app/package-lock.json"));
    const linked = await jsPackageVersions(path.join(dir, "app"), {
      root: path.join(dir, "app"),
      maxBytes: 1024 * 1024,
    });
    expect(linked.packages.get("@tauri-apps/api")).toMatchObject({
      version: "^2.1.0",
      from: "package.json range",
    });
    expect(linked.notes).toEqual([
      `${path.join(dir, "app/package-lock.json")}: a link out of the project; not read`,
    ]);

    // A lockfile in a folder above the root does not count.
    const nested = project({
      "package-lock.json": JSON.stringify({
        lockfileVersion: 3,
        packages: { "node_modules/@tauri-apps/api": { version: "2.0.0" } },
      }),
      "inner/package.json": manifest({ "@tauri-apps/api": "^2.1.0" }),
    });
    const inner = await jsPackageVersions(path.join(nested, "inner"), {
      root: path.join(nested, "inner"),
      maxBytes: 1024 * 1024,
    });
    expect(inner.packages.get("@tauri-apps/api")?.from).toBe("package.json range");
  });

  it("names a package.json that is not JSON, and an oversized lockfile, in a note", async () => {
    const broken = project({ "package.json": "{ not json" });
    const result = await versions(broken);
    expect(result.versions).toEqual({});
    expect(result.notes[0]).toMatch(/package\.json: not JSON/);

    const big = project({
      "package.json": manifest({ "@tauri-apps/api": "^2.0.0" }),
      "package-lock.json": `{"packages":{}, "pad": "${"x".repeat(2000)}"}`,
    });
    const limited = await jsPackageVersions(big, { root: big, maxBytes: 1000 });
    expect(limited.packages.get("@tauri-apps/api")?.from).toBe("package.json range");
    expect(limited.notes[0]).toMatch(/package-lock\.json: file is .* over the .* limit/);
  });
});
