/**
 * A linear-time matcher for the regular expressions URLPattern generates (and the custom regexp
 * groups it embeds). JavaScript's own engine backtracks, so `(.*)a(.*)a(.*)b` or `(a+)+` can take
 * polynomial or exponential time; the host's Rust `regex` crate cannot. Here a pattern is parsed
 * into a small AST, compiled to a Thompson NFA and simulated one code point at a time, so matching
 * costs O(states × input) whatever the pattern.
 *
 * Only syntax that a finite automaton can decide is accepted: no backreferences and no lookaround
 * (the Rust crate rejects both as well). Single-character atoms (classes, escapes, `.`) are decided by
 * the platform's RegExp on one character at a time, which keeps their exact JavaScript meaning and
 * cannot backtrack.
 */

export type RegexNode =
  | { type: "empty" }
  | { type: "atom"; source: string; test: (codePoint: number) => boolean }
  | { type: "assert"; kind: AssertKind }
  | { type: "concat"; items: RegexNode[] }
  | { type: "alternation"; branches: RegexNode[] }
  | { type: "group"; body: RegexNode }
  | { type: "repeat"; body: RegexNode; min: number; max: number; source: string };

type AssertKind = "start" | "end" | "word-boundary" | "not-word-boundary";

export class RegexUnsupportedError extends Error {}

/** Limits that keep compilation itself bounded: nesting depth, NFA size. */
const MAX_GROUP_DEPTH = 64;
export const MAX_NFA_STATES = 20_000;

/** Parses a JavaScript regular expression source (flag `u`, no `i`) that is already known to be valid. */
export function parseRegex(source: string): RegexNode {
  const parser = new RegexParser(source);
  const node = parser.parseAlternation(0);
  if (!parser.done)
    throw new RegexUnsupportedError(
      `unexpected ${JSON.stringify(source[parser.position])} at ${parser.position}`,
    );
  return node;
}

class RegexParser {
  position = 0;
  constructor(private readonly source: string) {}

  get done(): boolean {
    return this.position >= this.source.length;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.position + offset];
  }

  parseAlternation(depth: number): RegexNode {
    if (depth > MAX_GROUP_DEPTH)
      throw new RegexUnsupportedError(`groups nested deeper than ${MAX_GROUP_DEPTH}`);
    const branches = [this.parseConcatenation(depth)];
    while (this.peek() === "|") {
      this.position++;
      branches.push(this.parseConcatenation(depth));
    }
    return branches.length === 1 ? branches[0]! : { type: "alternation", branches };
  }

  private parseConcatenation(depth: number): RegexNode {
    const items: RegexNode[] = [];
    while (!this.done && this.peek() !== "|" && this.peek() !== ")") {
      const start = this.position;
      let atom = this.parseAtom(depth);
      atom = this.parseQuantifiers(atom, start);
      items.push(atom);
    }
    if (items.length === 0) return { type: "empty" };
    return items.length === 1 ? items[0]! : { type: "concat", items };
  }

  private parseQuantifiers(atom: RegexNode, start: number): RegexNode {
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      if (c === "*") [min, max] = [0, Infinity];
      else if (c === "+") [min, max] = [1, Infinity];
      else if (c === "?") [min, max] = [0, 1];
      else if (c === "{") {
        const braces = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.position));
        if (!braces) return atom;
        min = Number(braces[1]);
        max = braces[2] === undefined ? min : braces[3] === "" ? Infinity : Number(braces[3]);
        this.position += braces[0].length - 1;
      } else return atom;
      this.position++;
      if (this.peek() === "?") this.position++; // a lazy quantifier accepts the same strings
      if (atom.type === "assert") throw new RegexUnsupportedError("a quantified assertion");
      atom = {
        type: "repeat",
        body: atom,
        min,
        max,
        source: this.source.slice(start, this.position),
      };
    }
  }

  private parseAtom(depth: number): RegexNode {
    const c = this.peek()!;
    switch (c) {
      case "(":
        return this.parseGroup(depth);
      case "[":
        return this.parseClass();
      case "\\":
        return this.parseEscape();
      case ".":
        this.position++;
        return singleCharacterAtom(".");
      case "^":
        this.position++;
        return { type: "assert", kind: "start" };
      case "$":
        this.position++;
        return { type: "assert", kind: "end" };
      case "*":
      case "+":
      case "?":
        throw new RegexUnsupportedError(`nothing to repeat at ${this.position}`);
      default: {
        const codePoint = this.source.codePointAt(this.position)!;
        this.position += codePoint > 0xffff ? 2 : 1;
        return literalAtom(codePoint);
      }
    }
  }

  private parseGroup(depth: number): RegexNode {
    const rest = this.source.slice(this.position);
    if (/^\(\?(=|!|<=|<!)/.test(rest))
      throw new RegexUnsupportedError(
        "lookaround assertions are not supported (the Rust regex crate the build uses rejects them too)",
      );
    const named = /^\(\?<[^>]+>/.exec(rest);
    if (named) this.position += named[0].length;
    else if (rest.startsWith("(?:")) this.position += 3;
    else if (rest.startsWith("(?"))
      throw new RegexUnsupportedError(`unsupported group syntax at ${this.position}`);
    else this.position += 1;
    const body = this.parseAlternation(depth + 1);
    if (this.peek() !== ")") throw new RegexUnsupportedError(`unclosed group`);
    this.position++;
    return { type: "group", body };
  }

  private parseClass(): RegexNode {
    const start = this.position;
    let i = this.position + 1;
    if (this.source[i] === "^") i++;
    // With flag `u` (not `v`) a `[` inside a class is an ordinary character.
    while (i < this.source.length && this.source[i] !== "]") i += this.source[i] === "\\" ? 2 : 1;
    if (i >= this.source.length) throw new RegexUnsupportedError("unclosed character class");
    this.position = i + 1;
    return singleCharacterAtom(this.source.slice(start, this.position));
  }

  private parseEscape(): RegexNode {
    const start = this.position;
    const c = this.source[start + 1];
    if (c === undefined) throw new RegexUnsupportedError("trailing backslash");
    if (c === "b" || c === "B") {
      this.position += 2;
      return { type: "assert", kind: c === "b" ? "word-boundary" : "not-word-boundary" };
    }
    if (/[1-9]/.test(c) || (c === "k" && this.source[start + 2] === "<")) {
      throw new RegexUnsupportedError(
        "backreferences are not supported (the Rust regex crate the build uses rejects them too)",
      );
    }
    const rest = this.source.slice(start);
    const escape =
      /^\\[pP]\{[^}]*\}/.exec(rest) ??
      /^\\u\{[0-9a-fA-F]+\}/.exec(rest) ??
      /^\\u[0-9a-fA-F]{4}/.exec(rest) ??
      /^\\x[0-9a-fA-F]{2}/.exec(rest) ??
      /^\\c[A-Za-z]/.exec(rest) ??
      /^\\[\s\S]/u.exec(rest)!;
    this.position += escape[0].length;
    return singleCharacterAtom(escape[0]);
  }
}

