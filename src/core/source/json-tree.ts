/**
 * The syntax tree of a JSON text that `JSON.parse` has already accepted: only what positions need.
 * One linear pass with no token or node objects: each value is a number indexing a few typed arrays
 * (its span, its key's span when it is an object member, and its children). An object per node made
 * the tree of a 15 MB file 82 MB, four times the parsed value, and its garbage collection the largest
 * share of a check of such a file; these arrays take about 25 bytes a value. The tree is built only
 * for files that have a finding to place.
 */

/** A value's index in a {@link JsonTree}; -1 for none. */
export type JsonNode = number;

export const NO_NODE: JsonNode = -1;

/** Up to this many members, an object's key is found by comparing in place; above, through an index. */
const MEMBERS_SCANNED = 32;

/** What both trees know of each node: where its value and its key are written. */
/**
 * What each node holds, in one array of `NODE_FIELDS` numbers a node (node n at n * NODE_FIELDS): one
 * typed array and one buffer per tree, not one per field (a run places findings in thousands of files,
 * each with a tree of its own, and every buffer is an object, a backing store and a growth of its own).
 */
const NODE_FIELDS = 5;
/** Start and end (exclusive) offset of the value. */
const START = 0;
const END = 1;
/** Start and end of an object member's key (with its quotes); -1 for array items and the root. */
const KEY_START = 2;
const KEY_END = 3;
/** 1 when the member's key holds an escape, so its raw text is not its value. */
const KEY_ESCAPED = 4;

abstract class JsonNodes {
  constructor(
    readonly text: string,
    /** The nodes' fields (see `NODE_FIELDS`). */
    protected nodes: Int32Array,
  ) {}

  protected startOf(node: JsonNode): number {
    return this.nodes[node * NODE_FIELDS + START]!;
  }

  kind(node: JsonNode): "object" | "array" | "string" | "number" | "boolean" | "null" {
    return kindOf(this.text.charCodeAt(this.startOf(node)));
  }

  offset(node: JsonNode): number {
    return this.startOf(node);
  }

  length(node: JsonNode): number {
    const at = node * NODE_FIELDS;
    return this.nodes[at + END]! - this.nodes[at + START]!;
  }

  /** Whether the value is an object member (it has a key). */
  isMember(node: JsonNode): boolean {
    return this.nodes[node * NODE_FIELDS + KEY_START]! >= 0;
  }

  /** Offset and length of a member's key, quotes included. */
  keyOffset(node: JsonNode): number {
    return this.nodes[node * NODE_FIELDS + KEY_START]!;
  }

  keyLength(node: JsonNode): number {
    const at = node * NODE_FIELDS;
    return this.nodes[at + KEY_END]! - this.nodes[at + KEY_START]!;
  }

  /** A member's key, decoded. */
  key(node: JsonNode): string {
    const at = node * NODE_FIELDS;
    const start = this.nodes[at + KEY_START]!;
    const end = this.nodes[at + KEY_END]!;
    return this.nodes[at + KEY_ESCAPED]
      ? (JSON.parse(this.text.slice(start, end)) as string)
      : this.text.slice(start + 1, end - 1);
  }

  /** Whether a member's key, decoded, is `name`; compares in place when the key holds no escape. */
  keyIs(node: JsonNode, name: string): boolean {
    const at = node * NODE_FIELDS;
    if (this.nodes[at + KEY_ESCAPED]) return this.key(node) === name;
    const start = this.nodes[at + KEY_START]! + 1;
    return (
      this.nodes[at + KEY_END]! - 1 - start === name.length && this.text.startsWith(name, start)
    );
  }
}

export class JsonTree extends JsonNodes implements JsonPathTree {
  /** The root value. */
  readonly root: JsonNode = 0;

  constructor(
    text: string,
    /** How many values the tree holds; nodes are numbered 0 to size - 1 in text order (a parent before its children). */
    readonly size: number,
    nodes: Int32Array,
    /** Where each container's children are listed in `children`, and how many. */
    private readonly childStarts: Int32Array,
    private readonly childCounts: Int32Array,
    private readonly children: Int32Array,
  ) {
    super(text, nodes);
  }

