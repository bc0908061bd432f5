import type { JsonPath } from "../../../core/location.js";
import type { Capability, PermissionEntry } from "../../model/types.js";
import { work } from "../../work.js";

type Entries = ReadonlyArray<{ readonly capability: Capability; readonly entry: PermissionEntry }>;

/**
 * The distinct identifiers of a run's permission entries, numbered in order of first use, with each
 * entry's number: made once per entries list and shared by the identifier rules. Apps repeat a few
 * hundred identifiers over tens of thousands of entries (row 5: 56,016 entries), so a rule judges each
 * identifier once into an array and then walks the entries by number (an array read per entry), instead
 * of looking every entry's text up in a map of its own.
 */
export interface EntryIdentifiers {
  /** Each distinct identifier once, in the order of its first entry. */
  readonly identifiers: readonly string[];
  /** Per entry (same index as the entries list), the number of its identifier in `identifiers`. */
  readonly numberOf: Int32Array;
  /** Per capability with entries, the index of its first entry in the entries list. */
  readonly firstEntryOf: ReadonlyMap<Capability, number>;
  /**
   * The indices of the entries with an `allow` or `deny` list (neither undefined nor null), in order:
   * the rules that judge scopes walk these few instead of every entry (row 5: 2,664 lists among
   * 56,016 entries).
   */
  readonly scoped: Int32Array;
  /**
   * The entries of each identifier, in entry order: those of identifier `n` are
   * `byIdentifier[firstOfIdentifier[n]]` up to `byIdentifier[firstOfIdentifier[n + 1]]` (exclusive). A
   * rule that judges a few identifiers visits their entries without walking every entry.
   */
  readonly firstOfIdentifier: Int32Array;
  readonly byIdentifier: Int32Array;
}

/** By entries list: the linter shares one list between the rules of a run (an editor's view, one per view). */
const made = new WeakMap<Entries, EntryIdentifiers>();

/** The numbered identifiers of `entries` (a rule context's `entries()`), made on first use. */
export function entryIdentifiers(entries: Entries): EntryIdentifiers {
  let index = made.get(entries);
  if (index === undefined) made.set(entries, (index = numberIdentifiers(entries)));
  return index;
}

function numberIdentifiers(entries: Entries): EntryIdentifiers {
  const numbers = new Map<string, number>();
  const identifiers: string[] = [];
  const numberOf = new Int32Array(entries.length);
  const firstEntryOf = new Map<Capability, number>();
  const scoped: number[] = [];
  /** Per identifier, how many entries name it: counted in the numbering walk, not in a walk of its own. */
  const counts: number[] = [];
  let last: Capability | undefined;
  for (let i = 0; i < entries.length; i++) {
    const { capability, entry } = entries[i]!;
    if (capability !== last) {
      last = capability;
      if (!firstEntryOf.has(capability)) firstEntryOf.set(capability, i);
    }
    const identifier = entry.identifier;
    let number = numbers.get(identifier);
    if (number === undefined) {
      number = identifiers.length;
      numbers.set(identifier, number);
      identifiers.push(identifier);
      counts.push(1);
    } else counts[number]!++;
    numberOf[i] = number;
    if (hasScopeList(entry)) scoped.push(i);
  }
  work.entriesNumbered += entries.length;
  // The entries by identifier, placed by the counts: one more walk of the numbers, no list per identifier.
  const firstOfIdentifier = new Int32Array(identifiers.length + 1);
  for (let n = 0; n < identifiers.length; n++)
    firstOfIdentifier[n + 1] = firstOfIdentifier[n]! + counts[n]!;
  const next = firstOfIdentifier.slice(0, identifiers.length);
  const length = numberOf.length;
  const byIdentifier = new Int32Array(length);
  for (let i = 0; i < length; i++) byIdentifier[next[numberOf[i]!]!++] = i;
  return {
    identifiers,
    numberOf,
    firstEntryOf,
    scoped: Int32Array.from(scoped),
    firstOfIdentifier,
    byIdentifier,
  };
}

