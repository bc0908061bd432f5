import { createRequire } from "node:module";
import type { ParseError } from "jsonc-parser";
import type { JsonPath, Range } from "../location.js";
import {
  jsonTree,
  LazyJsonTree,
  NO_NODE,
  PathCursor,
  type JsonNode,
  type JsonPathTree,
} from "./json-tree.js";
import { LineIndex } from "./line-index.js";
import { quoteString } from "./syntax.js";
import { headerParts, TomlKeyIndex } from "./toml-key-index.js";

export type DocumentFormat = "json" | "toml";

type JsoncParser = typeof import("jsonc-parser");
let jsonc: JsoncParser | undefined;

/**
 * jsonc-parser words syntax errors (positions of valid files come from json-tree.ts). A valid file
 * never needs it, so it is loaded (synchronously, from its CommonJS build) only for a broken one.
 */
function jsoncParser(): JsoncParser {
  jsonc ??= createRequire(import.meta.url)("jsonc-parser") as JsoncParser;
  return jsonc;
}

/**
 * A document's findings are placed through a syntax tree made along their paths until that has read
 * the text this many times over; then the whole tree is made (see `SourceDocument.tree`).
 */
const WHOLE_TREE_AFTER = 8;

/** How deep arrays, objects and tables may nest (see `excessiveNesting`). */
export const MAX_NESTING_DEPTH = 256;

export interface Located {
  range: Range;
  offset: number;
  length: number;
  /** False when the path does not exist and an ancestor (or the file start) was used. */
  exact: boolean;
}

export interface ParseFailure {
  message: string;
  offset: number;
  length: number;
}

/** A document's repeated keys when it has none, kept so that the tree can ask again for free. */
const NO_PATHS: readonly JsonPath[] = Object.freeze([]);

/**
 * A parsed capability or permission file. It owns the only mapping from JSON paths to
 * text positions: rules and the schema stage report paths, never positions.
 */
export class SourceDocument {
  readonly lines: LineIndex;
  private tomlArrays: Map<string, ItemSpan[] | undefined> | undefined;
  /** The items of the JSON arrays fixes asked for, by node of `tree` (made again if the tree is replaced). */
  private jsonArrays: { tree: JsonPathTree; items: Map<JsonNode, ItemSpan[]> } | undefined;
  private tomlKeys: TomlKeyIndex | undefined;
  /**
   * The items of each closed inline TOML array a path stepped into, by where its scan starts: a file's
   * findings in one array (an entry each) are placed from one scan of it, not one scan per finding
   * from the array's start up to the entry.
   */
  private tomlElements: Map<number, ItemSpan[] | undefined> | undefined;
  /**
   * Steps taken from a node of the JSON syntax tree to its child to place paths (work counted by tests):
   * about one a finding when a file's findings share their path down to an array, not its whole depth.
   * Shared by the documents of one text.
   */
  get pathSteps(): number {
    return this.treeBox.cursor?.steps ?? 0;
  }
  /** How many times an inline TOML array was scanned to place a path in it (work counted by tests). */
  inlineArrayScans = 0;
  private constructor(
    /** Absolute path. */
    readonly absolutePath: string,
    /** POSIX path relative to the working directory. */
    readonly file: string,
    readonly text: string,
    readonly format: DocumentFormat,
    readonly value: unknown,
    readonly parseError: ParseFailure | undefined,
    /**
     * The syntax tree once begun, the repeated keys once found and the properties the value keeps
     * (counted by `parse`), shared by the documents of one text (see {@link at}).
     */
    private readonly treeBox: {
      tree?: JsonPathTree;
      /** Where the last path placed in `tree` led (see `PathCursor`). */
      cursor?: PathCursor;
      repeated?: readonly JsonPath[];
      kept?: number;
    } = {},
  ) {
    this.lines = new LineIndex(text);
  }

