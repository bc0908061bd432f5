/**
 * A long session of the language server or `--watch` (the soak half of test/core/bounded-memo.test.ts):
 * every memo of user input keeps at most its stated number of entries however much new input it sees.
 * Tens of thousands of identifiers, labels and origins: seconds of work, so not in the unit loop.
 * Counts entries, never times anything.
 */
import { describe, expect, it } from "vitest";
import { checkIdentifier } from "../../src/capabilities/catalog/identifier.js";
import { loadRemotePatternTools, urlReach } from "../../src/capabilities/dangers/url-reach.js";
import { compileLabelPattern } from "../../src/capabilities/engine/match/glob.js";
import { compileRemotePattern } from "../../src/capabilities/engine/match/origin.js";
import { boundedMemos } from "../../src/core/bounded-memo.js";
import { SourceDocument } from "../../src/core/source/document.js";
import { parseToml } from "../../src/core/source/toml.js";

describe("a long session of ever new input", () => {
  /** One round of what a check of a new app asks the memos: identifiers, labels, origins, URL reaches, TOML keys. */
  async function round(tag: string): Promise<void> {
    const tools = await loadRemotePatternTools();
    for (let i = 0; i < 5000; i++) {
      checkIdentifier(`p${tag}:allow-${i}`);
      compileLabelPattern(`w${tag}-${i}-*`);
    }
    // Compiling an origin pattern costs about a millisecond: fewer per round, enough to fill that memo in two.
    for (let i = 0; i < 1100; i++) compileRemotePattern(`https://h${tag}-${i}.example.com/*`);
    for (let i = 0; i < 20; i++)
      compileRemotePattern(`https://h${tag}-${i}.example.com/*`, { allowUnsafe: true });
    for (let i = 0; i < 100; i++) urlReach(tools.URLPattern, `https://*.r${tag}-${i}.example.*`);
    const keys = Array.from({ length: 600 }, (_, i) => `k${tag}_${i}`);
    const text = keys.map((key) => `${key} = 1\n`).join("");
    const document = SourceDocument.parse(`/x/${tag}.toml`, `${tag}.toml`, text, "toml", parseToml);
    for (const key of keys) document.locate([key], "key");
  }

  it("keeps every memo within its stated size, however many rounds", async () => {
    await round("first");
    // Identifiers, labels, origins (two modes), URL reaches and component answers: the six memos a
    // round asks. (In test/core/bounded-memo.test.ts the count was 7 with that file's own small memo.)
    expect(boundedMemos().length).toBeGreaterThanOrEqual(6);
    expect(boundedMemos().filter((memo) => memo.size > 0).length).toBeGreaterThanOrEqual(6);
    await round("second");
    for (const memo of boundedMemos()) expect(memo.size).toBeLessThanOrEqual(memo.limit);
    // Labels (4,096) and strict origins (2,048) saw more than they hold: they are full and stay full, so a
    // session grows none of them further. (TOML keys are placed from each document's key index since a4a7e29.)
    const full = boundedMemos().filter((memo) => memo.size === memo.limit);
    expect(full.map((memo) => memo.limit).sort((a, b) => a - b)).toEqual(
      expect.arrayContaining([2048, 4096]),
    );
  }, 60_000);
});
