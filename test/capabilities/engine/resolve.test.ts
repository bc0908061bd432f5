import { describe, expect, it } from "vitest";
import { APP_KEY } from "../../../src/capabilities/catalog/types.js";
import {
  commandName,
  compareCodePoints,
  MAX_LEAVES_PER_ENTRY,
  normalize,
  resolve,
  type ResolvedModel,
} from "../../../src/capabilities/engine/index.js";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { describeProblem } from "../../../src/capabilities/rules/support/resolution-problems.js";
import { capability, catalogOf, manifest } from "./helpers.js";

const commands = (model: ResolvedModel, list: "allowed" | "denied" = "allowed") =>
  [...model[list].keys()].sort();
const chains = (model: ResolvedModel, command: string) =>
  (model.allowed.get(command) ?? []).map((e) => e.provenance.chain);

describe("command names", () => {
  it("strips `core:` for core areas, prefixes plugins and leaves app commands bare", () => {
    expect(commandName("core:window", "set_title")).toBe("plugin:window|set_title");
    expect(commandName("fs", "read_file")).toBe("plugin:fs|read_file");
    expect(commandName(APP_KEY, "my_command")).toBe("my_command");
    expect(commandName("core", "x")).toBe("plugin:core|x");
  });
});

describe("set expansion", () => {
  const crossPlugin = catalogOf({
    dialog: manifest({
      permissions: { "allow-save": { allow: ["save"] } },
      sets: { extra: ["allow-save", "fs:read", "http:default"] },
    }),
    fs: manifest({
      permissions: {
        "allow-read": { allow: ["read"] },
        "allow-exists": { allow: ["exists"] },
        "allow-write": { allow: ["write"] },
      },
      sets: { read: ["allow-read", "allow-exists", "write-all"], "write-all": ["allow-write"] },
    }),
    http: manifest({
      permissions: {
        "allow-fetch": { allow: ["fetch"] },
        "allow-fetch-cancel": { allow: ["fetch_cancel"] },
      },
      default: ["allow-fetch", "allow-fetch-cancel"],
    }),
  });

  it("follows prefixed members into other plugins, keeping each leaf's own plugin for its command name", () => {
    const model = resolve({
      capabilities: [
        capability({ identifier: "main", windows: ["main"], permissions: ["dialog:extra"] }),
      ],
      catalog: crossPlugin,
      platform: "linux",
    });
    expect(model.problems).toEqual([]);
    expect(commands(model)).toEqual([
      "plugin:dialog|save",
      "plugin:fs|exists",
      "plugin:fs|read",
      "plugin:fs|write",
      "plugin:http|fetch",
      "plugin:http|fetch_cancel",
    ]);
    // Leaves come out in member order, like upstream's `dialog:extra` test.
    const order = [...model.allowed.values()].flat().map((e) => e.command);
    expect(order).toEqual([
      "plugin:dialog|save",
      "plugin:fs|read",
      "plugin:fs|exists",
      "plugin:fs|write",
      "plugin:http|fetch",
      "plugin:http|fetch_cancel",
    ]);
    expect(chains(model, "plugin:fs|write")).toEqual([
      ["dialog:extra", "fs:read", "fs:write-all", "fs:allow-write"],
    ]);
    expect(chains(model, "plugin:http|fetch")).toEqual([
      ["dialog:extra", "http:default", "http:allow-fetch"],
    ]);
  });

  it("looks a prefixed member up as a whole string when its plugin does not exist", () => {
    const catalog = catalogOf({
      dialog: manifest({
        permissions: { "allow-save": { allow: ["save"] }, "shell:odd": { allow: ["odd"] } },
        sets: { extra: ["allow-save", "shell:open", "shell:odd"] },
      }),
    });
    const model = resolve({
      capabilities: [
        capability({ identifier: "c", windows: ["*"], permissions: ["dialog:extra"] }),
      ],
      catalog,
      platform: "linux",
    });
    expect(commands(model)).toEqual(["plugin:dialog|odd", "plugin:dialog|save"]);
    expect(model.problems).toEqual([
      expect.objectContaining({
        kind: "unknown-set-member",
        member: "shell:open",
        set: "dialog:extra",
        chain: ["dialog:extra"],
        platforms: ["linux"],
      }),
    ]);
  });

  it("suggests the nearest identifier for an unknown member", () => {
    const catalog = catalogOf({
      fs: manifest({
        permissions: { "allow-read-dir": { allow: ["read_dir"] } },
        sets: { read: ["allow-raed-dir"] },
      }),
    });
    const model = resolve({
      capabilities: [capability({ identifier: "c", windows: ["*"], permissions: ["fs:read"] })],
      catalog,
      platform: "linux",
    });
    expect(model.problems).toEqual([
      expect.objectContaining({
        kind: "unknown-set-member",
        member: "allow-raed-dir",
        set: "fs:read",
        suggestions: ["fs:allow-read-dir"],
      }),
    ]);
  });

  it("uses default → set → permission at the top level but default → permission → set inside a set", () => {
    const catalog = catalogOf({
      p: manifest({
        permissions: { both: { allow: ["from_permission"] } },
        sets: { both: ["other"], wrapper: ["both"] },
      }),
    });
    catalog.get("p")!.permissions.other = {
      identifier: "other",
      commands: { allow: ["from_set"], deny: [] },
    };
    const top = resolve({
      capabilities: [capability({ identifier: "c", windows: ["*"], permissions: ["p:both"] })],
      catalog,
      platform: "linux",
    });
    expect(commands(top)).toEqual(["plugin:p|from_set"]);
    const inside = resolve({
      capabilities: [capability({ identifier: "c", windows: ["*"], permissions: ["p:wrapper"] })],
      catalog,
      platform: "linux",
    });
    expect(commands(inside)).toEqual(["plugin:p|from_permission"]);
  });

  it("reports cycles instead of overflowing, and keeps the other members", () => {
    const catalog = catalogOf({
      p: manifest({
        permissions: { "allow-a": { allow: ["a"] }, "allow-b": { allow: ["b"] } },
        sets: { a: ["allow-a", "b"], b: ["allow-b", "a"], self: ["self", "allow-a"] },
        default: ["default", "allow-b"],
      }),
    });
    const model = resolve({
      capabilities: [
        capability({
          identifier: "c",
          windows: ["*"],
          permissions: ["p:a", "p:self", "p:default", "p:b"],
        }),
      ],
      catalog,
      platform: "linux",
    });
    expect(
      model.problems.map((p) => [p.kind, p.kind === "set-cycle" && p.loop, p.identifier]),
    ).toEqual([
      ["set-cycle", ["p:a", "p:b", "p:a"], "p:a"],
      ["set-cycle", ["p:self", "p:self"], "p:self"],
      ["set-cycle", ["p:default", "p:default"], "p:default"],
      ["set-cycle", ["p:b", "p:a", "p:b"], "p:b"],
    ]);
    expect(describeProblem(model.problems[0]!)).toBe(
      "permission sets include each other in a cycle: p:a → p:b → p:a",
    );
    expect(model.problems[0]!.chain).toEqual(["p:a", "p:b", "p:a"]);
    expect(chains(model, "plugin:p|a")).toEqual([
      ["p:a", "p:allow-a"],
      ["p:self", "p:allow-a"],
      ["p:b", "p:a", "p:allow-a"],
    ]);
    expect(chains(model, "plugin:p|b")).toEqual([
      ["p:a", "p:b", "p:allow-b"],
      ["p:default", "p:allow-b"],
      ["p:b", "p:allow-b"],
    ]);
  });

  it("warns that `<plugin>:default` without a default set grants nothing, at the top level and inside sets", () => {
    const catalog = catalogOf({
      nodefault: manifest({ permissions: { "allow-x": { allow: ["x"] } } }),
      other: manifest({
        permissions: {},
        sets: { bundle: ["nodefault:default", "nodefault:allow-x"] },
      }),
    });
    const model = resolve({
      capabilities: [
        capability({
          identifier: "c",
          windows: ["*"],
          permissions: ["nodefault:default", "other:bundle"],
        }),
      ],
      catalog,
      platform: "linux",
    });
    expect(model.problems.map((p) => [p.kind, describeProblem(p), p.chain])).toEqual([
      [
        "default-without-set",
        "`nodefault:default` grants nothing: plugin `nodefault` has no default permission set",
        ["nodefault:default"],
      ],
      [
        "default-without-set",
        "`nodefault:default` grants nothing: plugin `nodefault` has no default permission set",
        ["other:bundle", "nodefault:default"],
      ],
    ]);
    expect(commands(model)).toEqual(["plugin:nodefault|x"]);
  });

  it("reports an invalid set member identifier (the host panics on it)", () => {
    const catalog = catalogOf({
      p: manifest({ permissions: { ok: { allow: ["ok"] } }, sets: { s: ["bad_member", "ok"] } }),
    });
    const model = resolve({
      capabilities: [capability({ identifier: "c", windows: ["*"], permissions: ["p:s"] })],
      catalog,
      platform: "linux",
    });
    expect(model.problems).toEqual([
      expect.objectContaining({ kind: "invalid-set-member", member: "bad_member", set: "p:s" }),
    ]);
    expect(describeProblem(model.problems[0]!)).toMatch(
      /^invalid identifier `bad_member` in permission set p:s: /,
    );
    expect(commands(model)).toEqual(["plugin:p|ok"]);
  });

  it("returns unknown top-level identifiers as `unresolved` problems and skips them", () => {
    const catalog = catalogOf({ p: manifest({ permissions: { ok: { allow: ["ok"] } } }) });
    const model = resolve({
      capabilities: [
        capability({
          identifier: "c",
          windows: ["*"],
          permissions: ["nope:x", "p:missing", "app-thing", "bad_id", "p:ok"],
        }),
      ],
      catalog,
      platform: "linux",
    });
    expect(model.problems.map((p) => [p.kind, p.identifier, describeProblem(p)])).toEqual([
      ["unresolved", "nope:x", "unknown plugin `nope` in `nope:x`"],
      ["unresolved", "p:missing", "unknown permission `missing` for `p`"],
      ["unresolved", "app-thing", "unknown permission `app-thing`: the app defines no permissions"],
      ["unresolved", "bad_id", "`bad_id` is not a valid permission identifier"],
    ]);
    expect(commands(model)).toEqual(["plugin:p|ok"]);
  });

  it("refuses a set that multiplies out exponentially, quickly", () => {
    const sets: Record<string, string[]> = { s0: ["leaf"] };
    for (let i = 1; i <= 40; i++) sets[`s${i}`] = [`s${i - 1}`, `s${i - 1}`];
    const catalog = catalogOf({ p: manifest({ permissions: { leaf: { allow: ["x"] } }, sets }) });
    // No clock: expanding s40 is 2^40 leaves, which would never end within the test's time-out.
    const model = resolve({
      capabilities: [
        capability({ identifier: "c", windows: ["*"], permissions: ["p:s40", "p:s13"] }),
      ],
      catalog,
      platform: "linux",
    });
    expect(model.problems).toEqual([
      expect.objectContaining({
        kind: "set-too-large",
        identifier: "p:s40",
        set: "p:s40",
        limit: { kind: "leaves", count: 2 ** 40, limit: 10_000 },
      }),
    ]);
    expect(describeProblem(model.problems[0]!)).toBe(
      "permission set p:s40 expands to 1,099,511,627,776 permissions (more than 10,000): its sets include each other over and over; it was not resolved",
    );
    // 2^13 leaves is within the limit and resolves in full.
    expect(model.allowed.get("plugin:p|x")).toHaveLength(2 ** 13);
    expect(MAX_LEAVES_PER_ENTRY).toBe(10_000);
  });

  it("reports a problem reached along many paths of a diamond-shaped set graph once", () => {
    const sets: Record<string, string[]> = { s0: ["unknown-member"] };
    for (let i = 1; i <= 40; i++) sets[`s${i}`] = [`s${i - 1}`, `s${i - 1}`];
    const catalog = catalogOf({ p: manifest({ permissions: { leaf: { allow: ["x"] } }, sets }) });
    const model = resolve({
      capabilities: [capability({ identifier: "c", windows: ["*"], permissions: ["p:s40"] })],
      catalog,
      platform: "linux",
    });
    expect(model.problems).toHaveLength(1);
    expect(model.problems[0]).toMatchObject({ kind: "unknown-set-member", set: "p:s0" });
    expect(model.problems[0]!.chain).toHaveLength(41);
  });

  it("memoises sets without mixing up provenance between capabilities", () => {
    const catalog = catalogOf({
      p: manifest({ permissions: { "allow-a": { allow: ["a"] } }, sets: { s: ["allow-a"] } }),
    });
    const model = resolve({
      capabilities: [
        capability({
          identifier: "one",
          windows: ["one"],
          permissions: ["p:s"],
          file: "capabilities/one.json",
        }),
        capability({
          identifier: "two",
          windows: ["two"],
          permissions: ["p:allow-a", "p:s"],
          file: "capabilities/two.json",
        }),
      ],
      catalog,
      platform: "linux",
    });
    expect(model.allowed.get("plugin:p|a")!.map((e) => e.provenance)).toEqual([
      {
        capability: "one",
        file: "capabilities/one.json",
        path: ["permissions", 0],
        chain: ["p:s", "p:allow-a"],
      },
      {
        capability: "two",
        file: "capabilities/two.json",
        path: ["permissions", 0],
        chain: ["p:allow-a"],
      },
      {
        capability: "two",
        file: "capabilities/two.json",
        path: ["permissions", 1],
        chain: ["p:s", "p:allow-a"],
      },
    ]);
  });
});