  /** The items of an array or the member values of an object, in text order. */
  childCount(node: JsonNode): number {
    return this.childCounts[node]!;
  }

  child(node: JsonNode, index: number): JsonNode {
    return this.children[this.childStarts[node]! + index]!;
  }

  /**
   * The value at one step below `node`: an array item by index, or an object member by key. A key
   * written twice resolves to its last occurrence, the one JSON.parse keeps and the rules see.
   */
  step(node: JsonNode, segment: string | number): JsonNode {
    const c = this.text.charCodeAt(this.startOf(node));
    const first = this.childStarts[node]!;
    const count = this.childCounts[node]!;
    if (typeof segment === "number")
      return c === 91 && Number.isInteger(segment) && segment >= 0 && segment < count
        ? this.children[first + segment]!
        : NO_NODE;
    if (c !== 123) return NO_NODE;
    // An object with many members is looked up through an index built once: a line with 30,000 fields
    // and a finding on each would otherwise compare keys 30,000 × 30,000 / 2 times.
    if (count > MEMBERS_SCANNED) {
      let index = this.memberIndexes.get(node);
      if (!index) {
        index = new Map();
        for (let i = 0; i < count; i++) {
          const member = this.children[first + i]!;
          index.set(this.key(member), member);
        }
        this.memberIndexes.set(node, index);
      }
      return index.get(segment) ?? NO_NODE;
    }
    for (let i = count - 1; i >= 0; i--) {
      const member = this.children[first + i]!;
      if (this.keyIs(member, segment)) return member;
    }
    return NO_NODE;
  }

  /** Members written a second (or later) time in their object, in text order: JSON.parse kept only the last. */
  repeatedMembers(): JsonNode[] {
    const repeated: JsonNode[] = [];
    for (let node = 0; node < this.size; node++) {
      const count = this.childCounts[node]!;
      if (count < 2 || this.text.charCodeAt(this.startOf(node)) !== 123) continue;
      const seen = new Set<string>();
      for (let i = 0; i < count; i++) {
        const member = this.children[this.childStarts[node]! + i]!;
        const key = this.key(member);
        if (seen.has(key)) repeated.push(member);
        else seen.add(key);
      }
    }
    return repeated;
  }

  private parents: Int32Array | undefined;
  private readonly memberIndexes = new Map<JsonNode, Map<string, JsonNode>>();

  /** The JSON path of a node (keys and indexes from the root), found without recursion. */
  pathOf(node: JsonNode): Array<string | number> {
    if (!this.parents) {
      const parents = new Int32Array(this.size).fill(NO_NODE);
      for (let parent = 0; parent < this.size; parent++) {
        const first = this.childStarts[parent]!;
        for (let i = 0; i < this.childCounts[parent]!; i++)
          parents[this.children[first + i]!] = parent;
      }
      this.parents = parents;
    }
    const path: Array<string | number> = [];
    for (let at = node; this.parents[at]! !== NO_NODE; at = this.parents[at]!) {
      const parent = this.parents[at]!;
      if (this.isMember(at)) path.push(this.key(at));
      else {
        const first = this.childStarts[parent]!;
        let index = 0;
        while (this.children[first + index] !== at) index++;
        path.push(index);
      }
    }
    return path.reverse();
  }
}

