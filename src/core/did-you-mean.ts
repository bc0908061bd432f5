/** Two rows of the distance table, reused: a distance is asked for every unknown key of a file against every known name. */
let rows = { previous: new Uint32Array(64), current: new Uint32Array(64) };

/** Levenshtein distance with an early exit once `limit` is exceeded (then `limit + 1`). */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // A common start and end change no distance: only the middles are compared (a plugin's names share
  // their `fs:allow-`).
  let start = 0;
  while (start < a.length && start < b.length && a.charCodeAt(start) === b.charCodeAt(start))
    start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  if (letterCountDistance(a, start, endA, b, start, endB) > limit) return limit + 1;
  tablesFilled++;
  const widthB = endB - start;
  // Kept for names of ordinary length; a longer one gets rows of its own, dropped after.
  const needed = widthB + 1;
  if (rows.previous.length < needed && needed <= 4096)
    rows = { previous: new Uint32Array(needed), current: new Uint32Array(needed) };
  let { previous, current } =
    rows.previous.length >= needed
      ? rows
      : { previous: new Uint32Array(needed), current: new Uint32Array(needed) };
  for (let j = 0; j <= widthB; j++) previous[j] = j;
  for (let i = 1; i <= endA - start; i++) {
    current[0] = i;
    let rowMin = i;
    const code = a.charCodeAt(start + i - 1);
    for (let j = 1; j <= widthB; j++) {
      const value = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (code === b.charCodeAt(start + j - 1) ? 0 : 1),
      );
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    [previous, current] = [current, previous];
  }
  return previous[widthB]!;
}

let tablesFilled = 0;

/** How many distance tables this process has filled (a test counts them; most candidates need none). */
export function distanceTablesFilled(): number {
  return tablesFilled;
}

/** Letters counted per bucket (a character code's low 7 bits), all zero between calls. */
const letterCounts = new Int32Array(128);

/**
 * A lower bound of the edit distance of `a[startA, endA)` and `b[startB, endB)`, in one pass over
 * each: the letters one has more of than the other (by bucket), whichever side has more. An edit
 * changes each side's surplus by one at most, so no fewer edits can turn one into the other; a
 * candidate this bound already puts beyond the limit needs no table (most of a catalog's names).
 */
function letterCountDistance(
  a: string,
  startA: number,
  endA: number,
  b: string,
  startB: number,
  endB: number,
): number {
  for (let i = startA; i < endA; i++) letterCounts[a.charCodeAt(i) & 127]!++;
  let surplusB = 0;
  for (let j = startB; j < endB; j++) if (--letterCounts[b.charCodeAt(j) & 127]! < 0) surplusB++;
  let surplusA = 0;
  for (let i = startA; i < endA; i++) {
    const bucket = a.charCodeAt(i) & 127;
    const left = letterCounts[bucket]!;
    if (left > 0) surplusA += left;
    letterCounts[bucket] = 0;
  }
  for (let j = startB; j < endB; j++) letterCounts[b.charCodeAt(j) & 127] = 0;
  return Math.max(surplusA, surplusB);
}

/**
 * Words longer than this get no suggestion: a distance costs input × candidate length, and a
 * 1,000-character window pattern compared with 1,000 labels of its size took 20 s for a hint no one
 * would follow.
 */
export const MAX_SUGGESTED_LENGTH = 128;

/**
 * Names to suggest from, each lowercased once: a pool asked again and again (a plugin's identifiers,
 * for every unknown one) keeps it instead of lowercasing every name twice per question.
 */
export class SuggestionPool {
  readonly lowered: readonly string[];

  /** `lowered`: the names lowercased, when the caller has them already. */
  constructor(
    readonly names: readonly string[],
    lowered?: readonly string[],
  ) {
    this.lowered = lowered ?? names.map((name) => name.toLowerCase());
  }
}

/** Up to `max` candidates nearest to `input`, closest first, within a length-relative distance. */
export function nearest(
  input: string,
  candidates: Iterable<string> | SuggestionPool,
  max = 3,
): string[] {
  if (input.length > MAX_SUGGESTED_LENGTH) return [];
  const limit = Math.max(2, Math.floor(input.length / 3));
  const found: Array<[string, number]> = [];
  const lower = input.toLowerCase();
  const consider = (name: string, lowered: string) => {
    // A length this far off is beyond the limit whatever the letters (and never equal).
    if (Math.abs(lowered.length - lower.length) > limit) return;
    const distance = lowered === lower ? 0.5 : editDistance(lower, lowered, limit);
    if (distance <= limit) found.push([name, distance]);
  };
  if (candidates instanceof SuggestionPool) {
    const { names, lowered } = candidates;
    for (let i = 0; i < names.length; i++) consider(names[i]!, lowered[i]!);
  } else for (const name of candidates) consider(name, name.toLowerCase());
  found.sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
  return found.slice(0, max).map(([candidate]) => candidate);
}

/**
 * The known field a misspelt key most likely means. A field the object already has is never offered
 * as a rename (following that hint would write the field twice, which the host rejects); it comes
 * back as `present`, a leftover to merge and remove.
 */
export function nearestField(
  key: string,
  known: readonly string[],
  has: (field: string) => boolean,
): { missing?: string; present?: string } {
  const missing = nearest(
    key,
    known.filter((field) => !has(field)),
    1,
  )[0];
  if (missing !== undefined) return { missing };
  const present = nearest(key, known, 1)[0];
  return present === undefined ? {} : { present };
}

/**
 * Candidates `input` abbreviates: its letters in order, the first one first (`cmds` → `commands`),
 * which an edit distance misses (it is 4 edits away).
 */
export function abbreviated(input: string, candidates: readonly string[]): string[] {
  const lower = input.toLowerCase();
  if (lower.length < 2) return [];
  return candidates.filter((candidate) => {
    const word = candidate.toLowerCase();
    if (word[0] !== lower[0]) return false;
    let at = 0;
    for (const char of lower) {
      at = word.indexOf(char, at) + 1;
      if (at === 0) return false;
    }
    return true;
  });
}

/** `; did you mean "a" or "b"?` after a message, or nothing when there is no candidate. */
export function didYouMean(candidates: readonly string[]): string {
  return candidates.length ? `; did you mean ${quoteList(candidates)}?` : "";
}

/** Items as a sentence lists them, unquoted: "a and b", "a, b and c" (or "or"). */
export function wordList(items: readonly string[], conjunction = "and"): string {
  return items.length <= 1
    ? items.join("")
    : `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** "a", "a or b", "a, b or c", each quoted as a JSON string (a quote or backslash in an item is escaped). */
export function quoteList(
  items: readonly string[],
  conjunction = "or",
  quote: (item: string) => string = (item) => JSON.stringify(item),
): string {
  return wordList(items.map(quote), conjunction);
}

/** A window or webview label in a message: quoted and escaped, and the empty label named, not shown as `""`. */
export function quoteLabel(label: string): string {
  return label === "" ? "(empty label)" : JSON.stringify(label);
}
