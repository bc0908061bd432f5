/**
 * What bin/caplint.js needs at run time, relative to the package root; no node_modules. The build's
 * products among them are the ones a release commit adds (scripts/release-commit.mjs); the tests that
 * run the bin as another user copy all of them (test/helpers/shipped-copy.ts).
 */
export const RUNTIME_SOURCES = ["package.json", "bin", "schema", "data"];

/** Built files: the CLI bundle and its chunks, and the validators generated from the schemas. */
export const RUNTIME_BUILD = [
  "dist/cli-bundle/main.cjs",
  // A check of named files runs this one, without the other commands (scripts/bundle.mjs); the bin
  // runs main.cjs when it is missing.
  "dist/cli-bundle/check.cjs",
  "dist/cli-bundle/mcp-sdk.cjs",
  "dist/cli-bundle/mcp-server.cjs",
  "dist/cli-bundle/lsp-protocol.cjs",
  "dist/generated",
];

/** Where the built CLI is committed on main, RUNTIME_BUILD's files with `dist/` replaced (scripts/prebuilt.mjs). */
export const PREBUILT = "prebuilt";

/** Present only in a release commit's tree, which also carries the build in dist/ (scripts/release-commit.mjs). */
export const PREBUILT_MARKER = "dist/cli-bundle/PREBUILT";
