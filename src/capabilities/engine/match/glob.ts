/**
 * Window and webview label globs, matched the way the host does: the Rust `glob` crate (0.3.x),
 * `Pattern::new` + `Pattern::matches` with default options (host-acl-semantics §3.5).
 *
 * This is a small hand-written matcher, not minimatch: minimatch treats `/` as a separator, expands
 * braces and honours backslash escapes, and every one of those differs from the crate. Matching never
 * backtracks, unlike the crate's own recursive matcher (see `buildMatcher`).
 */

import { BoundedMemo } from "../../../core/bounded-memo.js";

export type LabelPattern =
  | { ok: true; pattern: string; match(label: string): boolean }
  | { ok: false; pattern: string; message: string };

type CharSpecifier = { single: number } | { from: number; to: number };

type Token =
  | { kind: "char"; codePoint: number }
  | { kind: "any-char" }
  | { kind: "any-within"; specifiers: CharSpecifier[] }
  | { kind: "any-except"; specifiers: CharSpecifier[] }
  | { kind: "any-sequence" }
  | { kind: "any-recursive-sequence" };

const SLASH = 0x2f;
const STAR = 0x2a;

// The crate's messages, verbatim.
const ERROR_WILDCARDS = "wildcards are either regular `*` or recursive `**`";
const ERROR_RECURSIVE_WILDCARDS = "recursive wildcards must form a single path component";
const ERROR_INVALID_RANGE = "invalid range pattern";

/**
 * The crate's separator test is platform-dependent (`\` also separates on Windows). Labels cannot
 * contain `\`, so only `/` is used; a pattern such as `a\**` is therefore an error here, as on Unix.
 */
const isSeparator = (codePoint: number) => codePoint === SLASH;

/** Patterns come from the user's files: at most this many compiled ones are kept. */
const MAX_CACHED_PATTERNS = 4096;
const compiledPatterns = new BoundedMemo<string, LabelPattern>(MAX_CACHED_PATTERNS);

/** Compiles a `windows`/`webviews` entry; results are cached per pattern string. */
export function compileLabelPattern(pattern: string): LabelPattern {
  return compiledPatterns.get(pattern, compile);
}

/** Convenience: false for an invalid pattern (the host refuses to build with one). */
export function labelMatches(pattern: string, label: string): boolean {
  const compiled = compileLabelPattern(pattern);
  return compiled.ok && compiled.match(label);
}

/**
 * The host's alphabet, made on first use: V8 builds each `\p{...}` class from Unicode's tables when the
 * literal is evaluated (about 3 M instructions for these two), and an ASCII label (nearly all of them)
 * is answered by the ASCII subset of the same alphabet without it.
 */
let labelAlphabet: RegExp | undefined;
const ASCII_LABEL = /^[A-Za-z0-9\-/:_]*$/;
export const LABEL_ALPHABET_MESSAGE =
  "Window labels must only include alphanumeric characters, `-`, `/`, `:` and `_`.";

/** The host's label check: Unicode alphanumerics (Rust `char::is_alphanumeric`), `-`, `/`, `:`, `_`. */
export function checkLabel(label: string): { ok: true } | { ok: false; message: string } {
  return ASCII_LABEL.test(label) || (labelAlphabet ??= /^[\p{Alphabetic}\p{N}\-/:_]*$/u).test(label)
    ? { ok: true }
    : { ok: false, message: LABEL_ALPHABET_MESSAGE };
}

function syntaxError(pattern: string, position: number, message: string): LabelPattern {
  return {
    ok: false,
    pattern,
    message: `Pattern syntax error near position ${position}: ${message}`,
  };
}

/** A port of `Pattern::new`; positions count Unicode scalar values, like the crate's `Vec<char>`. */
/** Longer patterns are refused before compiling: matching costs pattern × label length, and real patterns are short. */
export const MAX_LABEL_PATTERN_LENGTH = 1_024;

