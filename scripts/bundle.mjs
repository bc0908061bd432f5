// Bundles the CLI (dist/cli/main.js and everything it imports, dependencies included) into one
// CommonJS file, dist/cli-bundle/main.cjs, for the bin (and dist/cli-bundle/check.cjs, the same without
// the other commands, for a check of named files: `checkOnly` below). Start-up is what a linter in a pre-commit hook
// pays on every run: on Node 20 the ES module loader (resolving, instantiating and linking ~90 modules)
// cost about half of it, and there is no module compile cache. One CommonJS script, compiled from a V8
// code cache made at build time (scripts/build-code-cache.mjs), skips both. Lazily imported parts
// (reporters, fixes, queries) stay lazy: esbuild turns their `import()` into deferred `require()`s.
// The library entry (dist/index.js) stays unbundled ESM. The package's own files (schema/, data/,
// package.json, dist/generated/) are found by src/core/package-files.ts alone, from any depth.
import Module from "node:module";
import path from "node:path";
import { build } from "esbuild";

/**
 * `await import("node:x")` would stay a real dynamic import in CommonJS output, which a script run from
 * a code cache cannot make (and which would start the ES module loader again): it becomes a bundled
 * shim that `require`s the built-in.
 */
const builtinDynamicImports = {
  name: "builtin-dynamic-imports",
  setup(builder) {
    builder.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, namespace: "builtin-shim" } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "builtin-shim" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

/**
 * `node:fs/promises` (and the readline, stream and watcher modules it loads) is required at load time by
 * every module that imports it, though a one-file check makes no asynchronous file call: 1.5 % of its
 * instructions. It becomes a shim that requires the built-in on first use.
 */
const lazyFsPromises = {
  name: "lazy-fs-promises",
  setup(builder) {
    builder.onResolve({ filter: /^(node:)?fs\/promises$/ }, (args) =>
      args.namespace !== "lazy-fs-promises" &&
      (args.kind === "import-statement" || args.kind === "require-call")
        ? { path: "fs/promises", namespace: "lazy-fs-promises" }
        : undefined,
    );
    // An ES module of wrappers, one per function: esbuild copies a CommonJS shim's properties when it is imported, which would load it.
    builder.onLoad({ filter: /.*/, namespace: "lazy-fs-promises" }, async () => {
      const functions = Object.entries(await import("node:fs/promises")).filter(
        ([, value]) => typeof value === "function",
      );
      return {
        contents: [
          'let loaded; const load = () => (loaded ??= require("node:fs/promises"));',
          ...functions.map(
            ([name]) => `export function ${name}(...args) { return load().${name}(...args); }`,
          ),
        ].join("\n"),
        loader: "js",
      };
    });
  },
};

/**
 * `import path from "node:path"` (44 modules) becomes `__toESM(require("node:path"))` in each importer:
 * a copy of the module's 15 properties as getters, each a closure, made when the importer loads (a
 * one-file check loads 25 of them: 150 KB of young objects, part of a scavenge). Every importer
 * reaches one ES module instead, which reads the built-in once and exports it as its default and its
 * members by name, so a default import is a plain variable.
 */
const sharedPath = {
  name: "shared-path",
  setup(builder) {
    builder.onResolve({ filter: /^(node:)?path$/ }, (args) =>
      args.namespace !== "shared-path" && args.kind === "import-statement"
        ? { path: "node:path", namespace: "shared-path" }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "shared-path" }, async () => {
      const members = Object.keys((await import("node:path")).default);
      return {
        contents: [
          'const path = require("node:path");',
          "export default path;",
          ...members.map((name) => `export const ${name} = path.${name};`),
        ].join("\n"),
        loader: "js",
      };
    });
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
      args.kind === "require-call" && /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: "child_process", namespace: "lazy-builtin" }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, () => ({
      contents:
        'let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require("node:child_process"))[key] });',
      loader: "js",
    }));
  },
};

/**
 * Modules load some packages lazily with `createRequire(import.meta.url)("jsonc-parser")` (only a broken
 * file needs jsonc-parser; only a remote origin on Node 20 the URLPattern polyfill). esbuild cannot see
 * through that call, so the bundle would need node_modules at run time, which a release commit and the
 * GitHub Action do not have. As a plain `require` the package is bundled, and still evaluated only on
 * first call.
 */
const LAZY_PACKAGE_REQUIRE =
  /createRequire\(import\.meta\.url\)\("((?:@[\w.-]+\/)?[\w.-]+(?:\/[\w./-]+)?)"\)/g;
