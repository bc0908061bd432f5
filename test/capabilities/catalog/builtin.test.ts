import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lint, loadProject } from "../../../src/index.js";
import {
  builtinManifestTextSearches,
  builtinManifestsParsed,
  loadBuiltinManifests,
} from "../../../src/capabilities/catalog/builtin.js";

/**
 * The built-in catalogs are parsed per plugin, when a lookup names the plugin: a check of core
 * permissions parses none of the thirty plugins' manifests. Work is counted (manifests parsed), not timed.
 */
const root = mkdtempSync(path.join(tmpdir(), "caplint-builtin-catalog-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dataFile = (name: string) =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../../../data", name), "utf8")) as Record<
    string,
    unknown
  >;

async function check(name: string, permissions: string[]) {
  const file = path.join(root, `${name}.json`);
  writeFileSync(file, JSON.stringify({ identifier: name, windows: ["main"], permissions }));
  const project = await loadProject({ cwd: root, paths: [file] });
  return { project, result: await lint(project) };
}

describe("the built-in catalogs", () => {
  it("parse a plugin's manifest only when a check names the plugin", async () => {
    expect(builtinManifestsParsed()).toBe(0);
    const core = await check("core", ["core:default", "core:window:allow-set-title"]);
    expect(core.result.diagnostics).toEqual([]);
    const coreKeys = Object.keys(dataFile("core-acl-manifest.json"));
    const afterCore = builtinManifestsParsed();
    expect(afterCore).toBeGreaterThan(0);
    expect(afterCore).toBeLessThanOrEqual(coreKeys.length);

    const fs = await check("fs", ["fs:allow-read-file", "core:default"]);
    expect(fs.result.diagnostics).toEqual([]);
    expect(builtinManifestsParsed()).toBe(afterCore + 1);

    // A wrong identifier's suggestions are drawn from every plugin: all of them are read then.
    const typo = await check("typo", ["dialog:allow-opn"]);
    expect(typo.result.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('"dialog:allow-opn"'),
    ]);
    expect(typo.result.diagnostics[0]!.hint).toContain("dialog:allow-open");
  });

  it("search a manifest's text for a field once per process, not once per app", async () => {
    await check("first-app", ["core:default"]);
    const searched = builtinManifestTextSearches();
    // Every app asks whether a built-in permission may be limited to some platforms.
    expect(searched).toBeGreaterThan(0);
    for (const name of ["second-app", "third-app"]) {
      const { result } = await check(name, ["core:default", "core:window:allow-set-title"]);
      expect(result.diagnostics).toEqual([]);
    }
    expect(builtinManifestTextSearches()).toBe(searched);
  });

  it("read as the files parsed whole: every key, in order, with the same manifests", async () => {
    const whole = {
      ...dataFile("core-acl-manifest.json"),
      ...dataFile("plugins-acl-manifest.json"),
    };
    const builtins = await loadBuiltinManifests();
    expect(Object.keys(builtins)).toEqual(Object.keys(whole));
    expect(Object.keys(builtins).length).toBeGreaterThan(30);
    for (const key of Object.keys(whole)) expect(builtins[key]).toEqual(whole[key]);
    expect(JSON.stringify(builtins)).toBe(JSON.stringify(whole));
  });
});
