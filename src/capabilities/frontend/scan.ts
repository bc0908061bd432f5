/**
 * The frontend scan: from the app's entry points (its HTML pages, `app.windows[].url`, the bundler's
 * inputs, a framework's route folders), through every import the code makes (static, re-exported,
 * dynamic with a literal module), to the uses of Tauri's JavaScript packages in the code those pages
 * load. Only reachable files count; node_modules is not read (a third-party plugin's calls are named as
 * not analysed); minified bundles and build output are skipped; a file that does not parse, is too
 * large or leads out of the repository through a link is a note, never the end of the run. Each file
 * is read and parsed once, so the scan is linear in the size of the frontend.
 */
import type { JsPackageVersion } from "./js-lockfile.js";
import { createRequire } from "node:module";
import path from "node:path";
import { readdirSync, realpathSync, statSync } from "node:fs";
import { displayFile } from "../../core/file-names.js";
import { isWithin, pathKind, readTextFile } from "../../core/source/read.js";
import { emptyFacts, ModuleAnalyzer, type ModuleFacts } from "./analyze.js";
import { isTauriSpecifier, type ApiLookup } from "./api.js";
import {
  fileBlocks,
  isFrontendFile,
  looksMinified,
  SCRIPT_EXTENSIONS,
  type ScriptBlock,
} from "./blocks.js";
import { Linker, type ModuleTarget, type Use } from "./link.js";
import { readBundlerConfig, type BundlerConfig } from "./bundler-config.js";
import { buildCommandEntries, followBuildCommands } from "./build-commands.js";
import { plural } from "../../core/wording.js";
import { isPlainObject } from "../../core/json.js";
import { parse as parseJsonc } from "jsonc-parser";

export interface FrontendOptions {
  /** The folder holding `src-tauri/` (or the app folder itself). */
  appRoot: string;
  /** `src-tauri/`: its Rust code is not the frontend. */
  srcTauri: string;
  /** Links may not lead out of it (the repository). */
  boundary: string;
  cwd: string;
  maxBytes: number;
  /** The map of Tauri's packages at the versions the frontend in `root` installs. */
  apiFor: (root: string) => Promise<ApiLookup> | ApiLookup;
  /** `build.frontendDist`, `build.devUrl`, the build's commands and `app.windows[].url` of the app config. */
  build?: {
    frontendDist?: unknown;
    devUrl?: unknown;
    beforeBuildCommand?: unknown;
    beforeDevCommand?: unknown;
  };
  windows: ReadonlyArray<{ label: string; url?: unknown }>;
  /**
   * Windows the app makes in its code (window-labels.ts), each with a page of the app its code says it loads
   * (one entry per page): each is judged by the files of its pages, when they are certain. A label built at
   * run time is written with its literal start and `*` (`reader-*`), as the capability patterns that match it are.
   */
  madeWindows?: ReadonlyArray<{ label: string; url: string }>;
  /** The `frontend` section of caplint.config.json. */
  config?: FrontendConfig;
  /** Modules read by the last scan of the same app (an editor's checks): a file whose text is unchanged is not parsed again. */
  cache?: ModuleCache;
}

/**
 * What one file said, by path, with the text it was read from; pruned to the reachable files after each scan.
 * `typeRequests` is set while only the file's imports were read (its facts hold its requests alone).
 */
export type ModuleCache = Map<
  string,
  { text: string; facts: ModuleFacts; notes: readonly string[]; typeRequests?: readonly string[] }
>;

export interface FrontendConfig {
  root?: string;
  entries?: string[];
  ignore?: string[];
  /** Window label → its entry files (overrides the page found from its url). */
  windows?: Record<string, string[]>;
}

export interface FrontendCall extends Use {
  /** The file as findings name it. */
  displayFile: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** A set of entry points loaded together: one HTML page, or the app's route files. */
export interface FrontendPage {
  /** The page (an HTML file) or the first entry. */
  entry: string;
  /** Window labels whose `url` names this page; empty when no window names a page. */
  windows: string[];
  files: ReadonlySet<string>;
}

export interface FrontendScan {
  root: string;
  pages: FrontendPage[];
  /** Every reachable file, in the order read. */
  files: string[];
  calls: FrontendCall[];
  unresolved: FrontendCall[];
  /** Third-party packages whose name says they are Tauri plugins: their calls were not analysed. */
  thirdPartyPlugins: string[];
  /** The version of each `@tauri-apps/*` package the frontend installs, and where it was read (set by the loader). */
  jsVersions?: ReadonlyMap<string, JsPackageVersion>;
  /** Tauri specifiers the code imports (`@tauri-apps/plugin-fs`), for plugin-registration checks. */
  specifiers: string[];
  notes: string[];
  /** Whether windows are told apart by page (distinct HTML entries or configured entries). */
  pagesCertain: boolean;
  /** Window label → the page it loads, when known. */
  windowPages: Map<string, FrontendPage>;
  /**
   * Windows judged by the files of their own page alone → that page: those made in code whose page is
   * certain (an HTML page no config window loads, or a route), and config windows on a route of their own.
   */
  ownPageWindows: Map<string, FrontendPage>;
  /** How many files this scan parsed (the others came from the cache unchanged). */
  parsed: number;
  /** How many imports this scan resolved (the others were kept from the last scan of the app). */
  resolved: number;
  /** How many resolutions it keeps for the next scan of the app: those of the requests it made, no more. */
  resolutionsKept: number;
}

/**
 * Where a request leads, without its effects (the notes and package lists it adds): the scan's
 * `target` applies them once per request, when the walk or the linker follows it; the reachability
 * only asks.
 */
interface Resolution {
  found: ModuleTarget;
  thirdParty?: string;
  /** The request leads out of the repository through a link. */
  outside?: boolean;
}

/**
 * Resolutions an editor's last scan of an app found (by the app's module cache), with what they
 * depend on: the resolver's configuration (`key`: root, aliases, the tsconfig's state, ignores) and
 * the state of every folder below the frontend's root (build output and dependencies aside) and of
 * every folder a module was read from, with the package.json and tsconfig/jsconfig files in them. A
 * file created, deleted or renamed changes its folder's state; an edited package.json or tsconfig
 * its own. Then the next scan resolves again only the requests no kept module makes: an edit of one
 * module resolves its new imports alone.
 */
const keptResolutions = new WeakMap<
  ModuleCache,
  { key: string; folders: Map<string, string>; resolutions: Map<string, Resolution> }
>();

/** Past this many folders and files to watch, a scan keeps no resolutions (stating them would cost more than resolving). */
const MAX_KEPT_FOLDERS = 5_000;

/** The last scan's resolutions, when its key is this scan's and none of the folders and files they depend on changed; taken out of the cache either way. */
function keptResolutionsFor(
  cache: ModuleCache,
  key: string,
): { folders: Map<string, string>; resolutions: Map<string, Resolution> } | undefined {
  const kept = keptResolutions.get(cache);
  keptResolutions.delete(cache);
  if (!kept || kept.key !== key) return undefined;
  for (const [file, state] of kept.folders) if (stateOf(file) !== state) return undefined;
  return kept;
}

/** A file's or folder's identity and last change, as the system says it: any entry added, removed or renamed in a folder changes its own. */
function stateOf(file: string): string {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : "missing";
}

/** The files whose contents the resolver reads besides the modules: what a folder's state does not show. */
const RESOLVER_FILES = new Set(["package.json", "tsconfig.json", "jsconfig.json"]);

/** The state of every folder below `root` (but build output, dependencies and caches) and of the resolver's files in them; undefined past {@link MAX_KEPT_FOLDERS}. */
function folderStates(root: string): Map<string, string> | undefined {
  const states = new Map<string, string>();
  const queue = [root];
  while (queue.length) {
    const folder = queue.pop()!;
    states.set(folder, stateOf(folder));
    if (states.size > MAX_KEPT_FOLDERS) return undefined;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) queue.push(full);
      } else if (RESOLVER_FILES.has(entry.name)) states.set(full, stateOf(full));
    }
  }
  return states;
}

