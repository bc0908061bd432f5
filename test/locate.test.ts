import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseTree } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { jsonTree } from "../src/core/source/json-tree.js";
import { SourceDocument, propertiesKept, propertiesWritten } from "../src/core/source/document.js";
import { parseToml } from "../src/core/source/toml.js";

const at = (document: SourceDocument, path: (string | number)[], target: "key" | "value" = "value") => {
  const { range, exact } = document.locate(path, target);
  return `${range.start.line}:${range.start.column}-${range.end.line}:${range.end.column}${exact ? "" : " (ancestor)"}`;
};

describe("JSON paths to positions", () => {
  const text = '{\n  "identifier": "main",\n  "permissions": [\n    "core:default",\n    { "identifier": "fs:read" }\n  ]\n}\n';
  const document = SourceDocument.parse("/x/a.json", "a.json", text, "json");

  it("finds values and keys", () => {
    expect(at(document, ["identifier"])).toBe("2:17-2:23");
    expect(at(document, ["identifier"], "key")).toBe("2:3-2:15");
    expect(at(document, ["permissions", 0])).toBe("4:5-4:19");
    expect(at(document, ["permissions", 1, "identifier"])).toBe("5:21-5:30");
  });

  it("falls back to the nearest existing ancestor", () => {
    expect(at(document, ["permissions", 1, "allow"])).toBe("5:5-5:32 (ancestor)");
    expect(at(document, ["windows", 0])).toBe("1:1-7:2 (ancestor)");
  });
});

describe("TOML paths to positions", () => {
  const text = [
    'identifier = "main window"',
    'windows = ["main window", "other"]',
    "",
    "[[permissions]]",
    'identifier = "core:default"',
    "",
    "[[permissions]]",
    'identifier = "fs:nope"',
    "",
    "[remote]",
    'urls = ["https://a.example"]',
    "",
  ].join("\n");
  const document = SourceDocument.parse("/x/a.toml", "a.toml", text, "toml", parseToml);

  it("follows keys, arrays of tables and tables through the text", () => {
    expect(at(document, ["identifier"])).toBe("1:14-1:27");
    expect(at(document, ["windows", 0])).toBe("2:12-2:25");
    expect(at(document, ["permissions", 1, "identifier"])).toBe("8:14-8:23");
    expect(at(document, ["remote", "urls", 0])).toBe("11:9-11:28");
    expect(at(document, ["windows"], "key")).toBe("2:1-2:8");
  });

  it("uses the first line when a key cannot be found", () => {
    expect(at(document, ["platforms", 0])).toBe("1:1-1:1 (ancestor)");
  });
});

describe("TOML dotted table headers", () => {
  it("follow a header that names several keys of the path ([app.security])", () => {
    const text = [
      'productName = "x"',
      "[[app.windows]]",
      'label = "main"',
      "[app.security]",
      'capabilities = ["main", { identifier = "inline", permissions = ["fs:allow-reed-file"] }]',
      "",
    ].join("\n");
    const document = SourceDocument.parse("/x/Tauri.toml", "Tauri.toml", text, "toml", parseToml);
    expect(at(document, ["app", "security", "capabilities", 1, "permissions", 0])).toBe("5:65-5:85");
    expect(at(document, ["app", "security"], "key")).toBe("4:6-4:14");
  });

  it("stay linear on a hostile header line and many unclosed header lines", () => {
    const long = "[" + "app.".repeat(200_000) + "x]\nkey = 1\n";
    const unclosed = "[app\n".repeat(100_000) + "[app.security]\ncapabilities = []\n";
    for (const text of [long, unclosed]) {
      const document = SourceDocument.parse("/x/Tauri.toml", "Tauri.toml", text, "toml", parseToml);
      const started = performance.now();
      document.locate(["app", "security", "capabilities"], "key");
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });
});

describe("repeated keys", () => {
  const repeated = (text: string) => SourceDocument.parse("/x/a.json", "a.json", text, "json").repeatedKeys();

  it("finds a key written twice in one object, at any depth", () => {
    expect(repeated('{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}')).toEqual([["b", "c"], ["a"]]);
    expect(repeated('[{"x": 1}, {"x": 2, "y": [{"z": 0, "z": 1}]}]')).toEqual([[1, "y", 0, "z"]]);
  });

  it("does not take a colon inside a string, escaped quotes or a key repeated in another object for a repeat", () => {
    expect(repeated('{"a": "\\"b\\": c", "b": ["x", ":", "\\\\"], "c": {"a": 1}}')).toEqual([]);
    expect(repeated('[{"identifier": "a"}, {"identifier": "b"}]')).toEqual([]);
    expect(repeated('{"a\\"": 1, "a": 2}')).toEqual([]);
  });

  it("counts written and kept properties exactly", () => {
    const text = '{"a": {"b\\\\": [1, {"c": "d\\":"}]}, "e" : 2, "a": 0}';
    expect(propertiesWritten(text)).toBe(5);
    expect(propertiesKept(JSON.parse(text))).toBe(2);
    // Linear in the number of escapes: a long run of them in one string is scanned once.
    const escapes = `{"k": "${"\\n".repeat(200_000)}", "k": 1}`;
    expect(propertiesWritten(escapes)).toBe(2);
  });
});

describe("the JSON syntax tree positions come from", () => {
  type Shape = { type: string; offset: number; length: number; value?: unknown; children?: Shape[] };
  const shape = (node: { type: string; offset: number; length: number; value?: unknown; children?: unknown[] }, isKey = false): Shape => ({
    type: node.type,
    offset: node.offset,
    length: node.length,
    ...(isKey ? { value: node.value } : {}),
    ...(node.children ? { children: (node.children as Shape[]).map((child, i) => shape(child, node.type === "property" && i === 0)) } : {}),
  });
  const jsonFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? jsonFiles(path.join(dir, entry.name)) : entry.name.endsWith(".json") ? [path.join(dir, entry.name)] : [],
    );

  it("is jsonc-parser's tree, node for node, on every valid JSON fixture and on tricky strings", () => {
    const texts = jsonFiles("fixtures")
      .map((file) => readFileSync(file, "utf8"))
      .filter((text) => {
        try {
          JSON.parse(text);
          return true;
        } catch {
          return false;
        }
      });
    texts.push('{"a\\"b": ["\\\\", "x\\\\\\"y", -1.5e+3, true, false, null, {}, []], "": {"\\u0041": 0}}', " [ 1 , [ ] , { } ] ", '"top"', "42");
    expect(texts.length).toBeGreaterThan(500);
    for (const text of texts) expect(shape(jsonTree(text))).toEqual(shape(parseTree(text, [], { disallowComments: true })!));
  });

  it("knows each node's parent", () => {
    const root = jsonTree('{"a": [1, {"b": 2}]}');
    const property = root.children![0]!;
    const array = property.children![1]!;
    const inner = array.children![1]!;
    expect(property.parent).toBe(root);
    expect(array.parent).toBe(property);
    expect(inner.parent).toBe(array);
    expect(inner.children![0]!.children![0]!.value).toBe("b");
  });
});
