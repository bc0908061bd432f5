/**
 * Where a TOML text writes each bare key, found in one pass, so that placing a finding costs a lookup
 * instead of a search of the text: a file of 32,000 unknown keys searched the whole text for each
 * (70 s). For keys made of bare-key characters (`A-Za-z0-9_-`) it answers exactly what
 * `SourceDocument`'s searches of the text answered; any other key can only be written quoted, and is
 * indexed by its value where it is written quoted (`"k 1" =`, `'x y' =`, `"k\u0041" =`), so a file of
 * quoted keys is placed in a lookup per finding too (each was a search of the whole text).
 */
/**
 * Steps taken to place findings in TOML texts: keys and header lines looked at, and characters a
 * search of the text may pass. A count, not a time, for the tests that hold placing linear
 * (test/performance/hostile-sizes.test.ts).
 */
export const placingWork = { steps: 0 };

export class TomlKeyIndex {
  /** Bare key → where it is written followed by `"? [ \t]* =`, in text order. */
  private readonly assignments = new Map<string, number[]>();
  /** Bare key → `[[… key]]` headers naming it last: line start and the end of `]]`, in text order. */
  private readonly arrayHeaders = new Map<string, Array<{ index: number; end: number }>>();
  /** Name → start of each `[a.b]` header line holding a part of that name, in text order. */
  private readonly tableHeaders = new Map<string, number[]>();

  constructor(private readonly text: string) {
    for (let equals = text.indexOf("="); equals >= 0; equals = text.indexOf("=", equals + 1)) {
      let end = equals;
      while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
      const quoted = quotedKeyBefore(text, end);
      // A quoted key that is no bare key (`"k 1"`, `"ключ"`, `"a.b"`, `'x y'`): indexed by its value.
      if (quoted && !BARE_KEY.test(quoted.name)) push(this.assignments, quoted.name, quoted.start);
      if (text[end - 1] === '"') end--;
      let start = end;
      while (start > 0 && BARE_KEY_CHAR.test(text[start - 1]!)) start--;
      if (start < end) push(this.assignments, text.slice(start, end), start);
    }
    for (let lineStart = 0; lineStart < text.length;) {
      const newline = text.indexOf("\n", lineStart);
      const lineEnd = newline < 0 ? text.length : newline;
      let at = lineStart;
      while (text[at] === " " || text[at] === "\t") at++;
      if (text[at] === "[" && text[at + 1] === "[")
        this.indexArrayHeader(lineStart, at + 2, lineEnd);
      else if (text[at] === "[")
        for (const name of new Set(
          headerParts(text, lineStart, lineEnd)?.parts.map((part) => part.name),
        ))
          push(this.tableHeaders, name, lineStart);
      lineStart = lineEnd + 1;
    }
  }

  /**
   * What `/^[ \t]*\[\[[ \t]*(?:[^\]\n]*\.)?"?KEY"?[ \t]*\]\]/gm` finds from `from`, then `skip` matches
   * further: the match's start and end.
   */
  arrayHeader(key: string, from: number, skip: number): { index: number; end: number } | undefined {
    const headers = this.arrayHeaders.get(key) ?? [];
    const first = firstAtOrAfter(headers, from, (header) => header.index);
    placingWork.steps += 1 + Math.log2(headers.length + 1);
    return headers[first + skip];
  }

  /** The starts of `[a.b]` header lines holding a part named `name`, from the line starting at `fromLine`. */
  *tableHeaderLines(name: string, fromLine: number): Generator<number> {
    const lines = this.tableHeaders.get(name) ?? [];
    placingWork.steps += 1 + Math.log2(lines.length + 1);
    for (let i = firstAtOrAfter(lines, fromLine, (line) => line); i < lines.length; i++) {
      placingWork.steps++;
      yield lines[i]!;
    }
  }

  /**
   * What `/(?:^|[{,\s])"?(KEY)"?[ \t]*=/gm` finds from `from`: where its KEY is written. The index
   * holds every KEY followed by `"? =`; what comes before it is checked here.
   */
  assignment(key: string, from: number): number | undefined {
    const written = this.assignments.get(key) ?? [];
    placingWork.steps += 1 + Math.log2(written.length + 1);
    for (let i = firstAtOrAfter(written, from, (at) => at); i < written.length; i++) {
      placingWork.steps++;
      const at = written[i]!;
      const quoted =
        at -
        (this.text[at - 1] === '"' || (this.text[at - 1] === "'" && !BARE_KEY.test(key)) ? 1 : 0);
      const before = this.text[quoted - 1];
      if (
        (before !== undefined && DELIMITER.test(before) && quoted - 1 >= from) ||
        ((quoted === 0 || LINE_END.test(before!)) && quoted >= from)
      )
        return at;
    }
    return undefined;
  }