/**
 * The schema validators precompiled by the build (dist/generated/*.cjs, found by `generatedFile`) are
 * bundled too: required from dist/generated/ at run time, Node compiled them from source on every run
 * (no code cache: 40 KB of validator functions, 5 % of a one-file check's instructions). Bundled, they
 * are still evaluated only when a file is first validated, and compiled from the bundle's code cache.
 */
/**
 * A module's own path, `fileURLToPath(import.meta.url)` (src/core/package-files.ts, on every run), is
 * the bundle's path in the bundle: `__filename`, which the bin passes, without making a URL of it and
 * parsing it back (Node's URL class compiled and run: 3 M instructions of a one-file check).
 */
const OWN_PATH = "fileURLToPath(import.meta.url)";
const GENERATED_FILE = /\bgeneratedFile\("([\w.-]+\.cjs)"\)/;
const GENERATED_REQUIRE = /\bcreateRequire\(import\.meta\.url\)\((\w+)\)/;
const lazyPackageRequires = {
  name: "lazy-package-requires",
  setup(builder) {
    // jsonc-parser's main build is UMD, whose factory requires its parts in a way esbuild cannot follow: its ES module build instead.
    builder.onResolve({ filter: /^jsonc-parser$/ }, (args) =>
      builder.resolve("jsonc-parser/lib/esm/main.js", {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
      }),
    );
    builder.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const { readFile } = await import("node:fs/promises");
      const source = await readFile(args.path, "utf8");
      const generated = GENERATED_FILE.exec(source)?.[1];
      if (
        !source.includes('createRequire(import.meta.url)("') &&
        !source.includes(OWN_PATH) &&
        generated === undefined
      )
        return undefined;
      const contents = source
        .replace(LAZY_PACKAGE_REQUIRE, (call, name) =>
          name.startsWith("node:") ? call : `require(${JSON.stringify(name)})`,
        )
        .replaceAll(OWN_PATH, "__filename");
      return {
        contents:
          generated === undefined
            ? contents
            : contents.replace(
                GENERATED_REQUIRE,
                `require(${JSON.stringify(path.resolve("dist", "generated", generated))})`,
              ),
        loader: "js",
      };
    });
  },
};

/**
 * The MCP SDK and zod (~1 MB, ~120 modules) go into a chunk of their own, dist/cli-bundle/mcp-sdk.cjs,
 * built from src/mcp/sdk.ts: bundled into main.cjs they would be read and compiled on every run of
 * every command; required from node_modules they cost a live `caplint mcp` run more than the spec's
 * 200 ms. The CLI reaches the chunk only through this shim, which compiles it from its own V8 code
 * cache (made by scripts/build-code-cache.mjs) when a live run first needs it. `__dirname` is the
 * bundle's folder (bin/caplint.js passes it).
 */
const MCP_SDK_CHUNK = "mcp-sdk.cjs";
const mcpSdkChunk = {
  name: "mcp-sdk-chunk",
  setup(builder) {
    builder.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      args.importer.endsWith(`${path.sep}mcp${path.sep}live.js`)
        ? { path: "mcp-sdk", namespace: "mcp-sdk-chunk" }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "mcp-sdk-chunk" }, () => ({
      loader: "js",
      contents: `
const { readFileSync } = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const vm = require("node:vm");
const file = path.join(__dirname, ${JSON.stringify(MCP_SDK_CHUNK)});
let cachedData;
try { cachedData = readFileSync(file + ".cache"); } catch {}
// Under the flags the build made the cache with, as the bin reads the bundle's (bin/caplint.js); a
// bundle run without the bin compiles as it is.
const compiled = globalThis[Symbol.for("caplint.compiledWithTheCacheFlags")] ?? ((compile) => compile());
const script = compiled(() => new vm.Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData }));
const chunk = { exports: {} };
script.runInThisContext()(chunk.exports, Module.createRequire(file), chunk, file, path.dirname(file));
module.exports = chunk.exports;`,
    }));
  },
};

/**
 * The stdio server process of a live run (src/mcp/server-process.ts, with cross-spawn) is a chunk of
 * its own too, dist/cli-bundle/mcp-server.cjs: the bin requires it before it loads the CLI, to start
 * the server of `caplint mcp --stdio` at once, and the run (run.js) adopts that server through the
 * same module (one require cache entry), reached through this shim.
 */
const MCP_SERVER_CHUNK = "mcp-server.cjs";
const mcpServerChunk = {
  name: "mcp-server-chunk",
  setup(builder) {
    builder.onResolve({ filter: /^\.\/server-process\.js$/ }, (args) =>
      /[\\/]mcp[\\/](run|configured-servers)\.js$/.test(args.importer)
        ? { path: "mcp-server", namespace: "mcp-server-chunk" }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "mcp-server-chunk" }, () => ({
      loader: "js",
      contents: `module.exports = require(require("node:path").join(__dirname, ${JSON.stringify(MCP_SERVER_CHUNK)}));`,
    }));
  },
};