  /** `invalidUtf8At`: where the file's bytes stopped being UTF-8 (see `decodeUtf8`), if they did. */
  static parse(
    absolutePath: string,
    file: string,
    text: string,
    format: DocumentFormat,
    parseToml?: TomlParser,
    invalidUtf8At?: number,
    wording: ReaderWording = PLAIN_WORDING,
  ): SourceDocument {
    const problem = precheck(text, wording, invalidUtf8At);
    if (problem)
      return new SourceDocument(absolutePath, file, text, format, undefined, problem, undefined);
    if (format === "toml") {
      const deep = excessiveNesting(text, wording);
      if (deep)
        return new SourceDocument(absolutePath, file, text, format, undefined, deep, undefined);
      if (!parseToml) throw new Error("a TOML parser is required for TOML documents");
      const result = parseToml(text, wording);
      return new SourceDocument(
        absolutePath,
        file,
        text,
        format,
        result.value,
        result.error,
        undefined,
      );
    }
    let value: unknown;
    try {
      // The native parser agrees with jsonc-parser on valid JSON and keeps `__proto__` as a plain own key.
      // It does not recurse, so the nesting bound is checked on its value: walking the containers of the
      // value costs less than walking every character of the text, which only a file over the bound needs.
      value = JSON.parse(text);
    } catch {
      const deep = excessiveNesting(text, wording);
      if (deep)
        return new SourceDocument(absolutePath, file, text, format, undefined, deep, undefined);
      const errors: ParseError[] = [];
      jsoncParser().parseTree(text, errors, {
        disallowComments: true,
        allowTrailingComma: false,
        allowEmptyContent: false,
      });
      const first = errors[0];
      const failure: ParseFailure = first
        ? {
            message: describeJsonError(first, text),
            offset: first.offset,
            length: Math.max(1, first.length),
          }
        : { message: "invalid JSON", offset: 0, length: 0 };
      return new SourceDocument(absolutePath, file, text, format, undefined, failure, undefined);
    }
    // One walk of the value answers both the nesting bound and how many properties it keeps (which
    // `repeatedKeys` compares with the text's count): -1 when it nests past the bound.
    const kept = propertiesKept(value, MAX_NESTING_DEPTH);
    const deep = kept < 0 ? excessiveNesting(text, wording) : undefined;
    if (deep)
      return new SourceDocument(absolutePath, file, text, format, undefined, deep, undefined);
    const surrogate = loneSurrogateEscape(text);
    if (surrogate >= 0) {
      // serde_json refuses an escape that is half a surrogate pair; JSON.parse keeps it as a broken string.
      const failure = {
        message: `invalid JSON: a lone surrogate escape is not a character (${wording.rejectsSurrogates})`,
        offset: surrogate,
        length: 6,
      };
      return new SourceDocument(absolutePath, file, text, format, undefined, failure, undefined);
    }
    return new SourceDocument(absolutePath, file, text, format, value, undefined, {
      kept: kept < 0 ? undefined : kept,
    });
  }

  /**
   * The same text read at another path (a copy of a file in another app): shares the parsed value and,
   * once built, the syntax tree; names and positions are this path's. Nothing changes a parsed value.
   */
  at(absolutePath: string, file: string): SourceDocument {
    if (absolutePath === this.absolutePath && file === this.file) return this;
    return new SourceDocument(
      absolutePath,
      file,
      this.text,
      this.format,
      this.value,
      this.parseError,
      this.treeBox,
    );
  }

  /**
   * The syntax tree of a valid JSON document: made as paths are followed (only the findings' paths
   * need it), until following them has read the text {@link WHOLE_TREE_AFTER} times over (paths
   * deep in a large file), when the whole tree, made in one pass, costs less.
   */
  private get tree(): JsonPathTree | undefined {
    const box = this.treeBox;
    if (box.tree === undefined) {
      if (this.format !== "json" || this.parseError !== undefined) return undefined;
      box.tree = new LazyJsonTree(this.text, this.repeatedKeys().length === 0);
    } else if (
      box.tree instanceof LazyJsonTree &&
      box.tree.scanned > WHOLE_TREE_AFTER * this.text.length + 65_536
    )
      box.tree = jsonTree(this.text);
    return box.tree;
  }

  get ok(): boolean {
    return this.parseError === undefined;
  }

  /**
   * Paths of properties written a second (or later) time in the same object of a JSON document.
   * `JSON.parse` keeps the last one silently; the host's serde rejects a repeated known field. When
   * the text holds as many properties as the parsed value keeps, none repeats, and the syntax tree
   * (the costly part) is never built.
   */
  repeatedKeys(): JsonPath[] {
    if (this.treeBox.repeated) return [...this.treeBox.repeated];
    if (this.format !== "json" || !this.ok) return [];
    const kept = (this.treeBox.kept ??= propertiesKept(this.value));
    if (propertiesWritten(this.text) === kept) {
      // Kept: the tree asks too (a text without repeats is followed to the first member of a key).
      this.treeBox.repeated = NO_PATHS;
      return [];
    }
    const repeated: JsonPath[] = [];
    // The walk visits every value: the whole tree, made for it and let go (findings are placed by `tree`).
    const tree = jsonTree(this.text);
    const walk = (node: JsonNode, path: (string | number)[]) => {
      const kind = tree.kind(node);
      if (kind === "object") {
        const seen = new Set<string>();
        for (let i = 0; i < tree.childCount(node); i++) {
          const member = tree.child(node, i);
          const key = tree.key(member);
          if (seen.has(key)) repeated.push([...path, key]);
          seen.add(key);
          walk(member, [...path, key]);
        }
      } else if (kind === "array") {
        for (let i = 0; i < tree.childCount(node); i++) walk(tree.child(node, i), [...path, i]);
      }
    };
    walk(tree.root, []);
    this.treeBox.repeated = repeated;
    return [...repeated];
  }

