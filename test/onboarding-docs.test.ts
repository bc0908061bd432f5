import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/run.js";

/**
 * The onboarding path (docs/architecture.md, from CONTRIBUTING.md's commands) cites files and symbols by name; a rename or a deletion must not leave
 * them pointing at nothing (CONTRIBUTING.md cited `src/core/rule.ts` and `DOMAIN_NAMES` long after
 * both were gone). Every backticked path must exist (a path without a top folder, as `lint/rule.ts`,
 * must end some file of the repository), and every backticked camelCase or CONSTANT name must occur
 * in the sources.
 */
const DOCUMENTS = ["docs/architecture.md", "CONTRIBUTING.md"];

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" }).map(
    (name) => `${dir}/${name.split(path.sep).join("/")}`,
  );
}

const REPOSITORY_FILES = [
  ...filesUnder("src"),
  ...filesUnder("test"),
  ...filesUnder("scripts"),
  ...filesUnder("docs"),
];
/** Where a cited symbol may live: the sources, the tests (their tables), the scripts and the TypeScript config. */
const SOURCES = [
  ...filesUnder("src"),
  ...filesUnder("test"),
  ...filesUnder("scripts"),
  "tsconfig.json",
]
  .filter((file) => /\.(ts|mjs|json)$/.test(file))
  .map((file) => readFileSync(path.join(ROOT, file), "utf8"))
  .join("\n");

/** Files the worked example of docs/architecture.md creates: cited before they exist. */
const WORKED_EXAMPLE = /require-description/;

/** The code spans of a Markdown text, outside fenced blocks (whose code the docs tests run). */
function codeSpans(text: string): string[] {
  return [...text.replace(/^```[\s\S]*?^```/gm, "").matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

/** A span naming a file of ours: ends in a source or document extension, no placeholder, no glob. */
const isPath = (span: string) =>
  /^[\w./-]+\.(ts|md|mjs|js|json|jsonc|sh)$/.test(span) &&
  span.includes("/") &&
  !/[<>*…]/.test(span);
/** A span naming a symbol: an identifier with a capital or an underscore inside (plain words are prose), maybe called or typed. */
const symbolOf = (span: string) =>
  /^([a-z]+[A-Z]\w*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(<[^>]*>)?(\(.*\))?$/.exec(span)?.[1];

describe("the onboarding documents cite what exists", () => {
  for (const document of DOCUMENTS) {
    const spans = codeSpans(readFileSync(path.join(ROOT, document), "utf8"));

    it(`${document}: every path`, () => {
      const paths = [...new Set(spans.filter(isPath))].filter(
        (cited) => !WORKED_EXAMPLE.test(cited),
      );
      expect(paths.length).toBeGreaterThan(5);
      const missing = paths.filter(
        (cited) =>
          !existsSync(path.join(ROOT, cited)) &&
          !REPOSITORY_FILES.some((file) => file === cited || file.endsWith(`/${cited}`)),
      );
      expect(missing).toEqual([]);
    });

    it(`${document}: every symbol`, () => {
      const symbols = [...new Set(spans.map(symbolOf).filter((name) => name !== undefined))];
      // CONTRIBUTING.md keeps the commands and sends the reader to docs/architecture.md, which names the code.
      expect(symbols.length).toBeGreaterThan(document === "CONTRIBUTING.md" ? 0 : 5);
      expect(symbols.filter((name) => !new RegExp(`\\b${name}\\b`).test(SOURCES))).toEqual([]);
    });
  }
});
