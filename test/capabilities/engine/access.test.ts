import { describe, expect, it } from "vitest";
import { APP_KEY } from "../../../src/capabilities/catalog/types.js";
import {
  accessMatrix,
  resolve,
  resolveAccess,
  whoCan,
  type Origin,
  type ResolvedModel,
} from "../../../src/capabilities/engine/index.js";
import { capability, catalogOf, manifest } from "./helpers.js";

const local: Origin = { kind: "local" };
const remote = (url: string): Origin => ({ kind: "remote", url });

const catalog = catalogOf({
  fs: manifest({
    permissions: {
      "allow-read": { allow: ["read"], scope: { allow: [{ path: "$APPDATA/**" }] } },
      "allow-write": { allow: ["write"] },
      "deny-write": { deny: ["write"] },
      "allow-home": { scope: { allow: [{ path: "$HOME" }] } },
      "linux-deny-read": { deny: ["read"], platforms: ["linux"] },
    },
    sets: { everything: ["allow-read", "allow-write"] },
    default: ["allow-read"],
  }),
  "core:window": manifest({
    permissions: { "allow-close": { allow: ["close"] }, "allow-title": { allow: ["title"] } },
    default: ["allow-title"],
  }),
  [APP_KEY]: manifest({ permissions: { "allow-greet": { allow: ["greet"] } } }),
});

const model = (
  capabilities: Parameters<typeof capability>[0][],
  platform = "linux",
): ResolvedModel => resolve({ capabilities: capabilities.map(capability), catalog, platform });
const allowedNames = (
  m: ResolvedModel,
  window: string,
  extra: { webview?: string; origin?: Origin } = {},
) => resolveAccess(m, { window, ...extra }).allowed.map((a) => a.command);

describe("resolveAccess: labels", () => {
  const m = model([
    {
      identifier: "mixed",
      windows: ["main"],
      webviews: ["child"],
      permissions: ["fs:allow-write"],
    },
  ]);

  it("ORs windows and webviews: a window match covers any webview, a webview match any window", () => {
    expect(allowedNames(m, "main", { webview: "anything" })).toEqual(["plugin:fs|write"]);
    expect(allowedNames(m, "other", { webview: "child" })).toEqual(["plugin:fs|write"]);
    expect(allowedNames(m, "other", { webview: "other" })).toEqual([]);
  });

  it("defaults the webview label to the window label", () => {
    const webviewsOnly = model([
      { identifier: "w", webviews: ["main"], permissions: ["fs:allow-write"] },
    ]);
    expect(allowedNames(webviewsOnly, "main")).toEqual(["plugin:fs|write"]);
    expect(allowedNames(webviewsOnly, "main", { webview: "inner" })).toEqual([]);
  });

  it("matches nothing with empty windows and webviews", () => {
    const none = model([{ identifier: "none", permissions: ["fs:allow-write"] }]);
    expect(allowedNames(none, "main")).toEqual([]);
    expect(resolveAccess(none, { window: "main" }).capabilities).toEqual([]);
  });

  it("matches globs and ignores invalid ones", () => {
    const globs = model([
      { identifier: "g", windows: ["main-*", "bad-**"], permissions: ["fs:allow-write"] },
    ]);
    expect(allowedNames(globs, "main-2")).toEqual(["plugin:fs|write"]);
    expect(allowedNames(globs, "bad-x")).toEqual([]);
  });
});

describe("resolveAccess: origins", () => {
  const m = model([
    {
      identifier: "site",
      windows: ["main"],
      local: false,
      remote: { urls: ["https://*.x.dev", "http://localhost"] },
      permissions: ["fs:allow-write"],
    },
    { identifier: "app", windows: ["main"], permissions: ["fs:allow-read"] },
  ]);

  it("keeps local and remote contexts apart", () => {
    expect(allowedNames(m, "main")).toEqual(["plugin:fs|read"]);
    expect(allowedNames(m, "main", { origin: remote("https://api.x.dev/page") })).toEqual([
      "plugin:fs|write",
    ]);
  });

  it("excludes the apex from `https://*.x.dev` and other ports from `http://localhost`", () => {
    expect(allowedNames(m, "main", { origin: remote("https://x.dev/") })).toEqual([]);
    expect(allowedNames(m, "main", { origin: remote("http://localhost/") })).toEqual([
      "plugin:fs|write",
    ]);
    expect(allowedNames(m, "main", { origin: remote("http://localhost:1420/") })).toEqual([]);
  });

  it("applies a capability with remote urls locally too unless local is false", () => {
    const both = model([
      {
        identifier: "both",
        windows: ["main"],
        remote: { urls: ["https://x.dev"] },
        permissions: ["fs:allow-write"],
      },
    ]);
    expect(allowedNames(both, "main")).toEqual(["plugin:fs|write"]);
    expect(allowedNames(both, "main", { origin: remote("https://x.dev/a") })).toEqual([
      "plugin:fs|write",
    ]);
  });
});