  /**
   * The text of the value at `path` as the file writes it (`1e400`, `1.50`), when the path is there:
   * a JSON value from the syntax tree; a TOML number (`0x1F`, `1_000`, `+inf`) read where its key or
   * array element starts, since the TOML parser keeps no positions and its value says 31 for `0x1F`.
   */
  writtenText(path: JsonPath): string | undefined {
    if (this.format === "toml") return this.tomlNumberText(path);
    if (!this.tree) return undefined;
    const at = this.locate(path);
    return at.exact ? this.text.slice(at.offset, at.offset + at.length) : undefined;
  }

  /**
   * The number token after `key =` or at an inline array's element, when it reads as the parsed value
   * (a same-named key elsewhere, or a nesting the key search does not follow, gives no text rather
   * than another value's).
   */
  private tomlNumberText(path: JsonPath): string | undefined {
    const value = this.ok ? valueAt(this.value, path) : undefined;
    if (typeof value !== "number" || path.length === 0) return undefined;
    const { offset, exact } = this.tomlCursor(path);
    if (!exact) return undefined;
    TOML_VALUE_START.lastIndex = offset;
    const start =
      typeof path[path.length - 1] === "number"
        ? offset
        : offset + (TOML_VALUE_START.exec(this.text)?.[0].length ?? 0);
    TOML_NUMBER.lastIndex = start;
    const token = TOML_NUMBER.exec(this.text)?.[0];
    if (token === undefined) return undefined;
    const read = tomlNumberValue(token);
    return read === value || (Number.isNaN(read) && Number.isNaN(value)) ? token : undefined;
  }

  /**
   * The text range of the value (or, with `target: "key"`, the property name) at `path`,
   * falling back to the nearest existing ancestor.
   */
  locate(path: JsonPath, target: "key" | "value" = "value"): Located {
    if (this.tree) return this.locateJson(path, target);
    if (this.parseError) return this.span(this.parseError.offset, this.parseError.length, true);
    return this.locateToml(path, target);
  }

  private locateJson(path: JsonPath, target: "key" | "value"): Located {
    const tree = this.tree!;
    // One cursor per tree (shared by the documents of one text): a file's findings share most of their path.
    let cursor = this.treeBox.cursor;
    if (cursor?.tree !== tree) cursor = this.treeBox.cursor = new PathCursor(tree, cursor?.steps);
    const node = cursor.deepest(path);
    const exact = cursor.depthReached === path.length;
    if (exact && target === "key" && tree.isMember(node))
      return this.span(tree.keyOffset(node), tree.keyLength(node), true);
    return this.span(tree.offset(node), tree.length(node), exact);
  }

  /** Offset and length of the exact value at `path`, or undefined (in TOML: string values only, the only ones fixes replace). */
  valueSpan(path: JsonPath): { offset: number; length: number } | undefined {
    if (this.format === "toml") {
      if (!this.ok || typeof valueAt(this.value, path) !== "string") return undefined;
      const located = this.locateToml(path, "value");
      const quote = this.text[located.offset];
      // A multi-line string (three quotes) is left alone: locate finds a one-line quoted text only.
      return located.exact &&
        (quote === '"' || quote === "'") &&
        this.text[located.offset + 1] !== quote
        ? located
        : undefined;
    }
    const tree = this.tree;
    const node = tree ? nodeAt(tree, path) : NO_NODE;
    return node === NO_NODE
      ? undefined
      : { offset: tree!.offset(node), length: tree!.length(node) };
  }

  /** A string value in this document's syntax: a JSON string, or a TOML basic string. */
  quoteString(value: string): string {
    return quoteString(value, this.format);
  }

  /**
   * The text to delete to remove an array item at `path` together with one separating comma,
   * so the surrounding layout stays as written. In TOML only items of an inline array (`key = [...]`)
   * can be removed; an item of an array of tables (`[[key]]`) is a section of its own.
   */
  arrayItemRemovalSpan(path: JsonPath): { offset: number; length: number } | undefined {
    const index = path[path.length - 1];
    if (typeof index !== "number") return undefined;
    if (this.format === "json") return this.jsonItemRemovalSpan(path, index);
    const items = this.inlineArrayItems(path.slice(0, -1));
    const item = items?.[index];
    if (!items || !item) return undefined;
    const next = items[index + 1];
    if (next) return { offset: item.offset, length: next.offset - item.offset };
    const previous = items[index - 1];
    if (previous) return { offset: previous.end, length: item.end - previous.end };
    return { offset: item.offset, length: item.end - item.offset };
  }