function literalAtom(codePoint: number): RegexNode {
  return { type: "atom", source: String.fromCodePoint(codePoint), test: (c) => c === codePoint };
}

/** A one-character construct decided by the platform RegExp, memoised per code point. */
function singleCharacterAtom(source: string): RegexNode {
  let regexp: RegExp;
  try {
    regexp = new RegExp(`^(?:${source})$`, "u");
  } catch (error) {
    throw new RegexUnsupportedError(
      `invalid character class or escape ${source}: ${(error as Error).message}`,
    );
  }
  const memo = new Map<number, boolean>();
  return {
    type: "atom",
    source,
    test: (codePoint) => {
      let result = memo.get(codePoint);
      if (result === undefined) {
        result = regexp.test(String.fromCodePoint(codePoint));
        if (memo.size < 4096) memo.set(codePoint, result);
      }
      return result;
    },
  };
}

/** True when some repetition that can repeat more than once contains another one, or an alternation. */
export function hasNestedRepetition(node: RegexNode, insideRepetition = false): boolean {
  switch (node.type) {
    case "repeat": {
      const repeats = node.max > 1;
      if (repeats && insideRepetition) return true;
      if (repeats && containsAlternation(node.body)) return true;
      return hasNestedRepetition(node.body, insideRepetition || repeats);
    }
    case "concat":
      return node.items.some((item) => hasNestedRepetition(item, insideRepetition));
    case "alternation":
      if (insideRepetition) return true;
      return node.branches.some((branch) => hasNestedRepetition(branch, insideRepetition));
    case "group":
      return hasNestedRepetition(node.body, insideRepetition);
    default:
      return false;
  }
}

function containsAlternation(node: RegexNode): boolean {
  switch (node.type) {
    case "alternation":
      return true;
    case "concat":
      return node.items.some(containsAlternation);
    case "group":
    case "repeat":
      return containsAlternation(node.body);
    default:
      return false;
  }
}

const enum Kind {
  Atom,
  Split,
  Assert,
  Match,
}

/** A compiled Thompson NFA; `matches` decides a whole string in one pass. */
export class Nfa {
  private readonly kinds: Kind[] = [];
  private readonly tests: Array<((codePoint: number) => boolean) | undefined> = [];
  private readonly asserts: Array<AssertKind | undefined> = [];
  private readonly out1: number[] = [];
  private readonly out2: number[] = [];
  private readonly start: number;

