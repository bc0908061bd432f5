import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkCapabilities } from "../../src/capabilities/check-run.js";
import { checkRequest } from "../helpers/check-request.js";
import { FIXTURES } from "../helpers/run.js";
import { toCapability, unknownFileFields } from "../../src/capabilities/model/capability.js";
import type { ModelItem } from "../../src/capabilities/model/types.js";
import {
  countText,
  FileBudget,
  limitCapability,
  LIMITS,
} from "../../src/capabilities/model/limits.js";

/** Model items as values and paths: an item's path is made when asked, not an own property. */
const items = (list: readonly ModelItem[] | undefined) =>
  list?.map(({ value, path }) => ({ value, path }));

const build = (value: Record<string, unknown>, path: (string | number)[] = []) =>
  toCapability({ path, value }, { file: "c.json", absolutePath: "/c.json" })!;

describe("the capability model", () => {
  it("keeps each list item's own path when it drops wrongly typed items", () => {
    const capability = build(
      {
        identifier: "mixed",
        windows: [1, "main"],
        webviews: [null, "panel", "*"],
        platforms: [7, "linux"],
        remote: { urls: [123, "example.com"] },
        permissions: ["core:default"],
      },
      ["capabilities", 2],
    );
    expect(items(capability.windows)).toEqual([
      { value: "main", path: ["capabilities", 2, "windows", 1] },
    ]);
    expect(capability.webviews.map((item) => item.path)).toEqual([
      ["capabilities", 2, "webviews", 1],
      ["capabilities", 2, "webviews", 2],
    ]);
    expect(items(capability.platforms)).toEqual([
      { value: "linux", path: ["capabilities", 2, "platforms", 1] },
    ]);
    expect(items(capability.remote?.urls)).toEqual([
      { value: "example.com", path: ["capabilities", 2, "remote", "urls", 1] },
    ]);
  });

  it("gives every capability the same own properties, the optional ones undefined until written", () => {
    // One shape for every capability: the resolution's loop over them, optimised on the first, was
    // thrown away (wrong map) when a capability with a remote, a $schema or platforms came after one
    // without. JSON shows the same fields as before (it skips undefined).
    const plain = build({ identifier: "plain", windows: ["main"] });
    const full = build({
      $schema: "../gen/schemas/desktop-schema.json",
      identifier: "full",
      windows: ["main"],
      platforms: ["linux"],
      remote: { urls: ["https://example.com"] },
    });
    expect(Object.keys(plain)).toEqual(Object.keys(full));
    expect(Object.keys(plain).slice(-4)).toEqual([
      "remote",
      "schemaRef",
      "platforms",
      "configPlatforms",
    ]);
    expect(plain.remote).toBeUndefined();
    expect(plain.platforms).toBeUndefined();
    expect(JSON.parse(JSON.stringify(plain))).not.toHaveProperty("remote");
    expect(full.schemaRef).toBe("../gen/schemas/desktop-schema.json");
  });

  it("gives every permission entry the same own properties, allow and deny undefined unless written", () => {
    // One shape for every entry: entries took `allow`/`deny` only when written (four shapes), and
    // code optimised on one (the resolution's loop, `entryIsAt`, the path getter) was thrown away
    // (wrong map) at the next. JSON shows the same fields as before (it skips undefined).
    const capability = build({
      identifier: "entries",
      permissions: [
        "core:default",
        { identifier: "fs:allow-read" },
        { identifier: "fs:allow-write", allow: [{ path: "$HOME" }] },
        { identifier: "fs:allow-exists", deny: "no list" },
        { identifier: "fs:allow-stat", allow: [], deny: [{ path: "$HOME/.ssh" }] },
      ],
    });
    const [plain, object, allows, denies, both] = capability.permissions;
    const keys = Object.keys(plain!);
    for (const entry of [object, allows, denies, both]) expect(Object.keys(entry!)).toEqual(keys);
    expect(keys.slice(-2)).toEqual(["allow", "deny"]);
    expect([plain!.allow, plain!.deny, object!.allow, object!.deny]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect([allows!.allow, allows!.deny]).toEqual([[{ path: "$HOME" }], undefined]);
    expect([denies!.allow, denies!.deny]).toEqual([undefined, null]);
    expect([both!.allow, both!.deny]).toEqual([[], [{ path: "$HOME/.ssh" }]]);
    const json = (value: unknown) => Object.keys(JSON.parse(JSON.stringify(value)) as object);
    expect(json(plain)).not.toContain("allow");
    expect(json(object)).not.toContain("deny");
    expect(json(allows)).toContain("allow");
    expect(json(allows)).not.toContain("deny");
    expect(json(denies)).toEqual([...json(object), "deny"]);
  });

  it("records the lists as written: lengths with wrongly typed items, null for a value that is no list, nothing when absent", () => {
    const capability = build({
      identifier: "c",
      windows: [1],
      webviews: "main",
      platforms: [],
      local: false,
      remote: {},
      permissions: [],
    });
    expect(capability.written.listLengths).toEqual({ windows: 1, webviews: null, platforms: 0 });
    expect(capability.written.remoteObject).toBe(true);
    expect(capability.platforms).toEqual([]);
    expect(capability.remote).toBeUndefined();
    expect(build({ identifier: "c", permissions: [] }).written).toEqual({
      listLengths: {},
      remoteObject: false,
      unknownFields: [],
      suppressions: [],
    });
  });

  it("records unknown fields of the capability, its remote and its extended entries, with the keys beside them", () => {
    const capability = build({
      identifier: "c",
      windowz: ["main"],
      remote: { url: ["https://x.dev"] },
      permissions: ["core:default", { identifier: "fs:scope", alow: [] }],
      "caplint-disable": ["no-target", 3, "unknown-field"],
    });
    expect(
      capability.written.unknownFields.map(({ key, path, object }) => ({ key, path, object })),
    ).toEqual([
      { key: "windowz", path: ["windowz"], object: "capability" },
      { key: "caplint-disable", path: ["caplint-disable"], object: "capability" },
      { key: "alow", path: ["permissions", 1, "alow"], object: "permission entry" },
      { key: "url", path: ["remote", "url"], object: "remote" },
    ]);
    expect(capability.written.unknownFields[0]!.siblings).toEqual(
      new Set(["identifier", "windowz", "remote", "permissions", "caplint-disable"]),
    );
    expect(items(capability.written.suppressions)).toEqual([
      { value: "no-target", path: ["caplint-disable", 0] },
      { value: "unknown-field", path: ["caplint-disable", 2] },
    ]);
  });

  it("makes an item's path when it is asked for", () => {
    const [item] = build({ identifier: "c", windows: ["main"] }, [4]).windows;
    expect(Object.keys(item!)).toEqual(["value"]);
    expect(item!.path).toEqual([4, "windows", 0]);
  });

  it("gives every list a capability does not have one shared empty list, which a check with every rule leaves empty", async () => {
    const bare = build({ identifier: "bare", permissions: [] });
    const shared = bare.webviews;
    for (const list of [bare.permissions, bare.written.unknownFields, bare.written.suppressions])
      expect(list).toBe(shared);
    expect(build({ identifier: "c", windows: [], webviews: [7] }).windows).toBe(shared);
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-model-"));
    try {
      cpSync(path.join(FIXTURES, "cli", "app-build"), dir, { recursive: true });
      const { checks } = await checkCapabilities(checkRequest(dir));
      const capabilities = checks.flatMap((check) => check.project.capabilities);
      expect(capabilities.length).toBeGreaterThan(0);
      expect(capabilities.filter((capability) => capability.webviews === shared).length).toBe(
        capabilities.length,
      );
      expect(shared).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("records unknown fields of a wrapped file's top level only", () => {
    expect(unknownFileFields({ capabilities: [], extra: 1 })).toEqual([
      { key: "extra", path: ["extra"], siblings: new Set(["capabilities", "extra"]) },
    ]);
    expect(unknownFileFields({ identifier: "single", extra: 1 })).toEqual([]);
    expect(unknownFileFields([{ identifier: "listed" }])).toEqual([]);
  });
});

describe("a file past its entry bound", () => {
  /** Every capability of a file made and limited in order, as the loader does, with or without the bound known when made. */
  const load = (objects: Array<Record<string, unknown>>, boundKnown: boolean) => {
    const budget = new FileBudget();
    return objects.map((value, index) => {
      const capability = toCapability(
        { path: [index], value },
        { file: "c.json", absolutePath: "/c.json" },
        boundKnown ? budget.entriesLeft : Infinity,
      )!;
      const made = capability.permissions.length;
      const problems = limitCapability(capability, budget);
      return {
        made,
        problems,
        permissions: capability.permissions.map((entry) => [entry.identifier, entry.path]),
        unknown: capability.written.unknownFields.map((field) => [field.key, field.path]),
        urls: capability.remote?.urls.length,
      };
    });
  };
  const entries = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) =>
      i % 7 === 3 ? { identifier: `p:${from + i}`, extra: 1 } : i % 11 === 5 ? 42 : `p:${from + i}`,
    );

  it("makes no entry the bound drops, and says and keeps exactly what making them all did", () => {
    const per = LIMITS.permissions + 1_000;
    const valid = entries(per).filter((entry) => typeof entry !== "number").length;
    const objects = [
      ...Array.from({ length: 6 }, (_, i) => ({
        identifier: `filler-${i}`,
        permissions: Array.from({ length: 4_990 }, (_, j) => `f:${j}`),
      })),
      {
        identifier: "b",
        remote: { urls: ["https://a.example", "https://b.example"] },
        permissions: entries(per),
      },
      { identifier: "c", permissions: entries(per) },
      { identifier: "d", permissions: entries(40) },
    ];
    const bounded = load(objects, true);
    expect(bounded).toEqual(
      load(objects, false).map((capability, i) => ({ ...capability, made: bounded[i]!.made })),
    );
    // 29,940 entries in the fillers: b has room for 60 (58 after its 2 URLs), c and d none.
    expect(bounded.map((capability) => capability.made)).toEqual([
      ...Array(6).fill(4_990),
      60,
      0,
      0,
    ]);
    expect(bounded.map((capability) => capability.permissions.length)).toEqual([
      ...Array(6).fill(4_990),
      58,
      0,
      0,
    ]);
    const over = `permissions lists ${valid.toLocaleString("en-US")} entries, over the limit of 5,000 caplint checks in one capability; the rest are not checked`;
    expect(bounded[6]!.problems.map((problem) => problem.message)).toEqual([
      over,
      "the file lists more than 30,000 permissions and remote URLs in all; caplint checks that many, and not the rest",
    ]);
    expect(bounded[7]!.problems.map((problem) => problem.message)).toEqual([over]);
    // The unknown keys of object entries past the bound are still said.
    expect(bounded[8]!.unknown).toContainEqual(["extra", [8, "permissions", 3, "extra"]]);
  });
});

describe("counts in limit messages", () => {
  it("are written as en-US writes them, without asking ICU for integers", () => {
    const counts = [0, 7, 42, 999, 1_000, 1_024, 4_096, 30_000, 65_536, 999_999, 1_000_000];
    for (const count of [...counts, 123_456_789, Number.MAX_SAFE_INTEGER, -1_234, 1.5, Infinity])
      expect(countText(count)).toBe(count.toLocaleString("en-US"));
  });
});