  /**
   * `arrayItemRemovalSpan` in a JSON document, from the item and its neighbours in the syntax tree:
   * no list of every item's span is made and kept for the array (a capability's redundant entries
   * each have a fix: a run of 20,000 findings kept a span object per item of every such array).
   */
  private jsonItemRemovalSpan(
    path: JsonPath,
    index: number,
  ): { offset: number; length: number } | undefined {
    const tree = this.tree;
    if (!tree) return undefined;
    const array = nodeAt(tree, path, path.length - 1);
    if (array === NO_NODE || tree.kind(array) !== "array" || !Number.isInteger(index) || index < 0)
      return undefined;
    const item = tree.child(array, index);
    if (item === NO_NODE) return undefined;
    const offset = tree.offset(item);
    const next = tree.child(array, index + 1);
    if (next !== NO_NODE) return { offset, length: tree.offset(next) - offset };
    const end = offset + tree.length(item);
    const previous = index > 0 ? tree.child(array, index - 1) : NO_NODE;
    if (previous !== NO_NODE) {
      const previousEnd = tree.offset(previous) + tree.length(previous);
      return { offset: previousEnd, length: end - previousEnd };
    }
    return { offset, length: end - offset };
  }

  /**
   * Where each item of the array at `arrayPath` starts and ends (a JSON array, or an inline TOML array),
   * for edits that rewrite several items of one array at once; undefined when it is not such an array.
   */
  arrayItemSpans(arrayPath: JsonPath): ReadonlyArray<{ offset: number; end: number }> | undefined {
    return this.format === "toml"
      ? this.inlineArrayItems(arrayPath)
      : this.jsonArrayItems(arrayPath);
  }

  /** The items of the JSON array at `arrayPath`, made once per array: a fix per item (a capability's redundant entries) must not make them again. */
  private jsonArrayItems(arrayPath: JsonPath): ItemSpan[] | undefined {
    const tree = this.tree;
    if (!tree) return undefined;
    const array = nodeAt(tree, arrayPath);
    if (array === NO_NODE || tree.kind(array) !== "array") return undefined;
    if (this.jsonArrays?.tree !== tree) this.jsonArrays = { tree, items: new Map() };
    const known = this.jsonArrays.items;
    let items = known.get(array);
    if (!items) {
      items = [];
      for (let i = 0; i < tree.childCount(array); i++) {
        const child = tree.child(array, i);
        items.push({ offset: tree.offset(child), end: tree.offset(child) + tree.length(child) });
      }
      known.set(array, items);
    }
    return items;
  }

  /** The items of the inline TOML array at `arrayPath`, scanned once per array (a fix per item must not rescan it). */
  private inlineArrayItems(arrayPath: JsonPath): ItemSpan[] | undefined {
    const array = this.ok ? valueAt(this.value, arrayPath) : undefined;
    if (!Array.isArray(array)) return undefined;
    const key = JSON.stringify(arrayPath);
    this.tomlArrays ??= new Map();
    if (!this.tomlArrays.has(key)) {
      const located = this.locateToml(arrayPath, "key");
      const items = located.exact
        ? scanInlineArray(this.text, located.offset + located.length, Infinity)
        : undefined;
      // The scan must find what the parser found, or the spans belong to something else.
      this.tomlArrays.set(key, items && items.length === array.length ? items : undefined);
    }
    return this.tomlArrays.get(key);
  }

  /**
   * smol-toml gives no positions for values, so TOML paths are followed through the text: each key
   * by its `key =` line or `[[key]]` header after the previous one (the nth header for the nth table
   * of an array of tables), and a string value by its quoted text after that. When that fails the
   * nearest found key is used, or the first line.
   */
  private locateToml(path: JsonPath, target: "key" | "value"): Located {
    const { offset, keyAt, exact } = this.tomlCursor(path);
    const value = valueAt(this.value, path);
    if (exact && target === "value" && typeof value === "string") {
      for (const quoted of [JSON.stringify(value), `'${value}'`]) {
        const at = this.text.indexOf(quoted, offset);
        if (at >= 0) return this.span(at, quoted.length, true);
      }
    }
    if (keyAt)
      return this.span(
        keyAt.offset,
        keyAt.length,
        exact && (target === "key" || typeof value !== "string"),
      );
    return this.span(0, 0, path.length === 0);
  }

