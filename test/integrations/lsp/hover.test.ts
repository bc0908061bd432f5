import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hover } from "vscode-languageserver-protocol";
import { positionOf, startOnDataans, type Dataans } from "./app-fixture.js";

describe("caplint lsp: hover", () => {
  let s: Dataans;
  beforeAll(async () => {
    s = await startOnDataans();
  });
  afterAll(async () => {
    expect(await s.stop()).toBe(0);
  });

  const hover = async (uri: string, text: string, needle: string) =>
    await s.client.connection.sendRequest<Hover | null>("textDocument/hover", {
      textDocument: { uri },
      position: positionOf(text, needle, 2),
    });
  const value = (h: Hover | null) => (h?.contents as { value: string }).value;

  it("on a permission: what it allows (one line while every platform agrees), its set, and which windows get it here", async () => {
    const text = s.disk("capabilities/desktop.json");
    const uri = await s.open("capabilities/desktop.json");
    const found = await hover(uri, text, '"autostart:default"');
    expect(value(found)).toContain(
      "**`autostart:default`** · default permission set · tauri-plugin-autostart 2.5.1",
    );
    expect(value(found)).toContain(
      "**Allows:** 3 commands: `plugin:autostart|disable`, `plugin:autostart|enable`, `plugin:autostart|is_enabled`",
    );
    expect(value(found)).toContain(
      "**Expands to:** `allow-enable`, `allow-disable`, `allow-is-enabled`",
    );
    expect(value(found)).toContain("**Through capability `desktop-capability`:** window `main`");
    expect(found!.range).toEqual({
      start: positionOf(text, '"autostart:default"'),
      end: positionOf(text, '"autostart:default"', 19),
    });
  });

  it("on a deny-* permission: what it denies, no 'Allows: no command'", async () => {
    const text = JSON.stringify(
      { identifier: "denying", windows: ["denier"], permissions: ["autostart:deny-enable"] },
      null,
      2,
    );
    const uri = await s.open("capabilities/denying.json", text);
    const denied = value(await hover(uri, text, '"autostart:deny-enable"'));
    expect(denied).toContain("**Denies:** `plugin:autostart|enable`");
    expect(denied).not.toContain("**Allows");
  });

  it("on a scoped entry: the scope its set's members carry, and the entry's own", async () => {
    const text = JSON.stringify(
      {
        identifier: "scoped",
        windows: ["main"],
        permissions: [
          "fs:allow-app-read",
          { identifier: "fs:allow-read-file", allow: [{ path: "$APPDATA/*" }] },
        ],
      },
      null,
      2,
    );
    const uri = await s.open("capabilities/scoped.json", text);
    const scope = value(await hover(uri, text, '"fs:allow-app-read"'));
    expect(scope).toContain("**Scope allows:**");
    expect(scope).toContain("$APPDATA");
    const entry = value(await hover(uri, text, '"fs:allow-read-file"'));
    expect(entry).toContain('**This entry\'s scope allows:** `[{"path":"$APPDATA/*"}]`');
    await s.client.close(uri);
  });

  it("on a window label: its capabilities and command count", async () => {
    const text = s.disk("capabilities/desktop.json");
    const uri = await s.open("capabilities/desktop.json");
    const found = value(await hover(uri, text, '"main"'));
    expect(found).toMatch(
      /^\*\*Window `main`\*\*\n\n\*\*Capabilities:\*\* `desktop-capability`, `migrated`\n\n\*\*May call\*\* \(its own pages\): \d+ commands on linux, macOS, windows; \d+ commands on android, iOS$/,
    );
  });

  it("on a remote.urls pattern: a URL it matches and one it does not", async () => {
    const text = JSON.stringify(
      {
        identifier: "remote",
        windows: ["main"],
        remote: { urls: ["https://*.tauri.app", "http://localhost:*"] },
        permissions: ["core:event:allow-listen"],
      },
      null,
      2,
    );
    const uri = await s.open("capabilities/remote.json", text);
    expect(value(await hover(uri, text, '"https://*.tauri.app"'))).toBe(
      "**Remote URL pattern `https://*.tauri.app`**\n\n**Matches:** `https://app.tauri.app`\n\n**Does not match:** `https://attacker.example/`",
    );
    expect(value(await hover(uri, text, '"http://localhost:*"'))).toContain(
      "**Matches:** `http://localhost:8080`",
    );
    await s.client.close(uri);
  });
});
