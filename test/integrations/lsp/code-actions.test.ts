import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CodeAction, Range } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { ROOT } from "../../helpers/run.js";
import { positionOf, startOnDataans, type Dataans } from "./app-fixture.js";

describe("caplint lsp: code actions", () => {
  let s: Dataans;
  beforeAll(async () => {
    s = await startOnDataans();
  });
  afterAll(async () => {
    expect(await s.stop()).toBe(0);
  });

  const actions = async (uri: string, range: Range) =>
    await s.client.connection.sendRequest<CodeAction[]>("textDocument/codeAction", {
      textDocument: { uri },
      range,
      context: { diagnostics: [] },
    });
  const at = (position: { line: number; character: number }): Range => ({
    start: position,
    end: position,
  });
  const apply = (text: string, action: CodeAction, uri: string) =>
    TextDocument.applyEdits(TextDocument.create(uri, "json", 1, text), action.edit!.changes![uri]!);

  it("offers each caplint fix as a quick fix; applied, the finding is gone", async () => {
    const text = s.disk("capabilities/migrated.json");
    const uri = await s.open("capabilities/migrated.json");
    const found = await actions(uri, at(positionOf(text, '"shell:allow-open"', 3)));
    const fix = found.find((a) => a.title.startsWith("Fix: "))!;
    expect(fix).toMatchObject({
      kind: "quickfix",
      isPreferred: true,
      diagnostics: [{ code: "redundant-permission" }],
    });
    const fixed = apply(text, fix, uri);
    expect(fixed).not.toContain('"shell:allow-open"');
    expect(JSON.parse(fixed).permissions).toContain("shell:default");
    await s.client.change(uri, fixed);
    await s.client.diagnostics(uri, (list) => !list.some((d) => d.code === "redundant-permission"));
    await s.client.change(uri, text);
  });

  it("a quick fix in a TOML capability edits TOML, and the file still parses (issue 33 item 3)", async () => {
    const toml =
      'identifier = "fix-toml"\nwindows = ["main"]\npermissions = ["core:default", "core:default"]\n';
    const uri = await s.open("capabilities/fix-toml.toml", toml);
    await s.client.diagnostics(uri, (list) => list.some((d) => d.code === "duplicate-permission"));
    const fix = (await actions(uri, at(positionOf(toml, '"core:default"]', 2)))).find((a) =>
      a.title.startsWith("Fix: "),
    )!;
    expect(fix).toMatchObject({
      kind: "quickfix",
      diagnostics: [{ code: "duplicate-permission" }],
    });
    expect(apply(toml, fix, uri)).toBe(
      'identifier = "fix-toml"\nwindows = ["main"]\npermissions = ["core:default"]\n',
    );
    await s.client.close(uri);
  });

  it("offers the did-you-mean replacements, in the file's syntax", async () => {
    const text = s
      .disk("capabilities/desktop.json")
      .replace('"autostart:default"', '"autostart:defualt"')
      .replace('"macOS"', '"macos"');
    const uri = s.uri("capabilities/desktop.json");
    await s.client.open(uri, text);
    await s.client.diagnostics(uri, (list) => list.some((d) => d.code === "unknown-permission"));
    const replace = (await actions(uri, at(positionOf(text, '"autostart:defualt"', 2)))).find(
      (a) => a.title === 'Replace with "autostart:default"',
    )!;
    expect(apply(text, replace, uri)).toBe(
      text.replace('"autostart:defualt"', '"autostart:default"'),
    );
    const platform = (await actions(uri, at(positionOf(text, '"macos"', 2)))).find(
      (a) => a.title === 'Replace with "macOS"',
    )!;
    expect(apply(text, platform, uri)).toContain('"platforms": ["macOS", "windows", "linux"]');
    await s.client.change(uri, s.disk("capabilities/desktop.json"));
  });

  it("limits a capability to desktop platforms when it grants a desktop-only plugin everywhere (JSON and TOML)", async () => {
    const text =
      '{\n  "identifier": "shortcuts",\n  "windows": ["main"],\n  "permissions": ["global-shortcut:allow-register"]\n}\n';
    const uri = await s.open("capabilities/shortcuts.json", text);
    const limit = (await actions(uri, at(positionOf(text, "global-shortcut", 3)))).find((a) =>
      a.title.startsWith("Limit capability"),
    )!;
    expect(limit.title).toBe(
      'Limit capability "shortcuts" to desktop platforms (global-shortcut is desktop-only)',
    );
    const limited = apply(text, limit, uri);
    expect(limited).toBe(
      '{\n  "platforms": ["linux", "macOS", "windows"],\n  "identifier": "shortcuts",\n  "windows": ["main"],\n  "permissions": ["global-shortcut:allow-register"]\n}\n',
    );
    const withPlatforms =
      '{"identifier": "s", "windows": ["main"], "platforms": ["android", "linux"], "permissions": ["global-shortcut:allow-register"]}';
    await s.client.change(uri, withPlatforms);
    const narrowed = (await actions(uri, at(positionOf(withPlatforms, "global-shortcut", 3)))).find(
      (a) => a.title.startsWith("Limit capability"),
    )!;
    expect(apply(withPlatforms, narrowed, uri)).toContain('"platforms": ["linux"]');
    await s.client.close(uri);
    const toml =
      'identifier = "shortcuts-toml"\nwindows = ["main"]\npermissions = ["global-shortcut:allow-register"]\n';
    const tomlUri = await s.open("capabilities/shortcuts.toml", toml);
    const tomlLimit = (await actions(tomlUri, at(positionOf(toml, "global-shortcut", 3)))).find(
      (a) => a.title.startsWith("Limit capability"),
    )!;
    expect(apply(toml, tomlLimit, tomlUri)).toBe(
      `platforms = ["linux", "macOS", "windows"]\n${toml}`,
    );
    // Desktop-only already: nothing to offer.
    const desktop = s.disk("capabilities/desktop.json");
    const desktopActions = await actions(
      await s.open("capabilities/desktop.json"),
      at(positionOf(desktop, "global-shortcut:default", 3)),
    );
    expect(desktopActions.filter((a) => a.title.startsWith("Limit"))).toEqual([]);
    await s.client.close(tomlUri);
  });

  it("explains the runtime's refusal pasted in a comment", async () => {
    const toml =
      'identifier = "explain-toml"\nwindows = ["main"]\n# dataans.profile not allowed on window "main", webview "main", URL: local\npermissions = ["core:default"]\n';
    // Saved, so that the CLI below sees the same app.
    writeFileSync(s.file("capabilities/explain.toml"), toml);
    const uri = await s.open("capabilities/explain.toml", toml);
    const explain = (await actions(uri, at({ line: 2, character: 5 }))).find(
      (a) => a.title === "Explain this refusal (caplint explain)",
    )!;
    const explained = apply(toml, explain, uri);
    const inserted = explained.split("\n").slice(3, -2);
    // The text caplint explain prints for the same message, as comment lines.
    const cli = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "bin/caplint.js"),
        "explain",
        toml.split("\n")[2]!.slice(2),
        "--app",
        s.file(""),
      ],
      {
        encoding: "utf8",
        cwd: path.join(s.app.dir, "dataans"),
        env: { ...process.env, NO_COLOR: "1", CAPLINT_CARGO_REGISTRY: "off" },
      },
    );
    expect(cli.status, cli.stderr).toBe(0);
    expect(inserted).toEqual(
      cli.stdout
        .trimEnd()
        .split("\n")
        .map((line) => `# ${line}`.trimEnd()),
    );
    expect(inserted.join("\n")).toMatch(/dataans:allow-profile/);
    expect(explained.endsWith('permissions = ["core:default"]\n')).toBe(true);
    await s.client.close(uri);
  });
});
