import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompletionItem } from "vscode-languageserver-protocol";
import { positionOf, startOnDataans, type Dataans } from "./app-fixture.js";

describe("caplint lsp: completion", () => {
  let s: Dataans;
  beforeAll(async () => {
    s = await startOnDataans();
  });
  afterAll(async () => {
    expect(await s.stop()).toBe(0);
  });

  const complete = async (uri: string, position: { line: number; character: number }) =>
    await s.client.connection.sendRequest<CompletionItem[]>("textDocument/completion", {
      textDocument: { uri },
      position,
    });

  it("offers the permissions of this app's build only, at its locked releases, with what each allows", async () => {
    const text = s
      .disk("capabilities/desktop.json")
      .replace('"autostart:default"', '"autostart:def"');
    const uri = await s.open("capabilities/desktop.json", text);
    const items = await complete(uri, positionOf(text, '"autostart:def"', 14));
    const labels = items.map((item) => item.label);
    // The app's own inlined plugin (build.rs), official plugins it depends on, core.
    expect(labels).toEqual(
      expect.arrayContaining([
        "autostart:default",
        "dataans:allow-list-spaces",
        "core:window:allow-close",
        "fs:allow-read-text-file",
      ]),
    );
    // Not dependencies of this app: never offered.
    expect(
      labels.filter((label) => /^(http|opener|updater|clipboard-manager):/.test(label)),
    ).toEqual([]);
    const item = items.find((i) => i.label === "autostart:default")!;
    expect(item.detail).toBe("default set · tauri-plugin-autostart 2.5.1 · allows 3 commands");
    expect((item.documentation as { value: string }).value).toContain(
      "**Allows:** `plugin:autostart|disable`, `plugin:autostart|enable`, `plugin:autostart|is_enabled`",
    );
    // The string's content is replaced, quotes kept.
    const start = positionOf(text, '"autostart:def"', 1);
    expect(item.textEdit).toEqual({
      range: {
        start,
        end: { line: start.line, character: start.character + "autostart:def".length },
      },
      newText: "autostart:default",
    });
    // A deny-* permission is described by what it denies, not as "allows 0 commands".
    const deny = items.find((i) => i.label === "autostart:deny-enable")!;
    expect(deny.detail).toBe("permission · tauri-plugin-autostart 2.5.1 · denies 1 command");
    const inlined = items.find((i) => i.label === "dataans:allow-profile")!;
    expect((inlined.documentation as { value: string }).value).toContain(
      "`plugin:dataans|profile`",
    );
  });

  it("offers window labels, platform names and the fields not yet written", async () => {
    const text =
      '{\n  "identifier": "extra",\n  "windows": [""],\n  "platforms": ["l"],\n  \n  "permissions": []\n}\n';
    const uri = await s.open("capabilities/extra.json", text);
    const windows = await complete(uri, positionOf(text, '[""]', 2));
    expect(windows.map((i) => i.label)).toContain("main");
    const platforms = await complete(uri, positionOf(text, '["l"]', 3));
    expect(platforms.map((i) => i.label)).toEqual(["linux", "macOS", "windows", "android", "iOS"]);
    const fields = await complete(uri, { line: 4, character: 2 });
    expect(fields.map((i) => i.label).sort()).toEqual([
      "description",
      "local",
      "remote",
      "webviews",
    ]);
    expect(fields.find((i) => i.label === "remote")!.textEdit).toMatchObject({
      newText: '"remote"',
    });
    expect(
      (fields.find((i) => i.label === "remote")!.documentation as { value: string }).value,
    ).toContain('`{ "urls": ["https://*.example.com"] }`');
  });

  it("writes TOML in a TOML file: bare field names, the field's example as TOML", async () => {
    const toml =
      'identifier = "fields-toml"\nwindows = ["main"]\nre\npermissions = ["core:default"]\n';
    const uri = await s.open("capabilities/fields.toml", toml);
    const fields = await complete(uri, { line: 2, character: 2 });
    const remote = fields.find((i) => i.label === "remote")!;
    expect(remote.textEdit).toMatchObject({ newText: "remote" });
    expect((remote.documentation as { value: string }).value).toContain(
      '`{ urls = ["https://*.example.com"] }`',
    );
    await s.client.close(uri);
  });

  it("completes in TOML capability files and in a half-typed JSON buffer", async () => {
    const toml =
      'identifier = "extra-toml"\nwindows = ["main"]\npermissions = [\n  "core:default",\n  "global-shortcut:allow-reg"\n]\n';
    const uri = await s.open("capabilities/extra.toml", toml);
    const items = await complete(uri, positionOf(toml, "allow-reg", 9));
    expect(items.map((i) => i.label)).toContain("global-shortcut:allow-register");
    const broken = '{"identifier": "x", "windows": ["main"], "permissions": ["dataans:allow-pro';
    const brokenUri = await s.open("capabilities/broken.json", broken);
    const partial = await complete(brokenUri, { line: 0, character: broken.length });
    expect(partial.map((i) => i.label)).toContain("dataans:allow-profile");
  });
});