describe("resolveAccess: denies", () => {
  it("denies everywhere once any active capability denies, whatever its windows or origin", () => {
    const m = model([
      { identifier: "main", windows: ["main"], permissions: ["fs:allow-write"] },
      {
        identifier: "elsewhere",
        windows: ["unrelated"],
        local: false,
        remote: { urls: ["https://evil.dev"] },
        permissions: ["fs:deny-write"],
      },
    ]);
    const result = resolveAccess(m, { window: "main" });
    expect(result.allowed).toEqual([]);
    expect(
      result.denied.map((d) => [
        d.command,
        d.deniedBy.map((e) => e.provenance.capability),
        d.overriddenGrants.map((e) => e.provenance.capability),
      ]),
    ).toEqual([["plugin:fs|write", ["elsewhere"], ["main"]]]);
    expect(
      resolveAccess(m, { window: "x", origin: remote("https://other.dev") }).denied.map(
        (d) => d.command,
      ),
    ).toEqual(["plugin:fs|write"]);
  });

  it("denies a command allowed and denied by the same capability", () => {
    const m = model([
      { identifier: "both", windows: ["main"], permissions: ["fs:allow-write", "fs:deny-write"] },
    ]);
    expect(allowedNames(m, "main")).toEqual([]);
  });

  it("ignores denies from inactive capabilities and from leaves filtered out by platforms", () => {
    const capabilities = [
      { identifier: "main", windows: ["main"], permissions: ["fs:allow-write", "fs:allow-read"] },
      {
        identifier: "mac-deny",
        windows: ["main"],
        platforms: ["macOS"],
        permissions: ["fs:deny-write"],
      },
      { identifier: "linux-leaf", windows: ["main"], permissions: ["fs:linux-deny-read"] },
    ];
    expect(allowedNames(model(capabilities, "linux"), "main")).toEqual(["plugin:fs|write"]);
    expect(allowedNames(model(capabilities, "windows"), "main")).toEqual([
      "plugin:fs|read",
      "plugin:fs|write",
    ]);
    expect(allowedNames(model(capabilities, "macOS"), "main")).toEqual(["plugin:fs|read"]);
  });
});

describe("resolveAccess: scopes and provenance", () => {
  const m = model([
    {
      identifier: "a",
      windows: ["main"],
      permissions: [
        { identifier: "fs:allow-read", deny: [{ path: "$APPDATA/secret" }] },
        "fs:allow-home",
      ],
    },
    {
      identifier: "b",
      windows: ["main", "other"],
      permissions: ["core:window:default", "fs:default"],
    },
  ]);

  it("concatenates the scopes of all granting entries and adds the plugin's global scope", () => {
    const read = resolveAccess(m, { window: "main" }).allowed.find(
      (a) => a.command === "plugin:fs|read",
    )!;
    expect(read.grantedBy.map((g) => g.provenance.capability)).toEqual(["a", "b"]);
    expect(read.scope).toEqual({
      allow: [{ path: "$APPDATA/**" }, { path: "$APPDATA/**" }],
      deny: [{ path: "$APPDATA/secret" }],
    });
    expect(read.globalScope).toEqual({ allow: [{ path: "$HOME" }], deny: [] });
    const other = resolveAccess(m, { window: "other" }).allowed.find(
      (a) => a.command === "plugin:fs|read",
    )!;
    expect(other.scope).toEqual({ allow: [{ path: "$APPDATA/**" }], deny: [] });
  });

  it("reports the chain behind each grant", () => {
    const title = resolveAccess(m, { window: "other", command: "plugin:window|title" });
    expect(title.allowed[0]!.grantedBy[0]!.provenance).toEqual({
      capability: "b",
      file: "capabilities/b.json",
      path: ["permissions", 0],
      chain: ["core:window:default", "core:window:allow-title"],
    });
  });

  it("lists the capabilities covering the caller", () => {
    expect(resolveAccess(m, { window: "main" }).capabilities).toEqual(["a", "b"]);
    expect(resolveAccess(m, { window: "other" }).capabilities).toEqual(["b"]);
  });
});

