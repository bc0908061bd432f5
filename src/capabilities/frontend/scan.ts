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
import { fileBlocks, isFrontendFile, looksMinified, type ScriptBlock } from "./blocks.js";
import { Linker, type ModuleTarget, type Use } from "./link.js";
import { readBundlerConfig, type BundlerConfig } from "./bundler-config.js";
import { plural } from "../../core/wording.js";

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
  /** `build.frontendDist`, `build.devUrl` and `app.windows[].url` of the app config. */
  build?: { frontendDist?: unknown; devUrl?: unknown };
  windows: ReadonlyArray<{ label: string; url?: unknown }>;
  /** The `frontend` section of caplint.config.json. */
  config?: FrontendConfig;
  /** Modules read by the last scan of the same app (an editor's checks): a file whose text is unchanged is not parsed again. */
  cache?: ModuleCache;
}

/** What one file said, by path, with the text it was read from; pruned to the reachable files after each scan. */
export type ModuleCache = Map<string, { text: string; facts: ModuleFacts; notes: readonly string[] }>;

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
  /** How many files this scan parsed (the others came from the cache unchanged). */
  parsed: number;
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
const CONVENTIONAL_ENTRIES = ["src/main", "src/index", "src/main.client", "src/entry-client", "src/app", "main", "index"];

interface Parser {
  parseSync(
    filename: string,
    text: string,
    options: { lang: string; sourceType: "module" },
  ): { program: unknown; errors: Array<{ severity: string; message: string }> };
}
interface ResolverInstance {
  sync(directory: string, request: string): { path?: string; error?: string };
}
interface ResolverModule {
  ResolverFactory: new (options: Record<string, unknown>) => ResolverInstance;
}

let parser: Parser | undefined;
let resolverModule: ResolverModule | undefined;
/** oxc's parser and resolver are native modules, loaded on the first scan (a check without a frontend never pays for them). */
function natives(): { parser: Parser; resolver: ResolverModule } {
  const require = createRequire(import.meta.url);
  parser ??= require("oxc-parser") as Parser;
  resolverModule ??= require("oxc-resolver") as ResolverModule;
  return { parser, resolver: resolverModule };
}

