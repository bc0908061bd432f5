// Bundles the CLI (dist/cli/main.js and everything it imports, dependencies included) into one
// CommonJS file, dist/cli-bundle/main.cjs, for the bin. Start-up is what a linter in a pre-commit hook
// pays on every run: on Node 20 the ES module loader (resolving, instantiating and linking ~90 modules)
// cost about half of it, and there is no module compile cache. One CommonJS script, compiled from a V8
// code cache made at build time (scripts/build-code-cache.mjs), skips both. Lazily imported parts
// (reporters, fixes, queries) stay lazy: esbuild turns their `import()` into deferred `require()`s.
// The library entry (dist/index.js) stays unbundled ESM. The package's own files (schema/, data/,
// package.json, dist/generated/) are found by src/core/package-files.ts alone, from any depth.
import { build } from "esbuild";

/**
 * `await import("node:x")` would stay a real dynamic import in CommonJS output, which a script run from
 * a code cache cannot make (and which would start the ES module loader again): it becomes a bundled
 * shim that `require`s the built-in.
 */
const builtinDynamicImports = {
  name: "builtin-dynamic-imports",
  setup(builder) {
    builder.onResolve({ filter: /^node:/ }, (args) => (args.kind === "dynamic-import" ? { path: args.path, namespace: "builtin-shim" } : undefined));
    builder.onLoad({ filter: /.*/, namespace: "builtin-shim" }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
  },
};

/**
 * commander requires `node:child_process` at load time, for executable subcommands caplint does not
 * have; loading it (and `node:net` behind it) cost about 8 % of a one-file `check`. Inside commander it
 * becomes a shim that requires the built-in on first use.
 */
const lazyChildProcess = {
  name: "lazy-child-process",
  setup(builder) {
    builder.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.kind === "require-call" && /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: "child_process", namespace: "lazy-builtin" } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, () => ({
      contents: 'let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require("node:child_process"))[key] });',
      loader: "js",
    }));
  },
};

const result = await build({
  entryPoints: ["dist/cli/main.js"],
  outfile: "dist/cli-bundle/main.cjs",
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  // Modules find the package's own files from their URL; in the CommonJS bundle that is the bundle's.
  define: { "import.meta.url": "__caplintBundleUrl" },
  banner: { js: 'var __caplintBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  plugins: [builtinDynamicImports, lazyChildProcess],
  // The MCP SDK (and zod, which only it uses) is required from node_modules by `caplint mcp --stdio/--url`
  // alone: bundled, its ~1 MB would be read and compiled on every run of every command.
  external: ["@modelcontextprotocol/sdk", "@modelcontextprotocol/sdk/*", "zod"],
  logLevel: "warning",
});
// import.meta.dirname, .filename or .resolve would be undefined in the CommonJS bundle: refuse to ship that.
const unavailable = result.warnings.filter((warning) => /import\.meta/.test(warning.text));
if (unavailable.length) {
  for (const warning of unavailable) console.error(`${warning.location?.file}:${warning.location?.line}: ${warning.text}`);
  process.exit(1);
}