function compile(pattern: string): LabelPattern {
  if (pattern.length > MAX_LABEL_PATTERN_LENGTH) {
    return {
      ok: false,
      pattern,
      message: `the pattern is ${pattern.length.toLocaleString("en-US")} characters long, over the limit of ${MAX_LABEL_PATTERN_LENGTH.toLocaleString("en-US")} caplint matches; it is not checked`,
    };
  }
  const chars = Array.from(pattern, (c) => c.codePointAt(0)!);
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === 0x3f /* ? */) {
      tokens.push({ kind: "any-char" });
      i++;
    } else if (c === STAR) {
      const start = i;
      while (i < chars.length && chars[i] === STAR) i++;
      const count = i - start;
      if (count > 2) return syntaxError(pattern, start + 2, ERROR_WILDCARDS);
      if (count === 2) {
        // `**` must be a whole path component: at the start or after `/`, and at the end or before `/`.
        if (!(i === 2 || isSeparator(chars[start - 1]!)))
          return syntaxError(pattern, start - 1, ERROR_RECURSIVE_WILDCARDS);
        if (i < chars.length && isSeparator(chars[i]!))
          i++; // the crate folds the following `/` into the token
        else if (i !== chars.length) return syntaxError(pattern, i, ERROR_RECURSIVE_WILDCARDS);
        const previous = tokens[tokens.length - 1];
        if (!(tokens.length > 1 && previous?.kind === "any-recursive-sequence"))
          tokens.push({ kind: "any-recursive-sequence" });
      } else {
        tokens.push({ kind: "any-sequence" });
      }
    } else if (c === 0x5b /* [ */) {
      // A `]` directly after `[` or `[!` belongs to the class, so the search for the closing one skips it.
      if (i + 4 <= chars.length && chars[i + 1] === 0x21 /* ! */) {
        const close = indexOfFrom(chars, 0x5d, i + 3);
        if (close >= 0) {
          tokens.push({
            kind: "any-except",
            specifiers: parseCharSpecifiers(chars.slice(i + 2, close)),
          });
          i = close + 1;
          continue;
        }
      } else if (i + 3 <= chars.length && chars[i + 1] !== 0x21) {
        const close = indexOfFrom(chars, 0x5d, i + 2);
        if (close >= 0) {
          tokens.push({
            kind: "any-within",
            specifiers: parseCharSpecifiers(chars.slice(i + 1, close)),
          });
          i = close + 1;
          continue;
        }
      }
      return syntaxError(pattern, i, ERROR_INVALID_RANGE);
    } else {
      tokens.push({ kind: "char", codePoint: c });
      i++;
    }
  }
  const matcher = buildMatcher(pattern, tokens);
  return { ok: true, pattern, match: matcher };
}

function indexOfFrom(chars: number[], value: number, from: number): number {
  for (let i = from; i < chars.length; i++) if (chars[i] === value) return i;
  return -1;
}

function parseCharSpecifiers(chars: number[]): CharSpecifier[] {
  const specifiers: CharSpecifier[] = [];
  let i = 0;
  while (i < chars.length) {
    if (i + 3 <= chars.length && chars[i + 1] === 0x2d /* - */) {
      specifiers.push({ from: chars[i]!, to: chars[i + 2]! });
      i += 3;
    } else {
      specifiers.push({ single: chars[i]! });
      i++;
    }
  }
  return specifiers;
}

function inSpecifiers(specifiers: CharSpecifier[], codePoint: number): boolean {
  for (const specifier of specifiers) {
    if (
      "single" in specifier
        ? specifier.single === codePoint
        : codePoint >= specifier.from && codePoint <= specifier.to
    )
      return true;
  }
  return false;
}

/**
 * Splits the tokens at their wildcards into segments of single-character tokens and matches those
 * left to right, each at its leftmost possible place. That greedy choice is safe: a segment ending
 * earlier leaves every later segment at least as much room (a `**` that hands over only after a `/`
 * always follows a `/` the previous segment ended with). Each segment is searched with a bit-parallel
 * automaton (shift-and) over the label's code points, and the searches never rescan a code point, so
 * a match costs O(label × ⌈segment / 32⌉) at worst and O(pattern + label) for segments of up to 32
 * tokens, whatever the pattern: the NFA this replaced cost pattern × label (a 1,024-character
 * `*a*a…` against 1,024-character labels took 0.5 ms per pair, minutes for a repository of them).
 *
 * The crate lets a `**` followed only by wildcards swallow the rest of the label (its loop falls
 * through to the remaining tokens at the end), which makes such a `**` the same as `*`. Any other
 * `**` may only hand over to the next token where it started or right after a `/` it consumed.
 */
