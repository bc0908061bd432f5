// Bundles the CLI (dist/cli/main.js and everything it imports, dependencies included) into
// dist/cli-bundle/ for the bin. On Node 20 there is no module compile cache, and resolving and
// instantiating some 90 ES modules and commander on every run costs about a third of start-up;
// one bundle with lazily loaded chunks (reporters, fixes, queries) does not. The library entry
// (dist/index.js) stays unbundled. The package's own files (schema/, data/, package.json, dist/generated/)
// are found by src/core/package-files.ts alone, from any depth, so modules may live in any folder.
import { build } from "esbuild";

await build({
  entryPoints: ["dist/cli/main.js"],
  outdir: "dist/cli-bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Bundled CommonJS dependencies call require(); ES modules have none, so one is made here.
  banner: { js: "import { createRequire as __caplintCreateRequire } from 'node:module'; const require = __caplintCreateRequire(import.meta.url);" },
  logLevel: "warning",
});