describe("platforms", () => {
  const catalog = catalogOf({
    os: manifest({
      permissions: {
        "allow-apt": { allow: ["apt"], platforms: ["linux"] },
        "allow-brew": { allow: ["brew"], platforms: ["macOS"] },
        "allow-never": { allow: ["never"], platforms: [] },
        "allow-any": { allow: ["any"] },
        "mac-scope": { platforms: ["macOS"], scope: { allow: [{ path: "$HOME/Library" }] } },
      },
      sets: { tools: ["allow-apt", "allow-brew", "allow-never", "allow-any", "mac-scope"] },
    }),
  });

  it("drops leaves whose own platforms exclude the target, leaving no global scope trace", () => {
    const model = resolve({
      capabilities: [capability({ identifier: "c", windows: ["*"], permissions: ["os:tools"] })],
      catalog,
      platform: "linux",
    });
    expect(commands(model)).toEqual(["plugin:os|any", "plugin:os|apt"]);
    expect(model.globalScope.size).toBe(0);
    const mac = resolve({
      capabilities: [capability({ identifier: "c", windows: ["*"], permissions: ["os:tools"] })],
      catalog,
      platform: "macOS",
    });
    expect(commands(mac)).toEqual(["plugin:os|any", "plugin:os|brew"]);
    expect(normalize(mac).globalScope).toEqual({
      os: { allow: [{ path: "$HOME/Library" }], deny: [] },
    });
  });

  it("treats absent capability platforms as all and `[]` as none", () => {
    const model = resolve({
      capabilities: [
        capability({ identifier: "everywhere", windows: ["*"], permissions: ["os:allow-any"] }),
        capability({
          identifier: "nowhere",
          windows: ["*"],
          platforms: [],
          permissions: ["os:allow-apt"],
        }),
        capability({
          identifier: "mac-only",
          windows: ["*"],
          platforms: ["macOS"],
          permissions: ["os:allow-brew"],
        }),
        capability({
          identifier: "case-sensitive",
          windows: ["*"],
          platforms: ["Linux"],
          permissions: ["os:allow-apt"],
        }),
      ],
      catalog,
      platform: "linux",
    });
    expect(model.capabilities.map((c) => c.capability.identifier)).toEqual(["everywhere"]);
    expect(model.inactive.map((c) => c.identifier).sort()).toEqual([
      "case-sensitive",
      "mac-only",
      "nowhere",
    ]);
    expect(commands(model)).toEqual(["plugin:os|any"]);
  });
});