describe("explanations in the host's words", () => {
  const m = model([
    {
      identifier: "main-cap",
      windows: ["main-*"],
      permissions: ["core:window:allow-title", "fs:allow-write"],
    },
    { identifier: "deny-cap", windows: ["x"], permissions: ["fs:deny-write"] },
  ]);

  it("explains an allowed call", () => {
    const { explanation } = resolveAccess(m, { window: "main-1", command: "plugin:window|title" });
    expect(explanation).toMatchObject({
      verdict: "allowed",
      displayName: "window.title",
      key: "core:window",
      enforced: true,
    });
    expect(explanation!.message).toBe(
      'window.title allowed on window "main-1", webview "main-1", URL: local\n\nreferenced by: capability: main-cap, permission: allow-title',
    );
  });

  it("explains a call from a window no capability covers", () => {
    const { explanation } = resolveAccess(m, {
      window: "settings",
      command: "plugin:window|title",
    });
    expect(explanation!.verdict).toBe("not-allowed-here");
    expect(explanation!.allowedOn).toBe('allowed on: [windows: "main-*", URL: local]');
    expect(explanation!.message).toBe(
      'window.title not allowed on window "settings", webview "settings", URL: local\n\nallowed on: [windows: "main-*", URL: local]\n\nreferenced by: capability: main-cap, permission: allow-title',
    );
  });

  it("explains a denied call with the deny's references and the overridden grant", () => {
    const { explanation } = resolveAccess(m, {
      window: "main-1",
      command: "plugin:fs|write",
      origin: remote("https://X.dev"),
    });
    expect(explanation!.verdict).toBe("denied");
    expect(explanation!.grantedBy).toEqual([]);
    expect(explanation!.message).toBe(
      "fs.write explicitly denied on origin remote: https://x.dev/\n\nreferenced by: capability: deny-cap, permission: deny-write",
    );
    const local = resolveAccess(m, { window: "main-1", command: "plugin:fs|write" }).explanation!;
    expect(local.grantedBy.map((g) => g.provenance.capability)).toEqual(["main-cap"]);
  });

  it("lists the permissions that would grant a command nobody grants", () => {
    const { explanation } = resolveAccess(m, { window: "main-1", command: "plugin:fs|read" });
    expect(explanation!.verdict).toBe("not-granted");
    expect(explanation!.message).toBe(
      "fs.read not allowed. Permissions associated with this command: fs:allow-read, fs:default, fs:everything",
    );
    expect(explanation!.associatedPermissions).toEqual([
      "fs:allow-read",
      "fs:default",
      "fs:everything",
    ]);
  });

  it("says when the command or the plugin does not exist", () => {
    expect(
      resolveAccess(m, { window: "main-1", command: "plugin:window|nope" }).explanation!.message,
    ).toBe("window.nope not allowed. Command not found");
    expect(
      resolveAccess(m, { window: "main-1", command: "plugin:ghost|x" }).explanation,
    ).toMatchObject({
      message: "ghost.x not allowed. Plugin not found",
      pluginFound: false,
    });
  });

  it("knows when app commands are not checked at all", () => {
    const withoutAppAcl = resolve({
      capabilities: [],
      catalog: catalogOf({ fs: manifest({}) }),
      platform: "linux",
    });
    expect(
      resolveAccess(withoutAppAcl, { window: "main", command: "greet" }).explanation,
    ).toMatchObject({ enforced: false, verdict: "unchecked" });
    expect(
      resolveAccess(withoutAppAcl, { window: "main", command: "greet" }).explanation!.message,
    ).toMatch(/^greet is not checked by the host: the app defines no permissions/);
    expect(
      resolveAccess(withoutAppAcl, {
        window: "main",
        command: "greet",
        origin: remote("https://x.dev"),
      }).explanation,
    ).toMatchObject({
      enforced: true,
      verdict: "not-granted",
    });
    expect(resolveAccess(m, { window: "main", command: "greet" }).explanation).toMatchObject({
      enforced: true,
      key: APP_KEY,
      displayName: "greet",
    });
  });
});