/**
 * The LSP library (vscode-languageserver with its protocol, JSON-RPC and text-document packages, 440 KB)
 * goes into a chunk of its own, dist/cli-bundle/lsp-protocol.cjs, built from src/lsp/protocol.ts: only
 * `caplint lsp` needs it, and a server starts once per editor session, so it is required plainly,
 * without a code cache. The CLI's other commands never read it.
 */
const LSP_PROTOCOL_CHUNK = "lsp-protocol.cjs";
const lspProtocolChunk = {
  name: "lsp-protocol-chunk",
  setup(builder) {
    builder.onResolve({ filter: /^\.\/protocol\.js$/ }, (args) =>
      /[\\/]lsp[\\/][\w-]+\.js$/.test(args.importer)
        ? { path: "lsp-protocol", namespace: "lsp-protocol-chunk" }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "lsp-protocol-chunk" }, () => ({
      loader: "js",
      contents: `module.exports = require(require("node:path").join(__dirname, ${JSON.stringify(LSP_PROTOCOL_CHUNK)}));`,
    }));
  },
};

await build({
  entryPoints: ["dist/lsp/protocol.js"],
  outfile: `dist/cli-bundle/${LSP_PROTOCOL_CHUNK}`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});

await build({
  entryPoints: ["dist/mcp/server-process.js"],
  outfile: `dist/cli-bundle/${MCP_SERVER_CHUNK}`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});

await build({
  entryPoints: ["dist/mcp/sdk.js"],
  outfile: `dist/cli-bundle/${MCP_SDK_CHUNK}`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});

const { readFileSync, writeFileSync } = await import("node:fs");

/**
 * Bundles the CLI into `outfile` (extra plugins first) and checks and wraps it as the bin runs it.
 */