describe("scopes", () => {
  const catalog = catalogOf({
    fs: manifest({
      permissions: {
        "allow-read": { allow: ["read"], scope: { allow: [{ path: "$OWN" }] } },
        "allow-plain": { allow: ["plain"] },
        "scope-only": { scope: { deny: [{ path: "$SECRET" }] } },
        "bare-scope-only": {},
        "deny-write": { deny: ["write"] },
      },
      sets: { mixed: ["allow-read", "allow-plain", "scope-only"] },
    }),
  });
  const run = (permissions: Parameters<typeof capability>[0]["permissions"]) =>
    resolve({
      capabilities: [capability({ identifier: "c", windows: ["main"], permissions })],
      catalog,
      platform: "linux",
    });

  it("walks only the grants with command-less leaves for the global scope, in grant order", () => {
    // 30 capabilities of 8 entries, one of which brings a global scope contribution: 30 grants are
    // walked for the global scope (a walk of every grant visited 240).
    const entries = [
      "fs:allow-plain",
      "fs:allow-read",
      "fs:deny-write",
      "fs:bare-scope-only",
      "fs:allow-plain",
      "fs:allow-read",
      "fs:deny-write",
      "fs:allow-plain",
    ];
    resetWork();
    const model = resolve({
      capabilities: Array.from({ length: 30 }, (_, i) =>
        capability({
          identifier: `c${String(i).padStart(2, "0")}`,
          windows: ["main"],
          permissions: entries,
        }),
      ),
      catalog,
      platform: "linux",
    });
    const fs = model.globalScope.get("fs")!;
    expect(fs.contributions.map((c) => [c.provenance.capability, c.provenance.path])).toEqual(
      Array.from({ length: 30 }, (_, i) => [`c${String(i).padStart(2, "0")}`, ["permissions", 3]]),
    );
    expect(work.globalScopeGrantsWalked).toBe(30);
  });

  it("shares one scope object among the entries that name a leaf without lists of their own", () => {
    // Copies of a capability grant the same leaf: what is worked out per scope object (the dangers
    // module's broad values) is then worked out once, not once per copy.
    const model = resolve({
      capabilities: [
        ...["a", "b", "c"].map((identifier) =>
          capability({ identifier, windows: ["main"], permissions: ["fs:allow-read"] }),
        ),
        capability({
          identifier: "d",
          windows: ["main"],
          permissions: [{ identifier: "fs:allow-read", allow: [{ path: "$EXTRA" }] }],
        }),
      ],
      catalog,
      platform: "linux",
    });
    const scopes = model.allowed.get("plugin:fs|read")!.map((entry) => entry.scope);
    expect(scopes).toHaveLength(4);
    expect(scopes[0]).toEqual({ allow: [{ path: "$OWN" }], deny: [] });
    expect(scopes[1]).toBe(scopes[0]);
    expect(scopes[2]).toBe(scopes[0]);
    expect(scopes[3]).toEqual({ allow: [{ path: "$EXTRA" }, { path: "$OWN" }], deny: [] });
  });

  it("puts the entry's extra scope before the leaf's own and copies it onto every leaf of a set", () => {
    const model = run([{ identifier: "fs:mixed", allow: [{ path: "$EXTRA" }] }]);
    const normalized = normalize(model);
    expect(normalized.allowed["plugin:fs|read"]![0]!.scope).toEqual({
      allow: [{ path: "$EXTRA" }, { path: "$OWN" }],
      deny: [],
    });
    expect(normalized.allowed["plugin:fs|plain"]![0]!.scope).toEqual({
      allow: [{ path: "$EXTRA" }],
      deny: [],
    });
    // The command-less leaf takes the extra scope into the global scope instead.
    expect(normalized.globalScope).toEqual({
      fs: { allow: [{ path: "$EXTRA" }], deny: [{ path: "$SECRET" }] },
    });
    const [read] = model.allowed.get("plugin:fs|read")!;
    const [plain] = model.allowed.get("plugin:fs|plain")!;
    expect(read!.scope).not.toBe(plain!.scope);
    // Every entry of one leaf shares its scope object.
    expect(model.allowed.get("plugin:fs|read")!.every((entry) => entry.scope === read!.scope)).toBe(
      true,
    );
  });

  it("allocates a scope when `allow` or `deny` is present even if empty, but not when absent or null", () => {
    expect(
      normalize(run([{ identifier: "fs:allow-plain", deny: [] }])).allowed["plugin:fs|plain"]![0]!
        .scope,
    ).toEqual({ allow: [], deny: [] });
    expect(
      normalize(run([{ identifier: "fs:allow-plain", allow: null }])).allowed[
        "plugin:fs|plain"
      ]![0]!.scope,
    ).toBeNull();
    expect(normalize(run(["fs:allow-plain"])).allowed["plugin:fs|plain"]![0]!.scope).toBeNull();
  });

  it("creates the global scope key for a command-less leaf even without any scope, and keeps duplicates", () => {
    expect(normalize(run(["fs:bare-scope-only"])).globalScope).toEqual({
      fs: { allow: [], deny: [] },
    });
    const twice = resolve({
      capabilities: [
        capability({ identifier: "a", windows: ["a"], permissions: ["fs:scope-only"] }),
        capability({
          identifier: "b",
          windows: ["b"],
          local: false,
          permissions: ["fs:scope-only"],
        }),
      ],
      catalog,
      platform: "linux",
    });
    expect(normalize(twice).globalScope.fs!.deny).toEqual([
      { path: "$SECRET" },
      { path: "$SECRET" },
    ]);
    expect(twice.globalScope.get("fs")!.contributions.map((c) => c.provenance.capability)).toEqual([
      "a",
      "b",
    ]);
  });

  it("sorts map keys inside scope values when normalizing", () => {
    const normalized = normalize(
      run([{ identifier: "fs:allow-plain", allow: [{ z: 1, a: { y: 2, b: [{ d: 1, c: 2 }] } }] }]),
    );
    expect(JSON.stringify(normalized.allowed["plugin:fs|plain"]![0]!.scope!.allow)).toBe(
      '[{"a":{"b":[{"c":2,"d":1}],"y":2},"z":1}]',
    );
  });

  it("records denied commands separately", () => {
    const model = run(["fs:deny-write"]);
    expect(commands(model, "denied")).toEqual(["plugin:fs|write"]);
    expect(commands(model)).toEqual([]);
  });
});

