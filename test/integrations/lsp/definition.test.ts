import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Location } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { positionOf, startOnDataans, type Dataans } from "./app-fixture.js";
import { copyApp, startServer, uriOf } from "./client.js";

describe("caplint lsp: go to definition", () => {
  let s: Dataans;
  beforeAll(async () => {
    s = await startOnDataans();
  });
  afterAll(async () => {
    expect(await s.stop()).toBe(0);
  });

  const definition = async (uri: string, text: string, needle: string) =>
    await s.client.connection.sendRequest<Location | null>("textDocument/definition", {
      textDocument: { uri },
      position: positionOf(text, needle, 3),
    });
  const textAt = (text: string, location: Location) => {
    const document = TextDocument.create(location.uri, "json", 1, text);
    return document.getText(location.range);
  };

  it("a built-in plugin's permission: a read-only caplint: document of its catalog at the locked release", async () => {
    const text = s.disk("capabilities/migrated.json");
    const uri = await s.open("capabilities/migrated.json");
    const found = (await definition(uri, text, '"fs:allow-remove"'))!;
    expect(found.uri).toMatch(/^caplint:\/catalog\/fs@2\.\d+\.\d+\.json$/);
    const content = await s.client.connection.sendRequest<{ text: string }>(
      "caplint/textDocumentContent",
      {
        uri: found.uri,
      },
    );
    expect(textAt(content.text, found)).toBe('"allow-remove"');
    expect(JSON.parse(content.text).permissions["allow-remove"].commands.allow).toEqual(["remove"]);
    // The protocol's own request (LSP 3.18) answers the same.
    expect(
      await s.client.connection.sendRequest("workspace/textDocumentContent", { uri: found.uri }),
    ).toEqual(content);
    await expect(
      s.client.connection.sendRequest("caplint/textDocumentContent", {
        uri: "caplint:/catalog/nothing.json",
      }),
    ).rejects.toThrow(/no such caplint document/);
  });

  it("a plugin the app inlines in build.rs: the command there", async () => {
    const text = s.disk("capabilities/desktop.json");
    const uri = await s.open("capabilities/desktop.json");
    const found = (await definition(uri, text, '"dataans:allow-profile"'))!;
    expect(found.uri).toBe(s.uri("build.rs"));
    expect(textAt(s.disk("build.rs"), found)).toBe('"profile"');
  });

  it("the app's own permission: the [[permission]] of its permission file", async () => {
    mkdirSync(s.file("permissions"));
    const permissions =
      '# Fenêtre 😀\n[[permission]]\nidentifier = "allow-greet"\ndescription = "greets"\ncommands.allow = ["greet"]\n';
    writeFileSync(s.file("permissions/greet.toml"), permissions);
    const text = '{"identifier": "greeting", "windows": ["main"], "permissions": ["allow-greet"]}';
    const uri = await s.open("capabilities/greeting.json", text);
    const found = (await definition(uri, text, '"allow-greet"'))!;
    expect(found.uri).toBe(s.uri("permissions/greet.toml"));
    expect(found.range.start).toEqual({ line: 2, character: 13 });
    expect(textAt(permissions, found)).toBe('"allow-greet"');
  });

  it("a set defined in two permission files: the definition the build uses (the later file), from the loaded files", async () => {
    mkdirSync(s.file("permissions"), { recursive: true });
    const early =
      '[[set]]\nidentifier = "greeters"\ndescription = "first"\npermissions = ["allow-greet"]\n';
    const late =
      '[[permission]]\nidentifier = "allow-wave"\ncommands.allow = ["wave"]\n\n[[set]]\nidentifier = "greeters"\ndescription = "wins"\npermissions = ["allow-wave"]\n';
    writeFileSync(s.file("permissions/a-greeters.toml"), early);
    writeFileSync(s.file("permissions/b-greeters.toml"), late);
    const text = '{"identifier": "greeters", "windows": ["main"], "permissions": ["greeters"]}';
    const uri = await s.open("capabilities/greeters.json", text);
    const found = (await definition(uri, text, '"greeters"]'))!;
    expect(found.uri).toBe(s.uri("permissions/b-greeters.toml"));
    expect(found.range.start).toEqual({ line: 5, character: 13 });
    expect(textAt(late, found)).toBe('"greeters"');
  });
});

describe("caplint lsp: go to definition in a committed acl-manifests.json", () => {
  it("a third-party plugin defined by the app's generated manifest", async () => {
    const app = copyApp("real-world/clearlysid__tauri-plugin-decorum__example");
    const client = await startServer(app.dir);
    try {
      const file = path.join(app.dir, "capabilities/default.json");
      const text = readFileSync(file, "utf8");
      await client.open(uriOf(file), text);
      await client.diagnostics(uriOf(file));
      const found = await client.connection.sendRequest<Location>("textDocument/definition", {
        textDocument: { uri: uriOf(file) },
        position: positionOf(text, '"decorum:allow-show-snap-overlay"', 3),
      });
      const manifest = path.join(app.dir, "gen/schemas/acl-manifests.json");
      expect(found.uri).toBe(uriOf(manifest));
      const value = TextDocument.create(
        found.uri,
        "json",
        1,
        readFileSync(manifest, "utf8"),
      ).getText(found.range);
      expect(JSON.parse(value)).toMatchObject({ identifier: "allow-show-snap-overlay" });
      expect(await client.stop()).toBe(0);
    } finally {
      app.remove();
    }
  });
});