export async function scanFrontend(options: FrontendOptions): Promise<FrontendScan | undefined> {
  const notes: string[] = [];
  const show = (file: string) => displayFile(options.cwd, file);
  const root = options.config?.root ? path.resolve(options.appRoot, options.config.root) : await frontendRoot(options);
  if (!root) return undefined;
  let boundaryReal: string;
  try {
    boundaryReal = realpathSync(options.boundary);
  } catch {
    boundaryReal = options.boundary;
  }
  const outside = (file: string) => {
    try {
      return !isWithin(realpathSync(file), boundaryReal);
    } catch {
      return true;
    }
  };
  let natural: ReturnType<typeof natives>;
  try {
    natural = natives();
  } catch (error) {
    return emptyScan(root, [`the frontend was not scanned: its parser (oxc-parser) could not be loaded (${(error as Error).message.split("\n")[0]})`]);
  }
  const bundler = readBundlerConfig(root, options.maxBytes, natural.parser);
  const ignore = ignoreMatcher(options.config?.ignore ?? []);
  // src-tauri/ holds the Rust side; an app folder that is its own src-tauri (no subfolder) holds the frontend too.
  const srcTauri = path.resolve(options.srcTauri);
  const rustSide = srcTauri !== path.resolve(root) && isWithin(srcTauri, path.resolve(root)) ? srcTauri : undefined;
  const skipped = (file: string) =>
    (rustSide !== undefined && isWithin(file, rustSide)) ||
    ignore(path.relative(root, file)) ||
    path
      .relative(root, file)
      .split(path.sep)
      .some((part) => SKIPPED_FOLDERS.has(part));

  const tsconfig = ["tsconfig.json", "jsconfig.json"].map((name) => path.join(root, name)).find((file) => pathKindSync(file) === "file");
  const resolver = new natural.resolver.ResolverFactory({
    extensions: [".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte", ".json"],
    extensionAlias: { ".js": [".ts", ".tsx", ".js", ".jsx"], ".mjs": [".mts", ".mjs"] },
    conditionNames: ["browser", "import", "module", "default"],
    mainFields: ["browser", "module", "main"],
    mainFiles: ["index"],
    alias: bundler.alias,
    roots: [bundler.root],
    ...(tsconfig ? { tsconfig: { configFile: tsconfig, references: "auto" } } : {}),
  });

  // Entry points, grouped into pages.
  const groups = await entryGroups(root, bundler, options, notes, show);
  const modules = new Map<string, ModuleFacts>();
  const order: string[] = [];
  const thirdParty = new Set<string>();
  const specifiers = new Set<string>();
  const targets = new Map<string, ModuleTarget>();
  const texts = new Map<string, string>();

  const target = (file: string, request: string): ModuleTarget => {
    const key = `${path.dirname(file)}\u0000${request}`;
    const memo = targets.get(key);
    if (memo) return memo;
    let found: ModuleTarget = { kind: "none" };
    if (isTauriSpecifier(request)) {
      found = { kind: "tauri", specifier: request.replace(/\/index(\.js)?$/, "").replace(/\.js$/, "") };
      specifiers.add(found.specifier);
    } else if (
      !/^(https?:|data:|node:)/.test(request) &&
      !/\.(css|scss|sass|less|styl|svg|png|jpe?g|gif|webp|ico|woff2?|ttf|json|md|txt|wasm)(\?.*)?$/i.test(request)
    ) {
      const clean = request.replace(/[?#].*$/, "");
      const resolved =
        clean.startsWith("/") && !clean.startsWith("//") ? resolveRooted(clean, bundler.root, root) : resolver.sync(path.dirname(file), clean).path;
      if (resolved) {
        if (resolved.split(path.sep).includes("node_modules")) {
          const name = packageName(clean);
          if (name && /tauri/i.test(name)) thirdParty.add(name);
        } else if (outside(resolved)) notes.push(`${show(file)}: import "${request}" leads out of the repository through a link; not followed`);
        else if (isFrontendFile(resolved) && !skipped(resolved)) found = { kind: "file", file: resolved };
      } else {
        const name = packageName(clean);
        if (name && /tauri/i.test(name) && !clean.startsWith(".")) thirdParty.add(name);
      }
    }
    targets.set(key, found);
    return found;
  };

  let parsedFiles = 0;
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
      notes.push(...cached.notes);
      return cached.facts;
    }
    const facts = emptyFacts();
    modules.set(file, facts);
    parsedFiles++;
    const fileNotes = analyseFile(file, text.text, facts);
    notes.push(...fileNotes);
    options.cache?.set(file, { text: text.text, facts, notes: fileNotes });
    return facts;
  };
  /** Parses a file's script blocks into `facts`; returns its notes (a block that does not parse, a minified file). */
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
      const parsed = natural.parser.parseSync(`block.${block.language}`, block.text, { lang: block.language, sourceType: "module" });
      const error = parsed.errors.find((e) => e.severity === "Error");
      if (error) {
        const at = lineIndex(text)(block.offset);
        fileNotes.push(`${show(file)}:${at.line}:${at.column}: does not parse (${oneLine(error.message)}); its calls were not analysed`);
        continue;
      }
      analyzer.addProgram(parsed.program as Parameters<ModuleAnalyzer["addProgram"]>[0], block.offset - block.prefix);
    }
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

  const linker = new Linker(modules, target, await options.apiFor(root));
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
    return { ...use, displayFile: show(use.file), line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
  });
  positioned.sort((a, b) => compareText(a.displayFile, b.displayFile) || a.start - b.start || compareText(a.member, b.member));
  const windowPages = new Map<string, FrontendPage>();
  for (const page of pages) for (const label of page.windows) windowPages.set(label, page);
  // The cache keeps what the next scan can reuse: the files read now, nothing that is no longer reachable.
  if (options.cache) for (const file of options.cache.keys()) if (!modules.has(file)) options.cache.delete(file);
  return {
    root,
    pages,
    files: order.filter((file) => allFiles.has(file)),
    calls: positioned.filter((call) => !call.unresolved),
    unresolved: positioned.filter((call) => call.unresolved),
    thirdPartyPlugins: [...thirdParty].sort(),
    specifiers: [...specifiers].sort(),
    notes: dedupeNotes(notes),
    pagesCertain: groups.length > 1 && groups.every((group) => group.certain),
    windowPages,
    parsed: parsedFiles,
  };
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
    parsed: 0,
  };
}

function dedupeNotes(notes: string[]): string[] {
  return [...new Set(notes)].sort(compareText);
}