/** Whether an entry carries an `allow` or `deny` list of its own (an empty one counts). */
export function hasScopeList(entry: PermissionEntry): boolean {
  return (
    (entry.allow !== undefined && entry.allow !== null) ||
    (entry.deny !== undefined && entry.deny !== null)
  );
}

/**
 * The indices of the entries with an `allow` or `deny` list, in entry order, from the shared index: a
 * rule about scopes walks these instead of every entry.
 */
export function scopedEntryIndexes(entries: Entries): Int32Array {
  const { scoped } = entryIdentifiers(entries);
  work.scopedEntriesVisited += scoped.length;
  return scoped;
}

/**
 * Where `capability`'s permissions start in the entries list, when the list holds them there one after
 * the other in order (every list the linter makes does): its `e`th permission's number is then
 * `numberOf[start + e]`. Undefined otherwise (a capability no entry names, or another order).
 */
export function capabilityStart(
  index: EntryIdentifiers,
  entries: Entries,
  capability: Capability,
): number | undefined {
  const start = index.firstEntryOf.get(capability);
  const permissions = capability.permissions;
  if (start === undefined || start + permissions.length > entries.length) return undefined;
  for (let e = 0; e < permissions.length; e++)
    if (entries[start + e]!.entry !== permissions[e]) return undefined;
  return start;
}

/**
 * Calls `visit` for each entry whose identifier `judge` has something to say of (undefined: nothing),
 * in entry order, with the JSON path of the identifier's text. Each distinct identifier is judged once
 * and only the judged identifiers' entries are visited, from the shared index of entries by
 * identifier: the identifier rules share one walk of the entries (the numbering) instead of each
 * walking every entry, and no loop here calls a rule's function per entry of the run.
 */
export function forEachJudgedEntry<J>(
  entries: Entries,
  judge: (identifier: string) => J | undefined,
  visit: (judged: J, capability: Capability, entry: PermissionEntry, path: JsonPath) => void,
): void {
  const index = entryIdentifiers(entries);
  const { identifiers, firstOfIdentifier } = index;
  let judgements: Array<J | undefined> | undefined;
  const judged: number[] = [];
  let count = 0;
  for (let n = 0; n < identifiers.length; n++) {
    const judgement = judge(identifiers[n]!);
    if (judgement === undefined) continue;
    judgements ??= new Array<J | undefined>(identifiers.length).fill(undefined);
    judgements[n] = judgement;
    judged.push(n);
    count += firstOfIdentifier[n + 1]! - firstOfIdentifier[n]!;
  }
  if (judgements === undefined) return;
  const visited = judgedEntryIndexes(index, judged, count);
  work.judgedEntriesVisited += visited.length;
  const { numberOf } = index;
  for (let k = 0; k < visited.length; k++) {
    const i = visited[k]!;
    const { capability, entry } = entries[i]!;
    visit(judgements[numberOf[i]!]!, capability, entry, identifierPath(entry));
  }
}

/** The entries of the `judged` identifiers (`count` in all), in entry order. */
function judgedEntryIndexes(
  index: EntryIdentifiers,
  judged: readonly number[],
  count: number,
): Int32Array {
  const { firstOfIdentifier, byIdentifier } = index;
  if (judged.length === 1)
    return byIdentifier.subarray(firstOfIdentifier[judged[0]!], firstOfIdentifier[judged[0]! + 1]);
  const indexes = new Int32Array(count);
  let at = 0;
  for (let j = 0; j < judged.length; j++) {
    const n = judged[j]!;
    for (let k = firstOfIdentifier[n]!; k < firstOfIdentifier[n + 1]!; k++)
      indexes[at++] = byIdentifier[k]!;
  }
  // Each identifier's entries are in order; a typed array sorts numerically.
  return indexes.sort();
}

/** Where an entry's identifier is written: the entry itself, or an object entry's `identifier`. */
export function identifierPath(entry: PermissionEntry): JsonPath {
  return entry.extended ? [...entry.path, "identifier"] : entry.path;
}
