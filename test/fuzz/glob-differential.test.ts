/**
 * The linear glob matcher against a port of the `glob` crate's own recursive matcher
 * (`Pattern::matches_from`, 0.3.x, default options), on random patterns and labels small enough for
 * the crate's backtracking. Patterns are generated as token lists so the reference needs no parser.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileLabelPattern } from "../../src/capabilities/engine/match/glob.js";

type RefToken =
  | { kind: "char"; c: string }
  | { kind: "any" }
  | { kind: "within" | "except"; test: (c: string) => boolean }
  | { kind: "seq" }
  | { kind: "rseq" };

type Outcome = "match" | "sub" | "entire";

function matchesFrom(
  tokens: RefToken[],
  followsSeparator: boolean,
  file: string[],
  at: number,
  i: number,
): Outcome {
  for (let ti = i; ti < tokens.length; ti++) {
    const token = tokens[ti]!;
    if (token.kind === "seq" || token.kind === "rseq") {
      const empty = matchesFrom(tokens, followsSeparator, file, at, ti + 1);
      if (empty !== "sub") return empty;
      while (at < file.length) {
        const c = file[at++]!;
        followsSeparator = c === "/";
        if (token.kind === "rseq" && !followsSeparator) continue;
        const rest = matchesFrom(tokens, followsSeparator, file, at, ti + 1);
        if (rest !== "sub") return rest;
      }
    } else {
      if (at >= file.length) return "entire";
      const c = file[at++]!;
      const ok =
        token.kind === "char"
          ? token.c === c
          : token.kind === "any"
            ? true
            : token.kind === "within"
              ? token.test(c)
              : !token.test(c);
      if (!ok) return "sub";
      followsSeparator = c === "/";
    }
  }
  return at >= file.length ? "match" : "sub";
}

const crateMatches = (tokens: RefToken[], label: string) =>
  matchesFrom(tokens, true, Array.from(label), 0, 0) === "match";

/** Pattern pieces with the tokens the crate makes of them; `**` pieces are placed where they are valid. */
const PIECES: Array<[string, RefToken[]]> = [
  ["a", [{ kind: "char", c: "a" }]],
  ["b", [{ kind: "char", c: "b" }]],
  ["/", [{ kind: "char", c: "/" }]],
  ["?", [{ kind: "any" }]],
  ["*", [{ kind: "seq" }]],
  ["[ab]", [{ kind: "within", test: (c) => c === "a" || c === "b" }]],
  ["[!a]", [{ kind: "except", test: (c) => c === "a" }]],
  ["[a-c]", [{ kind: "within", test: (c) => c >= "a" && c <= "c" }]],
  ["é", [{ kind: "char", c: "é" }]],
];

function assemble(
  choices: number[],
  recursiveAt: boolean[],
): { pattern: string; tokens: RefToken[] } {
  let pattern = "";
  const tokens: RefToken[] = [];
  const atComponentStart = () => pattern === "" || pattern.endsWith("/");
  choices.forEach((choice, index) => {
    if (recursiveAt[index] && atComponentStart()) {
      pattern += "**/";
      // The crate folds the `/` into the token and merges a `**/` that follows another (after the first token).
      if (!(tokens.length > 1 && tokens[tokens.length - 1]!.kind === "rseq"))
        tokens.push({ kind: "rseq" });
      return;
    }
    const [text, pieceTokens] = PIECES[choice]!;
    if (text === "*" && pattern.endsWith("*")) return;
    pattern += text;
    tokens.push(...pieceTokens);
  });
  if (recursiveAt[choices.length] && atComponentStart() && !pattern.endsWith("*")) {
    pattern += "**";
    tokens.push({ kind: "rseq" });
  }
  return { pattern, tokens };
}

const patternArb = fc
  .integer({ min: 0, max: 9 })
  .chain((n) =>
    fc.tuple(
      fc.array(fc.integer({ min: 0, max: PIECES.length - 1 }), { minLength: n, maxLength: n }),
      fc.array(fc.boolean(), { minLength: n + 1, maxLength: n + 1 }),
    ),
  )
  .map(([choices, recursiveAt]) => assemble(choices, recursiveAt));
const labelArb = fc
  .array(fc.constantFrom("a", "b", "c", "/", "é", "🙂"), { maxLength: 10 })
  .map((chars) => chars.join(""));

describe("the linear glob matcher agrees with the crate's recursive matcher", () => {
  it("on random patterns and labels", () => {
    fc.assert(
      fc.property(
        patternArb,
        fc.array(labelArb, { minLength: 1, maxLength: 8 }),
        ({ pattern, tokens }, labels) => {
          const compiled = compileLabelPattern(pattern);
          expect(compiled.ok, pattern).toBe(true);
          if (!compiled.ok) return;
          for (const label of labels)
            expect(
              compiled.match(label),
              `${JSON.stringify(pattern)} against ${JSON.stringify(label)}`,
            ).toBe(crateMatches(tokens, label));
        },
      ),
      { seed: 20_261_127, numRuns: Number(process.env.FUZZ_RUNS ?? 2_000) },
    );
  });

  it("on labels built from the pattern's own pieces (where matches are likely)", () => {
    fc.assert(
      fc.property(
        patternArb,
        fc.array(fc.constantFrom("", "a", "b", "/", "ab", "a/b"), { maxLength: 6 }),
        ({ pattern, tokens }, fill) => {
          const compiled = compileLabelPattern(pattern);
          if (!compiled.ok) return;
          // Replace each wildcard with a piece of filler, so many labels match.
          let k = 0;
          const label = pattern.replace(/\*\*\/|\*\*|\*|\?|\[[^\]]*\]/g, (m) =>
            m === "?" || m.startsWith("[") ? "a" : (fill[k++ % Math.max(1, fill.length)] ?? ""),
          );
          expect(
            compiled.match(label),
            `${JSON.stringify(pattern)} against ${JSON.stringify(label)}`,
          ).toBe(crateMatches(tokens, label));
        },
      ),
      { seed: 20_261_128, numRuns: Number(process.env.FUZZ_RUNS ?? 2_000) },
    );
  });

  // No clock and no reference (the backtracking one above is exponential here): pattern × label steps would be
  // up to 10⁹ per case, some 10¹⁰ for the run, far over the time-out; linear matching takes a few milliseconds
  // a case. test/capabilities/engine/glob.test.ts checks results at this size for every kind of segment.
  it("on long generated patterns and labels, within the time-out", () => {
    // Pieces that keep a pattern valid wherever they fall (`**` only as a whole segment), cut at a piece's end.
    const unit = fc.constantFrom("*a", "a", "?", "[a-c]", "[!b]", "/**/", "/", "*?", "b");
    const upTo1024 = (units: string[]) => {
      let pattern = "";
      for (const piece of units) if (pattern.length + piece.length <= 1_024) pattern += piece;
      return pattern;
    };
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 50, maxLength: 300 }),
        fc.array(fc.constantFrom("a", "b", "/", "c"), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 10_000, max: 200_000 }),
        (units, cycle, repeat) => {
          const compiled = compileLabelPattern(upTo1024(units));
          expect(compiled.ok, upTo1024(units)).toBe(true);
          if (!compiled.ok) return;
          const label = cycle.join("").repeat(repeat).slice(0, 1_000_000);
          expect(typeof compiled.match(label)).toBe("boolean");
        },
      ),
      { seed: 20_261_129, numRuns: Math.min(200, Number(process.env.FUZZ_RUNS ?? 100)) },
    );
  });
});