  /**
   * Follows `path` through the TOML text: where the last key found is written (`keyAt`), and `offset`,
   * just after that key or at the start of the inline array element the path ends with.
   */
  private tomlCursor(path: JsonPath): {
    offset: number;
    keyAt: { offset: number; length: number } | undefined;
    exact: boolean;
  } {
    let offset = 0;
    let keyAt: { offset: number; length: number } | undefined;
    let exact = true;
    for (let i = 0; i < path.length; i++) {
      const key = path[i];
      if (typeof key !== "string") continue;
      const index = path[i + 1];
      const found =
        typeof index === "number" ? this.arrayOfTablesHeader(key, offset, index) : undefined;
      if (found) {
        offset = found.end;
        keyAt = {
          offset: found.index + this.text.slice(found.index, found.end).indexOf(key),
          length: key.length,
        };
        i++;
        continue;
      }
      // `[key]`, or a dotted header naming the next keys of the path too (`[app.security]` for app, security).
      const tableHeader =
        typeof index !== "number"
          ? findTableHeader(this.text, this.keyIndex, offset, path, i)
          : undefined;
      if (tableHeader) {
        keyAt = { offset: tableHeader.keyOffset, length: tableHeader.keyLength };
        offset = tableHeader.end;
        i += tableHeader.consumed;
        continue;
      }
      // A `key =` at a line start or inside an inline table.
      const at = this.assignment(key, offset);
      if (at === undefined) {
        // An array of tables named as a whole (`[[key]]`, an unknown field): its first header.
        const header =
          typeof index !== "number" && i === path.length - 1
            ? this.arrayOfTablesHeader(key, offset, 0)
            : undefined;
        if (header)
          keyAt = {
            offset: header.index + this.text.slice(header.index, header.end).indexOf(key),
            length: key.length,
          };
        else exact = false;
        break;
      }
      keyAt = { offset: at, length: key.length };
      offset = at + key.length;
      // An element of an inline array: start after the elements before it, so the nth of several equal
      // strings (a repeated permission) is found, not the first.
      if (typeof index === "number") {
        const element = this.inlineArrayElement(offset, index);
        if (element === undefined) {
          exact = false;
          break;
        }
        offset = element;
        i++;
      }
    }
    return { offset, keyAt, exact };
  }

  /**
   * `inlineArrayElement` of this text, from one scan per array: a closed array's items are those of
   * any scan stopping early (the scan reads the same characters in the same order), and an array the
   * scan finds no close of is scanned as before, up to the item asked for.
   */
  private inlineArrayElement(from: number, index: number): number | undefined {
    this.tomlElements ??= new Map();
    let items = this.tomlElements.get(from);
    if (items === undefined && !this.tomlElements.has(from)) {
      this.inlineArrayScans++;
      items = scanInlineArray(this.text, from, Infinity);
      this.tomlElements.set(from, items);
    }
    if (items) return items[index]?.offset;
    this.inlineArrayScans++;
    return inlineArrayElement(this.text, from, index);
  }

  /** The index of the TOML text's keys, made on the first lookup. */
  private get keyIndex(): TomlKeyIndex {
    this.tomlKeys ??= new TomlKeyIndex(this.text);
    return this.tomlKeys;
  }

  /** The `index`th `[[… key]]` header at or after `from`: where it starts and ends. */
  private arrayOfTablesHeader(
    key: string,
    from: number,
    index: number,
  ): { index: number; end: number } | undefined {
    return this.keyIndex.arrayHeader(key, from, index);
  }

  /** Where `key =` is written at or after `from`: at a line start or inside an inline table. */
  private assignment(key: string, from: number): number | undefined {
    return this.keyIndex.assignment(key, from);
  }

  private span(offset: number, length: number, exact: boolean): Located {
    return {
      offset,
      length,
      exact,
      range: this.lines.range(offset, length),
    };
  }
}

