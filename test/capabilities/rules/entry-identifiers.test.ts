import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Capability, PermissionEntry } from "../../../src/capabilities/model/types.js";
import { entryIdentifiers } from "../../../src/capabilities/rules/support/entry-identifiers.js";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { run } from "../../helpers/run.js";
import { writeCapabilityApp } from "../../helpers/capability-app.js";

const work_dir = mkdtempSync(path.join(tmpdir(), "caplint-entry-identifiers-"));
afterAll(() => rmSync(work_dir, { recursive: true, force: true }));

/** Each of `count` capabilities grants the same eight identifiers: a finding of every identifier rule. */
const PERMISSIONS = [
  "core:default",
  // redundant-permission: core:default grants it.
  "core:window:allow-title",
  // legacy-identifier, twice in a capability: two findings, one build impact.
  "window:allow-close",
  "window:allow-minimize",
  // unknown-plugin
  "nosuchplugin:allow-thing",
  // unknown-permission
  "fs:allow-no-such-thing",
  // invalid-identifier
  "fs:Allow Read",
  // duplicate-permission
  "core:window:allow-title",
];

const RULES = [
  "redundant-permission",
  "legacy-identifier",
  "unknown-plugin",
  "unknown-permission",
  "invalid-identifier",
  "duplicate-permission",
];

function app(count: number): string {
  return writeCapabilityApp(
    path.join(work_dir, `app-${count}`),
    "test.entry.identifiers",
    Array.from({ length: count }, (_, i) => ({
      identifier: `c${i}`,
      windows: ["main"],
      permissions: PERMISSIONS,
    })),
  );
}

describe("the identifier rules in a check", () => {
  it("number the entries once between them and word what copies share once", async () => {
    resetWork();
    const result = await run(
      ["check", "--app", app(30), "--format", "json", ...RULES.flatMap((rule) => ["--only", rule])],
      work_dir,
    );
    expect(result.stderr).toBe("");
    const found = (JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string }> })
      .diagnostics;
    const byRule = (rule: string) => found.filter((d) => d.ruleId === rule).length;
    // Every entry is still reported where it was: 30 capabilities of the same entries.
    expect(byRule("legacy-identifier")).toBe(60);
    expect(byRule("unknown-plugin")).toBe(30);
    expect(byRule("unknown-permission")).toBe(30);
    expect(byRule("invalid-identifier")).toBe(30);
    expect(byRule("duplicate-permission")).toBe(30);
    // Both core:window:allow-title entries are covered by core:default.
    expect(byRule("redundant-permission")).toBe(60);
    // 240 entries numbered once for the six rules (each rule looked every entry's text up before).
    expect(work.entriesNumbered).toBe(30 * PERMISSIONS.length);
    // unknown-permission judges each of the 7 distinct identifiers once.
    expect(work.identifiersJudged).toBe(7);
    // The 30 capabilities are decided alike: their findings' words are made once (per finding before).
    expect(work.redundancyWordings).toBe(1);
    // One build impact per capability for legacy-identifier's two findings in it and one for
    // unknown-permission's (per finding before: 90).
    expect(work.buildImpactsWorkedOut).toBe(60);
    // The four rules that judge identifiers visit only the entries of those they judged: the 150
    // entries of their findings (each walked all 240 entries before, 960 in all).
    expect(work.judgedEntriesVisited).toBe(60 + 30 + 30 + 30);
  });
});

describe("the rules about scopes in a check", () => {
  it("walk only the entries with a scope list, from the shared index", async () => {
    const scopedApp = writeCapabilityApp(
      path.join(work_dir, "app-scoped"),
      "test.entry.scoped",
      Array.from({ length: 30 }, (_, i) => ({
        identifier: `s${i}`,
        windows: ["main"],
        permissions: [
          ...PERMISSIONS.slice(0, 7),
          // scope-conflict: the allowed path is denied too.
          {
            identifier: "fs:allow-read-file",
            allow: [{ path: "$APPDATA/a" }],
            deny: [{ path: "$APPDATA/a" }],
          },
        ],
      })),
    );
    resetWork();
    const result = await run(
      [
        "check",
        "--app",
        scopedApp,
        "--format",
        "json",
        "--only",
        "scope-conflict",
        "--only",
        "dead-scope",
      ],
      work_dir,
    );
    expect(result.stderr).toBe("");
    const found = (JSON.parse(result.stdout) as { diagnostics: Array<{ ruleId: string }> })
      .diagnostics;
    expect(found.filter((d) => d.ruleId === "scope-conflict").length).toBe(30);
    // The 240 entries are numbered once; each of the two rules then visits the 30 scoped ones (each
    // walked all 240 before).
    expect(work.entriesNumbered).toBe(240);
    expect(work.scopedEntriesVisited).toBe(2 * 30);
  });
});

describe("the shared index of entries", () => {
  it("numbers identifiers in order of first use and lists each one's entries in entry order", () => {
    const capA = { identifier: "a" } as unknown as Capability;
    const capB = { identifier: "b" } as unknown as Capability;
    const entry = (identifier: string, allow?: unknown[] | null) =>
      ({ identifier, allow, deny: undefined }) as unknown as PermissionEntry;
    const entries = [
      { capability: capA, entry: entry("x") },
      { capability: capA, entry: entry("y", [{ path: "$APPDATA" }]) },
      { capability: capA, entry: entry("x", null) },
      { capability: capB, entry: entry("z") },
      { capability: capB, entry: entry("y") },
      { capability: capB, entry: entry("x", []) },
    ];
    const index = entryIdentifiers(entries);
    expect(index.identifiers).toEqual(["x", "y", "z"]);
    expect([...index.numberOf]).toEqual([0, 1, 0, 2, 1, 0]);
    // x: entries 0, 2, 5; y: 1, 4; z: 3.
    expect([...index.firstOfIdentifier]).toEqual([0, 3, 5, 6]);
    expect([...index.byIdentifier]).toEqual([0, 2, 5, 1, 4, 3]);
    // A null list is none; an empty one is a list.
    expect([...index.scoped]).toEqual([1, 5]);
    expect([...index.firstEntryOf]).toEqual([
      [capA, 0],
      [capB, 3],
    ]);
  });
});
