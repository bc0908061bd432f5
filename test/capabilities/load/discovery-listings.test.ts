import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { discoverApps, discoveryWork } from "../../../src/capabilities/load/apps.js";

/**
 * The search for a monorepo's apps lists one folder after the other (one per app, bench row 12b):
 * synchronously, like the loader's reads, so that no folder costs a thread-pool round trip (a turn of
 * the event loop each). Counted, never timed.
 */
const root = mkdtempSync(path.join(tmpdir(), "caplint-discovery-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

for (const name of ["a", "b", "c"]) {
  mkdirSync(path.join(root, "apps", name, "src-tauri"), { recursive: true });
  writeFileSync(path.join(root, "apps", name, "src-tauri", "tauri.conf.json"), "{}");
}

describe("the search for apps", () => {
  it("lists each folder once, without waiting for a turn of the event loop", async () => {
    const before = discoveryWork.folderListings;
    let found: string[] | undefined;
    const search = discoverApps(root).then(({ apps }) => (found = apps));
    // Promise jobs only: a listing through the thread pool would still be waiting after this turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(found).toEqual(["a", "b", "c"].map((name) => path.join(root, "apps", name)));
    await search;
    // The root, apps/, and each app's folder (whose src-tauri/ ends the search there).
    expect(discoveryWork.folderListings - before).toBe(5);
  });
});
