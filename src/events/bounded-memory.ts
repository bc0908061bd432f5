/**
 * The bounded memory of the stream state (src/events/stream-state.ts): what a recording of any length
 * keeps is what is open plus fixed-size memories of what ended, built from these three structures.
 */
import type { Id } from "./event-values.js";

/** How many ended calls, resolved requests and ended agents are remembered, for better messages. */
const MEMORY = 10_000;

/**
 * A set of ids that only grows, in bounded memory when ids count up: integers are kept as sorted
 * disjoint ranges (new ones gathered in a small set and merged in batches, so adding stays linear
 * overall), other ids (16 digits or more) in a set of their own. `add` is false once `limit`
 * ranges and ids are held: the id is not kept.
 */
export class IdSet {
  private starts = new Float64Array(0);
  private ends = new Float64Array(0);
  private readonly fresh = new Set<number>();
  private readonly texts = new Set<string>();

  constructor(private readonly limit: number) {}

  has(id: Id): boolean {
    if (typeof id === "string") return this.texts.has(id);
    if (this.fresh.has(id)) return true;
    const at = this.rangeAtOrBefore(id);
    return at >= 0 && this.ends[at]! >= id;
  }

  add(id: Id): boolean {
    if (this.has(id)) return true;
    if (this.starts.length + this.texts.size + this.fresh.size >= this.limit) return false;
    if (typeof id === "string") this.texts.add(id);
    else {
      this.fresh.add(id);
      if (this.fresh.size >= 4096) this.merge();
    }
    return true;
  }

  /** Index of the last range that starts at or before `id`, or -1. */
  private rangeAtOrBefore(id: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.starts[mid]! <= id) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  }

  private merge(): void {
    const ids = Float64Array.from(this.fresh).sort();
    this.fresh.clear();
    const starts: number[] = [];
    const ends: number[] = [];
    const push = (start: number, end: number) => {
      const last = ends.length - 1;
      if (last >= 0 && start <= ends[last]! + 1) ends[last] = Math.max(ends[last]!, end);
      else {
        starts.push(start);
        ends.push(end);
      }
    };
    let r = 0;
    for (const id of ids) {
      while (r < this.starts.length && this.starts[r]! <= id)
        push(this.starts[r]!, this.ends[r++]!);
      push(id, id);
    }
    while (r < this.starts.length) push(this.starts[r]!, this.ends[r++]!);
    this.starts = Float64Array.from(starts);
    this.ends = Float64Array.from(ends);
  }
}

/**
 * What is remembered of the last MEMORY keys set (ended calls, resolved requests, ended agents), as
 * numbers in fixed columns: one slot per key, reused when the key set longest ago is forgotten. Ten
 * thousand remembered objects would be a steady stream of objects that outlive young-generation
 * collections, and what outlives them makes V8 grow that generation; a numeric id as key (a small
 * integer in V8) and a slot as value allocate nothing.
 */
export class Recent {
  private readonly slots = new Map<Id, number>();
  /**
   * Walks the keys from the oldest: every key it passed was forgotten (or set again, which moves it
   * to the end), so its next key is the oldest one. A new iterator per eviction would step over the
   * slots of every key deleted since the map's table was last rebuilt, thousands of them.
   */
  private readonly oldest = this.slots.entries();
  private readonly columns: Float64Array[];
  private readonly freed: number[] = [];
  private used = 0;

  constructor(columns: number) {
    this.columns = Array.from({ length: columns }, () => new Float64Array(MEMORY));
  }

  /** The slot of a remembered key, or -1. */
  find(key: Id): number {
    return this.slots.get(key) ?? -1;
  }

  /** A value of a slot that find() returned. */
  value(slot: number, column = 0): number {
    return this.columns[column]![slot]!;
  }

  /** The first column's value of a remembered key. */
  get(key: Id): number | undefined {
    const slot = this.find(key);
    return slot < 0 ? undefined : this.value(slot);
  }

  set(key: Id, first: number, second = 0, third = 0): void {
    let slot = this.slots.get(key);
    if (slot !== undefined) this.slots.delete(key);
    else if (this.freed.length > 0) slot = this.freed.pop()!;
    else if (this.used < MEMORY) slot = this.used++;
    else {
      const [forgotten, freedSlot] = this.oldest.next().value!;
      this.slots.delete(forgotten);
      slot = freedSlot;
    }
    this.slots.set(key, slot);
    const columns = this.columns;
    columns[0]![slot] = first;
    if (columns.length > 1) columns[1]![slot] = second;
    if (columns.length > 2) columns[2]![slot] = third;
  }

  delete(key: Id): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.slots.delete(key);
    this.freed.push(slot);
  }
}

/**
 * A Map of what is open (calls, agents, requests), keyed by id, which empties about as often as it
 * fills. V8 gives a Map a new table whenever it grows, shrinks or is cleared, in the generation of the
 * table it replaces: the tables of a long-lived Map are old, so each of the tens of thousands of
 * starts and ends of a long stream would leave one more table of garbage in the old generation (9 MB
 * of the peak of a 1,000,000-event run). An emptied map is dropped, and the next one is new: its
 * tables are young and die young.
 */
export class OpenMap<V> {
  /** None while empty: a session with nothing running (most sessions, most of the time) holds no Map. */
  private map: Map<Id, V> | undefined;
  get(key: Id): V | undefined {
    return this.map?.get(key);
  }
  has(key: Id): boolean {
    return this.map?.has(key) ?? false;
  }
  get size(): number {
    return this.map?.size ?? 0;
  }
  set(key: Id, value: V): void {
    (this.map ??= new Map()).set(key, value);
  }
  delete(key: Id): void {
    if (this.map?.delete(key) && this.map.size === 0) this.map = undefined;
  }
  clear(): void {
    this.map = undefined;
  }
  values(): IterableIterator<V> {
    return (this.map ?? NOTHING_OPEN).values();
  }
}

const NOTHING_OPEN = new Map<never, never>();
