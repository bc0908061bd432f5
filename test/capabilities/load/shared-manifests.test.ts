import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { lint, loadProject } from "../../../src/index.js";
import type { Project } from "../../../src/capabilities/load/project.js";
import { work as counters } from "../../../src/capabilities/work.js";

/**
 * A monorepo's apps pinned to the same releases commit the same acl-manifests.json and Cargo.lock: the
 * parse, shape check and comparison of a manifest text, and the reading of a lock text, are done once
 * and shared (counted here, never timed). A text one byte different, or other app facts, is work of
 * its own; a file outside an app never enters it, whatever an earlier app read.
 */
const CORPUS_APP = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/real-world/build-truth/ActivityWatch__aw-tauri",
);
const MANIFEST = path.join("src-tauri", "gen", "schemas", "acl-manifests.json");
const LOCK = path.join("src-tauri", "Cargo.lock");

const root = mkdtempSync(path.join(tmpdir(), "caplint-shared-manifests-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function copyApp(name: string, edit?: (file: string) => void): string {
  const dir = path.join(root, name);
  cpSync(CORPUS_APP, dir, { recursive: true });
  edit?.(dir);
  return dir;
}

/** The loader's counters of shared work. */
const SHARED = [
  "manifestsParsed",
  "manifestsCompared",
  "manifestMembersChecked",
  "manifestMembersCompared",
  "lockFilesParsed",
] as const;
type SharedWork = Record<(typeof SHARED)[number], number>;

/** The project of an app and the shared work its load did. */
async function load(dir: string): Promise<{ project: Project; work: SharedWork }> {
  const before = { ...counters };
  const project = await loadProject({ cwd: dir, app: dir });
  const work = Object.fromEntries(SHARED.map((key) => [key, counters[key] - before[key]]));
  return { project, work: work as SharedWork };
}

/** A project's findings with its folder taken out of every file name, for comparing copies. */
async function findings(project: Project, dir: string): Promise<string[]> {
  const result = await lint(project);
  return result.diagnostics.map((d) =>
    JSON.stringify({ ...d, absolutePath: path.relative(dir, d.absolutePath) }),
  );
}

const differencesOf = (project: Project) =>
  project.manifestDifferences.map(({ file: _file, absolutePath: _absolute, ...rest }) => rest);

describe("committed manifests and lock files shared between apps", () => {
  it("are parsed and compared once for two apps with the same bytes and facts", async () => {
    const firstDir = copyApp("first");
    const secondDir = copyApp("second");
    const first = await load(firstDir);
    // The first app does the work once: its build and its versions both read its lock.
    expect(first.work).toEqual({
      manifestsParsed: 1,
      manifestsCompared: 1,
      manifestMembersChecked: 15,
      manifestMembersCompared: 15,
      lockFilesParsed: 1,
    });
    const second = await load(secondDir);
    expect(second.work).toEqual({
      manifestsParsed: 0,
      manifestsCompared: 0,
      manifestMembersChecked: 0,
      manifestMembersCompared: 0,
      lockFilesParsed: 0,
    });

    // Shared, yet each app's own: its document, its file in every difference, the same findings.
    expect(second.project.catalog.get("core:window")).toBe(
      first.project.catalog.get("core:window"),
    );
    expect(second.project.manifestDocuments.map((d) => d.absolutePath)).toEqual([
      path.join(secondDir, MANIFEST),
    ]);
    expect(second.project.manifestDifferences.length).toBeGreaterThan(0);
    for (const difference of second.project.manifestDifferences)
      expect(difference.absolutePath).toBe(path.join(secondDir, MANIFEST));
    expect(differencesOf(second.project)).toEqual(differencesOf(first.project));
    const firstFindings = await findings(first.project, firstDir);
    expect(firstFindings.some((f) => f.includes('"manifest-mismatch"'))).toBe(true);
    expect(await findings(second.project, secondDir)).toEqual(firstFindings);
  });

  it("are not shared when the manifest differs by one byte, or the app's facts differ", async () => {
    copyApp("base");
    await load(path.join(root, "base"));
    const oneByte = copyApp("one-byte", (dir) => {
      const file = path.join(dir, MANIFEST);
      const text = readFileSync(file, "utf8");
      const at = text.indexOf('"Enables');
      expect(at).toBeGreaterThan(0);
      writeFileSync(file, `${text.slice(0, at + 1)}e${text.slice(at + 2)}`);
    });
    // A text of its own, but only the member with the changed byte is checked and compared again.
    expect((await load(oneByte)).work).toEqual({
      manifestsParsed: 1,
      manifestsCompared: 1,
      manifestMembersChecked: 1,
      manifestMembersCompared: 1,
      lockFilesParsed: 0,
    });

    // The same manifest under another lock (another core release): parsed once, compared again.
    const otherLock = copyApp("other-lock", (dir) => {
      const file = path.join(dir, LOCK);
      const text = readFileSync(file, "utf8");
      const release = /name = "tauri"\nversion = "([^"]+)"/.exec(text);
      expect(release).not.toBeNull();
      writeFileSync(file, text.replace(release![0], 'name = "tauri"\nversion = "2.0.0"'));
    });
    const other = await load(otherLock);
    // Only the core members (`core`, `core:app` …) read the core release: the plugins' comparisons are shared.
    const keys = Object.keys(JSON.parse(readFileSync(path.join(otherLock, MANIFEST), "utf8")));
    const coreMembers = keys.filter((key) => key === "core" || key.startsWith("core:")).length;
    expect(coreMembers).toBeGreaterThan(0);
    expect(coreMembers).toBeLessThan(keys.length);
    expect(other.work).toEqual({
      manifestsParsed: 0,
      manifestsCompared: 1,
      manifestMembersChecked: 0,
      manifestMembersCompared: coreMembers,
      lockFilesParsed: 1,
    });
    expect(other.project.versions?.crates.get("core")?.version).toBe("2.0.0");
  });

  it("give each app what a run that shares nothing gives it", async () => {
    await load(copyApp("warm"));
    // Apps that share most members with the first but not its text: one member edited (a byte of one
    // description and one command dropped), and the same text under another core release.
    const edited = copyApp("edited", (dir) => {
      const file = path.join(dir, MANIFEST);
      const text = readFileSync(file, "utf8");
      const at = text.indexOf('"Enables');
      const command = /"allow":\["[a-z_]+"\]/.exec(text);
      expect(at).toBeGreaterThan(0);
      expect(command).not.toBeNull();
      writeFileSync(
        file,
        `${text.slice(0, at + 1)}e${text.slice(at + 2)}`.replace(command![0], '"allow":[]'),
      );
    });
    const relocked = copyApp("relocked", (dir) => {
      const file = path.join(dir, LOCK);
      const text = readFileSync(file, "utf8");
      writeFileSync(file, text.replace(/(name = "tauri"\nversion = )"[^"]+"/, '$1"2.0.0"'));
    });
    for (const dir of [edited, relocked]) {
      const shared = (await load(dir)).project;
      // A fresh copy of every module: no memo holds anything yet.
      vi.resetModules();
      const fresh = await import("../../../src/index.js");
      const alone = await fresh.loadProject({ cwd: dir, app: dir });
      expect(differencesOf(shared)).toEqual(differencesOf(alone));
      expect(shared.manifestDifferences.length).toBeGreaterThan(0);
      const committed = (project: Project) =>
        JSON.stringify(
          project.catalog
            .keys()
            .filter((key) => project.catalog.provenanceOf(key)?.origin === "manifest")
            .map((key) => [key, project.catalog.get(key)]),
        );
      expect(committed(shared)).toBe(committed(alone));
      const aloneFindings = (await fresh.lint(alone)).diagnostics.map((d) =>
        JSON.stringify({ ...d, absolutePath: path.relative(dir, d.absolutePath) }),
      );
      expect(await findings(shared, dir)).toEqual(aloneFindings);
    }
  });

  it("never let a manifest outside the app in, though an earlier app read the same text", async () => {
    const reader = copyApp("reader");
    await load(reader);
    const linked = copyApp("linked", (dir) => {
      unlinkSync(path.join(dir, MANIFEST));
      symlinkSync(path.join(reader, MANIFEST), path.join(dir, MANIFEST));
    });
    const without = copyApp("without", (dir) => unlinkSync(path.join(dir, MANIFEST)));
    const { project, work } = await load(linked);
    expect(work.manifestsParsed + work.manifestsCompared).toBe(0);
    expect(project.manifestDocuments).toEqual([]);
    expect(project.manifestDifferences).toEqual([]);
    expect(project.outsideLinks.map((link) => link.file)).toContain(path.join(linked, MANIFEST));
    expect(
      project.catalog
        .keys()
        .filter((key) => project.catalog.provenanceOf(key)?.origin === "manifest"),
    ).toEqual([]);
    // The verdict is the one of the app without the file, but for the link it names.
    const linkedFindings = (await findings(project, linked)).filter(
      (f) => !f.includes(path.join("gen", "schemas")),
    );
    expect(linkedFindings).toEqual(await findings((await load(without)).project, without));
  });
});
