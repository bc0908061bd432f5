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
  let last: Capability | undefined;
  for (let i = 0; i < entries.length; i++) {
    const { capability, entry } = entries[i]!;
    if (capability !== last) {
      last = capability;
      if (!firstEntryOf.has(capability)) firstEntryOf.set(capability, i);
    }
    let number = numbers.get(entry.identifier);
    if (number === undefined) {
      number = identifiers.length;
      numbers.set(entry.identifier, number);
      identifiers.push(entry.identifier);
    }
    numberOf[i] = number;
    if (hasScopeList(entry)) scoped.push(i);
  }
  work.entriesNumbered += entries.length;
  return { identifiers, numberOf, firstEntryOf, scoped: Int32Array.from(scoped) };
}

function hasScopeList(entry: PermissionEntry): boolean {
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
 * and the entries are walked by number: the identifier rules' common loop.
 */
export function forEachJudgedEntry<J>(
  entries: Entries,
  judge: (identifier: string) => J | undefined,
  visit: (judged: J, capability: Capability, entry: PermissionEntry, path: JsonPath) => void,
): void {
  const { identifiers, numberOf } = entryIdentifiers(entries);
  let judgements: Array<J | undefined> | undefined;
  for (let n = 0; n < identifiers.length; n++) {
    const judged = judge(identifiers[n]!);
    if (judged === undefined) continue;
    judgements ??= new Array<J | undefined>(identifiers.length).fill(undefined);
    judgements[n] = judged;
  }
  if (judgements === undefined) return;
  for (let i = 0; i < entries.length; i++) {
    const judged = judgements[numberOf[i]!];
    if (judged === undefined) continue;
    const { capability, entry } = entries[i]!;
    visit(judged, capability, entry, identifierPath(entry));
  }
}

/** Where an entry's identifier is written: the entry itself, or an object entry's `identifier`. */
export function identifierPath(entry: PermissionEntry): JsonPath {
  return entry.extended ? [...entry.path, "identifier"] : entry.path;
}