async function bundleCli(outfile, extraPlugins) {
  const result = await build({
    entryPoints: ["dist/cli/main.js"],
    outfile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    // Every run reads the whole text and copies it into a string (a page fault per 4 KB of each), and
    // the code cache holds the names of every function and variable: identifiers minified, the text is
    // 1.21 MB instead of 1.70 MB and a one-file check 290 faults and 9 M instructions lighter
    // (docs/performance.md, helper "row1"). No code reads a function's or class's name but commander's
    // error classes (`this.name = this.constructor.name`), whose name caplint never prints; `keepNames`
    // would keep them at the price of a `__name` call per function as the bundle loads, which undid
    // most of the gain. A `--debug` stack trace keeps methods' names (properties are never renamed) and
    // positions in the bundle; plain functions show minified names (a build with `minifyIdentifiers`
    // off gives them back to whoever reads a report). Syntax is not minified (3 % less text again, measured
    // at 30 faults: not worth code whose shape differs from the source's).
    minifyWhitespace: true,
    minifyIdentifiers: true,
    // Modules find the package's own files from their URL; in the CommonJS bundle that is the bundle's.
    // Made when first read (only by a lazily loaded package's `createRequire`), not as the bundle loads.
    define: { "import.meta.url": "__caplintBundle.url" },
    banner: {
      js: 'var __caplintBundle = { get url() { return require("node:url").pathToFileURL(__filename).href; } };',
    },
    plugins: [
      ...extraPlugins,
      builtinDynamicImports,
      sharedPath,
      mcpSdkChunk,
      mcpServerChunk,
      lspProtocolChunk,
      lazyChildProcess,
      lazyFsPromises,
      lazyPackageRequires,
    ],
    // Only src/mcp/sdk.ts, server-process.ts and src/lsp/protocol.ts import these, and they are the chunks above: anything else reaching them is a mistake.
    // @napi-rs/xattr loads a native binary, which cannot be bundled: required from node_modules when --fix
    // first writes a file (without node_modules, as in the GitHub Action, fixes do not see attributes).
    external: [
      "@modelcontextprotocol/sdk",
      "@modelcontextprotocol/sdk/*",
      "zod",
      "cross-spawn",
      "vscode-languageserver",
      "vscode-languageserver/*",
      "vscode-languageserver-textdocument",
      "@napi-rs/xattr",
      // The frontend scan's parser and resolver are native too: required from node_modules on the first scan
      // (without node_modules, as in the GitHub Action, the scan is skipped with a note).
      "oxc-parser",
      "oxc-resolver",
    ],
    logLevel: "warning",
  });
  // esbuild escapes non-ASCII characters in strings and regular expressions but keeps them in the comments
  // it preserves (a "→" in a class member's doc comment). One such character makes V8 hold the whole
  // 1.3 MB source as a two-byte string, decoded from UTF-8 the slow way on every run: 4 % of the
  // instructions of a one-file check. Only comment lines hold them, so escaping them changes no code.
  const bundled = readFileSync(outfile, "utf8");
  const nonAsciiLines = bundled.split("\n").filter((line) => /[^\x00-\x7f]/.test(line));
  const notComments = nonAsciiLines.filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line));
  if (notComments.length) {
    console.error(
      `${outfile} has non-ASCII characters outside comments:\n${notComments.join("\n")}`,
    );
    process.exit(1);
  }
  // The file holds the module body already wrapped as Node wraps a CommonJS module (Module.wrap): the bin
  // compiles it with vm.Script as read. Wrapped at run time, the source was a concatenation, which V8
  // copies into one flat string before it looks the script up: one more 2.3 MB copy on every run, 570
  // page faults of a one-file check's 5,800 (docs/performance.md, helper "startup", 2026-12-03).
  // Required as a CommonJS module (tools that load the CLI in-process and call its `main`, such as the host
  // oracle's differential-test driver), the file runs that function with the module's own arguments, so
  // `require(".../main.cjs").main` is the function the bin calls. Under the bin's vm.Script `this` is the
  // global object and the expression's value is the function itself. The function stays parenthesised:
  // V8 compiles a parenthesised function at once instead of pre-parsing 1.2 MB and parsing it again.
  const wrapped = Module.wrap(
    bundled.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  );
  writeFileSync(
    outfile,
    `(this === globalThis ? (body) => body : (body) => (body.call(this, exports, require, module, __filename, __dirname), body))(${wrapped.replace(/;\s*$/, "")});\n`,
  );
  // The SDK and the server process must be reached through their chunks only (see mcpSdkChunk, mcpServerChunk).
  const main = readFileSync(outfile, "utf8");
  const stray =
    /require\("(@modelcontextprotocol\/sdk[^"]*|zod|cross-spawn|vscode-languageserver[^"]*)"\)/.exec(
      main,
    );
  if (stray) {
    console.error(
      `${outfile} requires ${stray[1]} from node_modules: import it through src/mcp/sdk.ts, src/mcp/server-process.ts or src/lsp/protocol.ts`,
    );
    process.exit(1);
  }
  // A package required at run time from node_modules: the release commit and the GitHub Action have none.
  const fromNodeModules = /createRequire\)\(__caplintBundle\.url\)\("(?!node:)([^"]+)"\)/.exec(
    main,
  );
  if (fromNodeModules) {
    console.error(
      `${outfile} requires ${fromNodeModules[1]} from node_modules at run time: bundle it (see lazyPackageRequires)`,
    );
    process.exit(1);
  }
  // import.meta.dirname, .filename or .resolve would be undefined in the CommonJS bundle: refuse to ship that.
  const unavailable = result.warnings.filter((warning) => /import\.meta/.test(warning.text));
  if (unavailable.length) {
    for (const warning of unavailable)
      console.error(`${warning.location?.file}:${warning.location?.line}: ${warning.text}`);
    process.exit(1);
  }
}

/** The modules that register commands: every module they import lazily is a command's but check's. */
const COMMAND_LISTS = [
  path.join("capabilities", "commands", "index.js"),
  path.join("cli", "commands", "index.js"),
];
/**
 * A check of named capability files (`caplint check a.json`; bin/caplint.js's `filesCheck`) runs from a bundle
 * of its own, dist/cli-bundle/check.cjs: the CLI without the other commands' modules (every lazily
 * imported command module but check's is a stub that refuses to load). The bundle's top level makes a
 * closure and a context slot for every module-level function and binding of every module it holds, used
 * or not, and its code cache holds them: without the other commands' 280 KB a one-file check ran 7 M
 * instructions (5 %) fewer, 200 page faults and a 78 KB smaller cache (docs/performance.md, helper
 * "start27"). The bin sends it no command line that could need another command (no option at all).
 */
const checkOnly = {
  name: "check-only",
  setup(builder) {
    builder.onResolve({ filter: /\.js$/ }, (args) =>
      args.kind === "dynamic-import" &&
      args.path !== "./check.js" &&
      COMMAND_LISTS.some((list) => args.importer.endsWith(`${path.sep}dist${path.sep}${list}`))
        ? { path: args.path, namespace: "other-command" }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: "other-command" }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`caplint: ${args.path} is not in the check bundle (dist/cli-bundle/check.cjs): run this command line through bin/caplint.js`)});`,
      loader: "js",
    }));
  },
};

await bundleCli("dist/cli-bundle/main.cjs", []);
await bundleCli("dist/cli-bundle/check.cjs", [checkOnly]);
