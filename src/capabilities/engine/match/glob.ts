/**
 * Window and webview label globs, matched the way the host does: the Rust `glob` crate (0.3.x),
 * `Pattern::new` + `Pattern::matches` with default options (host-acl-semantics §3.5).
 *
 * This is a small hand-written matcher, not minimatch: minimatch treats `/` as a separator, expands
 * braces and honours backslash escapes, and every one of those differs from the crate. Matching runs
 * the token list as an NFA over the label's code points (one pass, O(pattern × label)), so no pattern
 * can make it backtrack, unlike the crate's own recursive matcher.
 */

export type LabelPattern = { ok: true; pattern: string; match(label: string): boolean } | { ok: false; pattern: string; message: string };

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

const MAX_CACHED_PATTERNS = 4096;
const cache = new Map<string, LabelPattern>();

/** Compiles a `windows`/`webviews` entry; results are cached per pattern string. */
export function compileLabelPattern(pattern: string): LabelPattern {
  let compiled = cache.get(pattern);
  if (!compiled) {
    if (cache.size >= MAX_CACHED_PATTERNS) cache.clear();
    compiled = compile(pattern);
    cache.set(pattern, compiled);
  }
  return compiled;
}

/** Convenience: false for an invalid pattern (the host refuses to build with one). */
export function labelMatches(pattern: string, label: string): boolean {
  const compiled = compileLabelPattern(pattern);
  return compiled.ok && compiled.match(label);
}

const LABEL_ALPHABET = /^[\p{Alphabetic}\p{N}\-/:_]*$/u;
export const LABEL_ALPHABET_MESSAGE = "Window labels must only include alphanumeric characters, `-`, `/`, `:` and `_`.";

/** The host's label check: Unicode alphanumerics (Rust `char::is_alphanumeric`), `-`, `/`, `:`, `_`. */
export function checkLabel(label: string): { ok: true } | { ok: false; message: string } {
  return LABEL_ALPHABET.test(label) ? { ok: true } : { ok: false, message: LABEL_ALPHABET_MESSAGE };
}

function syntaxError(pattern: string, position: number, message: string): LabelPattern {
  return { ok: false, pattern, message: `Pattern syntax error near position ${position}: ${message}` };
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
        if (!(i === 2 || isSeparator(chars[start - 1]!))) return syntaxError(pattern, start - 1, ERROR_RECURSIVE_WILDCARDS);
        if (i < chars.length && isSeparator(chars[i]!))
          i++; // the crate folds the following `/` into the token
        else if (i !== chars.length) return syntaxError(pattern, i, ERROR_RECURSIVE_WILDCARDS);
        const previous = tokens[tokens.length - 1];
        if (!(tokens.length > 1 && previous?.kind === "any-recursive-sequence")) tokens.push({ kind: "any-recursive-sequence" });
      } else {
        tokens.push({ kind: "any-sequence" });
      }
    } else if (c === 0x5b /* [ */) {
      // A `]` directly after `[` or `[!` belongs to the class, so the search for the closing one skips it.
      if (i + 4 <= chars.length && chars[i + 1] === 0x21 /* ! */) {
        const close = indexOfFrom(chars, 0x5d, i + 3);
        if (close >= 0) {
          tokens.push({ kind: "any-except", specifiers: parseCharSpecifiers(chars.slice(i + 2, close)) });
          i = close + 1;
          continue;
        }
      } else if (i + 3 <= chars.length && chars[i + 1] !== 0x21) {
        const close = indexOfFrom(chars, 0x5d, i + 2);
        if (close >= 0) {
          tokens.push({ kind: "any-within", specifiers: parseCharSpecifiers(chars.slice(i + 1, close)) });
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
    if ("single" in specifier ? specifier.single === codePoint : codePoint >= specifier.from && codePoint <= specifier.to) return true;
  }
  return false;
}

/**
 * NFA over the tokens. State `t` (0..n) means "token t is next"; state n accepts. A recursive
 * sequence `**` that is not last may only hand over to the next token at its start or right after a
 * `/` it consumed, so it gets a second state `n + 1 + t` for "inside, last char was not `/`". The
 * crate lets a `**` followed only by wildcards swallow the rest of the label (its loop falls through
 * to the remaining tokens at the end), which makes such a `**` the same as `*`.
 */
function buildMatcher(pattern: string, tokens: Token[]): (label: string) => boolean {
  // Most labels in capabilities are plain names (no `?`, `*` or `[`, so every token is a character
  // of the pattern itself): compare them directly.
  if (tokens.every((token) => token.kind === "char")) return (label) => label === pattern;
  const n = tokens.length;
  const behavesAsSequence = tokens.map(
    (token, index) =>
      token.kind === "any-sequence" ||
      (token.kind === "any-recursive-sequence" && tokens.slice(index + 1).every((t) => t.kind === "any-sequence" || t.kind === "any-recursive-sequence")),
  );
  const stateCount = 2 * (n + 1);
  const insideRecursive = (t: number) => n + 1 + t;

  // Matching never re-enters itself, so one pair of state buffers per pattern is enough.
  const buffers = [new Uint8Array(stateCount), new Uint8Array(stateCount)] as const;

  return (label: string) => {
    let [current, next] = buffers;
    current.fill(0);
    // Adding state t also adds what an empty match of wildcard tokens reaches.
    const add = (set: Uint8Array, state: number) => {
      let t = state;
      while (!set[t]) {
        set[t] = 1;
        if (t >= n) return;
        const token = tokens[t]!;
        if (token.kind === "any-sequence" || token.kind === "any-recursive-sequence") t++;
        else return;
      }
    };
    add(current, 0);
    for (const ch of label) {
      const c = ch.codePointAt(0)!;
      next.fill(0);
      let alive = false;
      for (let t = 0; t < n; t++) {
        const token = tokens[t]!;
        const atToken = current[t] === 1;
        if (token.kind === "any-recursive-sequence" && !behavesAsSequence[t]) {
          if (atToken || current[insideRecursive(t)]) {
            if (isSeparator(c)) add(next, t);
            else next[insideRecursive(t)] = 1;
            alive = true;
          }
          continue;
        }
        if (!atToken) continue;
        let advance: boolean;
        switch (token.kind) {
          case "any-sequence":
          case "any-recursive-sequence":
            add(next, t);
            alive = true;
            continue;
          case "char":
            advance = token.codePoint === c;
            break;
          case "any-char":
            advance = true;
            break;
          case "any-within":
            advance = inSpecifiers(token.specifiers, c);
            break;
          case "any-except":
            advance = !inSpecifiers(token.specifiers, c);
            break;
        }
        if (advance) {
          add(next, t + 1);
          alive = true;
        }
      }
      if (!alive) return false;
      [current, next] = [next, current];
    }
    return current[n] === 1;
  };
}
