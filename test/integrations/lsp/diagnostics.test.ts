import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyApp, startServer, uriOf, type TestClient } from "./client.js";

// A real app (fixtures/real-world/build-truth, see its SOURCE.txt): Cargo files, build.rs with an
// inlined plugin, a tauri.conf.json and four capability files.
const APP = "real-world/build-truth/TheBestTvarynka__Dataans";
const ERROR = 1;
const WARNING = 2;
const HINT = 4;

describe("caplint lsp: diagnostics", () => {
  let app: ReturnType<typeof copyApp>;
  let client: TestClient;
  const file = (relative: string) => path.join(app.dir, "dataans/src-tauri", relative);
  const disk = (relative: string) => readFileSync(file(relative), "utf8");
  const codes = (list: Array<{ code?: string | number | undefined }>) => list.map((d) => d.code);
  // desktop.json's three redundant grants: what the edits and the config below switch on and off.
  const redundant = (list: Array<{ code?: string | number | undefined }>) =>
    codes(list).filter((code) => code === "redundant-permission");

  beforeAll(async () => {
    app = copyApp(APP);
    client = await startServer(app.dir, {
      initializationOptions: { caplint: { rules: { "duplicate-permission": "error" } } },
    });
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
    app.remove();
  });

  it("publishes the app's findings for an opened capability file, suggestions as hints", async () => {
    await client.open(uriOf(file("capabilities/desktop.json")), disk("capabilities/desktop.json"));
    const found = await client.diagnostics(uriOf(file("capabilities/desktop.json")));
    expect(
      found.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character]),
    ).toEqual([
      ["redundant-permission", HINT, 6, 4],
      ["redundant-permission", HINT, 7, 4],
      ["redundant-permission", HINT, 8, 4],
      ["empty-grant", HINT, 30, 4],
    ]);
    expect(found[0]!.message).toBe(
      '"autostart:allow-enable" is already granted by "autostart:default" in this capability\nhelp: remove it',
    );
    expect(found[0]!.source).toBe("caplint");
    // The other files of the app are checked in the same run; the workspace setting made duplicates errors.
    const migrated = await client.diagnostics(uriOf(file("capabilities/migrated.json")));
    expect(migrated.map((d) => [d.code, d.severity])).toEqual([
      ["duplicate-permission", ERROR],
      ["redundant-permission", HINT],
    ]);
  });

  it("checks the buffer as typed, not the file on disk", async () => {
    const uri = uriOf(file("capabilities/desktop.json"));
    await client.change(
      uri,
      disk("capabilities/desktop.json").replace('"autostart:default"', '"autostart:defualt"'),
    );
    const found = await client.diagnostics(uri, (list) =>
      codes(list).includes("unknown-permission"),
    );
    const unknown = found.find((d) => d.code === "unknown-permission")!;
    expect(unknown.severity).toBe(ERROR);
    expect(unknown.message).toMatch(/did you mean "autostart:default"/);
    expect(unknown.range).toEqual({
      start: { line: 5, character: 4 },
      end: { line: 5, character: 23 },
    });
    await client.change(uri, disk("capabilities/desktop.json"));
    await client.diagnostics(uri, (list) => !codes(list).includes("unknown-permission"));
  });

  it("re-checks the capabilities when an open Cargo.toml changes, and publishes to files that are not open", async () => {
    const cargo = uriOf(file("Cargo.toml"));
    await client.open(
      cargo,
      disk("Cargo.toml").replace('tauri-plugin-autostart = "2"\n', ""),
      "toml",
    );
    const desktop = await client.diagnostics(uriOf(file("capabilities/desktop.json")), (list) =>
      codes(list).includes("plugin-not-in-build"),
    );
    expect(desktop.find((d) => d.code === "plugin-not-in-build")!.message).toMatch(
      /no tauri-plugin-autostart dependency/,
    );
    const appInfo = await client.diagnostics(uriOf(file("capabilities/app-info.json")), (list) =>
      codes(list).includes("plugin-not-in-build"),
    );
    expect(appInfo[0]!.range.start.line).toBe(15);
    // Closed unsaved: the file on disk has the dependency again.
    await client.close(cargo);
    await client.diagnostics(
      uriOf(file("capabilities/app-info.json")),
      (list) => list.length === 0,
    );
    await client.diagnostics(
      uriOf(file("capabilities/desktop.json")),
      (list) => !codes(list).includes("plugin-not-in-build"),
    );
  });

  it("re-checks when build.rs changes: the commands of a plugin it inlines", async () => {
    const build = uriOf(file("build.rs"));
    const text = disk("build.rs");
    expect(text).toContain('"profile"');
    await client.open(build, text.replace('"profile",', ""), "rust");
    const found = await client.diagnostics(uriOf(file("capabilities/desktop.json")), (list) =>
      codes(list).includes("unknown-permission"),
    );
    expect(found.find((d) => d.code === "unknown-permission")!.message).toMatch(
      /"dataans:allow-profile"/,
    );
    await client.close(build);
    await client.diagnostics(
      uriOf(file("capabilities/desktop.json")),
      (list) => !codes(list).includes("unknown-permission"),
    );
  });

  it("sees other open buffers: a second capability with the same identifier", async () => {
    const uri = uriOf(file("capabilities/cf-auth.json"));
    const text = disk("capabilities/cf-auth.json");
    await client.open(
      uri,
      text.replace(/"identifier": "[^"]*"/, '"identifier": "desktop-capability"'),
    );
    const found = await client.diagnostics(uri, (list) =>
      codes(list).includes("duplicate-capability"),
    );
    expect(found.find((d) => d.code === "duplicate-capability")!.severity).toBe(ERROR);
    await client.close(uri);
    await client.diagnostics(
      uriOf(file("capabilities/desktop.json")),
      (list) => !codes(list).includes("duplicate-capability"),
    );
  });

  it("counts columns in UTF-16 code units, as LSP does", async () => {
    const uri = uriOf(file("capabilities/desktop.json"));
    // "é" is 2 bytes and 1 unit, "😀" 4 bytes, 1 code point and 2 units: only UTF-16 puts the range on the identifier.
    const line =
      '{"identifier": "desktop-capability", "description": "Fenêtre 😀", "windows": ["main"], "permissions": ["core:windw:default"]}';
    await client.change(uri, line);
    const found = await client.diagnostics(
      uri,
      (list) =>
        codes(list).includes("unknown-plugin") || codes(list).includes("unknown-permission"),
    );
    const at = line.indexOf('"core:windw:default"');
    expect(Buffer.byteLength(line.slice(0, at))).not.toBe(at);
    expect([...line.slice(0, at)].length).not.toBe(at);
    expect(found[0]!.range).toEqual({
      start: { line: 0, character: at },
      end: { line: 0, character: at + '"core:windw:default"'.length },
    });
    await client.change(uri, disk("capabilities/desktop.json"));
    await client.diagnostics(uri, (list) => redundant(list).length === 3);
  });

  it("checks TOML capability files, and reports a broken buffer without stopping", async () => {
    const toml = file("capabilities/extra.toml");
    writeFileSync(
      toml,
      'identifier = "extra"\nwindows = ["main"]\npermissions = ["core:default"]\n',
    );
    const uri = uriOf(toml);
    await client.open(
      uri,
      'identifier = "extra"\nwindows = ["main"]\n# Fenêtre 😀\npermissions = ["core:default", "shell:allow-opne"]\n',
    );
    const found = await client.diagnostics(uri, (list) =>
      codes(list).includes("unknown-permission"),
    );
    expect(found.find((d) => d.code === "unknown-permission")!.range.start).toEqual({
      line: 3,
      character: 31,
    });
    await client.change(uri, 'identifier = "extra"\nwindows = [\n');
    const broken = await client.diagnostics(uri, (list) => codes(list).includes("parse"));
    expect(broken[0]!.severity).toBe(ERROR);
    await client.change(
      uri,
      'identifier = "extra"\nwindows = ["main"]\npermissions = ["core:default"]\n',
    );
    await client.diagnostics(uri, (list) => list.length === 0);
    await client.close(uri);
  });

  it("follows caplint.config.json (and an unsaved edit of it) and the capability's suppressions", async () => {
    const configFile = path.join(app.dir, "dataans", "caplint.config.json");
    writeFileSync(configFile, JSON.stringify({ rules: { "redundant-permission": "off" } }));
    const config = uriOf(configFile);
    await client.open(config, JSON.stringify({ rules: { "redundant-permission": "off" } }));
    const desktop = uriOf(file("capabilities/desktop.json"));
    await client.diagnostics(desktop, (list) => redundant(list).length === 0);
    await client.change(config, JSON.stringify({ rules: { "redundant-permission": "warning" } }));
    const warned = await client.diagnostics(desktop, (list) => redundant(list).length === 3);
    expect(
      warned.filter((d) => d.code === "redundant-permission").every((d) => d.severity === WARNING),
    ).toBe(true);
    await client.close(config);
    await client.diagnostics(desktop, (list) => redundant(list).length === 0);
    writeFileSync(configFile, "{}");
    const suppressed = disk("capabilities/desktop.json").replace(
      '"identifier": "desktop-capability",',
      '"identifier": "desktop-capability",\n  "caplint-disable": ["redundant-permission"],',
    );
    await client.change(desktop, suppressed);
    await client.diagnostics(desktop, (list) => redundant(list).length === 0);
    await client.change(desktop, disk("capabilities/desktop.json"));
    await client.diagnostics(desktop, (list) => redundant(list).length === 3);
  });
});