describe("capabilities, contexts and patterns", () => {
  const catalog = catalogOf({
    p: manifest({ permissions: { "allow-x": { allow: ["x"] }, "deny-y": { deny: ["y"] } } }),
    "core:window": manifest({
      permissions: { "allow-title": { allow: ["title"] } },
      default: ["allow-title"],
    }),
    core: manifest({ default: ["core:window:default"] }),
  });

  it("visits capabilities in identifier (code point) order, not input order", () => {
    const model = resolve({
      capabilities: ["b", "B", "a-2", "a"].map((identifier) =>
        capability({ identifier, windows: [identifier], permissions: ["p:allow-x"] }),
      ),
      catalog,
      platform: "linux",
    });
    expect(model.capabilities.map((c) => c.capability.identifier)).toEqual(["B", "a", "a-2", "b"]);
    expect(model.allowed.get("plugin:p|x")!.map((e) => e.provenance.capability)).toEqual([
      "B",
      "a",
      "a-2",
      "b",
    ]);
  });

  it("emits the local context first, then one remote context per url, with sorted pattern copies", () => {
    const cap = capability({
      identifier: "c",
      windows: ["z", "a", "m-*"],
      webviews: ["w2", "w1"],
      remote: { urls: ["https://b.dev", "https://a.dev"] },
      permissions: ["p:allow-x"],
    });
    const model = resolve({ capabilities: [cap], catalog, platform: "linux" });
    expect(normalize(model).allowed["plugin:p|x"]).toEqual([
      { context: "local", windows: ["a", "m-*", "z"], webviews: ["w1", "w2"], scope: null },
      {
        context: { remote: "https://b.dev" },
        windows: ["a", "m-*", "z"],
        webviews: ["w1", "w2"],
        scope: null,
      },
      {
        context: { remote: "https://a.dev" },
        windows: ["a", "m-*", "z"],
        webviews: ["w1", "w2"],
        scope: null,
      },
    ]);
    expect(cap.windows.map((item) => item.value)).toEqual(["z", "a", "m-*"]);
  });

  it("gives a capability without local or remote contexts no entries at all, not even for denies", () => {
    const model = resolve({
      capabilities: [
        capability({
          identifier: "c",
          windows: ["*"],
          local: false,
          permissions: ["p:allow-x", "p:deny-y"],
        }),
      ],
      catalog,
      platform: "linux",
    });
    expect(model.allowed.size).toBe(0);
    expect(model.denied.size).toBe(0);
  });

  it("resolves core ids through the core default set with a full chain", () => {
    const model = resolve({
      capabilities: [
        capability({ identifier: "c", windows: ["main"], permissions: ["core:default"] }),
      ],
      catalog,
      platform: "linux",
    });
    expect(chains(model, "plugin:window|title")).toEqual([
      ["core:default", "core:window:default", "core:window:allow-title"],
    ]);
    expect(model.allowed.get("plugin:window|title")![0]).toMatchObject({
      key: "core:window",
      permission: "allow-title",
    });
  });

  it("collects invalid and unsafe patterns without dropping the capability, each at its place in the file", () => {
    const model = resolve({
      capabilities: [
        capability({
          identifier: "c",
          // Items that are no string are dropped by the model but still take their place in the file.
          windows: [7, "main-**", "ok"],
          webviews: ["[abc"],
          remote: { urls: [123, "not a pattern", null, "https://(a+)+b.x"] },
          permissions: ["p:allow-x"],
        }),
      ],
      catalog,
      platform: "linux",
    });
    expect(model.capabilities[0]!.patternProblems.map((p) => [p.field, p.path, p.pattern])).toEqual(
      [
        ["windows", ["windows", 1], "main-**"],
        ["webviews", ["webviews", 0], "[abc"],
        ["remote.urls", ["remote", "urls", 1], "not a pattern"],
        ["remote.urls", ["remote", "urls", 3], "https://(a+)+b.x"],
      ],
    );
    expect(model.capabilities[0]!.patternProblems[3]!.message).toMatch(/^unsafe pattern: /);
    expect(model.allowed.get("plugin:p|x")).toHaveLength(3);
  });

  it("orders strings by code point like Rust", () => {
    expect(["b", "\u{1F600}", "\uFF5E", "a"].sort(compareCodePoints)).toEqual([
      "a",
      "b",
      "\uFF5E",
      "\u{1F600}",
    ]);
  });

  it("compares as the code points do, whatever units the strings differ at", () => {
    const byCodePoints = (a: string, b: string) => {
      const [x, y] = [[...a], [...b]].map((chars) => chars.map((c) => c.codePointAt(0)!));
      for (let i = 0; i < Math.min(x!.length, y!.length); i++)
        if (x![i] !== y![i]) return Math.sign(x![i]! - y![i]!);
      return Math.sign(x!.length - y!.length);
    };
    // Units around the surrogates and above them, lone and paired, after shared prefixes.
    const units = [
      "a",
      "z",
      "\u00e9",
      "\ud7ff",
      "\ud83d",
      "\ude00",
      "\udbff",
      "\udfff",
      "\ue000",
      "\uffff",
    ];
    const strings = [""];
    for (const first of units) {
      strings.push(first);
      for (const second of units) strings.push(first + second, `cap-${first}${second}`);
    }
    for (const a of strings)
      for (const b of strings) expect(Math.sign(compareCodePoints(a, b))).toBe(byCodePoints(a, b));
  });
});
