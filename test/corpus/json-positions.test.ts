import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseTree, type Node } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { jsonTree, LazyJsonTree } from "../../src/core/source/json-tree.js";
import { LineIndex } from "../../src/core/source/line-index.js";
import { SourceDocument } from "../../src/core/source/document.js";
import { at, shape, treeShape } from "../helpers/json-tree-shape.js";
import { FIXTURES } from "../helpers/run.js";

// The sweeps of test/core/source/locate.test.ts over every JSON file of fixtures/ (seconds of work,
// so they run in the corpus project, not in the unit loop).

describe("positions on every JSON fixture agree with jsonc-parser", () => {
  const jsonFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? jsonFiles(path.join(dir, entry.name))
        : entry.name.endsWith(".json")
          ? [path.join(dir, entry.name)]
          : [],
    );
  const texts = jsonFiles(FIXTURES)
    .map((file) => readFileSync(file, "utf8"))
    .filter((text) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    });
  texts.push(
    '{"a\\"b": ["\\\\", "x\\\\\\"y", -1.5e+3, true, false, null, {}, []], "": {"\\u0041": 0}}',
    " [ 1 , [ ] , { } ] ",
    '"top"',
    "42",
    '{"k": 1, "k\\u0000": 2, "k": {"x": [0, {"k": 3}]}, "\\\\": 4}',
  );

  it("is jsonc-parser's tree, node for node, on every valid JSON fixture and on tricky strings", () => {
    expect(texts.length).toBeGreaterThan(500);
    for (const text of texts)
      expect(treeShape(jsonTree(text), 0)).toEqual(
        shape(parseTree(text, [], { disallowComments: true })!),
      );
  });

  it("is the same tree when made along paths (every container entered)", () => {
    for (const text of texts)
      expect(treeShape(new LazyJsonTree(text), 0)).toEqual(treeShape(jsonTree(text), 0));
  });

  it("gives every path of every fixture the position jsonc-parser's tree gives it (the last of repeated keys)", () => {
    let checked = 0;
    for (const text of texts) {
      const document = SourceDocument.parse("/x/a.json", "a.json", text, "json");
      const lines = new LineIndex(text);
      const range = (offset: number, length: number) => {
        const start = lines.position(offset);
        const end = lines.position(offset + length);
        return `${start.line}:${start.column}-${end.line}:${end.column}`;
      };
      // One comparison per file: expect() per path made this test take seconds.
      const found: unknown[] = [];
      const expected: unknown[] = [];
      const visit = (node: Node, path: (string | number)[], key: Node | undefined) => {
        const value = range(node.offset, node.length);
        found.push(
          at(document, path),
          at(document, path, "key"),
          document.valueSpan(path),
          at(document, [...path, "no such key"]),
          at(document, [...path, 0], "key"),
        );
        // A path one step past a value falls back to it.
        const item = node.type === "array" ? node.children![0] : undefined;
        expected.push(
          value,
          key ? range(key.offset, key.length) : value,
          { offset: node.offset, length: node.length },
          `${value} (ancestor)`,
          item ? range(item.offset, item.length) : `${value} (ancestor)`,
        );
        checked++;
        if (node.type === "array")
          node.children!.forEach((child, i) => visit(child, [...path, i], undefined));
        if (node.type === "object") {
          // JSON.parse keeps the last of a repeated key, and so do positions.
          const last = new Map<string, Node>();
          for (const property of node.children!)
            last.set(property.children![0]!.value as string, property);
          for (const [name, property] of last)
            visit(property.children![1]!, [...path, name], property.children![0]);
        }
      };
      visit(parseTree(text, [], { disallowComments: true })!, [], undefined);
      expect(found).toEqual(expected);
    }
    expect(checked).toBeGreaterThan(10_000);
  });
});