/** The tree of `text`, which must be valid JSON (the caller parsed it with `JSON.parse` first). */
export function jsonTree(text: string): JsonTree {
  // Grown by doubling; a value takes at least one character, and capability files take dozens each.
  let capacity = Math.max(16, text.length >> 4);
  let nodes = new Int32Array(capacity * NODE_FIELDS);
  let childStarts = new Int32Array(capacity);
  let childCounts = new Int32Array(capacity);
  let children = new Int32Array(capacity);
  let childrenUsed = 0;
  // Children of the containers still open, innermost last; copied to `children` when a container closes.
  let pending = new Int32Array(64);
  let pendingUsed = 0;
  let count = 0;
  let at = 0;
  // Only moves forward, so finding out whether each key holds an escape stays linear.
  let backslash = text.indexOf("\\");

  const grow = () => {
    capacity *= 2;
    const larger = <T extends Int32Array | Uint8Array>(array: T): T => grown(array, capacity);
    nodes = grown(nodes, capacity * NODE_FIELDS);
    childStarts = larger(childStarts);
    childCounts = larger(childCounts);
  };

  const addPending = (node: number) => {
    if (pendingUsed === pending.length) {
      const larger = new Int32Array(pending.length * 2);
      larger.set(pending);
      pending = larger;
    }
    pending[pendingUsed++] = node;
  };

  /** Moves the last `n` pending children to `children`, as the children of `node`. */
  const close = (node: number, from: number) => {
    const n = pendingUsed - from;
    if (childrenUsed + n > children.length) {
      const larger = new Int32Array(Math.max(children.length * 2, childrenUsed + n));
      larger.set(children.subarray(0, childrenUsed));
      children = larger;
    }
    children.set(pending.subarray(from, pendingUsed), childrenUsed);
    childStarts[node] = childrenUsed;
    childCounts[node] = n;
    childrenUsed += n;
    pendingUsed = from;
  };

  const skipSpace = () => {
    for (
      let c = text.charCodeAt(at);
      c === 32 || c === 10 || c === 13 || c === 9;
      c = text.charCodeAt(++at)
    );
  };

  /** Moves past the string that starts at `at`. */
  const skipString = (): void => {
    let i = at + 1;
    for (;;) {
      const quote = text.indexOf('"', i);
      // Valid JSON: a closing quote exists. An odd run of backslashes before it escapes it.
      let slashes = 0;
      for (let j = quote - 1; j >= i && text.charCodeAt(j) === 92; j--) slashes++;
      if (slashes % 2 === 0) {
        at = quote + 1;
        return;
      }
      i = quote + 1;
    }
  };

  // The containers still open, innermost last: their node and where their children start in `pending`.
  // A stack of our own rather than recursion: a value nested a million deep (a recording's payload)
  // would overflow the call stack.
  let openNodes = new Int32Array(64);
  let openFrom = new Int32Array(64);
  let openUsed = 0;

  /** Starts the value at `at` as a child of the innermost open container: scalars end here, containers open. */
  const begin = (keyStart: number, keyEnd: number, escaped: number): void => {
    skipSpace();
    if (count === capacity) grow();
    const node = count++;
    const fields = node * NODE_FIELDS;
    nodes[fields + START] = at;
    nodes[fields + KEY_START] = keyStart;
    nodes[fields + KEY_END] = keyEnd;
    nodes[fields + KEY_ESCAPED] = escaped;
    if (openUsed > 0) addPending(node);
    const c = text.charCodeAt(at);
    if (c === 123 /* { */ || c === 91 /* [ */) {
      if (openUsed === openNodes.length) {
        const nodes = new Int32Array(openUsed * 2);
        nodes.set(openNodes);
        openNodes = nodes;
        const from = new Int32Array(openUsed * 2);
        from.set(openFrom);
        openFrom = from;
      }
      openNodes[openUsed] = node;
      openFrom[openUsed++] = pendingUsed;
      at++;
      return;
    }
    if (c === 34 /* " */) skipString();
    else {
      // A number or a literal: up to the next delimiter.
      while (at < text.length) {
        const d = text.charCodeAt(at);
        if (d === 44 || d === 93 || d === 125 || d === 32 || d === 10 || d === 13 || d === 9) break;
        at++;
      }
    }
    nodes[node * NODE_FIELDS + END] = at;
  };

  begin(-1, -1, 0);
  while (openUsed > 0) {
    const node = openNodes[openUsed - 1]!;
    skipSpace();
    const c = text.charCodeAt(at);
    if (c === 125 /* } */ || c === 93 /* ] */) {
      at++;
      nodes[node * NODE_FIELDS + END] = at;
      close(node, openFrom[--openUsed]!);
      continue;
    }
    if (c === 44 /* , */) {
      at++;
      skipSpace();
    }
    if (text.charCodeAt(nodes[node * NODE_FIELDS + START]!) === 123) {
      const memberKeyStart = at;
      skipString();
      const memberKeyEnd = at;
      if (backslash !== -1 && backslash < memberKeyStart)
        backslash = text.indexOf("\\", memberKeyStart);
      const memberEscaped = backslash !== -1 && backslash < memberKeyEnd ? 1 : 0;
      skipSpace();
      at++; // the colon
      begin(memberKeyStart, memberKeyEnd, memberEscaped);
    } else begin(-1, -1, 0);
  }
  return new JsonTree(text, count, nodes, childStarts, childCounts, children);
}

