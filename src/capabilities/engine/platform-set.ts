/**
 * The platforms something holds on (a capability, a leaf permission, a finding), as one number: bit i
 * stands for `platforms[i]` of one resolution. The targets are five, so a set is a small integer and
 * "on both", "on either" and "alike on" are single operations, shared by the engine and the rules.
 */
export type PlatformSet = number;

/** Every platform of a resolution of `count` platforms. */
export function everyPlatform(count: number): PlatformSet {
  return (1 << count) - 1;
}

/** The platform of bit `bit` alone. */
export function onlyPlatform(bit: number): PlatformSet {
  return 1 << bit;
}

/** Whether the set holds the platform of bit `bit`. */
export function holdsOn(set: PlatformSet, bit: number): boolean {
  return (set & (1 << bit)) !== 0;
}

/** The lowest bit of a non-empty set: the platform a set is judged on. */
export function firstPlatform(set: PlatformSet): number {
  return 31 - Math.clz32(set & -set);
}

/**
 * A `platforms` list (of a capability or a permission) as the set of the resolved platforms it names;
 * no list, all of them.
 */
export function platformSetOf(
  listed: readonly string[] | undefined,
  platforms: readonly string[],
): PlatformSet {
  if (listed === undefined) return everyPlatform(platforms.length);
  let set = 0;
  platforms.forEach((platform, bit) => {
    if (listed.includes(platform)) set |= onlyPlatform(bit);
  });
  return set;
}

/** The names of a set's platforms, in resolution order. */
export function platformNames(set: PlatformSet, platforms: readonly string[]): string[] {
  return platforms.filter((_, bit) => holdsOn(set, bit));
}

/**
 * `within` split into the sets of platforms whose `keyOf(bit)` are equal, in the order of their first
 * platform: the platforms on which whatever the key stands for is alike.
 */
export function splitAlike(
  within: PlatformSet,
  keyOf: (bit: number) => string | number,
): PlatformSet[] {
  const sets: PlatformSet[] = [];
  const keys: Array<string | number> = [];
  for (let rest = within; rest !== 0; rest &= rest - 1) {
    const bit = firstPlatform(rest);
    const key = keyOf(bit);
    const known = keys.indexOf(key);
    if (known >= 0) sets[known]! |= onlyPlatform(bit);
    else {
      keys.push(key);
      sets.push(onlyPlatform(bit));
    }
  }
  return sets;
}

/**
 * Splits each of `sets` (disjoint sets) in place into its platforms that `by` holds and those it does
 * not, keeping only non-empty parts: applied once per set of a list, it leaves the platforms on which
 * every set of the list holds alike.
 */
export function splitBy(sets: PlatformSet[], by: PlatformSet): void {
  const count = sets.length;
  for (let i = 0; i < count; i++) {
    const set = sets[i]!;
    const inside = set & by;
    if (inside === 0 || inside === set) continue;
    sets[i] = inside;
    sets.push(set & ~by);
  }
}
