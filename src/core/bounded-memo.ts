/**
 * A memo of a pure function of user input (an identifier, a URL pattern, a window label). The language
 * server and `--watch` live for hours and see ever new input, so every such memo holds at most `limit`
 * entries and drops the oldest first. A hit stays one Map lookup: these memos sit on the hottest paths
 * (every permission entry asks for its identifier), which is why the oldest entry goes, not the least
 * recently used one. The function is pure, so what a memo keeps never changes an answer, only its cost.
 */
export class BoundedMemo<Key, Value> {
  private readonly entries = new Map<Key, Value>();

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`a memo holds at least one entry, got ${limit}`);
    everyMemo.push(this);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value for `key`, computed by `compute` the first time (or again once it was dropped). */
  get(key: Key, compute: (key: Key) => Value): Value {
    const found = this.entries.get(key);
    if (found !== undefined || this.entries.has(key)) return found as Value;
    const value = compute(key);
    if (this.entries.size >= this.limit)
      this.entries.delete(this.entries.keys().next().value as Key);
    this.entries.set(key, value);
    return value;
  }
}

/** Every memo made, for tests that check a long session keeps each within its size. A fixed handful: memos are made at module level. */
const everyMemo: Array<BoundedMemo<unknown, unknown>> = [];

export function boundedMemos(): ReadonlyArray<Readonly<{ limit: number; size: number }>> {
  return everyMemo;
}