/**
 * What following a JSON path needs of a syntax tree: the whole tree ({@link JsonTree}) or the part of
 * it that the paths followed so far entered ({@link LazyJsonTree}).
 */
export interface JsonPathTree {
  readonly text: string;
  readonly root: JsonNode;
  kind(node: JsonNode): "object" | "array" | "string" | "number" | "boolean" | "null";
  offset(node: JsonNode): number;
  length(node: JsonNode): number;
  childCount(node: JsonNode): number;
  child(node: JsonNode, index: number): JsonNode;
  isMember(node: JsonNode): boolean;
  keyOffset(node: JsonNode): number;
  keyLength(node: JsonNode): number;
  key(node: JsonNode): string;
  step(node: JsonNode, segment: string | number): JsonNode;
}

/**
 * The children of a container found so far, and where its scan goes on: at `at` (-1 once it reached the
 * close), or, when `after` is a child (a container whose end is not known yet), at that child's end.
 */
interface ContainerScan {
  children: number[];
  at: number;
  after: JsonNode;
}

/**
 * The syntax tree of a valid JSON text, made only where paths are followed: a container's children are
 * listed when a path first steps into it (an array's only up to the item asked for), so placing the
 * findings of a 15 MB file reads the text up to its last finding and holds a node per value on the
 * paths, not the 580,000 values of the whole file (27 MB of arrays). Each container's text is read at
 * most once by its own scan; a value it steps over is read again only when a path enters it, so the
 * work is the text up to the last finding times the depth of the paths. `scanned` counts it, for a
 * caller that prefers the whole tree past some amount.
 */
export class LazyJsonTree extends JsonNodes implements JsonPathTree {
  readonly root: JsonNode = 0;
  /** Characters read by the containers' scans so far. */
  scanned = 0;
  private size = 0;
  private readonly scans = new Map<JsonNode, ContainerScan>();
  /** Made for the first object of more than MEMBERS_SCANNED members: most documents have none. */
  private memberIndexes: Map<JsonNode, Map<string, JsonNode>> | undefined;

  /**
   * `text` must be valid JSON (the caller parsed it with `JSON.parse` first). `uniqueKeys`: no object
   * of the text writes a key twice (the caller counted), so the first member with a key is the last,
   * and a step stops there instead of reading the rest of the object.
   */
  constructor(
    text: string,
    private readonly uniqueKeys = false,
  ) {
    super(text, new Int32Array(64 * NODE_FIELDS));
    // The root spans the text without the white space around it: valid JSON holds one value.
    const start = skipSpaceAt(text, 0);
    let end = text.length;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    this.add(start, end, -1, -1, 0);
  }

  childCount(node: JsonNode): number {
    const scan = this.scanOf(node);
    if (!scan) return 0;
    while (scan.at !== -1) this.scanOne(node, scan);
    return scan.children.length;
  }

  override length(node: JsonNode): number {
    return this.endOf(node) - this.startOf(node);
  }

  /**
   * Where a value ends. A container a scan stepped into as a member or item is not read past when
   * found (a path goes into it next, and its own scan finds its close): its end is found when asked.
   */
  private endOf(node: JsonNode): number {
    const at = node * NODE_FIELDS + END;
    if (this.nodes[at]! < 0) {
      const scan = this.scans.get(node);
      if (scan) while (scan.at !== -1) this.scanOne(node, scan);
      else {
        const start = this.startOf(node);
        const end = valueEnd(this.text, start);
        this.scanned += end - start;
        this.nodes[at] = end;
      }
    }
    return this.nodes[at]!;
  }

  child(node: JsonNode, index: number): JsonNode {
    const scan = this.scanOf(node);
    if (!scan) return NO_NODE;
    while (scan.children.length <= index && scan.at !== -1) this.scanOne(node, scan);
    return scan.children[index] ?? NO_NODE;
  }

