import { describe, expect, it } from "vitest";
import {
  LOCAL_ORIGIN,
  normalize,
  resolve,
  resolveAll,
  type Origin,
} from "../../../src/capabilities/engine/index.js";
import { platformNames } from "../../../src/capabilities/engine/platform-set.js";
import { TARGETS } from "../../../src/capabilities/model/types.js";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { capability, catalogOf, manifest } from "./helpers.js";

/** One resolution for every platform: each platform's view must answer exactly as resolving that platform alone. */
describe("resolving every platform at once", () => {
  const catalog = catalogOf({
    os: manifest({
      permissions: {
        "allow-apt": { allow: ["apt"], platforms: ["linux"] },
        "allow-any": { allow: ["any"] },
        "deny-any": { deny: ["any"] },
        "mobile-scope": { platforms: ["android", "iOS"], scope: { allow: [{ path: "$APP" }] } },
      },
      sets: { tools: ["allow-apt", "allow-any", "mobile-scope", "missing-member"] },
    }),
  });
  const capabilities = [
    capability({
      identifier: "desktop",
      windows: ["main"],
      platforms: ["linux", "macOS", "windows"],
      permissions: ["os:tools"],
    }),
    capability({
      identifier: "everywhere",
      windows: ["*"],
      remote: { urls: ["https://*.example.com"] },
      permissions: ["os:allow-any"],
    }),
    capability({
      identifier: "mobile",
      windows: ["main"],
      platforms: ["android", "iOS"],
      permissions: ["os:tools", "os:deny-any"],
    }),
  ];
  const all = resolveAll({ capabilities, catalog, platforms: TARGETS });

  it("gives each platform the model that resolving it alone gives, entries in the same order", () => {
    expect(all.models.map((m) => m.platform)).toEqual([...TARGETS]);
    for (const model of all.models) {
      const alone = resolve({ capabilities, catalog, platform: model.platform });
      expect(normalize(model), model.platform).toEqual(normalize(alone));
      expect([...model.allowed.keys()], model.platform).toEqual([...alone.allowed.keys()]);
      expect(model.capabilities.map((c) => [c.index, c.capability.identifier])).toEqual(
        alone.capabilities.map((c) => [c.index, c.capability.identifier]),
      );
      expect(model.inactive.map((c) => c.identifier)).toEqual(
        alone.inactive.map((c) => c.identifier),
      );
      const provenance = (m: typeof model) =>
        [...m.allowed.values()]
          .flat()
          .map((e) => [
            e.command,
            e.capabilityIndex,
            e.contextIndex,
            e.provenance.capability,
            e.provenance.chain,
          ]);
      expect(provenance(model)).toEqual(provenance(alone));
    }
  });

  it("answers which windows and origins a capability covers on each platform's view, and on a copy of it", () => {
    const origins: Origin[] = [
      LOCAL_ORIGIN,
      { kind: "remote", url: "https://app.example.com/page" },
      { kind: "remote", url: "https://elsewhere.org/" },
    ];
    // Per capability: main's and another window's label, then each context against each origin.
    const answers = (c: (typeof all.models)[number]["capabilities"][number]) => [
      c.capability.identifier,
      c.matchesLabels("main", "main"),
      c.matchesLabels("other", "other"),
      c.contexts.map((_, i) => origins.map((origin) => c.contextMatches(i, origin))),
    ];
    const linux = all.models[0]!;
    expect(linux.capabilities.map(answers)).toEqual([
      ["desktop", true, false, [[true, false, false]]],
      [
        "everywhere",
        true,
        true,
        [
          [true, false, false],
          [false, true, false],
        ],
      ],
    ]);
    expect(all.models[3]!.capabilities.map(answers)).toEqual([
      [
        "everywhere",
        true,
        true,
        [
          [true, false, false],
          [false, true, false],
        ],
      ],
      ["mobile", true, false, [[true, false, false]]],
    ]);
    // A copy (a platform's view, an overview's) made after the questions were asked answers alike.
    for (const c of linux.capabilities) expect(answers({ ...c, index: 9 })).toEqual(answers(c));
  });

  it("names who allows a command, and one capability's allows, exactly as the full entry lists do", () => {
    for (const model of all.models) {
      for (const [command, entries] of model.allowed) {
        const distinct = entries
          .map((e) => e.capabilityIndex)
          .filter((c, i, list) => list.indexOf(c) === i);
        expect(model.allowers(command), `${model.platform} ${command}`).toEqual(distinct);
        for (const capabilityIndex of model.capabilities.map((c) => c.index)) {
          expect(model.allowsIn(command, capabilityIndex)).toEqual(
            entries.filter((e) => e.capabilityIndex === capabilityIndex),
          );
        }
      }
      expect(model.allowers("plugin:os|never")).toEqual([]);
      expect(model.allowsIn("plugin:os|any", 99)).toEqual([]);
    }
  });

  it("names who allows a command, and one capability's allows, alike before its entry list is made", () => {
    // Asked first, the answers come from walks of the grants, not from the command's listed grants:
    // "any" is allowed through two identifiers ("os:tools", "os:allow-any") whose capabilities interleave.
    const fresh = resolveAll({
      capabilities: [
        ...capabilities,
        capability({
          identifier: "twice",
          windows: ["main"],
          permissions: ["os:allow-any", "os:tools", "os:allow-any"],
        }),
        // No context: it holds no entries, so it allows nothing.
        capability({ identifier: "nowhere", local: false, permissions: ["os:allow-any"] }),
      ],
      catalog,
      platforms: TARGETS,
    });
    for (const model of fresh.models) {
      const commands = ["os|any", "os|apt", "os|never"].map((c) => `plugin:${c}`);
      const asked = commands.map((command) => ({
        allowers: [...model.allowers(command)],
        allowsIn: model.capabilities.map((c) => model.allowsIn(command, c.index)),
      }));
      commands.forEach((command, i) => {
        const entries = model.allowed.get(command) ?? [];
        const distinct = [...new Set(entries.map((e) => e.capabilityIndex))];
        expect(asked[i]!.allowers, `${model.platform} ${command}`).toEqual(distinct);
        expect(asked[i]!.allowsIn).toEqual(
          model.capabilities.map((c) => entries.filter((e) => e.capabilityIndex === c.index)),
        );
      });
    }
    // desktop (on desktops), everywhere, mobile (on mobiles) and twice; nowhere has no context.
    expect(fresh.models.map((m) => m.allowers("plugin:os|any").length)).toEqual(
      TARGETS.map(() => 3),
    );
  });

  it("finds a large capability's allows of a command through the command's grant list, a bounded walk each", () => {
    // 2 x 1,500 entries against the command's two sites: past the walk's bound, the list is made instead.
    const large = capability({
      identifier: "large",
      windows: ["main"],
      permissions: Array.from({ length: 3_000 }, (_, i) => (i % 2 ? "os:tools" : "os:allow-any")),
    });
    const fresh = resolveAll({
      capabilities: [large, capabilities[2]!],
      catalog,
      platforms: TARGETS,
    });
    resetWork();
    for (const model of fresh.models) {
      const asked = model.capabilities.map((c) => model.allowsIn("plugin:os|any", c.index));
      const entries = model.allowed.get("plugin:os|any") ?? [];
      expect(asked, model.platform).toEqual(
        model.capabilities.map((c) => entries.filter((e) => e.capabilityIndex === c.index)),
      );
    }
    // Only the small capability ("mobile", two entries) was walked, once per model it is active in.
    expect(work.ownGrantPairs).toBeLessThanOrEqual(TARGETS.length * 2 * 2);
  });

  it("tells whether a command's grants, and a plugin's global scope, are the same on two platforms", () => {
    // allow-any is granted on every platform (desktop's set, "everywhere"); mobile denies it on android and iOS.
    expect(all.sameCommand("plugin:os|any", "linux", "macOS")).toBe(true);
    expect(all.sameCommand("plugin:os|any", "android", "iOS")).toBe(true);
    expect(all.sameCommand("plugin:os|any", "linux", "android")).toBe(false);
    // allow-apt holds on linux only.
    expect(all.sameCommand("plugin:os|apt", "linux", "macOS")).toBe(false);
    expect(all.sameCommand("plugin:os|apt", "macOS", "windows")).toBe(true);
    expect(all.sameCommand("plugin:os|never", "linux", "android")).toBe(true);
    // With every capability on every platform, the leaves' platforms alone tell platforms apart.
    const everywhere = resolveAll({
      capabilities: [
        capabilities[1]!,
        capability({ identifier: "apt", permissions: ["os:tools"] }),
      ],
      catalog,
      platforms: TARGETS,
    });
    expect(everywhere.sameCommand("plugin:os|apt", "linux", "macOS")).toBe(false);
    expect(everywhere.sameCommand("plugin:os|apt", "macOS", "windows")).toBe(true);
    expect(everywhere.sameCommand("plugin:os|any", "linux", "android")).toBe(true);
    // mobile-scope is a global scope entry on android and iOS only.
    expect(all.sameGlobalScope("os", "android", "iOS")).toBe(true);
    expect(all.sameGlobalScope("os", "linux", "android")).toBe(false);
    expect(all.sameGlobalScope("fs", "linux", "android")).toBe(true);
    // What sameCommand says the same is the same, entry for entry (capability indices aside).
    const view = (platform: string, command: string) =>
      (all.models.find((m) => m.platform === platform)!.allowed.get(command) ?? []).map((e) => [
        e.provenance.capability,
        e.provenance.chain,
        e.context,
      ]);
    expect(view("macOS", "plugin:os|apt")).toEqual(view("windows", "plugin:os|apt"));
    expect(view("linux", "plugin:os|apt")).not.toEqual(view("macOS", "plugin:os|apt"));
  });

  it("groups the platforms that resolve alike: linux alone (its own leaf), macOS with windows, the two mobile ones", () => {
    expect(all.distinctModels.map((m) => m.platform)).toEqual(["linux", "macOS", "android"]);
    // Alike platforms share one model's data: entries are built once for both.
    expect(all.models[2]!.allowed.get("plugin:os|any")).toBe(
      all.models[1]!.allowed.get("plugin:os|any"),
    );
    expect(all.models[4]!.globalScope).toBe(all.models[3]!.globalScope);
    expect(all.models[0]!.allowed.get("plugin:os|any")).not.toBe(
      all.models[1]!.allowed.get("plugin:os|any"),
    );
  });

  it("hands rules each distinct model with what earlier ones settled, and each denied command once per alike set", () => {
    const judged = all.modelsToJudge();
    expect(
      judged.map(({ model, earlier }) => [
        model.platform,
        earlier.map((before) => before.model.platform),
      ]),
    ).toEqual([
      ["linux", []],
      ["macOS", ["linux"]],
      ["android", ["linux", "macOS"]],
    ]);
    const [linux, macOS, android] = judged;
    // Nothing is settled before the first model; any command is granted alike on linux and macOS, apt is not.
    expect(linux!.settled(["plugin:os|any"])).toBe(false);
    expect(macOS!.settled(["plugin:os|any"])).toBe(true);
    expect(macOS!.settled(["plugin:os|any", "plugin:os|apt"])).toBe(false);
    // Mobile denies any and has its own global scope: nothing earlier settles them.
    expect(android!.settled(["plugin:os|any"])).toBe(false);
    expect(android!.settled(["plugin:os|never"], ["os"])).toBe(false);
    expect(android!.settled(["plugin:os|never"], ["fs"])).toBe(true);
    expect(android!.earlier.map((before) => before.sameGlobalScope("os"))).toEqual([false, false]);
    // A denied command once per set of the platforms that deny it alike: any, denied on mobile only.
    const denials = all
      .deniedCommandSets()
      .map(({ command, on, model }) => [command, platformNames(on, TARGETS), model.platform]);
    expect(denials).toEqual([["plugin:os|any", ["android", "iOS"], "android"]]);
  });

  it("records each problem once, with the platforms it holds on", () => {
    expect(all.problems.map((p) => [p.kind, p.capability, p.platforms])).toEqual([
      ["unknown-set-member", "desktop", ["linux", "macOS", "windows"]],
      ["unknown-set-member", "mobile", ["android", "iOS"]],
    ]);
    expect(all.models[1]!.problems.map((p) => p.capability)).toEqual(["desktop"]);
  });

  it("builds a command's entries only when asked, and has none for a command nobody grants", () => {
    expect(all.models[0]!.allowed.get("plugin:os|never")).toBeUndefined();
    expect(all.models[0]!.allowed.has("plugin:os|apt")).toBe(true);
    expect(all.models[1]!.allowed.has("plugin:os|apt")).toBe(false);
    expect(all.models[3]!.denied.get("plugin:os|any")!.map((e) => e.provenance.capability)).toEqual(
      ["mobile"],
    );
    expect(all.models[0]!.denied.size).toBe(0);
    // Lists of commands per capability entry, as the matrix unions them.
    const linux = all.models[0]!;
    const desktop = linux.capabilities.find((c) => c.capability.identifier === "desktop")!;
    expect(linux.allowedCommandLists(desktop.index)).toEqual([["plugin:os|apt", "plugin:os|any"]]);
  });
});