/** Folders that hold no source the app ships as written: dependencies, build output, caches. */
const SKIPPED_FOLDERS = new Set([
  "node_modules",
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  ".git",
  ".next",
  ".nuxt",
  ".output",
  ".svelte-kit",
  ".vite",
  ".turbo",
  ".cache",
  "gen",
]);
/** Route folders of file-based routers: every file under them is an entry. */
const ROUTE_FOLDERS = ["src/routes", "src/pages", "src/app", "app", "pages", "routes"];
const CONVENTIONAL_ENTRIES = [
  "src/main",
  "src/index",
  "src/main.client",
  "src/entry-client",
  "src/app",
  "main",
  "index",
];

/** oxc's `parseSync`: oxc-parser's own gives the syntax tree as objects (`unknown` here), its native binding as JSON text. */
interface Parser<Program = unknown> {
  parseSync(
    filename: string,
    text: string,
    options: { lang: string; sourceType: "module" },
  ): { program: Program; errors: Array<{ severity: string; message: string }> };
}
/**
 * oxc's native binding: its `program` is the syntax tree as JSON text, not yet turned into objects (oxc-parser's
 * own `parseSync` does that on first read of `program`, with `jsonParseAst`). Reading the text first lets the scan
 * find a module's imports without building the objects of the whole tree, most of a parse's cost on Node 20 (oxc's
 * raw transfer, which skips the JSON, needs Node 22); its import records (`module`) cost more to convert than the text.
 */
type Binding = Parser<string>;
interface ResolverInstance {
  sync(directory: string, request: string): { path?: string; error?: string };
}
interface ResolverModule {
  ResolverFactory: new (options: Record<string, unknown>) => ResolverInstance;
}
interface Natives {
  parser: Parser;
  binding: Binding;
  /** oxc-parser's own JSON-to-tree step (BigInt and RegExp literals fixed up), as its `program` getter runs it. */
  jsonParseAst: (json: string) => unknown;
  resolver: ResolverModule;
}

let loaded: Natives | undefined;
/** oxc's parser and resolver are native modules, loaded on the first scan (a check without a frontend never pays for them). */
function natives(): Natives {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const binding = nativeBinding<Binding>(require, "oxc-parser", "@oxc-parser/binding-", () =>
    require("oxc-parser/src-js/bindings"),
  );
  const { jsonParseAst } = require("oxc-parser/src-js/wrap") as {
    jsonParseAst: (json: string) => unknown;
  };
  loaded = {
    // What oxc-parser's own `parseSync` does (its `wrap`), without loading its entry module: that module's
    // visitor and raw-transfer code and its binding loader were two thirds of the scan's start (11 of 15 ms CPU).
    parser: {
      parseSync: (filename, text, options) => {
        const result = binding.parseSync(filename, text, options);
        let program: unknown;
        return {
          get program() {
            program ??= jsonParseAst(result.program);
            return program;
          },
          get errors() {
            return result.errors;
          },
        };
      },
    },
    binding,
    jsonParseAst,
    resolver: nativeBinding<ResolverModule>(require, "oxc-resolver", "@oxc-resolver/binding-", () =>
      require("oxc-resolver"),
    ),
  };
  return loaded;
}

/**
 * A napi-rs package's native binding, required straight from the platform package its own loader would pick
 * (resolved from that package's folder, so the same copy): the loader's checks (musl by reading /usr/bin/ldd,
 * WASI fallbacks) and oxc-parser's ES module wrapper cost more than the binding. Anything unusual (an override
 * in NAPI_RS_NATIVE_LIBRARY_PATH, Yarn PnP, a platform package that is missing or does not load) goes
 * through the package's own loader, which decides as before.
 */
function nativeBinding<T>(
  require: NodeJS.Require,
  packageName: string,
  platformPrefix: string,
  ownLoader: () => unknown,
): T {
  const suffixes =
    process.platform === "linux"
      ? [`linux-${process.arch}-gnu`, `linux-${process.arch}-musl`]
      : process.platform === "win32"
        ? [`win32-${process.arch}-msvc`]
        : process.platform === "darwin"
          ? [`darwin-${process.arch}`]
          : [];
  if (!process.env.NAPI_RS_NATIVE_LIBRARY_PATH && !process.versions.pnp && suffixes.length) {
    let fromPackage: NodeJS.Require | undefined;
    try {
      fromPackage = createRequire(require.resolve(`${packageName}/package.json`));
    } catch {
      // No package.json export: its own loader below.
    }
    for (const suffix of fromPackage ? suffixes : []) {
      try {
        return fromPackage!(`${platformPrefix}${suffix}`) as T;
      } catch {
        // Not installed for this platform (or not loadable here): the next, else its own loader.
      }
    }
  }
  return ownLoader() as T;
}

