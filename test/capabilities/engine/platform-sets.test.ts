import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveAll } from "../../../src/capabilities/engine/index.js";
import {
  firstPlatform,
  platformNames,
  platformSetOf,
  splitAlike,
  splitBy,
} from "../../../src/capabilities/engine/platform-set.js";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { TARGETS } from "../../../src/capabilities/model/types.js";
import denyAppliesGlobally from "../../../src/capabilities/rules/deny-applies-globally.js";
import { run } from "../../helpers/run.js";
import { writeCapabilityApp } from "../../helpers/capability-app.js";
import { capability, catalogOf, manifest } from "./helpers.js";

describe("platform sets", () => {
  it("are bits of the resolved platforms, split into the platforms whose keys are alike", () => {
    const desktop = platformSetOf(["linux", "macOS", "windows"], TARGETS);
    expect(desktop).toBe(0b00111);
    expect(platformSetOf(undefined, TARGETS)).toBe(0b11111);
    expect(platformNames(0b10010, TARGETS)).toEqual(["macOS", "iOS"]);
    expect(firstPlatform(0b11000)).toBe(3);
    // linux and android alike, macOS alone, windows and iOS alike: in the order of each set's first platform.
    expect(splitAlike(0b11111, (bit) => ["a", "b", "c", "a", "c"][bit]!)).toEqual([
      0b01001, 0b00010, 0b10100,
    ]);
    expect(splitAlike(0, () => "a")).toEqual([]);
  });

  it("split by sets in turn, give the platforms on which every set holds alike (as keys of membership would)", () => {
    // Pseudo-random lists of sets over five platforms, against the key of each platform's memberships.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 500; round++) {
      const within = next() & 0b11111;
      const by = Array.from({ length: next() % 6 }, () => next() & 0b11111);
      const sets = within === 0 ? [] : [within];
      for (const set of by) splitBy(sets, set);
      sets.sort((a, b) => firstPlatform(a) - firstPlatform(b));
      const keyed = splitAlike(within, (bit) => by.map((set) => (set >> bit) & 1).join(""));
      expect(sets).toEqual(keyed);
    }
  });
});

describe("a capability's grants over every platform at once", () => {
  const catalog = catalogOf({
    os: manifest({
      permissions: {
        "allow-apt": { allow: ["apt"], platforms: ["linux"] },
        "allow-any": { allow: ["any"] },
        "deny-any": { deny: ["any"] },
      },
      sets: { tools: ["allow-apt", "allow-any"] },
    }),
  });
  const all = resolveAll({
    capabilities: [
      capability({ identifier: "everywhere", windows: ["main"], permissions: ["os:tools"] }),
      capability({
        identifier: "mobile",
        windows: ["other"],
        platforms: ["android", "iOS"],
        permissions: ["os:deny-any"],
      }),
      capability({ identifier: "unrelated", windows: ["main"], permissions: [] }),
    ],
    catalog,
    platforms: TARGETS,
  });

  it("splits its platforms where its own grants or their denials differ, and judges each set on its first platform's model", () => {
    // apt holds on linux only; any is denied on android and iOS: three sets for the two commands.
    expect(all.alikeFor(0, ["plugin:os|apt", "plugin:os|any"])).toEqual([
      0b00001, 0b00110, 0b11000,
    ]);
    // One command alone: any is alike on the desktop platforms.
    expect(all.alikeFor(0, ["plugin:os|any"])).toEqual([0b00111, 0b11000]);
    // A capability that grants none of them has nothing to judge.
    expect(all.alikeFor(2, ["plugin:os|any"])).toEqual([]);
    expect(all.deniedOn("plugin:os|any")).toBe(0b11000);
    expect(all.deniedOn("plugin:os|apt")).toBe(0);
    expect(all.grantersOf("plugin:os|any")).toEqual([0]);
    const model = all.modelFor(0b00110);
    expect(model.platform).toBe("macOS");
    expect(model.capabilities[all.indexIn(0b00110, 1)]).toBeUndefined();
    expect(model.allowsIn("plugin:os|any", all.indexIn(0b00110, 0)).length).toBe(1);
  });
});

const work_dir = mkdtempSync(path.join(tmpdir(), "caplint-platform-sets-"));
afterAll(() => rmSync(work_dir, { recursive: true, force: true }));