  private indexArrayHeader(lineStart: number, inside: number, lineEnd: number): void {
    const text = this.text;
    // The key is the last one before the first `]`: the pattern's `[^\]\n]*` cannot pass a `]`.
    const bracket = text.indexOf("]", inside);
    if (bracket < 0 || bracket >= lineEnd || text[bracket + 1] !== "]") return;
    let end = bracket;
    while (end > inside && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
    const quoted = quotedKeyBefore(text, end, inside);
    if (quoted && !BARE_KEY.test(quoted.name)) {
      const before = quoted.start - 1;
      let afterBrackets = inside;
      while (text[afterBrackets] === " " || text[afterBrackets] === "\t") afterBrackets++;
      if (text[before - 1] === "." || before === afterBrackets)
        push(this.arrayHeaders, quoted.name, { index: lineStart, end: bracket + 2 });
      return;
    }
    if (text[end - 1] === '"') end--;
    let start = end;
    while (start > inside && BARE_KEY_CHAR.test(text[start - 1]!)) start--;
    if (start === end) return;
    const quote = text[start - 1] === '"' ? 1 : 0;
    const before = start - quote;
    let afterBrackets = inside;
    while (text[afterBrackets] === " " || text[afterBrackets] === "\t") afterBrackets++;
    // After `[[` and its spaces, or after a `.` of the dotted name before it.
    if (text[before - 1] !== "." && !(before >= inside && before <= afterBrackets)) return;
    push(this.arrayHeaders, text.slice(start, end), { index: lineStart, end: bracket + 2 });
  }
}

/**
 * The quoted key that ends just before `end` (at its closing quote), within the line and after `from`:
 * its value and where its text starts. A basic string's escapes are read as TOML reads them; a string
 * with an escape TOML does not have is no key. The search back stops at the opening quote, so each
 * character is passed once per `=` or `]]` that follows it on its line.
 */
function quotedKeyBefore(
  text: string,
  end: number,
  from = 0,
): { name: string; start: number } | undefined {
  const quote = text[end - 1];
  if (quote !== '"' && quote !== "'") return undefined;
  for (let at = end - 2; at >= from; at--) {
    const c = text[at];
    if (c === "\n" || c === "\r") return undefined;
    if (c !== quote) continue;
    if (quote === '"') {
      let slashes = 0;
      while (at - 1 - slashes >= from && text[at - 1 - slashes] === "\\") slashes++;
      placingWork.steps += slashes;
      if (slashes % 2 === 1) continue;
    }
    placingWork.steps += end - at;
    const raw = text.slice(at + 1, end - 1);
    const name = quote === "'" ? raw : basicString(raw);
    return name === undefined ? undefined : { name, start: at + 1 };
  }
  return undefined;
}

/** The value of a TOML basic string's text (between its quotes), or undefined for an escape TOML has not. */
function basicString(raw: string): string | undefined {
  if (!raw.includes("\\")) return raw;
  let invalid = false;
  const value = raw.replace(
    /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([btnfr"\\e])|.?)/g,
    (whole, four?: string, eight?: string, simple?: string) => {
      const hex = four ?? eight;
      if (hex !== undefined) {
        const code = parseInt(hex, 16);
        if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) invalid = true;
        return invalid ? "" : String.fromCodePoint(code);
      }
      if (simple !== undefined) return ESCAPES[simple]!;
      invalid = true;
      return whole;
    },
  );
  return invalid ? undefined : value;
}

const ESCAPES: Readonly<Record<string, string>> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  '"': '"',
  "\\": "\\",
  e: "\u001b",
};

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const BARE_KEY_CHAR = /[A-Za-z0-9_-]/;
/** What may stand before a key in the assignment pattern: `{`, `,` or white space (`\s`, line ends included). */
const DELIMITER = /[{,\s]/;
/** Where a multiline `^` matches after. */
const LINE_END = /[\n\r\u2028\u2029]/;

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The first index of `sorted` whose position is at least `bound` (binary search). */
function firstAtOrAfter<T>(
  sorted: readonly T[],
  bound: number,
  position: (item: T) => number,
): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (position(sorted[middle]!) < bound) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The parts of a `[a."b c".d]` table header line and its closing bracket, with where each name is written; undefined for any other line. */
export function headerParts(
  text: string,
  lineStart: number,
  lineEnd: number,
): { parts: Array<{ name: string; offset: number }>; close: number } | undefined {
  let at = lineStart;
  while (text[at] === " " || text[at] === "\t") at++;
  const closeInLine =
    text[at] === "[" && text[at + 1] !== "[" ? text.slice(at, lineEnd).indexOf("]") : -1;
  const close = closeInLine < 0 ? -1 : at + closeInLine;
  if (close <= at || text[close + 1] === "]") return undefined;
  const parts: Array<{ name: string; offset: number }> = [];
  let partStart = at + 1;
  for (let c = at + 1; c <= close; c++) {
    if (c === close || text[c] === ".") {
      const raw = text.slice(partStart, c);
      const trimmed = raw.trim();
      const quoted = trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"');
      parts.push({
        name: quoted ? trimmed.slice(1, -1) : trimmed,
        offset: partStart + raw.indexOf(trimmed) + (quoted ? 1 : 0),
      });
      partStart = c + 1;
    }
  }
  return { parts, close };
}
