import { describe, expect, it } from "vitest";
import {
  normalize,
  resolve,
  type NormalizedEntry,
  type NormalizedModel,
} from "../../../src/capabilities/engine/index.js";
import {
  canonicalJson,
  catalogOf,
  loadConformanceCapabilities,
  loadConformancePlugins,
  readJson,
} from "./helpers.js";

interface ManifestFixture {
  name: string;
  requiredPlugins: string[];
  targets: Record<string, { expected: string }>;
}

interface ConformanceManifest {
  fixtures: ManifestFixture[];
  stale: Array<{ file: string; supersededBy: string }>;
}

interface ExpectedFile extends NormalizedModel {
  fixture: string;
  target: string;
  stale?: boolean;
  note?: string;
}

const conformance = readJson<ConformanceManifest>("manifest.json");

function resolveFixture(fixture: ManifestFixture, target: string) {
  const catalog = catalogOf(loadConformancePlugins(fixture.requiredPlugins));
  const model = resolve({
    capabilities: loadConformanceCapabilities(fixture.name),
    catalog,
    platform: target,
  });
  return { model, normalized: normalize(model) };
}

/** Entries of each command as a sorted list of canonical JSON strings: a multiset. */
function asMultisets(commands: Record<string, NormalizedEntry[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(commands).map(([command, entries]) => [
      command,
      entries.map(canonicalJson).sort(),
    ]),
  );
}

const cases = conformance.fixtures.flatMap((fixture) =>
  Object.entries(fixture.targets).map(([target, { expected }]) => ({ fixture, target, expected })),
);

describe("conformance corpus (fixtures/conformance)", () => {
  it("covers the 8 fixtures and 10 fixture/target pairs of the manifest", () => {
    expect(conformance.fixtures).toHaveLength(8);
    expect(cases).toHaveLength(10);
  });

  describe.each(cases.map((c) => [`${c.fixture.name} / ${c.target}`, c] as const))(
    "%s",
    (_, { fixture, target, expected }) => {
      const expectedFile = readJson<ExpectedFile>(expected);
      const { model, normalized } = resolveFixture(fixture, target);

      it("resolves without problems", () => {
        expect(model.problems).toEqual([]);
        expect(model.capabilities.flatMap((c) => c.patternProblems)).toEqual([]);
      });

      it("has the expected allowed and denied entries (as multisets)", () => {
        expect(Object.keys(normalized.allowed)).toEqual(Object.keys(expectedFile.allowed));
        expect(Object.keys(normalized.denied)).toEqual(Object.keys(expectedFile.denied));
        expect(asMultisets(normalized.allowed)).toEqual(asMultisets(expectedFile.allowed));
        expect(asMultisets(normalized.denied)).toEqual(asMultisets(expectedFile.denied));
      });

      it("has the expected global scope, in order", () => {
        expect(canonicalJson(normalized.globalScope)).toBe(canonicalJson(expectedFile.globalScope));
      });

      it("reproduces the snapshot order exactly", () => {
        expect(canonicalJson(normalized)).toBe(
          canonicalJson({
            allowed: expectedFile.allowed,
            denied: expectedFile.denied,
            globalScope: expectedFile.globalScope,
          }),
        );
      });
    },
  );
});

describe("stale 2.0.6 snapshots differ exactly where their notes say", () => {
  const byName = new Map(conformance.fixtures.map((f) => [f.name, f]));
  const staleFiles = conformance.stale.map((s) => readJson<ExpectedFile>(s.file));

  it("lists the four stale snapshots, all marked stale", () => {
    expect(staleFiles.map((f) => `${f.fixture}.${f.target}`).sort()).toEqual([
      "multiwindow.linux",
      "platform-specific-permissions.linux",
      "scope-extended.linux",
      "scope.linux",
    ]);
    expect(staleFiles.every((f) => f.stale === true && typeof f.note === "string")).toBe(true);
  });

  const downloadScope = { allow: [{ path: "$DOWNLOAD" }, { path: "$DOWNLOAD/**" }], deny: [] };

  it.each(["scope", "scope-extended", "multiwindow"])(
    "%s: the stale file merges allow-download-dir into read_dir's scope; per-leaf resolution sends it to the fs global scope",
    (name) => {
      const stale = staleFiles.find((f) => f.fixture === name)!;
      const { normalized } = resolveFixture(byName.get(name)!, "linux");
      const readDir = normalized.allowed["plugin:fs|read_dir"]!;
      const staleReadDir = stale.allowed["plugin:fs|read_dir"]!;
      expect(readDir).toHaveLength(staleReadDir.length);
      // Exactly one read_dir entry differs: the one of fs:read-download-dir, the last of capability run-app.
      const differing = readDir
        .map((entry, i) => [entry, staleReadDir[i]!] as const)
        .filter(([ours, theirs]) => canonicalJson(ours) !== canonicalJson(theirs));
      expect(differing).toHaveLength(1);
      const [ours, theirs] = differing[0]!;
      expect(ours).toEqual({ ...theirs, scope: null });
      expect(theirs.scope).toEqual(downloadScope);
      // ... and the global scope gains exactly those values, after the stale file's own allow list.
      expect(normalized.globalScope.fs!.allow).toEqual([
        ...stale.globalScope.fs!.allow,
        ...downloadScope.allow,
      ]);
      expect(normalized.globalScope.fs!.deny).toEqual(stale.globalScope.fs!.deny);
      // Everything else is identical.
      expect(canonicalJson({ ...normalized.allowed, "plugin:fs|read_dir": null })).toBe(
        canonicalJson({ ...stale.allowed, "plugin:fs|read_dir": null }),
      );
      expect(normalized.denied).toEqual(stale.denied);
    },
  );

  it.each(["scope-extended", "multiwindow"])(
    "%s: each leaf of the extended fs:read gets its own scope (the stale snapshot shared one)",
    (name) => {
      const { model } = resolveFixture(byName.get(name)!, "linux");
      const fromExtendedRead = [...model.allowed.values()]
        .flat()
        .filter(
          (entry) =>
            entry.provenance.capability === "run-app" && entry.provenance.chain[0] === "fs:read",
        );
      expect(fromExtendedRead.map((e) => e.command).sort()).toEqual([
        "plugin:fs|read_dir",
        "plugin:fs|read_file",
      ]);
      const ids = fromExtendedRead.map((e) => e.scope);
      expect(ids.every((id) => id !== null)).toBe(true);
      expect(new Set(ids).size).toBe(2);
    },
  );

  it("platform-specific-permissions/linux: the stale file's empty `os` global scope is absent, everything else equal", () => {
    const stale = staleFiles.find((f) => f.fixture === "platform-specific-permissions")!;
    const { normalized } = resolveFixture(byName.get("platform-specific-permissions")!, "linux");
    expect(stale.globalScope).toEqual({ os: { allow: [], deny: [] } });
    expect(normalized.globalScope).toEqual({});
    expect(canonicalJson(normalized.allowed)).toBe(canonicalJson(stale.allowed));
    expect(normalized.denied).toEqual(stale.denied);
  });
});
