import { describe, expect, it } from "vitest";
import type { JsonPath } from "../../src/core/location.js";
import { SourceDocument } from "../../src/core/source/document.js";
import { LineIndex } from "../../src/core/source/line-index.js";

/**
 * Placing a finding (its JSON path to a span) costs about one step of the syntax tree, whatever the
 * depth of its path: a file's findings share their path down to the array they are in, and the
 * document follows each from where the last one left off (a walk from the root each took the whole
 * depth: row 2's 5,190 findings took 24,864 steps). Counted by `SourceDocument.pathSteps`, not timed.
 */

/** A capability file as the bench's throughput app writes them: `capabilities[0].permissions[n]`, strings and objects. */
function capabilityFile(entries: number): string {
  const permissions = Array.from({ length: entries }, (_, i) =>
    i % 3 === 2
      ? `      { "identifier": "fs:allow-read-${i}", "allow": [{ "path": "$HOME/${i}" }] }`
      : `      "core:window:allow-${i}"`,
  );
  return `{\n  "capabilities": [\n    {\n      "identifier": "main",\n      "windows": ["main"],\n      "permissions": [\n${permissions.join(",\n")}\n      ]\n    }\n  ]\n}\n`;
}

/** The paths the rules report in such a file: one per entry, and the identifier of each object entry. */
function findingPaths(entries: number): JsonPath[] {
  const paths: JsonPath[] = [];
  for (let i = 0; i < entries; i++) {
    paths.push(["capabilities", 0, "permissions", i]);
    if (i % 3 === 2) paths.push(["capabilities", 0, "permissions", i, "identifier"]);
  }
  return paths;
}

const spanOf = (document: SourceDocument, path: JsonPath, target?: "key" | "value") => {
  const { range, offset, length, exact } = document.locate(path, target);
  return { range, offset, length, exact };
};

describe("placing findings", () => {
  it("takes about one step of the syntax tree a finding, not the depth of its path", () => {
    for (const entries of [60, 600]) {
      const document = SourceDocument.parse("/x/c.json", "c.json", capabilityFile(entries), "json");
      const paths = findingPaths(entries);
      for (const path of paths) expect(document.locate(path).exact).toBe(true);
      // 4 steps down to the first entry, then one per entry and one per object entry's identifier (5 and
      // 4 per finding from the root: 4.33 * 1.33 = 5.8 a finding before).
      expect(document.pathSteps).toBe(3 + paths.length);
    }
  });

  it("grows linearly with the findings, whatever the file's size", () => {
    const steps = (entries: number, findings: number) => {
      const document = SourceDocument.parse("/x/c.json", "c.json", capabilityFile(entries), "json");
      const paths = findingPaths(entries).slice(0, findings);
      for (const path of paths) document.locate(path);
      return document.pathSteps;
    };
    // Ten times the file, the same findings: the same steps.
    expect(steps(3_000, 100)).toBe(steps(300, 100));
    // Ten times the findings: ten times the steps (the walk down to the array once).
    expect(steps(3_000, 1_000)).toBeLessThanOrEqual(10 * steps(300, 100));
  });

  it("places every path as a walk from the root does, in any order, missing steps and keys included", () => {
    const text = capabilityFile(30);
    const paths: Array<[JsonPath, "key" | "value" | undefined]> = [];
    for (const path of findingPaths(30)) paths.push([path, undefined], [path, "key"]);
    paths.push(
      [["capabilities", 0, "permissions", 30], undefined],
      [["capabilities", 0, "permissions", 2, "allow", 0, "path"], "key"],
      [["capabilities", 0, "permissions", 2, "deny", 0], undefined],
      [["capabilities", 0, "permissions", 1, "identifier"], undefined],
      [["capabilities", 1, "permissions", 1], undefined],
      [["capabilities", "0", "permissions"], undefined],
      [["capabilities", 0, "windows", 0], "key"],
      [["capabilities", 0], undefined],
      [[], undefined],
      [["nothing"], "key"],
    );
    // A shuffle that goes back and forth between branches (a fixed one: the test must not flake).
    const order = paths.map((_, i) => (i * 37) % paths.length);
    expect(new Set(order).size).toBe(paths.length);
    const document = SourceDocument.parse("/x/c.json", "c.json", text, "json");
    for (const i of [...order, ...order.reverse()]) {
      const [path, target] = paths[i]!;
      const alone = SourceDocument.parse("/x/c.json", "c.json", text, "json");
      expect(spanOf(document, path, target)).toEqual(spanOf(alone, path, target));
    }
  });

  it("reads each path as it is when placed (a caller may reuse its path array)", () => {
    const text = capabilityFile(9);
    const document = SourceDocument.parse("/x/c.json", "c.json", text, "json");
    const path: Array<string | number> = ["capabilities", 0, "permissions", 5, "identifier"];
    const before = spanOf(document, path);
    path[3] = 4;
    path.length = 4;
    const alone = SourceDocument.parse("/x/c.json", "c.json", text, "json");
    expect(spanOf(document, path)).toEqual(spanOf(alone, path));
    expect(spanOf(document, path)).not.toEqual(before);
  });

  it("shares the cursor between the documents of one text, each placing as alone", () => {
    const text = capabilityFile(12);
    const first = SourceDocument.parse("/x/c.json", "c.json", text, "json");
    const copy = first.at("/y/c.json", "c.json");
    for (const path of findingPaths(12)) {
      expect(spanOf(copy, path)).toEqual(spanOf(first, path));
    }
    expect(copy.pathSteps).toBe(first.pathSteps);
    expect(first.pathSteps).toBe(3 + findingPaths(12).length);
  });
});

describe("a span's range", () => {
  it("is what the positions of its start and end are, on every kind of line break", () => {
    const text = 'a\nbc\r\n\r\nd\re\n\nfgh "x"\r';
    const index = new LineIndex(text);
    for (let offset = -2; offset <= text.length + 2; offset++)
      for (let length = -3; offset + length <= text.length + 3; length++) {
        const fresh = new LineIndex(text);
        expect(index.range(offset, length)).toEqual({
          start: fresh.position(offset),
          end: fresh.position(offset + length),
        });
      }
  });

  it("reads the text up to its end, once", () => {
    const text = "x".repeat(1_000) + "\n".repeat(1_000);
    const index = new LineIndex(text);
    expect(index.range(10, 20)).toEqual({
      start: { line: 1, column: 11 },
      end: { line: 1, column: 31 },
    });
    expect(index.charactersScanned).toBe(30);
    expect(index.range(0, 1_500).end).toEqual({ line: 501, column: 1 });
    expect(index.charactersScanned).toBe(1_500);
  });
});
