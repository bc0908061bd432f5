import { parseTree } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import {
  jsonTree,
  LazyJsonTree,
  NO_NODE,
  type JsonNode,
  type JsonPathTree,
} from "../../../src/core/source/json-tree.js";
import { LineIndex } from "../../../src/core/source/line-index.js";
import {
  MAX_NESTING_DEPTH,
  SourceDocument,
  findExcessiveNesting,
  nestsDeeperThan,
  propertiesKept,
  propertiesWritten,
} from "../../../src/core/source/document.js";
import { parseToml } from "../../../src/core/source/toml.js";
import { at, shape, treeShape } from "../../helpers/json-tree-shape.js";

describe("JSON paths to positions", () => {
  const text =
    '{\n  "identifier": "main",\n  "permissions": [\n    "core:default",\n    { "identifier": "fs:read" }\n  ]\n}\n';
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

describe("TOML inline arrays placed from one scan", () => {
  const items = Array.from({ length: 40 }, (_, i) => `"p${i % 7}:x"`);
  const text = `identifier = "main"\npermissions = [\n  ${items.join(',\n  # a comment, "quoted" [\n  ')}\n]\n`;

  it("places each element of a file's array as a scan of its own would, scanning it once", () => {
    const document = SourceDocument.parse("/x/a.toml", "a.toml", text, "toml", parseToml);
    for (let i = 0; i < items.length; i++) {
      const alone = SourceDocument.parse("/x/a.toml", "a.toml", text, "toml", parseToml);
      expect(at(document, ["permissions", i])).toBe(at(alone, ["permissions", i]));
    }
    expect(at(document, ["permissions", 0])).toBe("3:3-3:9");
    expect(at(document, ["permissions", 39])).toBe(`${3 + 2 * 39}:3-${3 + 2 * 39}:9`);
    expect(at(document, ["permissions", 40])).toBe("2:1-2:12 (ancestor)");
    // One scan for 40 findings in the array (one per finding, each up to its element, before).
    expect(document.inlineArrayScans).toBe(1);
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
    expect(at(document, ["app", "security", "capabilities", 1, "permissions", 0])).toBe(
      "5:65-5:85",
    );
    expect(at(document, ["app", "security"], "key")).toBe("4:6-4:14");
  });

  it("stay linear on a hostile header line and many unclosed header lines", () => {
    // No clock: a rescan per key or per line (the quadratic shape this guards against) is some 10¹⁰ steps on
    // these inputs, minutes, far over the test's time-out; locating takes milliseconds.
    const long = "[" + "app.".repeat(200_000) + "x]\nkey = 1\n";
    const unclosed = "[app\n".repeat(100_000) + "[app.security]\ncapabilities = []\n";
    // Both stop at the nesting bound (256 levels): the parse error's place is what a finding points at.
    for (const [text, start] of [
      [long, { line: 1, column: 1029 }],
      [unclosed, { line: 257, column: 1 }],
    ] as const) {
      const document = SourceDocument.parse("/x/Tauri.toml", "Tauri.toml", text, "toml", parseToml);
      expect(document.locate(["app", "security", "capabilities"], "key").range.start).toEqual(
        start,
      );
    }
  });
});

describe("repeated keys", () => {
  const repeated = (text: string) =>
    SourceDocument.parse("/x/a.json", "a.json", text, "json").repeatedKeys();

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

  it("counts written properties as a parser does, however the quotes and colons around keys are written", () => {
    const membersIn = (text: string) => {
      let count = 0;
      const visit = (node: ReturnType<typeof parseTree>) => {
        if (node?.type === "property") count++;
        node?.children?.forEach(visit);
      };
      visit(parseTree(text));
      return count;
    };
    // The `":` pairs alone decide in some (compact, pretty-printed); the others need each string read.
    const texts = [
      '{"a":1,"b":{"c":[1,{"d":"e"}]}}',
      '{\n  "a": 1,\n  "b": [\n    "x:y"\n  ]\n}\n',
      '{"":1,"a":{"":2}}',
      '[":",":x",{"k":":"},{"k":" :"}]',
      '{"k":[":"],"j":{":":":"}}',
      '{"a\\\\":1,"b\\\\\\\\":2,"c\\"d":3}',
      '{"a":"x\\":y","b":1}',
      '{"a,":1,"[":2,"{":3," ":4,":":5,"a ":6}',
      '{"a" :1,"b"\n:2,"c"\t:3,"d"\r\n:4}',
      '{"k":"a : b","k":1}',
      '{"k":"a\\n:","k":1}',
      '{"__proto__":{"a":1},"b":[[],{}],"b":2}',
    ];
    // One line whose colons are mostly inside values (past 64 colons the rest is searched natively),
    // with a key after whitespace, an ambiguous quote or a plain key late in it.
    const values = JSON.stringify(Array.from({ length: 80 }, (_, i) => `core:allow-${i}`));
    for (const late of ['"k":1', '"k" :1', '"k"\t:1', '"a\\\\":1', '"x":":"', '"y":[":"]'])
      texts.push(`{"v":${values},"w":${values},${late},"k":2}`);
    for (const text of texts) {
      expect(() => JSON.parse(text), text).not.toThrow();
      expect(propertiesWritten(text), text).toBe(membersIn(text));
    }
  });

  it("are found with the properties kept counted in the walk that bounds the nesting", () => {
    const nested = (depth: number, inner: string) => "[".repeat(depth) + inner + "]".repeat(depth);
    // A repeat at the deepest level the bound allows, and one past a key whose name has escapes.
    expect(repeated(nested(MAX_NESTING_DEPTH - 1, '{"a": 1, "a": 2}'))).toEqual([
      [...Array<number>(MAX_NESTING_DEPTH - 1).fill(0), "a"],
    ]);
    expect(repeated('{"k\\"": {"x": [1, {"y\\u0041": 0, "yA": 1}]}}')).toEqual([
      ['k"', "x", 1, "yA"],
    ]);
    expect(repeated('{"a" : {"b": 1}, "a" : [{"b": 1, "b": 2}]}')).toEqual([["a"], ["a", 0, "b"]]);
    expect(propertiesKept(JSON.parse(nested(MAX_NESTING_DEPTH - 1, '{"a": {}}')))).toBe(1);
    // Three arrays and an object are four levels; a container in the object is a fifth.
    expect(propertiesKept(JSON.parse(nested(3, '{"a": 0, "b": "{"}')), 4)).toBe(2);
    expect(propertiesKept(JSON.parse(nested(2, '{"a": {}}')), 4)).toBe(1);
    expect(propertiesKept(JSON.parse(nested(3, '{"a": {}}')), 4)).toBe(-1);
    expect(propertiesKept(JSON.parse(nested(3, '{"a": 0, "b": [0]}')), 4)).toBe(-1);
  });
});

describe("the JSON syntax tree positions come from", () => {
  it("grows past its first guess of the number of values", () => {
    const text = `[${"0,".repeat(5_000)}{"a": [[[]]]}]`;
    expect(treeShape(jsonTree(text), 0)).toEqual(
      shape(parseTree(text, [], { disallowComments: true })!),
    );
  });

  it("finds keys with escapes, and no member by index or item by key", () => {
    const tree = jsonTree('{"a\\"b": [1, {"c\\u0041": 2}], "plain": 3}');
    const array = tree.step(tree.root, 'a"b');
    expect(tree.kind(array)).toBe("array");
    expect(tree.key(array)).toBe('a"b');
    const inner = tree.step(array, 1);
    expect(tree.offset(tree.step(inner, "cA"))).toBe(25);
    expect(tree.step(inner, "c\\u0041")).toBe(NO_NODE);
    expect(tree.step(tree.root, 0)).toBe(NO_NODE);
    expect(tree.step(array, "0")).toBe(NO_NODE);
    expect(tree.step(array, 2)).toBe(NO_NODE);
    expect(tree.step(array, -1)).toBe(NO_NODE);
    expect(tree.key(tree.step(tree.root, "plain"))).toBe("plain");
  });
});

describe("the JSON syntax tree made along paths", () => {
  it("is the whole tree, node for node, on tricky texts", () => {
    for (const text of [
      `[${"0,".repeat(5_000)}{"a": [[[]]]}]`,
      '{"a\\"b": ["\\\\", "x\\\\\\"y", -1.5e+3, true, false, null, {}, []], "": {"\\u0041": 0}}',
      " [ 1 , [ ] , { } ] \n",
      '"top"',
      " 42 ",
      '{"k": 1, "k": {"x": [0, {"k": 3}]}, "\\\\": 4}',
    ])
      expect(treeShape(new LazyJsonTree(text), 0), text).toEqual(
        shape(parseTree(text, [], { disallowComments: true })!),
      );
  });

  it("steps like the whole tree: escaped keys, the last of a repeated key, no member by index or item by key", () => {
    const text = `{"a\\"b": [1, {"c\\u0041": 2}], "plain": 3, "plain": 4, ${Array.from({ length: 40 }, (_, i) => `"m${i}": ${i}`).join(", ")}, "m3": "last"}`;
    const whole = jsonTree(text);
    const lazy = new LazyJsonTree(text);
    for (const path of [
      ['a"b'],
      ['a"b', 1, "cA"],
      ['a"b', 1, "c\\u0041"],
      ["plain"],
      ["m3"],
      ["m39"],
      [0],
      ['a"b', "0"],
      ['a"b', 2],
      ['a"b', -1],
      ['a"b', 0.5],
    ]) {
      const inWhole = follow(whole, path);
      const inLazy = follow(lazy, path);
      expect(inLazy === NO_NODE, JSON.stringify(path)).toBe(inWhole === NO_NODE);
      if (inWhole !== NO_NODE)
        expect(
          [
            lazy.offset(inLazy),
            lazy.length(inLazy),
            lazy.keyOffset(inLazy),
            lazy.keyLength(inLazy),
            lazy.key(inLazy),
          ],
          JSON.stringify(path),
        ).toEqual([
          whole.offset(inWhole),
          whole.length(inWhole),
          whole.keyOffset(inWhole),
          whole.keyLength(inWhole),
          whole.key(inWhole),
        ]);
    }
  });

  it("reads a capability file's text once to place findings in its permissions, when no key repeats", () => {
    // A capability: fields around a long permissions list, findings at every item (row 5's shape).
    const items = 2_000;
    const permissions = Array.from({ length: items }, (_, i) =>
      i % 3
        ? `"plugin-${i}:default"`
        : `{ "identifier": "fs:scope-${i}", "allow": [{ "path": "$APP/${i}" }] }`,
    );
    const text = `{\n  "identifier": "main",\n  "windows": ["main"],\n  "permissions": [\n    ${permissions.join(",\n    ")}\n  ],\n  "platforms": ["linux"]\n}\n`;
    const whole = jsonTree(text);
    const paths = Array.from({ length: items }, (_, i) =>
      i % 3 ? ["permissions", i] : ["permissions", i, "identifier"],
    );
    const document = SourceDocument.parse("/x/a.json", "a.json", text, "json");
    for (const path of paths) {
      const node = follow(whole, path);
      const located = document.locate(path);
      expect([located.offset, located.length], JSON.stringify(path)).toEqual([
        whole.offset(node),
        whole.length(node),
      ]);
    }
    // The lazy tree a document follows its paths with, counted: the list is not read once to step
    // over it in its object and again item by item (that was 2x the text).
    const lazy = new LazyJsonTree(text, true);
    for (const path of paths) follow(lazy, path);
    expect(lazy.scanned).toBeLessThanOrEqual(text.length);
    // With a repeated key somewhere, every member of an object is read to find the last: as before.
    const repeated = new LazyJsonTree(text, false);
    for (const path of paths) follow(repeated, path);
    expect(repeated.scanned).toBeGreaterThan(1.5 * text.length);
  });

  it("steps to the only member of a key when keys are unique, as the whole tree does", () => {
    const text = `{"a\\"b": [1, {"c\\u0041": 2}], "plain": 3, ${Array.from({ length: 40 }, (_, i) => `"m${i}": {"v": [${i}]}`).join(", ")}, "z": {}}`;
    const whole = jsonTree(text);
    for (const path of [
      ["m39", "v", 0],
      ["m3", "v"],
      ["z"],
      ['a"b', 1, "cA"],
      ['a"b', 1, "c\\u0041"],
      ["plain"],
      ["nothing"],
      ["m1", "nothing"],
      [0],
    ]) {
      // Fresh trees: the first step of each path meets the object unread.
      const lazy = new LazyJsonTree(text, true);
      const inWhole = follow(whole, path);
      const inLazy = follow(lazy, path);
      expect(inLazy === NO_NODE, JSON.stringify(path)).toBe(inWhole === NO_NODE);
      if (inWhole !== NO_NODE)
        expect([lazy.offset(inLazy), lazy.length(inLazy), lazy.keyOffset(inLazy)]).toEqual([
          whole.offset(inWhole),
          whole.length(inWhole),
          whole.keyOffset(inWhole),
        ]);
      // A container stepped over and never entered still knows its end when asked.
      expect(treeShape(lazy, 0)).toEqual(treeShape(whole, 0));
    }
  });

  it("reads an array only up to the item asked for", () => {
    const items = 100_000;
    const text = `[${Array.from({ length: items }, (_, i) => `{"identifier": "cap-${i}", "permissions": ["a", "b"]}`).join(",")}]`;
    const tree = new LazyJsonTree(text);
    const third = tree.step(tree.step(tree.step(tree.root, 2), "permissions"), 1);
    expect(text.slice(tree.offset(third), tree.offset(third) + tree.length(third))).toBe('"b"');
    // Three items of the list, and that item's object and its list: not the 5 MB after them.
    expect(tree.scanned).toBeLessThan(400);
    expect(tree.childCount(tree.root)).toBe(items);
    expect(tree.scanned).toBeGreaterThanOrEqual(text.length - 2);
  });

  it("places paths deep in a large text exactly once following them would read the text many times over", () => {
    // 200 levels, each with padding before the next: following every level's path reads the text
    // about 100 times over, so the document changes to the whole tree on the way; positions stay exact.
    const depth = 200;
    let text = "1";
    for (let i = 0; i < depth; i++) text = `{"pad": "${"x".repeat(2_000)}", "next": ${text}}`;
    const document = SourceDocument.parse("/x/a.json", "a.json", text, "json");
    const whole = jsonTree(text);
    let node = whole.root;
    const path: string[] = [];
    for (let i = 0; i < depth; i++) {
      node = whole.step(node, "next");
      path.push("next");
      const located = document.locate(path);
      expect([located.offset, located.length, located.exact]).toEqual([
        whole.offset(node),
        whole.length(node),
        true,
      ]);
      if (i < depth - 1)
        expect(document.locate([...path, "pad"], "key").offset).toBe(
          whole.keyOffset(whole.step(node, "pad")),
        );
    }
  });
});

describe("removing a JSON array item", () => {
  /** The span as a list of every item's start and end gives it (the item, and one comma on one side). */
  function fromItemList(text: string, arrayPath: Array<string | number>, index: number) {
    const tree = jsonTree(text);
    let array = tree.root;
    for (const segment of arrayPath)
      array = array === NO_NODE ? NO_NODE : tree.step(array, segment);
    if (array === NO_NODE || tree.kind(array) !== "array") return undefined;
    const items = Array.from({ length: tree.childCount(array) }, (_, i) => {
      const child = tree.child(array, i);
      return { offset: tree.offset(child), end: tree.offset(child) + tree.length(child) };
    });
    const item = items[index];
    if (!item) return undefined;
    const next = items[index + 1];
    if (next) return { offset: item.offset, length: next.offset - item.offset };
    const previous = items[index - 1];
    if (previous) return { offset: previous.end, length: item.end - previous.end };
    return { offset: item.offset, length: item.end - item.offset };
  }

  it("takes the item and one comma, as the list of every item's span does, from the item and its neighbours", () => {
    const text =
      '{ "permissions": [ "a" ,\n  { "identifier": "b", "allow": [1, 2,3] },"c" ], "one": [ 7 ], "none": [], "x": "s" }';
    const document = SourceDocument.parse("/x/a.json", "a.json", text, "json");
    const cases: Array<[Array<string | number>, number]> = [];
    for (let index = -1; index <= 4; index++) cases.push([["permissions"], index]);
    for (let index = 0; index <= 3; index++) cases.push([["permissions", 1, "allow"], index]);
    cases.push([["one"], 0], [["one"], 1], [["none"], 0], [["x"], 0], [["missing"], 0]);
    cases.push([["permissions"], 0.5]);
    for (const [arrayPath, index] of cases)
      expect(
        document.arrayItemRemovalSpan([...arrayPath, index]),
        `${arrayPath.join(".")}[${index}]`,
      ).toEqual(fromItemList(text, arrayPath, index));
    expect(document.arrayItemRemovalSpan(["permissions", "a"])).toBeUndefined();
  });
});

/** A text's line starts, and the position of an offset, found the plain way (every character in turn). */
function referenceLines(text: string) {
  const starts = [0];
  for (let i = 0; i < text.length; i++)
    if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) starts.push(i + 1);
  const expected = (offset: number) => {
    const line = starts.filter((start) => start <= offset).length;
    return { line, column: offset - starts[line - 1]! + 1 };
  };
  return { starts, expected };
}

describe("line starts", () => {
  it("are the same whether a text breaks lines with LF, CRLF or lone CRs", () => {
    const lines = ["{", '  "a": 1,', "", '  "b": [2]', "}"];
    for (const [breaks, text] of [
      ["LF", lines.join("\n") + "\n"],
      ["CRLF", lines.join("\r\n") + "\r\n"],
      ["CR", lines.join("\r")],
      ["mixed", "{\n" + '  "a": 1,\r\n' + "\r" + '  "b": [2]\n' + "}"],
    ] as const) {
      const index = new LineIndex(text);
      expect(index.lineCount, breaks).toBe(breaks === "CR" || breaks === "mixed" ? 5 : 6);
      expect(
        lines.map((_, i) => index.lineText(i + 1)),
        breaks,
      ).toEqual(lines);
      expect(index.position(text.indexOf('"b"')), breaks).toEqual({ line: 4, column: 3 });
    }
  });

  it("found by a native search where no carriage return is, give the positions a character loop gives", () => {
    // Line feeds only (the search), carriage returns in some parts (the loop), and a CRLF split between
    // two parts read one after the other: every part size must find the same line starts.
    for (const text of ["ab\ncd\n\n\nefg\nh\n", "ab\ncd\r\nef\rg\n\nh\r\n", "\n\r\n\r\r\n\n"]) {
      const { starts, expected } = referenceLines(text);
      for (let step = 1; step <= text.length; step++) {
        const index = new LineIndex(text);
        for (let offset = 0; offset <= text.length; offset += step)
          expect(index.position(offset), `${JSON.stringify(text)} ${step} ${offset}`).toEqual(
            expected(offset),
          );
        expect(index.position(text.length)).toEqual(expected(text.length));
        expect(index.lineCount).toBe(starts.length);
      }
    }
  });

  it("found as far as asked, in any order of questions, give the positions of the whole text's line starts", () => {
    const text = "a\r\nb\rc\n\r\n\rd\n\ne\r";
    const { starts, expected } = referenceLines(text);
    const offsets = Array.from({ length: text.length + 1 }, (_, i) => i);
    for (const order of [offsets, [...offsets].reverse(), [3, 0, 9, 2, 14, 1, 7, 13, 4]]) {
      const index = new LineIndex(text);
      for (const offset of order)
        expect(index.position(offset), `${offset}`).toEqual(expected(offset));
    }
    for (let line = 0; line <= starts.length + 1; line++) {
      const index = new LineIndex(text);
      expect(index.offset({ line, column: 1 }), `${line}`).toBe(
        starts[Math.max(0, Math.min(line - 1, starts.length - 1))],
      );
      expect(new LineIndex(text).lineText(line), `${line}`).toBe(
        line < 1 || line > starts.length
          ? ""
          : text.slice(starts[line - 1], starts[line] ?? text.length).replace(/[\r\n]+$/, ""),
      );
    }
    expect(new LineIndex(text).lineCount).toBe(starts.length);
  });

  it("read a file of one long line only up to the last offset placed", () => {
    const text = `[${'"x",'.repeat(1_000_000)}0]`;
    const index = new LineIndex(text);
    expect(index.position(1_000)).toEqual({ line: 1, column: 1_001 });
    expect(index.charactersScanned).toBe(1_000);
    expect(index.position(10)).toEqual({ line: 1, column: 11 });
    expect(index.charactersScanned).toBe(1_000);
  });
});

describe("the nesting bound", () => {
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

  it("is judged on the parsed value exactly as on the text", () => {
    for (const depth of [
      4,
      MAX_NESTING_DEPTH - 1,
      MAX_NESTING_DEPTH,
      MAX_NESTING_DEPTH + 1,
      100_000,
    ]) {
      const texts = [
        nested(depth),
        `{"a": ${nested(depth - 1)}, "b": "[[[["}`,
        `[0, {"x": {"y": ${nested(depth - 3)}}}]`,
      ];
      for (const text of texts) {
        expect(nestsDeeperThan(JSON.parse(text), MAX_NESTING_DEPTH), text.slice(0, 40)).toBe(
          findExcessiveNesting(text, MAX_NESTING_DEPTH) >= 0,
        );
      }
    }
  });

  it("is reported at the first bracket past it, in valid and invalid JSON", () => {
    const deep = (text: string) =>
      SourceDocument.parse("/x/a.json", "a.json", text, "json").parseError;
    expect(deep(nested(MAX_NESTING_DEPTH))).toBeUndefined();
    expect(deep(`{"a": ${nested(MAX_NESTING_DEPTH)}}`)).toEqual({
      message: "nesting deeper than 256 levels; no input needs that",
      offset: 6 + 255,
      length: 1,
    });
    // Broken and too deep: the bound is named first, as the host's reader would stop there.
    expect(deep(`{"a": ${nested(MAX_NESTING_DEPTH)},}`)?.message).toBe(
      "nesting deeper than 256 levels; no input needs that",
    );
    expect(deep(`{"a": ${nested(10)},}`)?.message).toMatch(/^invalid JSON/);
  });
});

/** The node a path leads to in a tree, or NO_NODE once a step finds nothing. */
function follow(tree: JsonPathTree, path: ReadonlyArray<string | number>): JsonNode {
  return path.reduce<JsonNode>(
    (node, step) => (node === NO_NODE ? node : tree.step(node, step)),
    tree.root,
  );
}