/** What follows a key's name up to its value: a closing quote, then ` = `. */
const TOML_VALUE_START = /["']?[ \t]*=[ \t]*/y;
/** A TOML number as written: decimal, float, hex, octal, binary, inf and nan, with sign and underscores where TOML allows them. */
const TOML_NUMBER =
  /[+-]?(?:inf|nan|0x[0-9A-Fa-f_]+|0o[0-7_]+|0b[01_]+|\d[\d_]*(?:\.[\d_]+)?(?:[eE][+-]?[\d_]+)?)(?![\w.:+-])/y;

/** The value of a number token TOML_NUMBER matched. */
function tomlNumberValue(token: string): number {
  const digits = token.replace(/_/g, "");
  const unsigned = digits.replace(/^[+-]/, "");
  const sign = digits.startsWith("-") ? -1 : 1;
  if (unsigned === "inf") return sign * Infinity;
  if (unsigned === "nan") return NaN;
  const radix = { "0x": 16, "0o": 8, "0b": 2 }[unsigned.slice(0, 2)];
  return radix === undefined ? Number(digits) : sign * parseInt(unsigned.slice(2), radix);
}

/** The syntax tree node at `path`, or NO_NODE. */
/** The node at `path` (its first `length` steps), or NO_NODE. */
function nodeAt(tree: JsonPathTree, path: JsonPath, length = path.length): JsonNode {
  let node = tree.root;
  for (let i = 0; i < length; i++) {
    node = tree.step(node, path[i]!);
    if (node === NO_NODE) break;
  }
  return node;
}

export type TomlParser = (
  text: string,
  wording?: ReaderWording,
) => { value: unknown; error?: ParseFailure };

/**
 * How the reader words what an input should have been and who would reject it: the caller's words
 * (each domain has its own, src/core/lint/domain.ts), so the core names no kind of input.
 */
export interface ReaderWording {
  /** What an empty file should hold: `a capability object or array`. */
  expected: string;
  /** Why a nesting past MAX_NESTING_DEPTH is refused: `no capability file needs that`. */
  nestingUnneeded: string;
  /** Who rejects a byte order mark: `which the host's parser rejects`. */
  rejectsBom: string;
  /** Who rejects a lone surrogate escape: `the host's parser rejects it`. */
  rejectsSurrogates: string;
}

/** The wording for a reader that has no domain (tests, generic JSON). */
export const PLAIN_WORDING: ReaderWording = {
  expected: "a JSON or TOML document",
  nestingUnneeded: "no input needs that",
  rejectsBom: "which strict parsers reject",
  rejectsSurrogates: "strict JSON parsers reject it",
};

/**
 * The number of properties written in a valid JSON text: strings followed by a colon. One linear
 * scan that steps over string contents exactly (escapes included), so a `":"` inside a value never counts.
 */
export function propertiesWritten(text: string): number {
  const keys = keysBeforeColons(text);
  return keys >= 0 ? keys : propertiesWrittenByStrings(text);
}

/**
 * The properties of a valid JSON text, from its colons alone, or -1 when they cannot tell. A key's
 * closing quote is written right before its colon in nearly every text; a colon after whitespace
 * (`"a" :`) may follow a key too, so it gives up. A quote before a colon closes a key unless it is
 * escaped (a backslash before it) or opens a string that starts with a colon (after `[`, `{`, `,`,
 * `:` or whitespace, or at the start): it gives up there too. A quote after any other character (a
 * quote included: `"":` is an empty key) closes a string. Other colons are inside strings. One native
 * search a colon, where reading every string takes two or three.
 */
function keysBeforeColons(text: string): number {
  let count = 0;
  let seen = 0;
  for (let at = text.indexOf(":"); at !== -1; at = text.indexOf(":", at + 1)) {
    const last = text.charCodeAt(at - 1);
    if (last === 32 || last === 9 || last === 10 || last === 13) return -1;
    if (last === 34 /* " */) {
      if (opensOrEscaped(text, at - 1)) return -1;
      count++;
    }
    // Most colons inside values (`"core:default"`) on one line so far: a machine-written text with
    // few spaces, where native searches for the keys' `":` and for whitespace before a colon cost
    // less than a step a colon (in an indented text those searches stop at every space).
    if (++seen === 64 && count * 2 < seen && text.lastIndexOf("\n", at) === -1)
      return keysBeforeColonsFrom(text, at, count);
  }
  return count;
}

/** `keysBeforeColons` past `from` (a colon already judged) by native searches, adding to `count`. */
function keysBeforeColonsFrom(text: string, from: number, count: number): number {
  if (
    text.indexOf(" :", from) !== -1 ||
    text.indexOf("\n:", from) !== -1 ||
    text.indexOf("\t:", from) !== -1 ||
    text.indexOf("\r:", from) !== -1
  )
    return -1;
  for (let at = text.indexOf('":', from); at !== -1; at = text.indexOf('":', at + 2)) {
    if (opensOrEscaped(text, at)) return -1;
    count++;
  }
  return count;
}

/** Whether the quote at `quote`, followed by a colon, may be escaped or open a string (see keysBeforeColons). */
function opensOrEscaped(text: string, quote: number): boolean {
  const before = quote === 0 ? 32 : text.charCodeAt(quote - 1);
  return (
    before === 92 /* \ */ ||
    before === 91 /* [ */ ||
    before === 123 /* { */ ||
    before === 44 /* , */ ||
    before === 58 /* : */ ||
    before === 32 ||
    before === 9 ||
    before === 10 ||
    before === 13
  );
}

/** `propertiesWritten` for any valid JSON text: every string stepped over. */
function propertiesWrittenByStrings(text: string): number {
  let count = 0;
  // Both searches only move forward, so the scan stays linear however many escapes a string holds.
  let slash = text.indexOf("\\");
  let quote = text.indexOf('"');
  while (quote !== -1) {
    // `quote` opens a string: move it to the closing quote, stepping over escapes.
    let at = quote + 1;
    for (;;) {
      if (quote < at) quote = text.indexOf('"', at);
      if (slash !== -1 && slash < at) slash = text.indexOf("\\", at);
      if (slash !== -1 && quote !== -1 && slash < quote) at = slash + 2;
      else break;
    }
    if (quote === -1) break;
    let next = quote + 1;
    for (
      let c = text.charCodeAt(next);
      c === 32 || c === 9 || c === 10 || c === 13;
      c = text.charCodeAt(++next)
    );
    if (text.charCodeAt(next) === 58) count++;
    quote = text.indexOf('"', next);
  }
  return count;
}

/**
 * The number of properties a parsed JSON value holds (fewer than written means some key repeated), or
 * -1 when it holds arrays or objects more than `limit` levels deep (the walk stops there). One walk
 * answers both: `parse` needs the bound for every JSON text and `repeatedKeys` the count.
 */
export function propertiesKept(value: unknown, limit = Infinity): number {
  if (value === null || typeof value !== "object") return 0;
  return limit < 1 ? -1 : propertiesIn(value, limit - 1);
}

/** Whether a parsed JSON value holds arrays or objects more than `limit` levels deep. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  return propertiesKept(value, limit) < 0;
}

/**
 * `propertiesKept` of a container that may hold containers `levelsLeft` more levels deep. Indexed
 * loops (a for-of step allocates before the optimiser compiles the walk, which runs once per file),
 * and a value that is no container is passed over without a call: most are strings in arrays.
 */
function propertiesIn(container: object, levelsLeft: number): number {
  let count = 0;
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) {
      const item: unknown = container[i];
      if (item === null || typeof item !== "object") continue;
      const inner = levelsLeft === 0 ? -1 : propertiesIn(item, levelsLeft - 1);
      if (inner < 0) return -1;
      count += inner;
    }
  } else {
    for (const key in container) {
      count++;
      const item = (container as Record<string, unknown>)[key];
      if (item === null || typeof item !== "object") continue;
      const inner = levelsLeft === 0 ? -1 : propertiesIn(item, levelsLeft - 1);
      if (inner < 0) return -1;
      count += inner;
    }
  }
  return count;
}