function buildMatcher(pattern: string, tokens: Token[]): (label: string) => boolean {
  // Most labels in capabilities are plain names (no `?`, `*` or `[`, so every token is a character
  // of the pattern itself): compare them directly.
  if (tokens.every((token) => token.kind === "char")) return (label) => label === pattern;
  // Whether only wildcards follow each token: such a `**` is a plain `*`.
  const onlyWildcardsAfter: boolean[] = [];
  for (let index = tokens.length - 1, only = true; index >= 0; index--) {
    onlyWildcardsAfter[index] = only;
    only &&= isWildcard(tokens[index]!);
  }
  const segments: Segment[] = [];
  // What lies between the previous segment and the one being built: nothing, or wildcards that take
  // anything (`*`), or only `**`s that hand over at their start or after a `/`.
  let gap: Gap = "none";
  let current: SingleToken[] = [];
  tokens.forEach((token, index) => {
    if (token.kind === "any-sequence" || token.kind === "any-recursive-sequence") {
      if (current.length > 0) {
        segments.push(new Segment(current, gap));
        current = [];
        gap = "none";
      }
      gap =
        gap === "sequence" || token.kind === "any-sequence" || onlyWildcardsAfter[index]
          ? "sequence"
          : "recursive";
    } else current.push(token);
  });
  const trailingGap = current.length === 0 && gap !== "none";
  if (current.length > 0) segments.push(new Segment(current, gap));
  const leadingGap = isWildcard(tokens[0]!);
  return (label: string) => {
    const chars = codePointsOf(label);
    let position = 0;
    for (let index = 0; index < segments.length; index++) {
      const segment = segments[index]!;
      const first = index === 0 && !leadingGap;
      const last = index === segments.length - 1 && !trailingGap;
      if (first) {
        if (!segment.matchesAt(chars, 0)) return false;
        position = segment.length;
        if (last) return position === chars.length;
      } else if (last) {
        const start = chars.length - segment.length;
        return (
          start >= position &&
          segment.mayStartAt(chars, start, position) &&
          segment.matchesAt(chars, start)
        );
      } else {
        const end = segment.search(chars, position);
        if (end < 0) return false;
        position = end;
      }
    }
    // Only wildcards are left: `*` takes the rest, and so does a trailing `**`.
    return trailingGap || position === chars.length;
  };
}

/** Callers match one label against many patterns in a row: its code points are decoded once (one entry, never more). */
let lastLabel = "";
let lastCodePoints: number[] = [];
function codePointsOf(label: string): number[] {
  if (label !== lastLabel) {
    lastCodePoints = Array.from(label, (c) => c.codePointAt(0)!);
    lastLabel = label;
  }
  return lastCodePoints;
}

type SingleToken = Exclude<Token, { kind: "any-sequence" } | { kind: "any-recursive-sequence" }>;
type Gap = "none" | "sequence" | "recursive";

const isWildcard = (token: Token) =>
  token.kind === "any-sequence" || token.kind === "any-recursive-sequence";

function tokenAccepts(token: SingleToken, codePoint: number): boolean {
  switch (token.kind) {
    case "char":
      return token.codePoint === codePoint;
    case "any-char":
      return true;
    case "any-within":
      return inSpecifiers(token.specifiers, codePoint);
    case "any-except":
      return !inSpecifiers(token.specifiers, codePoint);
  }
}

const MAX_CACHED_MASKS = 1_024;
const NO_POSITIONS: readonly number[] = [];

/**
 * The matchers' work so far: label code points stepped over (times the words of a long segment) and
 * tokens tested while building masks. A count, not a time, so the fuzz tests can hold matching to
 * O(pattern + label) without a clock (test/fuzz/size-shapes.test.ts). Added once per call, not per step.
 */
let matchingWork = 0;
export function globMatchingWork(): number {
  return matchingWork;
}

/** A run of single-character tokens between wildcards, searched with shift-and over 32-bit words. */
class Segment {
  readonly length: number;
  private readonly words: number;
  private readonly masks = new Map<number, Uint32Array>();
  private readonly state: Uint32Array;
  /** The tokens that take any code point (`?`), as mask bits. */
  private readonly anyCharMask: Uint32Array;
  /** Where each code point written as itself stands in the segment. */
  private readonly charPositions = new Map<number, number[]>();
  /** The classes (`[a-z]`, `[!/]`) by position, and how many specifiers they hold in all: what a new code point's mask costs beyond its words. */
  private readonly classes: Array<{
    index: number;
    token: Extract<SingleToken, { specifiers: CharSpecifier[] }>;
  }> = [];
  private readonly classSpecifiers: number;

