/** The one quoting of untrusted text for messages (src/core/quote.ts), and how the domains' helpers build on it. */
import { describe, expect, it } from "vitest";
import { cutText, escapeInvisible, jsonQuote } from "../../src/core/quote.js";
import { quoteList, wordList } from "../../src/core/did-you-mean.js";
import { quote as eventQuote } from "../../src/events/text.js";
import { escapeControls, quote as serverQuote } from "../../src/mcp/text.js";

const HIDING = "\u007f\u0085\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069";

describe("quoting untrusted text for a message", () => {
  it("escapes what JSON does and the characters that hide or reorder text, nothing else", () => {
    expect(jsonQuote('a"b\\c\nd\u0001é😀')).toBe('"a\\"b\\\\c\\nd\\u0001é😀"');
    expect(escapeInvisible(`x${HIDING}y`)).toBe(
      "x\\u007f\\u0085\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a\\u202e\\u2066\\u2069y",
    );
    expect(jsonQuote(HIDING)).toBe(`"${escapeInvisible(HIDING)}"`);
  });

  it("is what an event value's quote is, cut at 60 characters", () => {
    expect(eventQuote(`a\n${HIDING}`)).toBe(jsonQuote(`a\n${HIDING}`));
    expect(eventQuote("x".repeat(70))).toBe(jsonQuote(`${"x".repeat(60)}…`));
  });

  it("keeps a tool server's own escaping of C0 controls (\\u000a, not \\n) and shares the rest", () => {
    expect(escapeControls(`a\n"\\${HIDING}`)).toBe(`a\\u000a\\"\\\\${escapeInvisible(HIDING)}`);
    expect(serverQuote("tab\there")).toBe('"tab\\u0009here"');
  });

  it("lists quoted items as a sentence does", () => {
    expect(quoteList(["a", "b", "c"])).toBe('"a", "b" or "c"');
    expect(quoteList(["a"], "and")).toBe('"a"');
    expect(wordList(["x", "y"])).toBe("x and y");
    expect(wordList([])).toBe("");
  });
});

describe("cutText: the one way a long value is cut", () => {
  it("keeps a value of at most max characters whole, else the head, …, the tail and what the policy says", () => {
    expect(cutText("abcdef", 6)).toBe("abcdef");
    expect(cutText("abcdefgh", 6)).toBe("abcdef…");
    expect(cutText("abcdefgh", 6, { head: 3, tail: 2 })).toBe("abc…gh");
    expect(cutText("abcdefgh", 6, { head: 6, countRest: true })).toBe("abcdef…[2 more characters]");
  });

  it("never cuts a surrogate pair in half, at either end", () => {
    expect(cutText("ab😀cd", 3)).toBe("ab…");
    expect(cutText("ab😀cd😀", 3, { head: 1, tail: 3 })).toBe("a…d😀");
    expect(cutText("abcd😀", 3, { head: 1, tail: 1 })).toBe("a…");
  });
});