export function valueAt(root: unknown, path: JsonPath): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** Offset of the first `\uD800`–`\uDFFF` escape that is not half of a high-low pair, or -1. Cheap when there is none. */
export function loneSurrogateEscape(text: string): number {
  // Nearly every text has no \u escape at all: one native search answers, without a regex scan.
  if (text.indexOf("\\u") === -1) return -1;
  const escape = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g;
  for (let match = escape.exec(text); match; match = escape.exec(text)) {
    let backslashes = 0;
    for (let i = match.index - 1; i >= 0 && text.charCodeAt(i) === 92; i--) backslashes++;
    // An even run of backslashes before this one makes it a literal backslash, not an escape.
    if (backslashes % 2 === 1) continue;
    const unit = parseInt(match[0].slice(2), 16);
    if (unit <= 0xdbff) {
      const next = text.slice(match.index + 6, match.index + 12);
      if (/^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(next)) {
        escape.lastIndex = match.index + 12;
        continue;
      }
    }
    return match.index;
  }
  return -1;
}

function precheck(
  text: string,
  wording: ReaderWording,
  invalidUtf8At?: number,
): ParseFailure | undefined {
  if (text.charCodeAt(0) === 0xfeff) {
    return {
      message: `the file starts with a UTF-8 byte order mark, ${wording.rejectsBom}; save it without BOM`,
      offset: 0,
      length: 1,
    };
  }
  const nul = text.indexOf("\u0000");
  if (nul >= 0)
    return {
      message: "the file contains NUL bytes: it looks binary, not JSON or TOML",
      offset: nul,
      length: 1,
    };
  if (invalidUtf8At !== undefined)
    return {
      message: "the file is not valid UTF-8 (first bad byte here)",
      offset: invalidUtf8At,
      length: 1,
    };
  if (text.trim() === "")
    return { message: `the file is empty; expected ${wording.expected}`, offset: 0, length: 0 };
  return undefined;
}

/** Deeper documents are refused: the host has no use for them and recursive parsers (jsonc-parser's, TOML's) overflow. */
function excessiveNesting(text: string, wording: ReaderWording): ParseFailure | undefined {
  const deep = findExcessiveNesting(text, MAX_NESTING_DEPTH);
  if (deep < 0) return undefined;
  return {
    message: `nesting deeper than ${MAX_NESTING_DEPTH} levels; ${wording.nestingUnneeded}`,
    offset: deep,
    length: 1,
  };
}

/** Offset of the first bracket beyond `limit` levels, or -1. Strings are skipped; works for JSON and TOML. */
export function findExcessiveNesting(text: string, limit: number): number {
  // Fewer opening brackets than the limit cannot nest past it: counted with indexOf, far cheaper than the walk below.
  let openings = 0;
  for (const bracket of ["{", "["])
    for (
      let i = text.indexOf(bracket);
      i !== -1 && openings <= limit;
      i = text.indexOf(bracket, i + 1)
    )
      openings++;
  if (openings <= limit) return -1;
  let depth = 0;
  let quote = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (quote) {
      if (ch === 92 /* \ */ && quote === 34) i++;
      else if (ch === quote || ch === 10) quote = 0;
      continue;
    }
    if (ch === 34 /* " */ || ch === 39 /* ' */) quote = ch;
    else if (ch === 123 || ch === 91) {
      if (++depth > limit) return i;
    } else if (ch === 125 || ch === 93) depth--;
  }
  return -1;
}