/** The frontend's folder: the app folder when it has a package.json, else `build.frontendDist` when that is a folder of sources (no bundler). */
async function frontendRoot(options: FrontendOptions): Promise<string | undefined> {
  if ((await pathKind(path.join(options.appRoot, "package.json"))) === "file") return options.appRoot;
  const dist = options.build?.frontendDist;
  if (typeof dist === "string" && !/^[a-z]+:/i.test(dist)) {
    const folder = path.resolve(options.srcTauri, dist);
    if (!isWithin(folder, options.boundary)) return undefined;
    // Pages served as written (`"frontendDist": "../src"`).
    if ((await pathKind(folder)) === "directory" && !SKIPPED_FOLDERS.has(path.basename(folder))) return folder;
    // Build output (`../../frontend/dist`, not in the repository): the project that builds it is the nearest
    // folder up with a package.json, short of the folders that hold the app (a parent's package.json is another project's).
    for (let dir = path.dirname(folder); isWithin(dir, options.boundary) && !isWithin(options.appRoot, dir); dir = path.dirname(dir)) {
      if ((await pathKind(path.join(dir, "package.json"))) === "file") return dir;
    }
    if ((await pathKind(folder)) === "directory") return folder;
  }
  return (await pathKind(path.join(options.appRoot, "index.html"))) === "file" ? options.appRoot : undefined;
}

interface EntryGroup {
  entries: string[];
  windows: string[];
  /** The group is one distinct page (an HTML file or configured entries): windows that load it are known. */
  certain: boolean;
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
    groups.push({ entries: files, windows: options.windows.map((w) => w.label).filter((label) => !claimed.has(label)), certain: false });
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
  for (const window of options.windows) {
    if (claimed.has(window.label)) continue;
    const url = typeof window.url === "string" ? window.url : "index.html";
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue;
    const page = url.replace(/[?#].*$/, "").replace(/^\/+/, "");
    const candidates =
      page === "" || !/\.html?$/i.test(page) ? [index] : [path.join(bundler.root, page), path.join(root, "public", page), path.join(root, page)];
    const file = candidates.find((candidate) => pages.has(candidate)) ?? (await firstFile(candidates));
    if (file) addPage(file).push(window.label);
    else if (page && /\.html?$/i.test(page))
      notes.push(`window "${window.label}": its page ${page} was not found under ${show(bundler.root)}; its calls were not analysed`);
  }
  const routeEntries: string[] = [];
  for (const folder of ROUTE_FOLDERS) {
    const dir = path.join(root, folder);
    if ((await pathKind(dir)) === "directory") routeEntries.push(...sourceFilesUnder(dir));
  }
  const pageGroups = [...pages].map(([entry, windows]) => ({ entries: [entry], windows, certain: true }));
  if (pageGroups.length === 0 && routeEntries.length === 0) {
    for (const stem of CONVENTIONAL_ENTRIES)
      for (const extension of [".ts", ".tsx", ".js", ".jsx", ".mjs"]) {
        const file = path.join(root, stem + extension);
        if ((await pathKind(file)) === "file") routeEntries.push(file);
      }
  }
  if (routeEntries.length) {
    const unassigned = options.windows.map((w) => w.label).filter((label) => !claimed.has(label) && !pageGroups.some((g) => g.windows.includes(label)));
    pageGroups.push({ entries: routeEntries, windows: unassigned, certain: false });
  }
  if (pageGroups.length === 0) {
    const all = sourceFilesUnder(root);
    if (all.length) {
      notes.push(`no entry point of the frontend was found under ${show(root)}: every source file counts as reachable`);
      pageGroups.push({ entries: all, windows: [], certain: false });
    }
  }
  // Pages no window names are loaded by windows made at run time: they count for every window.
  return [...groups, ...pageGroups];
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
        if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith(".") && entry.name !== "src-tauri") visit(full);
      } else if (entry.isFile() && isFrontendFile(full) && !/\.(test|spec|stories)\.[a-z]+$/.test(entry.name)) files.push(full);
    }
  };
  visit(dir);
  return files;
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
  return source.startsWith("/") || source.startsWith(".") || /^[a-z]+:/i.test(source) ? source : `./${source}`;
}

function resolveRooted(request: string, bundlerRoot: string, root: string): string | undefined {
  for (const base of [bundlerRoot, path.join(root, "public"), root]) {
    const file = path.join(base, request);
    for (const candidate of [file, ...[".ts", ".tsx", ".js", ".jsx"].map((extension) => file + extension)]) {
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
