import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  checkLabel,
  compileLabelPattern,
  labelMatches,
  LABEL_ALPHABET_MESSAGE,
} from "../../../src/capabilities/engine/match/glob.js";

interface GlobCase {
  pattern: string;
  label: string;
  matches: boolean;
  source: string;
  note?: string;
}

const cases = JSON.parse(
  readFileSync(new URL("../../../fixtures/conformance/label-globs.json", import.meta.url), "utf8"),
) as GlobCase[];

describe("label-globs.json conformance", () => {
  it("has the 46 documented cases", () => expect(cases).toHaveLength(46));
  it.each(cases.map((c) => [c.pattern, c.label, c.matches] as const))(
    "%j against %j → %j",
    (pattern, label, matches) => {
      const compiled = compileLabelPattern(pattern);
      expect(compiled.ok).toBe(true);
      expect(compiled.ok && compiled.match(label)).toBe(matches);
    },
  );

  it.each([
    [
      "main-**",
      "Pattern syntax error near position 4: recursive wildcards must form a single path component",
    ],
    [
      "***",
      "Pattern syntax error near position 2: wildcards are either regular `*` or recursive `**`",
    ],
    ["[abc", "Pattern syntax error near position 0: invalid range pattern"],
    ["[]", "Pattern syntax error near position 0: invalid range pattern"],
    ["[!]", "Pattern syntax error near position 0: invalid range pattern"],
  ])("rejects %j with the crate's message", (pattern, message) => {
    const compiled = compileLabelPattern(pattern);
    expect(compiled).toEqual({ ok: false, pattern, message });
  });
});

describe("glob crate details beyond the corpus", () => {
  it("reports `**` followed by a non-separator at the position after the stars", () => {
    expect(compileLabelPattern("**a")).toMatchObject({
      ok: false,
      message:
        "Pattern syntax error near position 2: recursive wildcards must form a single path component",
    });
    expect(compileLabelPattern("a/**b")).toMatchObject({
      ok: false,
      message:
        "Pattern syntax error near position 4: recursive wildcards must form a single path component",
    });
  });

  it("counts positions in Unicode scalar values", () => {
    expect(compileLabelPattern("é-***")).toMatchObject({
      ok: false,
      message: expect.stringContaining("position 4:"),
    });
  });

  it("lets `**/` match zero or more whole leading components", () => {
    expect(labelMatches("**/x", "x")).toBe(true);
    expect(labelMatches("**/x", "a/b/x")).toBe(true);
    expect(labelMatches("**/x", "ax")).toBe(false);
    expect(labelMatches("a/**/b", "a/b")).toBe(true);
    expect(labelMatches("a/**/b", "a/x/y/b")).toBe(true);
    expect(labelMatches("a/**/b", "a/xb")).toBe(false);
  });

  it("lets a trailing `**` swallow the rest, slashes or not", () => {
    expect(labelMatches("a/**", "a/b")).toBe(true);
    expect(labelMatches("a/**", "a/")).toBe(true);
    expect(labelMatches("a/**", "ab")).toBe(false);
  });

  it("treats ranges by code point and keeps classes case-sensitive", () => {
    expect(labelMatches("[a-c]", "b")).toBe(true);
    expect(labelMatches("[a-c]", "B")).toBe(false);
    expect(labelMatches("[!a-c]", "é")).toBe(true);
    expect(labelMatches("[]-]", "-")).toBe(true);
    expect(labelMatches("[]-]", "]")).toBe(true);
  });

  it("matches the empty label only with patterns that can be empty", () => {
    expect(labelMatches("*", "")).toBe(true);
    expect(labelMatches("?", "")).toBe(false);
    expect(labelMatches("", "")).toBe(true);
    expect(labelMatches("", "a")).toBe(false);
  });

  it("returns the cached compiled pattern for the same string", () => {
    expect(compileLabelPattern("main-*")).toBe(compileLabelPattern("main-*"));
  });

  it("does not backtrack on crafted patterns", () => {
    const pattern = "*a*a*a*a*a*a*a*b";
    // No clock: backtracking over seven wildcards is some 50,000^7 steps on the miss, never done within the time-out.
    const label = "a".repeat(50_000);
    expect(labelMatches(pattern, label)).toBe(false);
    expect(labelMatches(pattern, label + "b")).toBe(true);
    expect(labelMatches("?*?*?*?*?*?*?*?*c", "ab".repeat(20_000))).toBe(false);
  });
});

describe("checkLabel", () => {
  it.each(["main", "main-1", "a/b:c_d", "fenêtre", "窗口", "v٣", ""])("accepts %j", (label) =>
    expect(checkLabel(label)).toEqual({ ok: true }),
  );
  it.each(["main window", "a.b", "x*", "a\\b", "ümlaut!"])("rejects %j", (label) =>
    expect(checkLabel(label)).toEqual({ ok: false, message: LABEL_ALPHABET_MESSAGE }),
  );
});

describe("matching cost is linear in pattern + label", () => {
  it("a 1,024-character pattern against a 1,000,000-character label, for every kind of segment", () => {
    const label = "a".repeat(1_000_000);
    // No clock: each took pattern × label steps (about 10⁹) with the NFA it replaced, minutes in all, far over
    // the test's time-out; linear matching takes well under a second.
    for (const pattern of [
      "*a".repeat(511) + "b",
      "*" + "a".repeat(1_022) + "b",
      "*" + "[a-c]".repeat(200) + "b",
      "**/" + "?".repeat(1_000) + "/b",
      "*" + "?a".repeat(511),
    ]) {
      expect(pattern.length).toBeLessThanOrEqual(1_024);
      expect(labelMatches(pattern, label), pattern.slice(0, 12)).toBe(
        pattern.endsWith("?a") || (!pattern.endsWith("b") && !pattern.endsWith("/b")),
      );
    }
  });
});
