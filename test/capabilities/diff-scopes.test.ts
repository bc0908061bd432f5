import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadProject } from "../../src/capabilities/load/project.js";
import { diffAccessOnPlatforms, type ScopeChange } from "../../src/capabilities/queries/diff.js";
import { resolvePlatformGroups } from "../../src/capabilities/queries/platforms.js";
import { run } from "../helpers/run.js";

/**
 * Which scope values `caplint diff` counts as wider, with the built-in catalog's real fs permissions:
 * `fs:scope-home-recursive` (allows `$HOME` and `$HOME/**`, no commands), `fs:scope` (no commands,
 * no scope: extended, it carries only what the entry adds), `fs:allow-home-read-recursive` (a set of
 * `read-all` and `scope-home-recursive`), `fs:deny-default` (its members have no scope in any
 * generated manifest, so it denies nothing).
 */
const temporaries: string[] = [];
afterAll(() => {
  for (const dir of temporaries) rmSync(dir, { recursive: true, force: true });
});

type Capability = {
  identifier: string;
  windows?: string[];
  webviews?: string[];
  platforms?: string[];
  permissions: unknown[];
};

/** Two sides, each a folder of capability files (and optionally the app's own permission files). */
async function diff(old: Capability[], current: Capability[], appPermissions?: string) {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-diff-scopes-"));
  temporaries.push(dir);
  const side = async (name: string, capabilities: Capability[]) => {
    mkdirSync(path.join(dir, name, "capabilities"), { recursive: true });
    for (const capability of capabilities)
      writeFileSync(
        path.join(dir, name, "capabilities", `${capability.identifier}.json`),
        JSON.stringify(capability, null, 2),
      );
    const permissions =
      appPermissions === undefined ? undefined : path.join(dir, name, "permissions");
    if (permissions !== undefined && appPermissions !== undefined) {
      mkdirSync(permissions);
      writeFileSync(path.join(permissions, "app.toml"), appPermissions);
    }
    const project = await loadProject({
      cwd: dir,
      paths: [path.join(name, "capabilities")],
      ...(permissions ? { permissions: [permissions] } : {}),
    });
    return resolvePlatformGroups(project);
  };
  return diffAccessOnPlatforms(await side("old", old), await side("new", current));
}

/** A change in a few words, for assertions that read like the answer. */
function summary({ item, platforms }: { item: ScopeChange; platforms: string[] }) {
  const where =
    item.scope === "global"
      ? `global ${item.plugin}`
      : `${item.command} ${item.target} ${item.pattern} ${item.context}`;
  const source = item.scope === "global" ? item.contribution.provenance : item.entry.provenance;
  return `${where} ${item.change} ${JSON.stringify(item.value)} (${source.capability}: ${source.chain.join(" > ")}) ${platforms.length === 5 ? "" : platforms.join(",")}`.trim();
}

const main = (permissions: unknown[], windows = ["main"]): Capability => ({
  identifier: "main",
  windows,
  permissions,
});
const other = (permissions: unknown[]): Capability => ({
  identifier: "other",
  windows: ["other"],
  permissions,
});
const SSH = { path: "$HOME/.ssh/**" };