  /** As {@link JsonTree.step}: an array item by index, or the last member written with a key. */
  step(node: JsonNode, segment: string | number): JsonNode {
    const c = this.text.charCodeAt(this.startOf(node));
    if (typeof segment === "number")
      return c === 91 && Number.isInteger(segment) && segment >= 0
        ? this.child(node, segment)
        : NO_NODE;
    if (c !== 123) return NO_NODE;
    const scan = this.scanOf(node)!;
    if (this.uniqueKeys && scan.at !== -1 && scan.children.length <= MEMBERS_SCANNED) {
      // The first member with the key is the only one: read members up to it (while few are read).
      const members = scan.children;
      for (let i = 0; i < members.length; i++)
        if (this.keyIs(members[i]!, segment)) return members[i]!;
      while (scan.at !== -1 && members.length <= MEMBERS_SCANNED) {
        this.scanOne(node, scan);
        const last = members[members.length - 1];
        if (last !== undefined && scan.at !== -1 && this.keyIs(last, segment)) return last;
      }
      if (scan.at === -1 && members.length <= MEMBERS_SCANNED) return NO_NODE;
    }
    const count = this.childCount(node);
    const members = scan.children;
    if (count > MEMBERS_SCANNED) {
      this.memberIndexes ??= new Map();
      let index = this.memberIndexes.get(node);
      if (!index) {
        index = new Map();
        for (const member of members) index.set(this.key(member), member);
        this.memberIndexes.set(node, index);
      }
      return index.get(segment) ?? NO_NODE;
    }
    for (let i = count - 1; i >= 0; i--) if (this.keyIs(members[i]!, segment)) return members[i]!;
    return NO_NODE;
  }

  /** The scan of a container, begun on first use; undefined for a scalar. */
  private scanOf(node: JsonNode): ContainerScan | undefined {
    let scan = this.scans.get(node);
    if (scan) return scan;
    const start = this.startOf(node);
    const c = this.text.charCodeAt(start);
    if (c !== 123 && c !== 91) return undefined;
    scan = { children: [], at: start + 1, after: NO_NODE };
    this.scans.set(node, scan);
    return scan;
  }

  /** Reads the container's next child (its key, and its value up to its end), or finds its close. */
  private scanOne(node: JsonNode, scan: ContainerScan): void {
    const text = this.text;
    if (scan.after !== NO_NODE) {
      scan.at = this.endOf(scan.after);
      scan.after = NO_NODE;
    }
    const from = scan.at;
    let at = skipSpaceAt(text, from);
    let c = text.charCodeAt(at);
    if (c === 44 /* , */) {
      at = skipSpaceAt(text, at + 1);
      c = text.charCodeAt(at);
    }
    if (c === 93 /* ] */ || c === 125 /* } */) {
      this.scanned += at + 1 - from;
      scan.at = -1;
      // A container found by its parent's scan learns its end here, from its own scan.
      const end = node * NODE_FIELDS + END;
      if (this.nodes[end]! < 0) this.nodes[end] = at + 1;
      return;
    }
    let keyStart = -1;
    let keyEnd = -1;
    let escaped = 0;
    if (text.charCodeAt(this.startOf(node)) === 123) {
      keyStart = at;
      keyEnd = stringEnd(text, at);
      for (let i = keyStart + 1; i < keyEnd - 1; i++)
        if (text.charCodeAt(i) === 92) {
          escaped = 1;
          break;
        }
      at = skipSpaceAt(text, skipSpaceAt(text, keyEnd) + 1); // the colon
    }
    const v = text.charCodeAt(at);
    if (v === 123 /* { */ || v === 91 /* [ */) {
      // Its end is found when asked: by its own scan if a path enters it, not by reading it twice.
      const child = this.add(at, -1, keyStart, keyEnd, escaped);
      scan.children.push(child);
      scan.after = child;
      scan.at = -2;
      this.scanned += at - from;
      return;
    }
    const end = valueEnd(text, at);
    scan.children.push(this.add(at, end, keyStart, keyEnd, escaped));
    scan.at = end;
    this.scanned += end - from;
  }

