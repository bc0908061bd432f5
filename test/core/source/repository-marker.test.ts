import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { foldersToRepositoryRoot } from "../../../src/core/source/read.js";
import { newReadLog, recordReads } from "../../../src/core/source/read-log.js";

/**
 * The searches of one load for the repository root (Cargo files, the build, window labels) walk the
 * same folders up to `/`: each folder's `.git` answer is kept for the load's recording. A repeated
 * search must still be recorded whole (watch mode re-runs when a `.git` appears), and an answer must
 * never outlive the recording that made it.
 */
const root = mkdtempSync(path.join(tmpdir(), "caplint-repository-marker-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the search for the repository root", () => {
  it("records every probe of a repeated search, and a new recording sees a `.git` made since", async () => {
    const app = path.join(root, "outside", "app", "src-tauri");
    mkdirSync(app, { recursive: true });
    const probes = (folders: string[]) => folders.map((folder) => path.join(folder, ".git"));

    const first = newReadLog();
    const [before, again] = await recordReads(first, async () => {
      const found = await foldersToRepositoryRoot(app);
      const inner = newReadLog();
      // A nested recording of a search the outer one made already: its own log gets every probe.
      const repeated = await recordReads(inner, () => foldersToRepositoryRoot(app));
      for (const probe of probes([app, path.join(root, "outside", "app"), root]))
        expect(inner.files.has(probe), probe).toBe(true);
      // Made during the recording: the search of this load keeps its first answer.
      mkdirSync(path.join(root, "outside", ".git"));
      return [found, await foldersToRepositoryRoot(app), repeated];
    });
    expect(again).toEqual(before);
    expect(before).not.toContain(path.join(root, "outside"));
    for (const probe of probes([app, path.join(root, "outside")]))
      expect(first.files.has(probe), probe).toBe(true);

    // The next load (a watch run after the change) finds the repository.
    const second = newReadLog();
    const after = await recordReads(second, () => foldersToRepositoryRoot(app));
    expect(after).toEqual([app, path.join(root, "outside", "app"), path.join(root, "outside")]);
    expect(second.files.has(path.join(root, "outside", ".git"))).toBe(true);
    // And outside any recording, it asks the disk each time.
    expect(await foldersToRepositoryRoot(app)).toEqual(after);
  });
});
