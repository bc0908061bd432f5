import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

interface JsApiMap {
  apiResolvedAgainst: string;
  packages: Record<string, { versions: string[]; modules: Record<string, (number | null)[]> }>;
  tables: unknown[];
}

const temp = mkdtempSync(path.join(os.tmpdir(), "caplint-js-api-map-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** Every (package, version, module) → its table. */
function tablesOf(map: JsApiMap): Map<string, unknown> {
  const tables = new Map<string, unknown>();
  for (const [name, entry] of Object.entries(map.packages)) {
    entry.versions.forEach((version, position) => {
      for (const [specifier, indexes] of Object.entries(entry.modules)) {
        const index = indexes[position];
        if (index !== null && index !== undefined)
          tables.set(`${name}@${version} ${specifier}`, map.tables[index]);
      }
    });
  }
  return tables;
}

describe("scripts/build-js-api-map.mjs", () => {
  it("regenerates the committed map's tables from the packages themselves (a sample of four tarballs)", () => {
    const out = path.join(temp, "sample.json");
    const result = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "scripts/build-js-api-map.mjs"),
        "--tarballs",
        path.join(FIXTURES, "js-api-map"),
        "--out",
        out,
      ],
      { encoding: "utf8" },
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const committed = JSON.parse(
      readFileSync(path.join(ROOT, "data/js-api-map.json"), "utf8"),
    ) as JsApiMap;
    const sample = JSON.parse(readFileSync(out, "utf8")) as JsApiMap;
    expect(Object.keys(sample.packages).sort()).toEqual([
      "@tauri-apps/plugin-dialog",
      "@tauri-apps/plugin-sql",
      "@tauri-apps/plugin-store",
    ]);
    // The plugins' calls into @tauri-apps/api resolve against the committed map's newest api release.
    expect(sample.apiResolvedAgainst).toBe(committed.apiResolvedAgainst);
    const regenerated = tablesOf(sample);
    expect([...regenerated.keys()]).toEqual([
      "@tauri-apps/plugin-dialog@2.6.0 @tauri-apps/plugin-dialog",
      "@tauri-apps/plugin-dialog@2.7.0 @tauri-apps/plugin-dialog",
      "@tauri-apps/plugin-sql@2.5.0 @tauri-apps/plugin-sql",
      "@tauri-apps/plugin-store@2.4.5 @tauri-apps/plugin-store",
    ]);
    const stored = tablesOf(committed);
    for (const [key, table] of regenerated) expect(stored.get(key), key).toEqual(table);
  });
});