  constructor(node: RegexNode) {
    const accept = this.add(Kind.Match, -1, -1);
    this.start = this.compile(node, accept);
  }

  get size(): number {
    return this.kinds.length;
  }

  private add(
    kind: Kind,
    out1: number,
    out2: number,
    test?: (codePoint: number) => boolean,
    assert?: AssertKind,
  ): number {
    if (this.kinds.length >= MAX_NFA_STATES)
      throw new RegexUnsupportedError(
        `the pattern needs more than ${MAX_NFA_STATES} automaton states`,
      );
    this.kinds.push(kind);
    this.out1.push(out1);
    this.out2.push(out2);
    this.tests.push(test);
    this.asserts.push(assert);
    return this.kinds.length - 1;
  }

  /** Builds backwards: returns the entry state of `node` whose exit continues at `next`. */
  private compile(node: RegexNode, next: number): number {
    switch (node.type) {
      case "empty":
        return next;
      case "atom":
        return this.add(Kind.Atom, next, -1, node.test);
      case "assert":
        return this.add(Kind.Assert, next, -1, undefined, node.kind);
      case "group":
        return this.compile(node.body, next);
      case "concat": {
        let entry = next;
        for (let i = node.items.length - 1; i >= 0; i--)
          entry = this.compile(node.items[i]!, entry);
        return entry;
      }
      case "alternation": {
        const entries = node.branches.map((branch) => this.compile(branch, next));
        let entry = entries[entries.length - 1]!;
        for (let i = entries.length - 2; i >= 0; i--)
          entry = this.add(Kind.Split, entries[i]!, entry);
        return entry;
      }
      case "repeat": {
        let entry = next;
        if (node.max === Infinity) {
          const loop = this.add(Kind.Split, -1, next);
          this.out1[loop] = this.compile(node.body, loop);
          entry = loop;
        } else {
          for (let i = 0; i < node.max - node.min; i++)
            entry = this.add(Kind.Split, this.compile(node.body, entry), next);
        }
        for (let i = 0; i < node.min; i++) entry = this.compile(node.body, entry);
        return entry;
      }
    }
  }

  /**
   * Indexed loops, no closure and no array destructuring: the optimising compiler compiles this once
   * it is hot (every URL-pattern probe runs it per code point), and iterator loops and a closure
   * called from two places made its graph several times larger.
   */
  matches(input: string): boolean {
    const codePoints: number[] = [];
    for (let i = 0; i < input.length; i++) {
      const codePoint = input.codePointAt(i)!;
      codePoints.push(codePoint);
      if (codePoint > 0xffff) i++;
    }
    const seen = new Int32Array(this.kinds.length).fill(-1);
    let current: number[] = [];
    let next: number[] = [];
    const stack: number[] = [];
    this.addClosure(current, this.start, codePoints, 0, seen, stack);
    for (let position = 0; position < codePoints.length; position++) {
      const c = codePoints[position]!;
      next.length = 0;
      for (let i = 0; i < current.length; i++) {
        const s = current[i]!;
        if (this.kinds[s] === Kind.Atom && this.tests[s]!(c))
          this.addClosure(next, this.out1[s]!, codePoints, position + 1, seen, stack);
      }
      if (next.length === 0) return false;
      const swap = current;
      current = next;
      next = swap;
    }
    for (let i = 0; i < current.length; i++)
      if (this.kinds[current[i]!] === Kind.Match) return true;
    return false;
  }

  /** Adds `state` and the states reachable from it without input at `position` (its generation in `seen`). */
  private addClosure(
    list: number[],
    state: number,
    codePoints: readonly number[],
    position: number,
    seen: Int32Array,
    stack: number[],
  ): void {
    stack.push(state);
    while (stack.length) {
      const s = stack.pop()!;
      if (seen[s] === position) continue;
      seen[s] = position;
      const kind = this.kinds[s]!;
      if (kind === Kind.Split) {
        stack.push(this.out2[s]!, this.out1[s]!);
      } else if (kind === Kind.Assert) {
        if (assertionHolds(this.asserts[s]!, codePoints, position)) stack.push(this.out1[s]!);
      } else {
        list.push(s);
      }
    }
  }
}

const isWordCharacter = (c: number | undefined) =>
  c !== undefined &&
  ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95);

function assertionHolds(kind: AssertKind, input: readonly number[], position: number): boolean {
  switch (kind) {
    case "start":
      return position === 0;
    case "end":
      return position === input.length;
    case "word-boundary":
      return isWordCharacter(input[position - 1]) !== isWordCharacter(input[position]);
    case "not-word-boundary":
      return isWordCharacter(input[position - 1]) === isWordCharacter(input[position]);
  }
}