describe("whoCan", () => {
  it("lists every allow entry with its capability, patterns and context, plus the denies", () => {
    const m = model([
      { identifier: "one", windows: ["b", "a"], permissions: ["fs:allow-write"] },
      {
        identifier: "two",
        webviews: ["w"],
        local: false,
        remote: { urls: ["https://x.dev"] },
        permissions: ["fs:everything"],
      },
      { identifier: "three", windows: ["z"], permissions: ["fs:deny-write"] },
    ]);
    const result = whoCan(m, "plugin:fs|write");
    expect(
      result.allowedBy.map((e) => [
        e.provenance.capability,
        e.windows,
        e.webviews,
        e.context,
        e.provenance.chain,
      ]),
    ).toEqual([
      ["one", ["a", "b"], [], { kind: "local" }, ["fs:allow-write"]],
      [
        "two",
        [],
        ["w"],
        { kind: "remote", url: "https://x.dev" },
        ["fs:everything", "fs:allow-write"],
      ],
    ]);
    expect(result.deniedBy.map((e) => e.provenance.capability)).toEqual(["three"]);
    expect(result.deniedEverywhere).toBe(true);
    expect(whoCan(m, "plugin:fs|nothing")).toEqual({
      command: "plugin:fs|nothing",
      allowedBy: [],
      deniedBy: [],
      deniedEverywhere: false,
    });
  });
});

describe("accessMatrix", () => {
  const m = model([
    {
      identifier: "main",
      windows: ["main"],
      permissions: ["fs:allow-read", "fs:allow-write", "core:window:allow-close"],
    },
    {
      identifier: "panels",
      windows: ["panel-*"],
      webviews: ["main"],
      permissions: ["core:window:allow-title"],
    },
    {
      identifier: "remote",
      windows: ["*"],
      local: false,
      remote: { urls: ["https://x.dev"] },
      permissions: ["core:window:allow-close"],
    },
    { identifier: "deny", windows: ["nobody"], permissions: ["fs:deny-write"] },
  ]);

  it("gives each window its granted and overridden commands, agreeing with resolveAccess", () => {
    const windows = ["main", "panel-1", "other"];
    const matrix = accessMatrix(m, windows, local);
    expect(matrix.commands).toEqual([
      "plugin:fs|read",
      "plugin:fs|write",
      "plugin:window|close",
      "plugin:window|title",
    ]);
    expect(matrix.denied).toEqual(["plugin:fs|write"]);
    expect(matrix.rows).toEqual([
      {
        window: "main",
        capabilities: ["main", "panels"],
        granted: ["plugin:fs|read", "plugin:window|close", "plugin:window|title"],
        overridden: ["plugin:fs|write"],
      },
      {
        window: "panel-1",
        capabilities: ["panels"],
        granted: ["plugin:window|title"],
        overridden: [],
      },
      { window: "other", capabilities: [], granted: [], overridden: [] },
    ]);
    for (const window of windows) {
      expect(matrix.rows.find((r) => r.window === window)!.granted).toEqual(
        allowedNames(m, window),
      );
    }
  });

  it("answers from the origin it was built for", () => {
    const matrix = accessMatrix(m, ["main", "other"], remote("https://x.dev/app"));
    expect(matrix.rows.map((r) => [r.window, r.granted])).toEqual([
      ["main", ["plugin:window|close"]],
      ["other", ["plugin:window|close"]],
    ]);
  });

  it("explains a cell on demand", () => {
    const matrix = accessMatrix(m, ["main", "panel-1"], local);
    const close = matrix.cell("main", "plugin:window|close");
    expect(close.state).toBe("granted");
    expect(close.grantedBy.map((e) => e.provenance.capability)).toEqual(["main"]);
    expect(matrix.cell("main", "plugin:fs|write")).toMatchObject({ state: "denied" });
    expect(matrix.cell("panel-1", "plugin:fs|read")).toEqual({
      state: "none",
      grantedBy: [],
      deniedBy: [],
    });
    expect(() => matrix.cell("unknown", "plugin:fs|read")).toThrow(RangeError);
    expect(JSON.parse(JSON.stringify(matrix))).toMatchObject({
      windows: ["main", "panel-1"],
      denied: ["plugin:fs|write"],
    });
  });
});