function describeJsonError(error: ParseError, text: string): string {
  const found = text.slice(error.offset, error.offset + Math.max(1, error.length));
  const near = found
    ? ` near ${JSON.stringify(found.length > 20 ? found.slice(0, 20) + "…" : found)}`
    : " at end of file";
  const what: Record<string, string> = {
    InvalidSymbol: "unexpected character",
    InvalidNumberFormat: "invalid number",
    PropertyNameExpected: "expected a property name in double quotes",
    ValueExpected: "expected a value",
    ColonExpected: "expected ':'",
    CommaExpected: "expected ',' between items",
    CloseBraceExpected: "expected '}'",
    CloseBracketExpected: "expected ']'",
    EndOfFileExpected: "expected end of file after the top-level value",
    InvalidCommentToken: "comments are not allowed in JSON",
    UnexpectedEndOfComment: "unterminated comment",
    UnexpectedEndOfString: "unterminated string",
    UnexpectedEndOfNumber: "unterminated number",
    InvalidUnicode: "invalid unicode escape",
    InvalidEscapeCharacter: "invalid escape character",
    InvalidCharacter: "invalid character in string",
  };
  const code = jsoncParser().printParseErrorCode(error.error);
  let message = `invalid JSON: ${what[code] ?? code}${near}`;
  if (code === "ValueExpected" || code === "PropertyNameExpected") {
    const before = text.slice(0, error.offset).trimEnd();
    if (before.endsWith(",")) message += " (trailing commas are not allowed in JSON)";
  }
  if (code === "InvalidSymbol" && found.startsWith("/"))
    message = `invalid JSON: comments are not allowed${near}`;
  return message;
}

/**
 * The offset of element `index` of the inline TOML array that follows `from` (after `=`), skipping
 * strings, comments and nested arrays or inline tables; undefined when there is no such element.
 */
export function inlineArrayElement(text: string, from: number, index: number): number | undefined {
  return scanInlineArray(text, from, index)?.[index]?.offset;
}

interface ItemSpan {
  offset: number;
  /** Where the item's text ends (before any comma, space or comment after it). */
  end: number;
}

/** The items of the inline TOML array that follows `from`, in one pass that stops after item `last`; undefined when no array starts there. */
function scanInlineArray(text: string, from: number, last: number): ItemSpan[] | undefined {
  let i = from;
  while (i < text.length && /[\s=]/.test(text[i]!)) i++;
  if (text[i] !== "[") return undefined;
  const items: ItemSpan[] = [];
  let depth = 0;
  let open: ItemSpan | undefined;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (depth === 1 && !open && !/[\s,\]]/.test(c)) {
      if (items.length > last) return items;
      items.push((open = { offset: i, end: i + 1 }));
    }
    if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const close = triple ? c.repeat(3) : c;
      i += close.length;
      while (i < text.length && !text.startsWith(close, i))
        i += c === '"' && text[i] === "\\" ? 2 : 1;
      i += close.length - 1;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      if (--depth === 0) return items;
    } else if (c === "," && depth === 1) {
      open = undefined;
      continue;
    }
    if (open && !/\s/.test(c)) open.end = i + 1;
  }
  return undefined;
}

/**
 * The first `[a.b.c]` table header at or after `from` whose dotted name holds `path[i]` followed by the
 * next keys of the path, as far as the header goes (`[app.security]` serves app, security). Only the
 * header lines naming `path[i]` are read (the index lists them), without regular expressions.
 */
function findTableHeader(
  text: string,
  index: TomlKeyIndex,
  from: number,
  path: JsonPath,
  i: number,
): { keyOffset: number; keyLength: number; end: number; consumed: number } | undefined {
  const name = path[i];
  if (typeof name !== "string") return undefined;
  for (const lineStart of index.tableHeaderLines(
    name,
    from === 0 ? 0 : text.lastIndexOf("\n", from - 1) + 1,
  )) {
    const lineEnd = text.indexOf("\n", lineStart) < 0 ? text.length : text.indexOf("\n", lineStart);
    const header = headerParts(text, lineStart, lineEnd);
    if (!header) continue;
    const { parts, close } = header;
    for (let j = 0; j < parts.length; j++) {
      if (parts[j]!.name !== path[i]) continue;
      const rest = parts.slice(j + 1);
      if (
        !rest.every((part, n) => path[i + 1 + n] === part.name) ||
        typeof path[i + 1 + rest.length] === "number"
      )
        continue;
      const last = rest.length ? rest[rest.length - 1]! : parts[j]!;
      if (lineStart < from && last.offset < from) continue;
      return {
        keyOffset: last.offset,
        keyLength: last.name.length,
        end: close + 1,
        consumed: rest.length,
      };
    }
  }
  return undefined;
}
