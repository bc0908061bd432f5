import { describe, expect, it } from "vitest";
import { Catalog } from "../../../src/capabilities/catalog/catalog.js";
import { loadBuiltinManifests } from "../../../src/capabilities/catalog/builtin.js";
import type { Manifest } from "../../../src/capabilities/catalog/types.js";
import { resetWork, work } from "../../../src/capabilities/work.js";
import { nearest, SuggestionPool } from "../../../src/core/did-you-mean.js";

/**
 * Suggestions for unknown identifiers are worked out against a plugin's identifiers (or all of them),
 * lowercased once per manifest, and fill an edit-distance table only for the few candidates whose
 * length and letters could be near. Neither may change a suggestion: the answers are compared with the
 * plain algorithm (every candidate lowercased, a full table for each), and the work is counted.
 */

/** The algorithm as it was: every candidate lowercased and given a full distance table. */
function plainNearest(input: string, candidates: Iterable<string>, max = 3): string[] {
  if (input.length > 128) return [];
  const limit = Math.max(2, Math.floor(input.length / 3));
  const distance = (a: string, b: string): number => {
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const current = [i];
      for (let j = 1; j <= b.length; j++)
        current[j] = Math.min(
          previous[j]! + 1,
          current[j - 1]! + 1,
          previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
      previous = current;
    }
    return previous[b.length]!;
  };
  const lower = input.toLowerCase();
  const scored: Array<[string, number]> = [];
  for (const candidate of candidates) {
    const score =
      candidate.toLowerCase() === lower ? 0.5 : distance(lower, candidate.toLowerCase());
    if (score <= limit) scored.push([candidate, score]);
  }
  scored.sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
  return scored.slice(0, max).map(([candidate]) => candidate);
}

async function builtinCatalog(): Promise<Catalog> {
  return new Catalog().add(await loadBuiltinManifests(), { origin: "builtin" });
}

/** A deterministic stream of numbers in [0, 1) (a linear congruential generator). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** `identifier` with a few random edits, some of them letters that change length when lowercased. */
function misspelt(identifier: string, next: () => number): string {
  const letters = "abcdefghijklmnopqrstuvwxyz-:_.ABCDEFİßΣ";
  let word = identifier;
  for (let edits = Math.floor(next() * 5); edits > 0; edits--) {
    const at = Math.floor(next() * (word.length + 1));
    const letter = letters[Math.floor(next() * letters.length)]!;
    const kind = next();
    word =
      kind < 0.33
        ? word.slice(0, at) + letter + word.slice(at)
        : kind < 0.66
          ? word.slice(0, at) + word.slice(at + 1)
          : word.slice(0, at) + letter + word.slice(at + 1);
  }
  return next() < 0.2 ? word.toUpperCase() : word;
}

describe("suggestions for unknown identifiers", () => {
  it("name the candidates the plain algorithm names, in its order", async () => {
    const catalog = await builtinCatalog();
    const all = catalog.allIdentifiers();
    const pool = new SuggestionPool(all);
    const next = numbers(35);
    const extra = [
      "İstanbul:default",
      "FS:ALLOW-READ",
      "fs:allow-read",
      "ß:default",
      "fs:allow-read",
    ];
    for (let round = 0; round < 150; round++) {
      const input = misspelt(all[Math.floor(next() * all.length)]!, next);
      const plugin = input.split(":")[0]!;
      const pluginPool = catalog.has(plugin) ? catalog.identifiersOf(plugin) : extra;
      for (const [candidates, given] of [
        [all, pool],
        [pluginPool, pluginPool],
        [
          [...extra, ...pluginPool],
          [...extra, ...pluginPool],
        ],
      ] as const) {
        const expected = plainNearest(input, candidates, 3);
        expect(nearest(input, given, 3), input).toEqual(expected);
        expect(nearest(input, given, 1), input).toEqual(expected.slice(0, 1));
      }
    }
  });

  it("fill a distance table only for candidates near in length and letters", async () => {
    const catalog = await builtinCatalog();
    resetWork();
    // The plain algorithm filled a table for every identifier within the limit in length: 652 here.
    const sameLength = catalog
      .allIdentifiers()
      .filter((id) => Math.abs(id.length - "{{ plugin-name }}:default".length) <= 8).length;
    expect(catalog.suggest("{{ plugin_name }}:default", 1)).toEqual([]);
    expect(sameLength).toBeGreaterThan(500);
    expect(work.suggestionDistanceTables).toBeLessThan(sameLength / 20);

    resetWork();
    const fsSameLength = catalog
      .identifiersOf("fs")
      .filter((id) => Math.abs(id.length - "fs:allow-app".length) <= 4).length;
    expect(catalog.suggest("fs:allow-app")).toEqual(
      plainNearest("fs:allow-app", catalog.identifiersOf("fs")),
    );
    expect(fsSameLength).toBeGreaterThan(40);
    expect(work.suggestionDistanceTables).toBeLessThan(fsSameLength / 3);
  });

  it("lowercase a plugin's identifiers once for every catalog holding its manifest, and never serve a changed catalog the old ones", async () => {
    const first = await builtinCatalog();
    first.suggest("fs:allow-red-file");
    resetWork();
    const second = first.copy();
    expect(second.suggest("fs:allow-red-file")).toEqual(first.suggest("fs:allow-red-file"));
    expect(second.suggest("fs:allow-red-file")).toContain("fs:allow-read-file");
    // The copy reuses fs's pool (a pool is made once per manifest entry of the process).
    expect(work.identifierPoolsMade).toBe(0);
    second.suggest("{{ plugin_name }}:read-file");
    const afterAll = work.identifierPoolsMade;
    const third = first.copy();
    third.suggest("{{ plugin_name }}:read-file");
    expect(work.identifierPoolsMade).toBe(afterAll);

    // A catalog changed later answers from its new content: its fs has one permission only.
    const fs: Manifest = {
      default_permission: null,
      permission_sets: {},
      permissions: {
        "allow-read-fila": {
          identifier: "allow-read-fila",
          commands: { allow: ["read_file"], deny: [] },
        },
      },
      global_scope_schema: null,
    };
    third.add({ fs }, { origin: "plugins-dir" });
    expect(third.suggest("fs:allow-red-file")).toEqual(["fs:allow-read-fila"]);
    expect(third.suggest("fs:allow-red-fila")).toEqual(["fs:allow-read-fila"]);
    expect(third.allIdentifiers()).toContain("fs:allow-read-fila");
    expect(third.allIdentifiers()).not.toContain("fs:allow-read-file");
    expect(third.suggest("{{ plugin_name }}:allow-read-fila", 1)).toEqual(
      plainNearest("{{ plugin-name }}:allow-read-fila", third.allIdentifiers(), 1),
    );
    expect(first.suggest("fs:allow-red-file")).toContain("fs:allow-read-file");
  });
});
