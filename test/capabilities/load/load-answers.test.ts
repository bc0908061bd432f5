import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadProject } from "../../../src/index.js";
import { smallApp } from "./small-app.js";
import { cargoWork } from "../../../src/capabilities/load/cargo.js";
import { readWork, realPath, repositoryRoot } from "../../../src/core/source/read.js";
import { newReadLog, recordReads } from "../../../src/core/source/read-log.js";

/**
 * What a load asked of the disk more than once (bench row 12b, the fixed cost of an app in a
 * monorepo): the build and the versions each searched for the Cargo.lock (a probe, two real paths, a
 * read), the app folder's real path was asked four times and its repository searched for twice. Each
 * is asked once per load now, counted (never timed), and the next load asks again.
 */
const root = mkdtempSync(path.join(tmpdir(), "caplint-load-answers-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const LOCK = `version = 3

[[package]]
name = "tauri"
version = "2.0.6"
source = "registry+https://github.com/rust-lang/crates.io-index"
`;

const app = (name: string, lock = LOCK) => smallApp(root, name, { "Cargo.lock": lock });

function counted() {
  return {
    lockSearches: cargoWork.lockSearches,
    realPaths: readWork.realPaths,
    repositorySearches: readWork.repositorySearches,
  };
}

function since(before: ReturnType<typeof counted>) {
  const now = counted();
  return {
    lockSearches: now.lockSearches - before.lockSearches,
    realPaths: now.realPaths - before.realPaths,
    repositorySearches: now.repositorySearches - before.repositorySearches,
  };
}

describe("a load's lock, real paths and repository", () => {
  it("are asked of the disk once per load, and the lock serves the build and the versions", async () => {
    const dir = app("once");
    const before = counted();
    const project = await loadProject({ cwd: dir });
    // The app folder, its lock and its config: each resolved once (the folder was asked four times).
    expect(since(before)).toEqual({ lockSearches: 1, realPaths: 3, repositorySearches: 1 });
    expect(project.build?.kind).toBe("Cargo.lock");
    expect(project.versions?.source).toEqual({ kind: "Cargo.lock", file: "src-tauri/Cargo.lock" });
    expect(project.versions?.crates.get("core")?.version).toBe("2.0.6");
    expect(project.read.files).toContain(path.join(dir, "src-tauri", "Cargo.lock"));
  });

  it("end with the load: a lock rewritten after it is read by the next", async () => {
    const dir = app("next");
    expect((await loadProject({ cwd: dir })).versions?.crates.get("core")?.version).toBe("2.0.6");
    writeFileSync(path.join(dir, "src-tauri", "Cargo.lock"), LOCK.replace("2.0.6", "2.1.1"));
    const before = counted();
    expect((await loadProject({ cwd: dir })).versions?.crates.get("core")?.version).toBe("2.1.1");
    expect(since(before).lockSearches).toBe(1);
  });

  it("are kept per recording only: outside one every call asks the disk", async () => {
    const dir = app("direct");
    const before = counted();
    realPath(dir);
    realPath(dir);
    repositoryRoot(dir);
    repositoryRoot(dir);
    expect(since(before)).toEqual({ lockSearches: 0, realPaths: 2, repositorySearches: 2 });
    const inside = counted();
    await recordReads(newReadLog(), async () => {
      expect(realPath(dir)).toBe(realPath(dir));
      expect(realPath(path.join(dir, "missing"))).toBeUndefined();
      expect(realPath(path.join(dir, "missing"))).toBeUndefined();
      expect(repositoryRoot(dir)).toBe(repositoryRoot(dir));
    });
    expect(since(inside)).toEqual({ lockSearches: 0, realPaths: 2, repositorySearches: 1 });
  });
});
