// Preloaded into the language server by `node scripts/bench-lsp.mjs --heap DIR` (with --expose-gc):
// on SIGUSR2 it collects garbage (twice, so objects freed by the first collection's finalisers go
// too), appends the heap's figures after the collection as one JSON line to $CAPLINT_HEAP_PROBE, and
// writes a heap snapshot when $CAPLINT_HEAP_PROBE.request names a file for it. Measurement only:
// never loaded by caplint itself.
"use strict";
const { appendFileSync, readFileSync, rmSync } = require("node:fs");
const v8 = require("node:v8");

const out = process.env.CAPLINT_HEAP_PROBE;
if (out && typeof globalThis.gc === "function") {
  process.on("SIGUSR2", () => {
    globalThis.gc();
    globalThis.gc();
    let snapshot = "";
    try {
      snapshot = readFileSync(`${out}.request`, "utf8").trim();
      rmSync(`${out}.request`);
    } catch {
      // No snapshot asked for: the figures only.
    }
    if (snapshot) v8.writeHeapSnapshot(snapshot);
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    // What each of V8's spaces holds from the system (committed) and uses: code grows as more is optimised.
    const spaces = Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .map((space) => [space.space_name, [space.physical_space_size, space.space_used_size]]),
    );
    appendFileSync(
      out,
      `${JSON.stringify({ rss, heapTotal, heapUsed, external, arrayBuffers, spaces, snapshot })}\n`,
    );
  });
}