describe("diff: global scope", () => {
  it("a scope-only permission added widens the plugin's global scope for every command and window", async () => {
    const result = await diff(
      [main(["fs:allow-read-file"])],
      [main(["fs:allow-read-file", "fs:scope-home-recursive"])],
    );
    expect(result.added).toEqual([]);
    expect(result.scopes.map(summary)).toEqual([
      'global fs allowed {"path":"$HOME/**"} (main: fs:scope-home-recursive)',
      'global fs allowed {"path":"$HOME"} (main: fs:scope-home-recursive)',
    ]);
    const [change] = result.scopes;
    expect(change!.item.scope === "global" && change!.item.contribution.provenance).toMatchObject({
      file: "new/capabilities/main.json",
      path: ["permissions", 1],
    });
  });

  it("counts only where a command of the plugin is callable on the new side: global scope is read by its commands", async () => {
    // No fs command at all: the wider global scope reaches nothing at run time.
    expect(
      (await diff([main(["core:default"])], [main(["core:default", "fs:scope-home-recursive"])]))
        .scopes,
    ).toEqual([]);
    // A capability of another window holding the scope still widens what main's fs commands reach: global scope is not per window.
    const result = await diff(
      [main(["fs:allow-read-file"]), other([])],
      [main(["fs:allow-read-file"]), other(["fs:scope-home-recursive"])],
    );
    expect(result.scopes.map(summary)).toContain(
      'global fs allowed {"path":"$HOME"} (other: fs:scope-home-recursive)',
    );
    // A command of the plugin that is denied everywhere calls nothing: no reader.
    const denied = await diff(
      [main(["fs:allow-read-file", "fs:deny-read-file"])],
      [main(["fs:allow-read-file", "fs:deny-read-file", "fs:scope-home-recursive"])],
    );
    expect(denied.scopes).toEqual([]);
  });

  it("a global deny dropped is a wider scope; fs:deny-default dropped is not (its members deny nothing)", async () => {
    const result = await diff(
      [main(["fs:allow-read-file", { identifier: "fs:scope", deny: [SSH] }])],
      [main(["fs:allow-read-file", "fs:scope"])],
    );
    expect(result.scopes.map(summary)).toEqual([
      'global fs no longer denied {"path":"$HOME/.ssh/**"} (main: fs:scope)',
    ]);
    expect(
      (
        await diff(
          [main(["fs:allow-read-file", "fs:deny-default"])],
          [main(["fs:allow-read-file"])],
        )
      ).scopes,
    ).toEqual([]);
  });

  it("the extra scope of a set entry reaches its commands' scope and, for its scope-only members, the global scope", async () => {
    const result = await diff(
      [main([{ identifier: "fs:allow-home-read-recursive", deny: [SSH] }])],
      [main(["fs:allow-home-read-recursive"])],
    );
    const lines = result.scopes.map(summary);
    expect(lines).toContain(
      'global fs no longer denied {"path":"$HOME/.ssh/**"} (main: fs:allow-home-read-recursive > fs:scope-home-recursive)',
    );
    expect(lines).toContain(
      'plugin:fs|read_file window main local no longer denied {"path":"$HOME/.ssh/**"} (main: fs:allow-home-read-recursive > fs:read-all)',
    );
  });

  it("a value moved from a command's scope to the global scope widens; the other way round it narrows", async () => {
    const command = main([
      "fs:allow-write-file",
      { identifier: "fs:allow-read-file", allow: [{ path: "$HOME/notes" }] },
    ]);
    const global = main([
      "fs:allow-write-file",
      "fs:allow-read-file",
      { identifier: "fs:scope", allow: [{ path: "$HOME/notes" }] },
    ]);
    expect((await diff([command], [global])).scopes.map(summary)).toEqual([
      'global fs allowed {"path":"$HOME/notes"} (main: fs:scope)',
    ]);
    expect((await diff([global], [command])).scopes).toEqual([]);
  });

  it("an app's own scope-only permission is the app's global scope", async () => {
    const permissions = `[[permission]]\nidentifier = "allow-greet"\ncommands.allow = ["greet"]\n\n[[permission]]\nidentifier = "data-scope"\n[[permission.scope.allow]]\npath = "/data"\n`;
    const result = await diff(
      [main(["allow-greet"])],
      [main(["allow-greet", "data-scope"])],
      permissions,
    );
    expect(result.scopes.map(summary)).toEqual([
      'global __app-acl__ allowed {"path":"/data"} (main: data-scope)',
    ]);
  });

  it("holds per platform", async () => {
    const linuxOnly: Capability = {
      identifier: "linux",
      windows: ["main"],
      platforms: ["linux"],
      permissions: ["fs:scope-home-recursive"],
    };
    const result = await diff(
      [main(["fs:allow-read-file"])],
      [main(["fs:allow-read-file"]), linuxOnly],
    );
    expect(result.scopes.map(summary)).toEqual([
      'global fs allowed {"path":"$HOME/**"} (linux: fs:scope-home-recursive) linux',
      'global fs allowed {"path":"$HOME"} (linux: fs:scope-home-recursive) linux',
    ]);
  });
});