  constructor(
    private readonly tokens: SingleToken[],
    /** After `**` alone, the segment starts where the gap starts or right after a `/` in it. */
    private readonly gap: Gap,
  ) {
    this.length = tokens.length;
    this.words = Math.ceil(tokens.length / 32);
    this.state = new Uint32Array(this.words);
    this.anyCharMask = new Uint32Array(this.words);
    let specifiers = 0;
    tokens.forEach((token, index) => {
      if (token.kind === "any-char") this.anyCharMask[index >>> 5]! |= 1 << (index & 31);
      else if (token.kind === "char") {
        const positions = this.charPositions.get(token.codePoint);
        if (positions) positions.push(index);
        else this.charPositions.set(token.codePoint, [index]);
      } else {
        this.classes.push({ index, token });
        specifiers += token.specifiers.length;
      }
    });
    this.classSpecifiers = specifiers;
  }

  mayStartAt(chars: number[], start: number, gapStart: number): boolean {
    return (
      this.gap !== "recursive" ||
      start === gapStart ||
      (start > gapStart && isSeparator(chars[start - 1]!))
    );
  }

  matchesAt(chars: number[], start: number): boolean {
    if (start + this.length > chars.length) return false;
    let i = 0;
    while (i < this.length && tokenAccepts(this.tokens[i]!, chars[start + i]!)) i++;
    matchingWork += i + 1;
    return i === this.length;
  }

  /** The end of the leftmost match starting at or after `from`, or -1. */
  search(chars: number[], from: number): number {
    const anywhere = this.gap !== "recursive";
    if (this.words === 1) {
      // The usual case, kept in one machine word.
      const lastBit = 1 << (this.length - 1);
      let state = 0;
      for (let i = from; i < chars.length; i++) {
        state =
          ((state << 1) | (anywhere || this.mayStartAt(chars, i, from) ? 1 : 0)) &
          this.maskOf(chars[i]!)[0]!;
        if (state & lastBit) {
          matchingWork += i + 1 - from;
          return i + 1;
        }
      }
      matchingWork += chars.length - from;
      return -1;
    }
    const { state, words } = this;
    state.fill(0);
    const lastWord = words - 1;
    const lastBit = 1 << ((this.length - 1) % 32);
    for (let i = from; i < chars.length; i++) {
      const mask = this.maskOf(chars[i]!);
      let carry = anywhere || this.mayStartAt(chars, i, from) ? 1 : 0;
      for (let w = 0; w < words; w++) {
        const shifted = state[w]!;
        state[w] = ((shifted << 1) | carry) & mask[w]!;
        carry = shifted >>> 31;
      }
      if (state[lastWord]! & lastBit) {
        matchingWork += (i + 1 - from) * words;
        return i + 1;
      }
    }
    matchingWork += (chars.length - from) * words;
    return -1;
  }

  /**
   * Bit i is set when token i accepts the code point; cached per code point (labels use few). A new
   * code point costs the segment's words, its own positions and the classes' specifiers, not every
   * token: a label of more distinct letters than the cache holds (CJK, 1,000,000 characters) against
   * a run of 1,024 `a`s or `?`s would otherwise cost label × run.
   */
  private maskOf(codePoint: number): Uint32Array {
    let mask = this.masks.get(codePoint);
    if (!mask) {
      mask = this.anyCharMask.slice();
      const positions = this.charPositions.get(codePoint) ?? NO_POSITIONS;
      for (const i of positions) mask[i >>> 5]! |= 1 << (i & 31);
      for (const { index, token } of this.classes)
        if (tokenAccepts(token, codePoint)) mask[index >>> 5]! |= 1 << (index & 31);
      matchingWork += this.words + positions.length + this.classSpecifiers;
      if (this.masks.size >= MAX_CACHED_MASKS) this.masks.clear();
      this.masks.set(codePoint, mask);
    }
    return mask;
  }
}