export async function scanFrontend(options: FrontendOptions): Promise<FrontendScan | undefined> {
  const notes: string[] = [];
  const show = (file: string) => displayFile(options.cwd, file);
  const root = options.config?.root
    ? path.resolve(options.appRoot, options.config.root)
    : await frontendRoot(options);
  if (!root) return undefined;
  let boundaryReal: string;
  try {
    boundaryReal = realpathSync(options.boundary);
  } catch {
    boundaryReal = options.boundary;
  }
  const outside = (file: string) => {
    try {
      // One system call (the JavaScript realpath walks the path a component at a time).
      return !isWithin(realpathSync.native(file), boundaryReal);
    } catch {
      return true;
    }
  };
  let natural: ReturnType<typeof natives>;
  try {
    natural = natives();
  } catch (error) {
    return emptyScan(root, [
      `the frontend was not scanned: its parser (oxc-parser) could not be loaded (${(error as Error).message.split("\n")[0]})`,
    ]);
  }
  const bundler = readBundlerConfig(root, options.maxBytes, natural.parser);
  const ignore = ignoreMatcher(options.config?.ignore ?? []);
  // src-tauri/ holds the Rust side; an app folder that is its own src-tauri (no subfolder) holds the frontend
  // too, and so does a config's folder of another name whose parent is the app's folder (Seelen-UI's `src/`,
  // its Rust code beside the pages under `src/ui/`).
  const srcTauri = path.resolve(options.srcTauri);
  const configBesideFrontend =
    path.basename(srcTauri) !== "src-tauri" &&
    path.dirname(srcTauri) === path.resolve(options.appRoot);
  const rustSide =
    srcTauri !== path.resolve(root) &&
    isWithin(srcTauri, path.resolve(root)) &&
    !configBesideFrontend
      ? srcTauri
      : undefined;
  const skipped = (file: string) =>
    (rustSide !== undefined && isWithin(file, rustSide)) ||
    ignore(path.relative(root, file)) ||
    path
      .relative(root, file)
      .split(path.sep)
      .some((part) => SKIPPED_FOLDERS.has(part));

  const tsconfig = ["tsconfig.json", "jsconfig.json"]
    .map((name) => path.join(root, name))
    .find((file) => pathKindSync(file) === "file");
  const resolverOptions = {
    extensions: [".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte", ".json"],
    extensionAlias: { ".js": [".ts", ".tsx", ".js", ".jsx"], ".mjs": [".mts", ".mjs"] },
    conditionNames: ["browser", "import", "module", "default"],
    mainFields: ["browser", "module", "main"],
    mainFiles: ["index"],
    alias: bundler.alias,
    roots: [bundler.root],
  };
  let resolver = new natural.resolver.ResolverFactory({
    ...resolverOptions,
    ...(tsconfig ? { tsconfig: { configFile: tsconfig, references: "auto" } } : {}),
  });
  // A tsconfig that extends a config not installed (`@sindresorhus/tsconfig`, SvelteKit's generated
  // `.svelte-kit/tsconfig.json` before a build) makes oxc's resolver fail every request, relative ones too:
  // its own `paths` are read instead, as aliases.
  let aliases = bundler.alias;
  if (tsconfig && /tsconfig/i.test(resolver.sync(root, "./package.json").error ?? "")) {
    aliases = { ...tsconfigPaths(tsconfig, options.maxBytes), ...bundler.alias };
    resolver = new natural.resolver.ResolverFactory({ ...resolverOptions, alias: aliases });
    notes.push(
      `${show(tsconfig)}: the config it extends is not installed; its own "paths" are read`,
    );
  }

  // Entry points, grouped into pages.
  const groups = await entryGroups(root, bundler, options, notes, show);
  const modules = new Map<string, ModuleFacts>();
  const order: string[] = [];
  const thirdParty = new Set<string>();
  const specifiers = new Set<string>();
  const texts = new Map<string, string>();

  // oxc's resolver tries its aliases in no fixed order (a hash map) and the first key that matches decides:
  // with `@` and `@/components/ui` both aliased (readest's tsconfig `paths`), `@/components/ui/button` resolved
  // in some runs and not in others. A request more than one key matches is mapped here instead, the longest key
  // first (TypeScript's rule for `paths`), each of its targets in order.
  const aliasKeys = Object.keys(aliases).sort((a, b) => b.length - a.length);
  const resolveRequest = (dir: string, request: string): string | undefined => {
    const matching = aliasKeys.filter((key) => request === key || request.startsWith(`${key}/`));
    if (matching.length < 2) return resolver.sync(dir, request).path;
    for (const key of matching)
      for (const target of aliases[key] ?? []) {
        const found = resolver.sync(dir, target + request.slice(key.length)).path;
        if (found) return found;
      }
    return undefined;
  };
  // An editor's next scan of the app keeps the resolutions when nothing they depend on changed: the
  // resolver's configuration and the folders they were found in (see `keptResolutions`).
  const resolverKey = JSON.stringify([
    root,
    boundaryReal,
    rustSide ?? "",
    options.config?.ignore ?? [],
    aliases,
    bundler.root,
    tsconfig ? `${tsconfig} ${stateOf(tsconfig)}` : "",
  ]);
  const kept = options.cache ? keptResolutionsFor(options.cache, resolverKey) : undefined;
  const resolutions = kept?.resolutions ?? new Map<string, Resolution>();
  // The folders are stated before anything is resolved, and only from an app's second scan on: a
  // command-line check scans once, and its cache is empty at the start.
  const folders =
    kept?.folders ?? (options.cache && options.cache.size > 0 ? folderStates(root) : undefined);
  let resolvedRequests = 0;
  // The requests this scan made: the next keeps only their resolutions (an edit that types one
  // import after another leaves none of the abandoned ones behind).
  const requested = new Set<string>();
  const resolve = (file: string, request: string): Resolution => {
    const key = `${path.dirname(file)}\u0000${request}`;
    requested.add(key);
    const memo = resolutions.get(key);
    if (memo) return memo;
    resolvedRequests++;
    const resolution: Resolution = { found: { kind: "none" } };
    if (isTauriSpecifier(request)) {
      resolution.found = {
        kind: "tauri",
        specifier: request.replace(/\/index(\.js)?$/, "").replace(/\.js$/, ""),
      };
    } else if (
      !/^(https?:|data:|node:)/.test(request) &&
      !/\.(css|scss|sass|less|styl|svg|png|jpe?g|gif|webp|ico|woff2?|ttf|json|md|txt|wasm)(\?.*)?$/i.test(
        request,
      )
    ) {
      const clean = request.replace(/[?#].*$/, "");
      const resolved =
        clean.startsWith("/") && !clean.startsWith("//")
          ? resolveRooted(clean, bundler.root, root)
          : resolveRequest(path.dirname(file), clean);
      if (resolved) {
        if (resolved.split(path.sep).includes("node_modules")) {
          const name = packageName(clean);
          if (name && /tauri/i.test(name)) resolution.thirdParty = name;
        } else if (outside(resolved)) resolution.outside = true;
        else if (isFrontendFile(resolved) && !skipped(resolved))
          resolution.found = { kind: "file", file: resolved };
      } else {
        const name = packageName(clean);
        if (name && /tauri/i.test(name) && !clean.startsWith(".")) resolution.thirdParty = name;
      }
    }
    resolutions.set(key, resolution);
    return resolution;
  };
  const followed = new Set<string>();
  const target = (file: string, request: string): ModuleTarget => {
    const resolution = resolve(file, request);
    const key = `${path.dirname(file)}\u0000${request}`;
    if (!followed.has(key)) {
      followed.add(key);
      if (resolution.found.kind === "tauri") specifiers.add(resolution.found.specifier);
      if (resolution.thirdParty) thirdParty.add(resolution.thirdParty);
      if (resolution.outside)
        notes.push(
          `${show(file)}: import "${request}" leads out of the repository through a link; not followed`,
        );
    }
    return resolution.found;
  };

  const parsedFiles = new Set<string>();
  /** Files of which only the imports were read (see `skim`), with their type-only imports. */
  const skimmed = new Map<string, readonly string[]>();
  const read = (file: string): ModuleFacts | undefined => {
    if (modules.has(file)) return modules.get(file);
    order.push(file);
    const text = readTextFile(file, options.maxBytes);
    if (!text.ok) {
      modules.set(file, emptyFacts());
      notes.push(`${show(file)}: ${text.message}; its calls were not analysed`);
      return modules.get(file);
    }
    texts.set(file, text.text);
    const cached = options.cache?.get(file);
    if (cached && cached.text === text.text) {
      modules.set(file, cached.facts);
      if (cached.typeRequests) skimmed.set(file, cached.typeRequests);
      notes.push(...cached.notes);
      return cached.facts;
    }
    parsedFiles.add(file);
    const imports = skim(file, text.text);
    if (imports) {
      const facts = emptyFacts();
      facts.requests.push(...imports.requests);
      modules.set(file, facts);
      skimmed.set(file, imports.typeRequests);
      options.cache?.set(file, {
        text: text.text,
        facts,
        notes: [],
        typeRequests: imports.typeRequests,
      });
      return facts;
    }
    const facts = emptyFacts();
    modules.set(file, facts);
    const fileNotes = analyseFile(file, text.text, facts);
    notes.push(...fileNotes);
    options.cache?.set(file, { text: text.text, facts, notes: fileNotes });
    return facts;
  };
  /**
   * Most modules of an app name nothing of Tauri. For a script whose text has no "tauri" in any case (nor an
   * escape, `\u…`, that could spell it) only the import and export declarations of its syntax tree are turned
   * into objects (the rest of the tree stays JSON text: building its objects is most of a parse's cost); the
   * file is parsed again and read whole later only when the linker may need it (`whole`): keeping the JSON text
   * of every skimmed file for that (about 24 times the size of its source) cost more in garbage collection than
   * parsing again the few that are read whole. Undefined when the file holds a dynamic
   * import or a TypeScript module block (imports that are not the file's own): such a file is read whole at once.
   */
  const skim = (
    file: string,
    text: string,
  ): { requests: string[]; typeRequests: string[] } | undefined => {
    if (
      !SCRIPT_EXTENSIONS.some((extension) => file.toLowerCase().endsWith(extension)) ||
      /tauri|\\u/i.test(text) ||
      looksMinified(text)
    )
      return undefined;
    const [block] = fileBlocks(file, text).blocks;
    if (!block) return undefined;
    const parsed = natural.binding.parseSync(`block.${block.language}`, block.text, {
      lang: block.language,
      sourceType: "module",
    });
    if (parsed.errors.some((e) => e.severity === "Error")) return undefined;
    return importsOf(parsed.program, block.text);
  };
  /** The whole facts of a file whose imports alone were read. */
  const whole = (file: string): ModuleFacts | undefined => {
    const facts = modules.get(file);
    if (!skimmed.has(file)) return facts;
    skimmed.delete(file);
    const text = texts.get(file)!;
    const full = emptyFacts();
    parsedFiles.add(file);
    const fileNotes = analyseFile(file, text, full);
    notes.push(...fileNotes);
    modules.set(file, full);
    options.cache?.set(file, { text, facts: full, notes: fileNotes });
    return full;
  };
  /**
   * Parses a file's script blocks into `facts`; returns its notes (a block that does not parse, a minified file).
   */
  const analyseFile = (file: string, text: string, facts: ModuleFacts): string[] => {
    const fileNotes: string[] = [];
    if (looksMinified(text)) return [`${show(file)}: looks minified or built; skipped`];
    const { blocks, dragRegions } = fileBlocks(file, text);
    facts.dragRegions.push(...dragRegions);
    const analyzer = new ModuleAnalyzer(facts);
    for (const block of blocks) {
      if (block.source !== undefined) {
        facts.requests.push(pageScriptRequest(block));
        continue;
      }
      const parsed = natural.binding.parseSync(`block.${block.language}`, block.text, {
        lang: block.language,
        sourceType: "module",
      });
      const error = parsed.errors.find((e) => e.severity === "Error");
      if (error) {
        const at = lineIndex(text)(block.offset);
        fileNotes.push(
          `${show(file)}:${at.line}:${at.column}: does not parse (${oneLine(error.message)}); its calls were not analysed`,
        );
        continue;
      }
      analyzer.addProgram(
        natural.jsonParseAst(parsed.program) as Parameters<ModuleAnalyzer["addProgram"]>[0],
        block.offset - block.prefix,
      );
    }
    analyzer.finish();
    return fileNotes;
  };

  const pages: FrontendPage[] = [];
  const allFiles = new Set<string>();
  for (const group of groups) {
    const files = new Set<string>();
    const queue = [...group.entries];
    while (queue.length) {
      const file = queue.pop()!;
      if (files.has(file)) continue;
      files.add(file);
      const facts = read(file);
      if (!facts) continue;
      for (const request of facts.requests) {
        const next = target(file, request);
        if (next.kind === "file" && !files.has(next.file)) queue.push(next.file);
      }
      if (facts.dynamicRequests.length)
        notes.push(
          `${show(file)}:${facts.dynamicRequests.length === 1 ? "" : " "}${plural(facts.dynamicRequests.length, "dynamic import")} of a module named at run time; not followed`,
        );
    }
    for (const file of files) allFiles.add(file);
    pages.push({ entry: group.entries[0]!, windows: group.windows, files });
  }

  // A module whose imports never lead to one that names Tauri cannot call Tauri (its values are strings,
  // functions of its own and such): the linker reads its syntax tree only when a caller needs one of its values
  // (a constant command name, a function called with a Tauri value). Every other module is read whole now.
  const inert = new Set(skimmed.keys());
  const importers = new Map<string, string[]>();
  const seeds: string[] = [];
  for (const file of modules.keys()) {
    const typeRequests = skimmed.get(file);
    if (typeRequests === undefined) {
      seeds.push(file);
      continue;
    }
    const edges: string[] = [];
    for (const request of modules.get(file)!.requests) {
      const next = target(file, request);
      if (next.kind === "file") edges.push(next.file);
    }
    let seed = false;
    for (const request of typeRequests) {
      const resolution = resolve(file, request);
      if (resolution.outside || resolution.thirdParty || resolution.found.kind === "tauri")
        seed = true;
      else if (resolution.found.kind === "file") edges.push(resolution.found.file);
    }
    if (seed) seeds.push(file);
    for (const next of edges) {
      if (!importers.has(next)) importers.set(next, []);
      importers.get(next)!.push(file);
    }
  }
  const queue = [...seeds];
  for (const file of seeds) inert.delete(file);
  while (queue.length) {
    for (const importer of importers.get(queue.pop()!) ?? []) {
      if (!inert.has(importer)) continue;
      inert.delete(importer);
      queue.push(importer);
    }
  }
  // A module whose imports lead to Tauri is read whole only when its own calls can reach a use: when one of the
  // modules it imports (value or type) is read whole and exports a value that a call, a member read or a type
  // annotation of the importer can turn into a use (a Tauri value, a wrapper that passes an argument to Tauri).
  // Importers of only harmless exports (`run(label)` whose calls use no Tauri value given to it) stay inert, and
  // the linker reads them only where one of their values could matter, as for any inert module.
  const api = await options.apiFor(root);
  const harmlessImporters = new Set<string>();
  const decided = new Set<string>();
  const deciding = new Set<string>();
  const staysInert = (file: string): boolean => {
    if (inert.has(file) || harmlessImporters.has(file)) return true;
    const typeRequests = skimmed.get(file);
    // Read whole already, judged, or being judged (a cycle): read whole.
    if (typeRequests === undefined || decided.has(file) || deciding.has(file)) return false;
    deciding.add(file);
    let harmless = true;
    for (const request of [...modules.get(file)!.requests, ...typeRequests]) {
      const resolution = resolve(file, request);
      if (resolution.outside || resolution.thirdParty || resolution.found.kind === "tauri")
        harmless = false;
      else if (resolution.found.kind === "file" && !staysInert(resolution.found.file))
        harmless = probe.exportsHarmless(resolution.found.file);
      if (!harmless) break;
    }
    deciding.delete(file);
    decided.add(file);
    if (harmless && skimmed.has(file)) harmlessImporters.add(file);
    return harmless && skimmed.has(file);
  };
  // A linker of its own, so that the values it works out for this leave the scan's linker as it was; it follows
  // imports without the resolver's effects (notes, specifiers), as the reachability above.
  const probe: Linker = new Linker(
    { get: whole },
    (file, request) => resolve(file, request).found,
    api,
    staysInert,
  );
  for (const file of [...skimmed.keys()]) if (!staysInert(file)) whole(file);
  const linker = new Linker(
    { get: whole },
    target,
    api,
    (file) => inert.has(file) || harmlessImporters.has(file),
    modulesCalledUnseen(
      skimmed.keys(),
      (file) => modules.get(file)?.requests ?? [],
      (file, request) => {
        const found = resolve(file, request).found;
        return found.kind === "file" ? found.file : undefined;
      },
    ),
  );
  const uses = linker.link(order.filter((file) => allFiles.has(file)));
  const positions = new Map<string, ReturnType<typeof lineIndex>>();
  const positioned = uses.map((use): FrontendCall => {
    let position = positions.get(use.file);
    if (position === undefined) {
      position = lineIndex(texts.get(use.file) ?? "");
      positions.set(use.file, position);
    }
    const start = position(use.start);
    const end = position(use.end);
    return {
      ...use,
      displayFile: show(use.file),
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
    };
  });
  positioned.sort(
    (a, b) =>
      compareText(a.displayFile, b.displayFile) ||
      a.start - b.start ||
      compareText(a.member, b.member),
  );
  const windowPages = new Map<string, FrontendPage>();
  for (const page of pages) for (const label of page.windows) windowPages.set(label, page);
  // A window judged by its own page: made in code, or on a route of its own. One made in code may load
  // several pages (one helper opens `/reader` and `/library`): it loads the files of each.
  const ownPageLabels = new Set([
    ...(options.madeWindows ?? []).map((made) => made.label),
    ...groups.filter((group) => group.ownRoute).flatMap((group) => group.windows),
  ]);
  const ownPageWindows = new Map<string, FrontendPage>();
  for (const page of pages) {
    for (const label of page.windows) {
      if (!ownPageLabels.has(label)) continue;
      const known = ownPageWindows.get(label);
      ownPageWindows.set(
        label,
        known
          ? {
              entry: known.entry,
              windows: [label],
              files: new Set([...known.files, ...page.files]),
            }
          : page,
      );
    }
  }
  // The cache keeps what the next scan can reuse: the files read now, nothing that is no longer reachable.
  if (options.cache) {
    for (const file of options.cache.keys()) if (!modules.has(file)) options.cache.delete(file);
    // Folders of modules outside the frontend's root (a shared package of the repository) count too.
    if (folders)
      for (const file of modules.keys()) {
        const folder = path.dirname(file);
        if (!folders.has(folder)) folders.set(folder, stateOf(folder));
      }
    for (const key of resolutions.keys()) if (!requested.has(key)) resolutions.delete(key);
    if (folders && folders.size <= MAX_KEPT_FOLDERS)
      keptResolutions.set(options.cache, { key: resolverKey, folders, resolutions });
  }
  return {
    root,
    pages,
    files: order.filter((file) => allFiles.has(file)),
    calls: positioned.filter((call) => !call.unresolved),
    unresolved: positioned.filter((call) => call.unresolved),
    thirdPartyPlugins: [...thirdParty].sort(),
    specifiers: [...specifiers].sort(),
    notes: dedupeNotes(notes),
    pagesCertain: pagesCertain(groups),
    windowPages,
    ownPageWindows,
    parsed: parsedFiles.size,
    resolved: resolvedRequests,
    resolutionsKept: options.cache && keptResolutions.has(options.cache) ? resolutions.size : 0,
  };
}

/**
 * A script's requests as analyze.ts takes them from the syntax tree (value imports in order, then re-exports and
 * `export * from` in order) and its type-only imports, from the tree's JSON text: only the declarations that can
 * name a module are turned into objects. Their nodes are found by their opening text, which no string in the JSON
 * can hold (its quotes are escaped), and are the module's own top-level statements, as imports and exports can
 * only be, except inside a TypeScript module block (`declare module "x" { … }`): undefined then, and for a file
 * with a dynamic `import()`, whose request analyze.ts takes from the expression.
 */
function importsOf(
  tree: string,
  text: string,
): { requests: string[]; typeRequests: string[] } | undefined {
  // A module block needs one of these words in the text; only then is the (ten times longer) tree searched for one.
  if (
    /\b(?:module|namespace|global)\b/.test(text) &&
    (tree.includes('"type":"TSModuleDeclaration"') || tree.includes('"type":"TSGlobalDeclaration"'))
  )
    return undefined;
  const requests: string[] = [];
  const typeRequests: string[] = [];
  const reExports: string[] = [];
  // Each search skips the declaration it found: its specifiers (`{"type":"ImportSpecifier"…`) are inside it.
  for (let at = tree.indexOf('{"type":"Import'); at !== -1;) {
    if (tree.startsWith("Expression", at + 15)) return undefined;
    if (!tree.startsWith('Declaration"', at + 15)) {
      at = tree.indexOf('{"type":"Import', at + 1);
      continue;
    }
    const node = jsonNodeAt(tree, at);
    if (!node || typeof node.value.source?.value !== "string") return undefined;
    (node.value.importKind === "type" ? typeRequests : requests).push(node.value.source.value);
    at = tree.indexOf('{"type":"Import', node.end);
  }
  for (let at = tree.indexOf('{"type":"Export'); at !== -1;) {
    const kind = tree.startsWith('NamedDeclaration"', at + 15)
      ? "named"
      : tree.startsWith('AllDeclaration"', at + 15)
        ? "all"
        : undefined;
    // An export of a declaration (`export function f`) names no module, and no export is inside it.
    if (!kind || (kind === "named" && tree.startsWith('"declaration":{', at + 33))) {
      at = tree.indexOf('{"type":"Export', at + 1);
      continue;
    }
    const node = jsonNodeAt(tree, at);
    if (!node) return undefined;
    const source = node.value.source?.value;
    if (kind === "all" || source !== undefined) {
      if (typeof source !== "string") return undefined;
      // `export type { a } from` loads nothing; `export type * from` still names the module (as analyze.ts counts it).
      if (kind === "all" || node.value.exportKind !== "type") reExports.push(source);
    }
    at = tree.indexOf('{"type":"Export', node.end);
  }
  return { requests: [...requests, ...reExports], typeRequests };
}

/** The JSON object that starts at `start` in the tree's text, and where it ends; undefined when it does not end. */
function jsonNodeAt(
  tree: string,
  start: number,
):
  | {
      value: { source?: { value?: unknown } | null; importKind?: string; exportKind?: string };
      end: number;
    }
  | undefined {
  const end = jsonValueEnd(tree, start);
  if (end === undefined) return undefined;
  // The parser's JSON AST: an object whose fields the caller reads as optional.
  const value = JSON.parse(tree.slice(start, end)) as {
    source?: { value?: unknown } | null;
    importKind?: string;
    exportKind?: string;
  };
  return { value, end };
}

/** The end of the JSON object or array that starts at `start` (strings skipped), or undefined when the text ends first. */
function jsonValueEnd(json: string, start: number): number | undefined {
  let depth = 0;
  for (let i = start; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code === 34) {
      // A string: its end is the next quote not escaped by an odd run of backslashes.
      let close = json.indexOf('"', i + 1);
      for (;;) {
        if (close === -1) return undefined;
        let backslashes = 0;
        while (json.charCodeAt(close - 1 - backslashes) === 92) backslashes++;
        if (backslashes % 2 === 0) break;
        close = json.indexOf('"', close + 1);
      }
      i = close;
    } else if (code === 123 || code === 91) depth++;
    else if (code === 125 || code === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function emptyScan(root: string, notes: string[]): FrontendScan {
  return {
    root,
    pages: [],
    files: [],
    calls: [],
    unresolved: [],
    thirdPartyPlugins: [],
    specifiers: [],
    notes,
    pagesCertain: false,
    windowPages: new Map(),
    ownPageWindows: new Map(),
    parsed: 0,
    resolved: 0,
    resolutionsKept: 0,
  };
}

function dedupeNotes(notes: string[]): string[] {
  return [...new Set(notes)].sort(compareText);
}

/** The frontend's folder: the app folder when it has a package.json, else `build.frontendDist` when that is a folder of sources (no bundler). */
async function frontendRoot(options: FrontendOptions): Promise<string | undefined> {
  if ((await pathKind(path.join(options.appRoot, "package.json"))) === "file")
    return options.appRoot;
  const dist = options.build?.frontendDist;
  if (typeof dist === "string" && !/^[a-z]+:/i.test(dist)) {
    const folder = path.resolve(options.srcTauri, dist);
    if (!isWithin(folder, options.boundary)) return undefined;
    // Pages served as written (`"frontendDist": "../src"`).
    if ((await pathKind(folder)) === "directory" && !SKIPPED_FOLDERS.has(path.basename(folder)))
      return folder;
    // Build output (`../../frontend/dist`, not in the repository): the project that builds it is the nearest
    // folder up with a package.json, short of the folders that hold the app (a parent's package.json is another project's).
    for (
      let dir = path.dirname(folder);
      isWithin(dir, options.boundary) && !isWithin(options.appRoot, dir);
      dir = path.dirname(dir)
    ) {
      if ((await pathKind(path.join(dir, "package.json"))) === "file") return dir;
    }
    if ((await pathKind(folder)) === "directory") return folder;
    const writer = await projectWriting(folder, options);
    if (writer) return writer;
  }
  return (await pathKind(path.join(options.appRoot, "index.html"))) === "file"
    ? options.appRoot
    : undefined;
}

/**
 * The workspace package whose build writes `dist`, a folder of build output the app's own folders hold
 * (clash-nyanpasu's `"frontendDist": "./tmp/dist"`, which `beforeBuildCommand` fills by running
 * `pnpm --filter=@nyanpasu/nyanpasu build`, whose Vite config's `outDir` is that folder): the package among
 * those the build's commands run scripts in whose bundler writes there, else the only such package.
 */
async function projectWriting(dist: string, options: FrontendOptions): Promise<string | undefined> {
  // The Tauri CLI runs the build's commands in the nearest folder up with a package.json.
  let commandRoot: string | undefined;
  for (
    let dir = path.resolve(options.appRoot);
    isWithin(dir, options.boundary);
    dir = path.dirname(dir)
  ) {
    if ((await pathKind(path.join(dir, "package.json"))) === "file") {
      commandRoot = dir;
      break;
    }
    if (dir === path.dirname(dir)) break;
  }
  if (!commandRoot) return undefined;
  const projects = followBuildCommands(
    commandRoot,
    options.build,
    options.maxBytes,
  ).projects.filter((project) => isWithin(project, options.boundary));
  let configParser: Parser | undefined;
  try {
    configParser = natives().parser;
  } catch {
    // Without the parser the bundlers' configs are not read; a single package built is still the one.
  }
  const writing = configParser
    ? projects.filter(
        (project) => readBundlerConfig(project, options.maxBytes, configParser).outDir === dist,
      )
    : [];
  if (writing.length === 1) return writing[0];
  return projects.length === 1 ? projects[0] : undefined;
}

interface EntryGroup {
  entries: string[];
  windows: string[];
  /** The group is one distinct page (an HTML file or configured entries): windows that load it are known. */
  certain: boolean;
  /** The route a window stays on (routeFiles): it tells that window's page, not where the other windows go. */
  ownRoute?: boolean;
}

/** Whether the config's windows are told apart by page: more than one page, each of them distinct. */
function pagesCertain(groups: readonly EntryGroup[]): boolean {
  const pages = groups.filter((group) => !group.ownRoute);
  return pages.length > 1 && pages.every((group) => group.certain);
}

async function entryGroups(
  root: string,
  bundler: BundlerConfig,
  options: FrontendOptions,
  notes: string[],
  show: (file: string) => string,
): Promise<EntryGroup[]> {
  const configured = options.config?.windows ?? {};
  const groups: EntryGroup[] = [];
  const claimed = new Set<string>();
  for (const [label, entries] of Object.entries(configured)) {
    const files = entries.map((entry) => path.resolve(root, entry));
    groups.push({ entries: files, windows: [label], certain: true });
    claimed.add(label);
  }
  if (options.config?.entries?.length) {
    const files = options.config.entries.map((entry) => path.resolve(root, entry));
    groups.push({
      entries: files,
      windows: options.windows.map((w) => w.label).filter((label) => !claimed.has(label)),
      certain: false,
    });
    return groups;
  }
  // HTML pages: the bundler's inputs, index.html, and the pages windows name.
  const pages = new Map<string, string[]>();
  const addPage = (file: string) => {
    if (!pages.has(file)) pages.set(file, []);
    return pages.get(file)!;
  };
  for (const input of bundler.inputs) if ((await pathKind(input)) === "file") addPage(input);
  const index = path.join(bundler.root, "index.html");
  if ((await pathKind(index)) === "file") addPage(index);
  const ownRoutes: EntryGroup[] = [];
  const configLabels = new Set(options.windows.map((window) => window.label));
  for (const window of options.windows) {
    if (claimed.has(window.label)) continue;
    const url = typeof window.url === "string" ? window.url : "index.html";
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue;
    const page = url.replace(/[?#].*$/, "").replace(/^\/+/, "");
    // A window on a route of its own (CopySpeak's HUD on `/hud`) stays there: it is judged by that route's files.
    // A window on the start page may go anywhere in the app, and stays judged by every call.
    const routed =
      page !== "" && !/\.html?$/i.test(page) && !/#./.test(url)
        ? routeFiles(root, page)
        : undefined;
    if (routed) {
      ownRoutes.push({ entries: routed, windows: [window.label], certain: true, ownRoute: true });
      continue;
    }
    const candidates =
      page === "" || !/\.html?$/i.test(page)
        ? [index]
        : [path.join(bundler.root, page), path.join(root, "public", page), path.join(root, page)];
    const file =
      candidates.find((candidate) => pages.has(candidate)) ?? (await firstFile(candidates));
    if (file) addPage(file).push(window.label);
    else if (page && /\.html?$/i.test(page))
      notes.push(
        `window "${window.label}": its page ${page} was not found under ${show(bundler.root)}; its calls were not analysed`,
      );
  }
  for (const made of options.madeWindows ?? []) {
    // `index.html#/settings`: a client router's route inside a page, which the files do not tell apart.
    if (/#./.test(made.url)) continue;
    const page = made.url.replace(/[?#].*$/, "").replace(/^\/+/, "");
    // The start page (index.html, "") and a page a config window loads are the app's main page: a window made on
    // it runs what the code picks for its label (coh3's game overlay, clash-verge-rev's update splash), which the
    // files do not tell. It is not judged by page.
    const shared = (windows: readonly string[]) => windows.some((label) => configLabels.has(label));
    // A window made on the start page is not judged by page (see `shared` below).
    if (page === "") continue;
    if (/\.html?$/i.test(page)) {
      const candidates = [
        path.join(bundler.root, page),
        path.join(root, "public", page),
        path.join(root, page),
      ];
      const file =
        candidates.find((candidate) => pages.has(candidate)) ?? (await firstFile(candidates));
      if (file && file !== index && !shared(pages.get(file) ?? []))
        addWindow(addPage(file), made.label);
      else if (!file)
        notes.push(
          `window "${made.label}" made in code: its page ${page} was not found under ${show(bundler.root)}; its calls were not judged`,
        );
    } else {
      const files = routeFiles(root, page);
      const same = files && ownRoutes.find((group) => group.entries[0] === files[0]);
      if (same && !shared(same.windows)) addWindow(same.windows, made.label);
      else if (files && !same)
        ownRoutes.push({ entries: files, windows: [made.label], certain: true, ownRoute: true });
      else if (!files)
        notes.push(
          `window "${made.label}" made in code loads "/${page}", which no page or route file of ${show(root)} holds; its calls were not judged`,
        );
    }
  }
  const routeEntries: string[] = [];
  for (const folder of ROUTE_FOLDERS) {
    const dir = path.join(root, folder);
    if ((await pathKind(dir)) === "directory") routeEntries.push(...sourceFilesUnder(dir));
  }
  const pageGroups = [...pages].map(([entry, windows]) => ({
    entries: [entry],
    windows,
    certain: true,
  }));
  if (pageGroups.length === 0 && routeEntries.length === 0) {
    for (const stem of CONVENTIONAL_ENTRIES)
      for (const extension of [".ts", ".tsx", ".js", ".jsx", ".mjs"]) {
        const file = path.join(root, stem + extension);
        if ((await pathKind(file)) === "file") routeEntries.push(file);
      }
  }
  // Files the build's commands hand to the bundler (`rtgl fe build -s src/setup.tauri.js`): entries no page names.
  for (const file of buildCommandEntries(root, options.build, options.maxBytes))
    if (!routeEntries.includes(file) && !pages.has(file)) routeEntries.push(file);
  // A route a window stays on is that window's: its page files are not entries of the app's other routes.
  const ownRouteFiles = new Set(ownRoutes.flatMap((group) => group.entries));
  for (let index = routeEntries.length - 1; index >= 0; index--)
    if (ownRouteFiles.has(routeEntries[index]!)) routeEntries.splice(index, 1);
  if (routeEntries.length) {
    const unassigned = options.windows
      .map((w) => w.label)
      .filter(
        (label) =>
          !claimed.has(label) &&
          ![...pageGroups, ...ownRoutes].some((g) => g.windows.includes(label)),
      );
    pageGroups.push({ entries: routeEntries, windows: unassigned, certain: false });
  }
  if (pageGroups.length === 0) {
    const all = sourceFilesUnder(root);
    if (all.length) {
      notes.push(
        `no entry point of the frontend was found under ${show(root)}: every source file counts as reachable`,
      );
      pageGroups.push({ entries: all, windows: [], certain: false });
    }
  }
  // Pages no window names are loaded by windows made at run time: they count for every window.
  return [...groups, ...pageGroups, ...ownRoutes];
}

const ROUTE_EXTENSIONS = [".tsx", ".jsx", ".ts", ".js", ".svelte", ".vue", ".mdx"];
/** The file of a route folder that renders its page. */
const PAGE_NAMES = ["page", "+page", "index"];

/**
 * The page files a file-based router serves for a path (`/reader`), when the app has one: the Next.js app
 * router's `app/reader/page.tsx` (https://nextjs.org/docs/app/getting-started/layouts-and-pages),
 * SvelteKit's `src/routes/reader/+page.svelte` and `+page.ts` (https://svelte.dev/docs/kit/routing), the
 * Next.js pages router's and Nuxt's `pages/reader.tsx` or `pages/reader/index.tsx`. The layouts around
 * them are left out: they are the app's chrome, and often branch on the route (CopySpeak's root layout
 * shows its update checker everywhere but on `/hud`), which the files do not tell. Dynamic segments
 * (`[id]`) and route groups (`(shop)`) are not matched: undefined, and the window is not judged by page.
 */
function routeFiles(root: string, routePath: string): string[] | undefined {
  const segments = routePath.split("/").filter((segment) => segment !== "");
  if (segments.length === 0 || segments.some((segment) => segment === "." || segment === ".."))
    return undefined;
  const existing = (dir: string, names: readonly string[]) =>
    names
      .flatMap((name) => ROUTE_EXTENSIONS.map((extension) => path.join(dir, name + extension)))
      .filter((file) => pathKindSync(file) === "file");
  for (const folder of ROUTE_FOLDERS) {
    const base = path.join(root, folder);
    const dir = path.join(base, ...segments);
    if (!isWithin(dir, root)) continue;
    let pages = existing(dir, PAGE_NAMES);
    if (pages.length === 0) pages = existing(path.dirname(dir), [segments[segments.length - 1]!]);
    if (pages.length) return pages;
  }
  return undefined;
}

function addWindow(windows: string[], label: string): void {
  if (!windows.includes(label)) windows.push(label);
}

async function firstFile(candidates: string[]): Promise<string | undefined> {
  for (const candidate of candidates) if ((await pathKind(candidate)) === "file") return candidate;
  return undefined;
}

/** Source files below a folder, skipping dependencies and build output, links not followed. */
function sourceFilesUnder(dir: string): string[] {
  const files: string[] = [];
  const visit = (folder: string) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (
          !SKIPPED_FOLDERS.has(entry.name) &&
          !entry.name.startsWith(".") &&
          entry.name !== "src-tauri"
        )
          visit(full);
      } else if (
        entry.isFile() &&
        isFrontendFile(full) &&
        !/\.(test|spec|stories)\.[a-z]+$/.test(entry.name)
      )
        files.push(full);
    }
  };
  visit(dir);
  return files;
}

/**
 * `compilerOptions.paths` of a tsconfig as resolver aliases (`"@/*": ["./src/*"]` → `@` → `<baseUrl>/src`),
 * relative to its `baseUrl` (else its folder); patterns other than a `*` at the end are left out.
 */
function tsconfigPaths(file: string, maxBytes: number): Record<string, string[]> {
  const read = readTextFile(file, maxBytes);
  if (!read.ok) return {};
  const value = parseJsonc(read.text, [], { allowTrailingComma: true }) as unknown;
  const options =
    isPlainObject(value) && isPlainObject(value.compilerOptions) ? value.compilerOptions : {};
  const base = path.resolve(
    path.dirname(file),
    typeof options.baseUrl === "string" ? options.baseUrl : ".",
  );
  const alias: Record<string, string[]> = {};
  if (!isPlainObject(options.paths)) return alias;
  for (const [pattern, targets] of Object.entries(options.paths)) {
    if (!Array.isArray(targets) || (pattern.includes("*") && !pattern.endsWith("/*"))) continue;
    const key = pattern.replace(/\/\*$/, "");
    const paths = targets
      .filter(
        (target): target is string =>
          typeof target === "string" && (!pattern.includes("*") || target.endsWith("/*")),
      )
      .map((target) => path.resolve(base, target.replace(/\/\*$/, "")));
    if (paths.length) alias[key] = paths;
  }
  return alias;
}

function pathKindSync(file: string): "file" | "other" {
  try {
    return statSync(file).isFile() ? "file" : "other";
  } catch {
    return "other";
  }
}

/** `<script src="/src/main.ts">` is rooted at the bundler's root; a relative one at the page. */
function pageScriptRequest(block: ScriptBlock): string {
  const source = block.source!;
  return source.startsWith("/") || source.startsWith(".") || /^[a-z]+:/i.test(source)
    ? source
    : `./${source}`;
}

function resolveRooted(request: string, bundlerRoot: string, root: string): string | undefined {
  for (const base of [bundlerRoot, path.join(root, "public"), root]) {
    const file = path.join(base, request);
    for (const candidate of [
      file,
      ...[".ts", ".tsx", ".js", ".jsx"].map((extension) => file + extension),
    ]) {
      if (pathKindSync(candidate) === "file") return candidate;
    }
  }
  return undefined;
}

function packageName(request: string): string | undefined {
  if (request.startsWith(".") || request.startsWith("/")) return undefined;
  const parts = request.split("/");
  return request.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Globs of `frontend.ignore`, relative to the frontend root: `*` within a name, `**` across folders. */
function ignoreMatcher(globs: readonly string[]): (relative: string) => boolean {
  if (globs.length === 0) return () => false;
  const patterns = globs.map(
    (glob) =>
      new RegExp(
        `^${glob
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*\*\/?/g, "\u0000")
          .replace(/\*/g, "[^/]*")
          .replace(/\?/g, "[^/]")
          .replace(/\u0000/g, ".*")}(/.*)?$`,
      ),
  );
  return (relative) => {
    const posix = relative.split(path.sep).join("/");
    return patterns.some((pattern) => pattern.test(posix));
  };
}

/** 1-based line and column (UTF-16 code units, as every other finding) of offsets in one text, by binary search over its line starts. */
function lineIndex(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - starts[low]! + 1 };
  };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").slice(0, 200);
}

/**
 * The modules that code left unread may call into: the imports of the modules read for their imports only,
 * followed on through every module they reach (a barrel that is read whole re-exports what it imports). A
 * function exported there may be called where the scan did not look, so no platform check of its seen calls
 * narrows it (exported.ts).
 */
function modulesCalledUnseen(
  unread: Iterable<string>,
  requestsOf: (file: string) => readonly string[],
  fileOf: (file: string, request: string) => string | undefined,
): Set<string> {
  const reached = new Set<string>();
  const queue = [...unread];
  while (queue.length) {
    const file = queue.pop()!;
    for (const request of requestsOf(file)) {
      const next = fileOf(file, request);
      if (next === undefined || reached.has(next)) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  return reached;
}