describe("dangerous-permission over platform sets", () => {
  /**
   * `count` capabilities for every platform, each granting a broad fs write, beside one macOS-only
   * capability whose fs scope makes macOS resolve unlike the others (a global scope that lends nothing
   * broad). One model per platform list judged every capability again on macOS; platform sets judge
   * each capability once, so all five platforms make no more entries than linux alone.
   */
  function app(count: number, lend = false): string {
    return writeCapabilityApp(
      path.join(work_dir, `app-${count}${lend ? "-lend" : ""}`),
      "test.sets",
      [
        ...Array.from({ length: count }, (_, i) => ({
          identifier: `c${i}`,
          windows: ["main"],
          permissions: [
            { identifier: "fs:allow-write-file", allow: [{ path: "$HOME/**" }] },
            // The plugin's global scope, shared by every window: each capability lends a broad path.
            ...(lend ? [{ identifier: "fs:scope", allow: [{ path: `$HOME/c${i}/**` }] }] : []),
          ],
        })),
        {
          identifier: "mac",
          windows: ["main"],
          platforms: ["macOS"],
          permissions: [{ identifier: "fs:scope", allow: [{ path: "$APPDATA/notes" }] }],
        },
      ],
    );
  }

  async function counted(
    argv: string[],
    lend = false,
  ): Promise<{ entries: number; findings: number; lentScopes: number }> {
    resetWork();
    const result = await run(
      [
        "check",
        "--app",
        app(20, lend),
        "--format",
        "json",
        "--only",
        "dangerous-permission",
        ...argv,
      ],
      work_dir,
    );
    expect(result.stderr).toBe("");
    const findings = (JSON.parse(result.stdout) as { diagnostics: unknown[] }).diagnostics.length;
    // The grants judged: a model's entries (one per context), or dangerous-permission's own grant per
    // entry and leaf, read by index.
    const entries = work.resolvedEntries + work.dangerousLeaves;
    return { entries, findings, lentScopes: work.lentScopesJudged };
  }

  it("makes each capability's entries once, however many platform models differ", async () => {
    const every = await counted([]);
    const linux = await counted(["--platform", "linux"]);
    expect(every.findings).toBe(20);
    expect(linux.findings).toBe(20);
    // fs:allow-write-file allows two dangerous commands (write_file, write): two grants for the
    // capability judged; its 19 copies (one content) make only the grant each finding names.
    expect(linux.entries).toBe(2 + 19);
    expect(every.entries).toBe(linux.entries);
  });

  it("judges what the global scope lends once, though macOS's global scope differs", async () => {
    // macOS adds an fs:scope value that is not broad: what the scope lends is the same everywhere,
    // so no platform model judges the lent values again (comparing them per model judged two).
    const every = await counted([], true);
    const linux = await counted(["--platform", "linux"], true);
    expect(every.findings).toBe(20);
    expect(linux.findings).toBe(20);
    expect(linux.lentScopes).toBe(1);
    expect(every.lentScopes).toBe(1);
  });
});

describe("deny-applies-globally over several platform models", () => {
  const catalog = catalogOf({
    os: manifest({
      permissions: { "allow-any": { allow: ["any"] }, "deny-any": { deny: ["any"] } },
    }),
  });
  /**
   * The findings the rule reports itself (the linter no longer drops repeats before placing them): a
   * linux-only capability allowing the command makes linux resolve it unlike the other platforms, so
   * the rule judges it on two models.
   */
  async function reported(linuxOnly: { windows: string[] }): Promise<string[]> {
    const resolution = resolveAll({
      capabilities: [
        capability({ identifier: "everywhere", windows: ["main"], permissions: ["os:allow-any"] }),
        capability({ identifier: "denier", windows: ["other"], permissions: ["os:deny-any"] }),
        capability({
          identifier: "linux-only",
          windows: linuxOnly.windows,
          platforms: ["linux"],
          permissions: ["os:allow-any"],
        }),
      ],
      catalog,
      platforms: TARGETS,
    });
    const others: string[] = [];
    const context = {
      catalog,
      resolution: () => Promise.resolve(resolution),
      report: (finding: { data: { others: string } }) => others.push(finding.data.others),
    };
    await denyAppliesGlobally.check(
      context as unknown as Parameters<typeof denyAppliesGlobally.check>[0],
    );
    return others;
  }

  it("reports a deny once when it blocks the same capabilities on both", async () => {
    // The linux-only allower has the deny's own window: the deny covers it, and blocks "everywhere" alone on every platform.
    expect(await reported({ windows: ["other"] })).toEqual([
      'capability "everywhere" (windows "main")',
    ]);
  });

  it("reports it per model when what it blocks differs", async () => {
    expect(await reported({ windows: ["third"] })).toEqual([
      'capabilities "everywhere" (windows "main") and "linux-only" (windows "third")',
      'capability "everywhere" (windows "main")',
    ]);
  });
});

describe("the deny rules over platform sets", () => {
  const DENIED = ["read-file", "write-file", "read-dir", "remove", "rename"];
  /**
   * `count` capabilities for the main window allowing five fs commands, a lockdown for another window
   * denying all five (deny-applies-globally: it blocks them for main too), one that allows and denies
   * read-file itself (allow-deny-conflict), and one capability per platform granting an unrelated
   * command: every platform resolves unlike the others (five platform models), but each denied command
   * alike on all of them. A walk over each model's denied commands lists every one five times.
   */
  function app(count: number): string {
    return writeCapabilityApp(path.join(work_dir, `denies-${count}`), "test.denies", [
      ...Array.from({ length: count }, (_, i) => ({
        identifier: `c${i}`,
        windows: ["main"],
        permissions: DENIED.map((command) => `fs:allow-${command}`),
      })),
      {
        identifier: "lockdown",
        windows: ["other"],
        permissions: DENIED.map((command) => `fs:deny-${command}`),
      },
      {
        identifier: "self",
        windows: ["main"],
        permissions: ["fs:allow-read-file", "fs:deny-read-file"],
      },
      ...TARGETS.map((platform) => ({
        identifier: `only-${platform}`,
        windows: ["main"],
        platforms: [platform],
        permissions: ["fs:allow-exists"],
      })),
    ]);
  }

  async function counted(
    rule: string,
    argv: string[],
  ): Promise<{ listed: number; findings: string[] }> {
    resetWork();
    const result = await run(
      ["check", "--app", app(10), "--format", "json", "--only", rule, ...argv],
      work_dir,
    );
    expect(result.stderr).toBe("");
    const { diagnostics } = JSON.parse(result.stdout) as {
      diagnostics: Array<{ message: string }>;
    };
    return { listed: work.commandsListed, findings: diagnostics.map((d) => d.message) };
  }

  it.each(["allow-deny-conflict", "deny-applies-globally"])(
    "%s lists each denied command once, however many platform models differ",
    async (rule) => {
      const every = await counted(rule, []);
      const linux = await counted(rule, ["--platform", "linux"]);
      expect(every.findings.length).toBeGreaterThan(0);
      expect(every.findings).toEqual(linux.findings);
      expect(linux.listed).toBe(DENIED.length);
      expect(every.listed).toBe(DENIED.length);
    },
  );
});