  private add(start: number, end: number, keyStart: number, keyEnd: number, escaped: number) {
    if (this.size * NODE_FIELDS === this.nodes.length)
      this.nodes = grown(this.nodes, this.nodes.length * 2);
    const node = this.size++;
    const fields = node * NODE_FIELDS;
    const nodes = this.nodes;
    nodes[fields + START] = start;
    nodes[fields + END] = end;
    nodes[fields + KEY_START] = keyStart;
    nodes[fields + KEY_END] = keyEnd;
    nodes[fields + KEY_ESCAPED] = escaped;
    return node;
  }
}

function kindOf(c: number): "object" | "array" | "string" | "number" | "boolean" | "null" {
  return c === 123
    ? "object"
    : c === 91
      ? "array"
      : c === 34
        ? "string"
        : c === 116 || c === 102
          ? "boolean"
          : c === 110
            ? "null"
            : "number";
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function skipSpaceAt(text: string, at: number): number {
  while (isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The offset after the string that starts at `at` (valid JSON: its closing quote exists). */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    // An odd run of backslashes before the quote escapes it.
    let slashes = 0;
    for (let j = quote - 1; j >= i && text.charCodeAt(j) === 92; j--) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** The offset after the value that starts at `at`: a container's close found by counting, not recursion. */
function valueEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  if (c === 34) return stringEnd(text, at);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (let i = at; ;) {
      const d = text.charCodeAt(i);
      if (d === 34) {
        i = stringEnd(text, i);
        continue;
      }
      if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return i + 1;
      i++;
    }
  }
  // A number or a literal: up to the next delimiter.
  let i = at;
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 44 || d === 93 || d === 125 || isSpace(d)) break;
    i++;
  }
  return i;
}

/** The deepest node on `path` and how many of its steps exist (the rest of the path does not). */
export function deepestNode(
  tree: JsonPathTree,
  path: ReadonlyArray<string | number>,
): { node: JsonNode; depth: number } {
  let node = tree.root;
  let depth = 0;
  for (; depth < path.length; depth++) {
    const next = tree.step(node, path[depth]!);
    if (next === NO_NODE) break;
    node = next;
  }
  return { node, depth };
}

/**
 * Follows paths in one tree from where the last path left off: a path that shares its first steps
 * with the last one (a file's findings, one per entry of one array: `capabilities/0/permissions/i`)
 * steps only below the steps they share, not again from the root. Each step taken is counted in
 * `steps` (work counted by tests). The segments are copied: a caller may reuse its path array.
 */
export class PathCursor {
  /** Steps taken from a node to its child (`JsonPathTree.step`) so far. */
  steps = 0;
  /** The last path's segments as far as they exist, and the node each reached: `nodes[0]` is the root. */
  private readonly segments: Array<string | number> = [];
  private readonly nodes: JsonNode[];
  /** How many segments of the last path exist (`segments.length` may hold stale ones past it). */
  private depth = 0;

  constructor(
    readonly tree: JsonPathTree,
    /** Steps counted before (by the cursor of a tree this one replaced). */
    steps = 0,
  ) {
    this.steps = steps;
    this.nodes = [tree.root];
  }

  /**
   * The deepest node on `path` (as {@link deepestNode}); `depthReached` then says how many of its steps
   * exist. No object per call: a run places thousands of findings.
   */
  deepest(path: ReadonlyArray<string | number>): JsonNode {
    const segments = this.segments;
    const nodes = this.nodes;
    let depth = 0;
    const shared = Math.min(this.depth, path.length);
    while (depth < shared && segments[depth] === path[depth]) depth++;
    let node = nodes[depth]!;
    for (; depth < path.length; depth++) {
      const segment = path[depth]!;
      this.steps++;
      const next = this.tree.step(node, segment);
      if (next === NO_NODE) break;
      node = next;
      segments[depth] = segment;
      nodes[depth + 1] = node;
    }
    this.depth = depth;
    return node;
  }

  /** How many steps of the last path given to `deepest` exist. */
  get depthReached(): number {
    return this.depth;
  }
}

/** `array`'s items in a new array of the same kind with room for `capacity`. */
function grown<T extends Int32Array | Uint8Array>(array: T, capacity: number): T {
  const copy = new (array.constructor as new (length: number) => T)(capacity);
  copy.set(array);
  return copy;
}