describe("diff: a command's scope, per window", () => {
  const secret = { path: "$HOME/secret" };

  it("a deny dropped from an object entry that has only deny", async () => {
    const result = await diff(
      [main(["fs:allow-read-file", { identifier: "fs:allow-read-file", deny: [secret] }])],
      [main(["fs:allow-read-file"])],
    );
    expect(result.scopes.map(summary)).toEqual([
      'plugin:fs|read_file window main local no longer denied {"path":"$HOME/secret"} (main: fs:allow-read-file)',
    ]);
  });

  it("a deny dropped for one window while another window keeps it (per command, the value is still listed)", async () => {
    const withDeny = [{ identifier: "fs:allow-read-file", deny: [secret] }];
    const result = await diff(
      [main(withDeny), other(withDeny)],
      [main(["fs:allow-read-file"]), other(withDeny)],
    );
    expect(result.scopes.map(summary)).toEqual([
      'plugin:fs|read_file window main local no longer denied {"path":"$HOME/secret"} (main: fs:allow-read-file)',
    ]);
  });

  it("a deny still held by a pattern covering the window, or by the global scope, is kept", async () => {
    const everyWindow: Capability = {
      identifier: "every",
      windows: ["*"],
      permissions: [{ identifier: "fs:allow-read-file", deny: [secret] }],
    };
    expect(
      (
        await diff(
          [main([{ identifier: "fs:allow-read-file", deny: [secret] }]), everyWindow],
          [main(["fs:allow-read-file"]), everyWindow],
        )
      ).scopes,
    ).toEqual([]);
    expect(
      (
        await diff(
          [main([{ identifier: "fs:allow-read-file", deny: [secret] }])],
          [main(["fs:allow-read-file", { identifier: "fs:scope", deny: [secret] }])],
        )
      ).scopes,
    ).toEqual([]);
  });

  it("a deny of windows that can no longer call the command widens nothing", async () => {
    const result = await diff(
      [main([{ identifier: "fs:allow-read-file", deny: [secret] }]), other(["fs:allow-read-file"])],
      [other(["fs:allow-read-file"])],
    );
    expect(result.scopes).toEqual([]);
    expect(result.removed.map((grant) => grant.item.pattern)).toEqual(["main"]);
  });

  it("a deny dropped where another grant reaches the same windows: a pattern covering them, or a webview of the same label", async () => {
    const wide: Capability = {
      identifier: "wide",
      windows: ["main-*"],
      permissions: ["fs:allow-read-file"],
    };
    const narrow = (permissions: unknown[]): Capability => ({
      identifier: "narrow",
      windows: ["main-1"],
      permissions,
    });
    const result = await diff(
      [narrow([{ identifier: "fs:allow-read-file", deny: [secret] }]), wide],
      [wide],
    );
    expect(result.scopes.map(summary)).toEqual([
      'plugin:fs|read_file window main-1 local no longer denied {"path":"$HOME/secret"} (narrow: fs:allow-read-file)',
    ]);
    const webview: Capability = {
      identifier: "webview",
      webviews: ["main"],
      permissions: ["fs:allow-read-file"],
    };
    const viaWebview = await diff(
      [main([{ identifier: "fs:allow-read-file", deny: [secret] }]), webview],
      [webview],
    );
    expect(viaWebview.scopes.map(summary)).toEqual([
      'plugin:fs|read_file window main local no longer denied {"path":"$HOME/secret"} (main: fs:allow-read-file)',
    ]);
  });

  it("an allowed value copied to another window's entry", async () => {
    const notes = { identifier: "fs:allow-read-file", allow: [{ path: "$HOME/notes" }] };
    const result = await diff(
      [main([notes]), other(["fs:allow-read-file"])],
      [main([notes]), other([notes])],
    );
    expect(result.scopes.map(summary)).toEqual([
      'plugin:fs|read_file window other local allowed {"path":"$HOME/notes"} (other: fs:allow-read-file)',
    ]);
    // Moved under a pattern that covers the window it had: nothing new.
    expect(
      (await diff([main([notes])], [main([notes], ["main", "main-*"])])).scopes.map(summary),
    ).toEqual([
      'plugin:fs|read_file window main-* local allowed {"path":"$HOME/notes"} (main: fs:allow-read-file)',
    ]);
    expect((await diff([main([notes], ["*"])], [main([notes])])).scopes).toEqual([]);
  });
});

describe("diff OLD NEW: findings for dropped denies", () => {
  it("sit in the new folder's file that held the deny, naming the old folder's line", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-diff-scopes-"));
    temporaries.push(dir);
    const write = (side: string, permissions: string[]) => {
      mkdirSync(path.join(dir, side), { recursive: true });
      const text = `{\n  "identifier": "main",\n  "windows": ["main"],\n  "permissions": [\n    ${permissions.join(",\n    ")}\n  ]\n}\n`;
      writeFileSync(path.join(dir, side, "main.json"), text);
    };
    write("v1", [
      '"fs:allow-read-file"',
      '{ "identifier": "fs:scope", "deny": [{ "path": "$HOME/.ssh/**" }] }',
    ]);
    write("v2", ['"fs:allow-read-file"', '"fs:scope"']);
    const result = await run(
      ["diff", "v1", "v2", "--platform", "linux", "--format", "compact"],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'v2/main.json:6:5: error wider scope: global scope of fs (every fs command, every window) no longer denied {"path":"$HOME/.ssh/**"}, denied on the old side by main › fs:scope (v1/main.json:6) [new-access]',
    );
  });
});
