import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import {
  field,
  fileText,
  inlineValue,
  quoteString,
  syntaxOf,
} from "../../src/core/source/syntax.js";

/** The one helper every hint, suggested entry and code action writes file text with (issue 33 item 3). */
describe("text in the file's own syntax", () => {
  it("knows a file's syntax from its name or source", () => {
    expect(syntaxOf("src-tauri/capabilities/a.toml")).toBe("toml");
    expect(syntaxOf({ absolutePath: "/x/Tauri.TOML" })).toBe("toml");
    expect(syntaxOf("tauri.conf.json")).toBe("json");
    expect(syntaxOf("file:///x/capabilities/a.json5")).toBe("json");
  });

  const entry = {
    identifier: "fs:allow-read-text-file",
    allow: [{ path: "$HOME/notes/*", "odd key": true }],
  };

  it("writes fields and inline values that each language parses back to the same value", () => {
    expect(field("caplint-disable", ["unmatched-window"], "toml")).toBe(
      'caplint-disable = ["unmatched-window"]',
    );
    expect(field("caplint-disable", ["unmatched-window"], "json")).toBe(
      '"caplint-disable": ["unmatched-window"]',
    );
    expect(inlineValue(entry, "toml")).toBe(
      '{ identifier = "fs:allow-read-text-file", allow = [{ path = "$HOME/notes/*", "odd key" = true }] }',
    );
    expect(parseToml(`x = ${inlineValue(entry, "toml")}`)).toEqual({ x: entry });
    expect(JSON.parse(inlineValue(entry, "json"))).toEqual(entry);
  });

  it("quotes strings TOML cannot hold raw (DEL, half a surrogate pair)", () => {
    const value = 'a\u007fb\ud800c"d\\';
    expect(quoteString(value, "toml")).toBe('"a\\u007Fb\\uFFFDc\\"d\\\\"');
    expect(parseToml(`x = ${quoteString(value, "toml")}`)).toEqual({ x: 'a\u007fb\ufffdc"d\\' });
    expect(quoteString(value, "json")).toBe(JSON.stringify(value));
  });

  it("writes a whole new file: long arrays one item a line, nested objects inline in TOML", () => {
    const capability = {
      identifier: "settings-read",
      windows: ["settings"],
      remote: { urls: ["https://docs.example.com/*"] },
      permissions: [
        "core:default",
        entry,
        "dialog:allow-open",
        "dialog:allow-save",
        "clipboard-manager:allow-read-text",
      ],
    };
    const toml = fileText(capability, "toml");
    expect(toml).toBe(
      [
        'identifier = "settings-read"',
        'windows = ["settings"]',
        'remote = { urls = ["https://docs.example.com/*"] }',
        "permissions = [",
        '  "core:default",',
        '  { identifier = "fs:allow-read-text-file", allow = [{ path = "$HOME/notes/*", "odd key" = true }] },',
        '  "dialog:allow-open",',
        '  "dialog:allow-save",',
        '  "clipboard-manager:allow-read-text",',
        "]",
        "",
      ].join("\n"),
    );
    expect(parseToml(toml)).toEqual(capability);
    expect(JSON.parse(fileText(capability, "json"))).toEqual(capability);
  });
});
