/**
 * Window and webview labels an app creates in code, for unmatched-window: most real apps make their
 * second windows at run time (`WebviewWindowBuilder::new(app, "settings", …)` in Rust,
 * `new WebviewWindow("settings", …)` in the frontend), so tauri.conf.json alone is not the list.
 *
 * This is a scan of source text, not a parser: it reads the label argument of the calls that create
 * windows and webviews, and of `.label("x")` / `label: "x"` settings. A literal is a label; a label built
 * at run time (`format!("reader-{}", id)`, `` `reader-${id}` ``, `"reader-" + id`) is a prefix, which
 * makes every pattern starting with it plausible, and a bare variable (a helper's `config.label`) makes
 * every label plausible: caplint then cannot say a pattern matches nothing. Literal `label: "x"`
 * settings count as labels too (the usual `openWindow({ label: "x" })` helper). Modules the crate pulls in
 * from outside `src/` (`#[path = "../common/window.rs"] mod window;`) are followed, with their own `mod`
 * declarations, as rustc resolves them, but never out of the repository (the folder holding `.git`, else
 * the app folder). Symbolic links are not followed, and the scan is bounded in files, bytes and depth.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { searchFolders, staysInside } from "./cargo.js";
import { repositoryMarkerKind } from "../../core/source/read.js";
import { noteRead } from "../../core/source/read-log.js";
import { work } from "../work.js";

export interface CodeLabel {
  label: string;
  file: string;
  line: number;
  /**
   * What the window made here loads, when the code says it with literals: a page of the app (`reader.html`,
   * `/reader?ids=…`, "" for the start page, `WebviewUrl::default()`), or a remote page. Undefined: not said
   * (a variable the file does not define once, a `label` setting, a builder without a url).
   */
  url?: WindowUrl;
}

export type WindowUrl = { kind: "app"; path: string } | { kind: "external" };

export interface CodeWindowLabels {
  /** Labels written as literals where a window or webview is created. */
  labels: CodeLabel[];
  /** Literal starts of labels built at run time; "" when a label is wholly computed. */
  prefixes: CodeLabel[];
  /** Where labels were looked for, relative to `base`, in words (for messages). */
  searched: string[];
}

const RUST = [".rs"];
const FRONTEND = [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte"];
/** Dependencies, build output and generated platform projects: never the app's own sources. */
const SKIPPED_FOLDERS = new Set([
  "node_modules",
  ".git",
  "target",
  "dist",
  "build",
  "out",
  "gen",
  "coverage",
  ".next",
  ".nuxt",
  ".output",
  ".svelte-kit",
  ".turbo",
  ".cache",
  "vendor",
  "public",
]);
const MAX_FILES = 4000;
const MAX_FILE_BYTES = 512 * 1024;
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** `mod` declarations followed from a file under `src/`: deeper chains are not real module trees. */
const MAX_MODULE_DEPTH = 16;

/**
 * Scans `srcTauri/src` for Rust and the app folder (the parent of a `src-tauri` folder; the folder itself
 * otherwise) for frontend sources. `base` makes the reported file names relative.
 */
export async function collectCodeWindowLabels(
  srcTauri: string,
  base: string,
): Promise<CodeWindowLabels> {
  const out: CodeWindowLabels = { labels: [], prefixes: [], searched: [] };
  const budget = { files: MAX_FILES, bytes: MAX_TOTAL_BYTES };
  const rustRoot = path.join(srcTauri, "src");
  const appRoot = path.basename(srcTauri) === "src-tauri" ? path.dirname(srcTauri) : srcTauri;
  const relative = (file: string) => path.relative(base, file).split(path.sep).join("/") || ".";
  const rustFiles = sourceFiles(rustRoot, RUST, undefined, budget);
  const scanned = new Set(rustFiles);
  const modules: { file: string; source: string; depth: number; loadedByPath: boolean }[] = [];
  for (const file of rustFiles) {
    const source = text(file, budget);
    scanRust(source, relative(file), out);
    modules.push({ file, source, depth: 0, loadedByPath: false });
  }
  const repository = await repositoryRoot(srcTauri, appRoot);
  const outsideRoot: string[] = [];
  // Files under src/ were all read above; only a module outside it adds sources (and may declare more).
  for (let next = modules.shift(); next; next = modules.shift()) {
    if (next.depth >= MAX_MODULE_DEPTH) continue;
    for (const { file, loadedByPath } of declaredModules(
      next.source,
      next.file,
      next.loadedByPath,
    )) {
      // Most candidates (`name.rs` or `name/mod.rs`, one of them) do not exist: asked without an exception.
      if (scanned.has(file) || budget.files <= 0 || !exists(file) || !staysInside(file, repository))
        continue;
      scanned.add(file);
      budget.files--;
      const source = text(file, budget);
      if (!source) continue;
      scanRust(source, relative(file), out);
      outsideRoot.push(relative(file));
      modules.push({ file, source, depth: next.depth + 1, loadedByPath });
    }
  }
  out.searched.push(`${relative(rustRoot)}/**/*.rs`);
  if (outsideRoot.length)
    out.searched.push(`the modules declared there from outside it (${listed(outsideRoot)})`);
  out.searched.push("the app's frontend sources");
  // The Rust sources were read above; src-tauri holds no frontend code.
  for (const file of sourceFiles(appRoot, FRONTEND, srcTauri, budget))
    scanFrontend(text(file, budget), relative(file), out);
  return out;
}

/** Whether anything is at the path (a link followed); a missing one is no exception. */
function exists(file: string): boolean {
  try {
    return statSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

const LISTED_MODULES = 3;

function listed(files: readonly string[]): string {
  const shown = files.slice(0, LISTED_MODULES).join(", ");
  return files.length > LISTED_MODULES
    ? `${shown} and ${files.length - LISTED_MODULES} more`
    : shown;
}

/** The repository holding the app (the nearest folder above it with `.git`), else the app folder. */
async function repositoryRoot(srcTauri: string, appRoot: string): Promise<string> {
  const folders = await searchFolders(srcTauri);
  const top = folders[folders.length - 1]!;
  return (await repositoryMarkerKind(top)) !== "missing" ? top : appRoot;
}

const MOD_DECLARATION =
  /^[ \t]*((?:#\[[^\]\n]*\]\s*)*)(?:pub(?:\s*\([^)\n]*\))?\s+)?mod\s+(?:r#)?([A-Za-z_]\w*)\s*;/gm;
const PATH_ATTRIBUTE = /#\[\s*path\s*=\s*"((?:[^"\\]|\\.)*)"\s*\]/;

/**
 * The files of the out-of-line modules `file` declares, where rustc looks for them: a `#[path]` is
 * relative to the declaring file's folder; otherwise `name.rs` or `name/mod.rs` beside a crate root,
 * a `mod.rs` or a file loaded through `#[path]` (`loadedByPath`), and in the `<stem>/` folder beside
 * any other file.
 */
function declaredModules(
  source: string,
  file: string,
  loadedByPath: boolean,
): { file: string; loadedByPath: boolean }[] {
  const dir = path.dirname(file);
  const ownsFolder = loadedByPath || ["main.rs", "lib.rs", "mod.rs"].includes(path.basename(file));
  const base = ownsFolder ? dir : path.join(dir, path.basename(file, ".rs"));
  const files: { file: string; loadedByPath: boolean }[] = [];
  for (const match of source.matchAll(MOD_DECLARATION)) {
    const explicit = PATH_ATTRIBUTE.exec(match[1]!)?.[1];
    if (explicit !== undefined)
      files.push({ file: path.resolve(dir, explicit), loadedByPath: true });
    else
      files.push(
        { file: path.join(base, `${match[2]!}.rs`), loadedByPath: false },
        { file: path.join(base, match[2]!, "mod.rs"), loadedByPath: false },
      );
  }
  return files;
}

function sourceFiles(
  root: string,
  extensions: readonly string[],
  skip: string | undefined,
  budget: { files: number },
): string[] {
  const files: string[] = [];
  const visit = (dir: string) => {
    noteRead("folders", dir);
    work.sourceFoldersRead++;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      // Dirent types come from lstat: a symbolic link is neither, so it is never followed.
      if (entry.isDirectory()) {
        if (full === skip || SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith("."))
          continue;
        visit(full);
      } else if (
        entry.isFile() &&
        extensions.some((ext) => entry.name.endsWith(ext)) &&
        !entry.name.endsWith(".d.ts")
      ) {
        if (budget.files-- <= 0) return;
        files.push(full);
      }
    }
  };
  visit(root);
  return files;
}

function text(file: string, budget: { bytes: number }): string {
  noteRead("files", file);
  try {
    // Synchronous, like every reader (src/core/source/read.ts says why): small local files.
    const info = lstatSync(file);
    if (!info.isFile() || info.size > MAX_FILE_BYTES || info.size > budget.bytes) return "";
    budget.bytes -= info.size;
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** A label argument as written: a literal, a run-time prefix, or unknown (a variable). */
type LabelExpression = { kind: "literal"; value: string } | { kind: "prefix"; value: string };

const RUST_STRING = /^&?\s*(?:String::from\(\s*)?"((?:[^"\\]|\\.)*)"/;
const RUST_FORMAT = /^&?\s*format!\(\s*"((?:[^"\\{]|\\.|\{\{)*)/;
const RUST_IDENT = /^&?\s*([A-Za-z_][\w:]*)\s*(?:[,)]|\.(?:to_string|into|to_owned|as_str)\(\))/;

function scanRust(source: string, file: string, out: CodeWindowLabels): void {
  if (!source) return;
  const constants = new Map<string, string>();
  for (const match of source.matchAll(
    /\bconst\s+([A-Z_][A-Z0-9_]*)\s*:\s*&(?:'static\s+)?str\s*=\s*"((?:[^"\\]|\\.)*)"/g,
  ))
    constants.set(match[1]!, match[2]!);
  const read = (at: number): LabelExpression => {
    const rest = source.slice(at, at + 400);
    const literal = RUST_STRING.exec(rest);
    if (literal) return { kind: "literal", value: literal[1]! };
    const format = RUST_FORMAT.exec(rest);
    if (format) return { kind: "prefix", value: format[1]!.replace(/\{\{/g, "{") };
    const ident = RUST_IDENT.exec(rest);
    if (ident && constants.has(ident[1]!))
      return { kind: "literal", value: constants.get(ident[1]!)! };
    return { kind: "prefix", value: "" };
  };
  // The label is the second argument of the window builders and the first of a webview builder; the url follows it.
  for (const match of source.matchAll(/\b(WebviewWindowBuilder|WindowBuilder)\s*::\s*new\s*\(/g)) {
    const open = match.index + match[0].length;
    const second = argumentStart(source, open, 1);
    const third = match[1] === "WebviewWindowBuilder" ? argumentStart(source, open, 2) : undefined;
    if (second !== undefined)
      record(
        read(second),
        source,
        match.index,
        file,
        out,
        false,
        third === undefined ? undefined : rustUrl(source, third, constants),
      );
  }
  for (const match of source.matchAll(/\bWebviewBuilder\s*::\s*new\s*\(/g)) {
    const open = match.index + match[0].length;
    const second = argumentStart(source, open, 1);
    record(
      read(open),
      source,
      match.index,
      file,
      out,
      false,
      second === undefined ? undefined : rustUrl(source, second, constants),
    );
  }
  for (const match of source.matchAll(/\.label\s*\(/g))
    record(read(match.index + match[0].length), source, match.index, file, out, true);
  for (const match of source.matchAll(/\blabel\s*:\s*(?=&?\s*(?:String::from\(\s*)?"|format!)/g))
    record(read(match.index + match[0].length), source, match.index, file, out, true);
}

const RUST_APP_URL =
  /^\s*(?:tauri\s*::\s*)?WebviewUrl\s*::\s*(App|External|default)\s*\(\s*(?:(?:std::path::)?PathBuf::from\(\s*)?(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_][\w:]*))?/;

/**
 * The page a Rust builder's `WebviewUrl` argument loads: `WebviewUrl::App("reader.html".into())` (a literal,
 * a `const`, `PathBuf::from`), `WebviewUrl::default()` (the start page), `WebviewUrl::External(…)`.
 */
function rustUrl(
  source: string,
  at: number,
  constants: ReadonlyMap<string, string>,
): WindowUrl | undefined {
  const match = RUST_APP_URL.exec(source.slice(at, at + 300));
  if (!match) return undefined;
  if (match[1] === "External") return { kind: "external" };
  if (match[1] === "default") return { kind: "app", path: "" };
  const path = match[2] ?? (match[3] !== undefined ? constants.get(match[3]) : undefined);
  return path === undefined ? undefined : { kind: "app", path };
}

const MAX_URLS_TRACED = 32;
const MAX_HELPER_CALLS = 16;
const JS_STRING = /^\s*(["'])((?:(?!\1)[^\\\n]|\\.)*)\1\s*(\+)?/;
const JS_TEMPLATE = /^\s*`((?:[^`\\$]|\\.|\$(?!\{))*)(\$\{)?/;

function scanFrontend(source: string, file: string, out: CodeWindowLabels): void {
  if (!source) return;
  const read = (at: number): LabelExpression => {
    const rest = source.slice(at, at + 400);
    const literal = JS_STRING.exec(rest);
    if (literal)
      return literal[3]
        ? { kind: "prefix", value: literal[2]! }
        : { kind: "literal", value: literal[2]! };
    const template = JS_TEMPLATE.exec(rest);
    if (template)
      return template[2]
        ? { kind: "prefix", value: template[1]! }
        : { kind: "literal", value: template[1]! };
    return { kind: "prefix", value: "" };
  };
  // Each url traced through names reads the file again: a few per file, so the scan stays linear in its size.
  let traced = 0;
  for (const match of source.matchAll(/\bnew\s+(WebviewWindow|Window)\s*\(/g)) {
    const open = match.index + match[0].length;
    // `new WebviewWindow(label, { url })`: a `Window` alone loads nothing.
    const options =
      match[1] === "WebviewWindow" && traced++ < MAX_URLS_TRACED
        ? argumentStart(source, open, 1)
        : undefined;
    const urls = options === undefined ? [] : jsUrls(source, options, read);
    if (urls.length === 0) record(read(open), source, match.index, file, out);
    for (const url of urls) record(read(open), source, match.index, file, out, false, url);
  }
  // `new Webview(window, "label", …)`: the webview label is the second argument.
  for (const match of source.matchAll(/\bnew\s+Webview\s*\(/g)) {
    const second = argumentStart(source, match.index + match[0].length, 1);
    if (second !== undefined) record(read(second), source, match.index, file, out);
  }
  for (const match of source.matchAll(/\blabel\s*:\s*(?=["'`])/g))
    record(read(match.index + match[0].length), source, match.index, file, out, true);
}

/**
 * The pages a frontend window's options object names: `url: "/reader?…"`, a template with a literal start
 * up to its query (`` `/updater?v=${v}` ``), or `url` / `url: page` bound to such literals in the file
 * (boundLiterals). No `url`: the start page, as the host defaults it. Empty: not known.
 */
function jsUrls(source: string, at: number, read: (at: number) => LabelExpression): WindowUrl[] {
  const rest = source.slice(at, at + 2000);
  if (!/^\s*\{/.test(rest)) return [];
  const end = argumentEnd(source, at + rest.indexOf("{"));
  const body = source.slice(at, end);
  const property = /[{,]\s*url\s*(?=[:,}\n])(:\s*)?/.exec(body);
  if (!property) return /\.\.\./.test(body) ? [] : [{ kind: "app", path: "" }];
  const from = at + property.index + property[0].length;
  const name = property[1]
    ? /^[A-Za-z_$][\w$]*(?=\s*[,}\n])/.exec(source.slice(from, from + 100))?.[0]
    : "url";
  const starts = name === undefined ? [from] : (boundLiterals(source, name, at) ?? []);
  const urls: WindowUrl[] = [];
  for (const start of starts) {
    const value = read(start);
    const path =
      value.kind === "literal" ? value.value : /[?#]/.test(value.value) ? value.value : undefined;
    // A url built at run time before its query says nothing certain: no page is known from it.
    if (path === undefined) return [];
    urls.push(
      /^[a-z][a-z0-9+.-]*:/i.test(path) && !/^tauri:/i.test(path)
        ? { kind: "external" }
        : { kind: "app", path },
    );
  }
  return urls;
}

/** A function whose parameters are a list of names: `function open(label, url)`, `const open = async (label: string, url: string) =>`. */
const FUNCTION_HEAD =
  /\bfunction\s+([A-Za-z_$][\w$]*)\s*\(([^()]*)\)|\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\(([^()]*)\)\s*(?::[^=;{]*)?=>/g;

/**
 * Where the literals a name may hold at `at` start: the nearest declaration of it before `at`
 * (`const url = `/reader?${ids}``), or, for a parameter of the function around `at`, the argument each
 * call of that function in the file passes (a literal, or a name declared so before the call: readest's
 * `createReaderWindow(appService, url)`, called with a `/reader?…` and a `/library?…` url). Undefined
 * when one of them is not a literal, or the function is exported (its other callers are not read here).
 */
function boundLiterals(source: string, name: string, at: number, depth = 0): number[] | undefined {
  const before = source.slice(0, at);
  let enclosing: { name: string; index: number; start: number } | undefined;
  for (const match of before.matchAll(FUNCTION_HEAD)) {
    const params = (match[2] ?? match[4]!).split(",").map((param) =>
      param
        .replace(/[:=][\s\S]*$/, "")
        .replace(/^\s*\.\.\./, "")
        .trim(),
    );
    const index = params.indexOf(name);
    if (index >= 0) enclosing = { name: (match[1] ?? match[3])!, index, start: match.index };
  }
  const declarations = [
    ...before.matchAll(
      new RegExp(`\\b(?:const|let|var)\\s+${name.replace(/\$/g, "\\$")}\\s*=\\s*`, "g"),
    ),
  ].filter((match) => enclosing === undefined || match.index > enclosing.start);
  const declaration = declarations[declarations.length - 1];
  if (declaration) {
    const start = declaration.index + declaration[0].length;
    return /^["'`]/.test(source.slice(start, start + 1)) ? [start] : undefined;
  }
  if (!enclosing || depth > 0) return undefined;
  const escaped = enclosing.name.replace(/\$/g, "\\$");
  if (
    /\bexport\s+(?:default\s+)?(?:async\s+)?$/.test(
      source.slice(Math.max(0, enclosing.start - 30), enclosing.start),
    )
  )
    return undefined;
  if (new RegExp(`\\bexport\\s*(?:\\{[^}]*\\b${escaped}\\b|default\\s+${escaped}\\b)`).test(source))
    return undefined;
  const starts: number[] = [];
  let calls = 0;
  for (const call of source.matchAll(new RegExp(`(?<![\\w$.])${escaped}\\s*\\(`, "g"))) {
    // `function open(label, url)`: the definition's own head is no call.
    if (
      call.index >= enclosing.start &&
      call.index < enclosing.start + 200 &&
      source.slice(enclosing.start, call.index).includes(enclosing.name)
    )
      continue;
    // Each call is traced through the file: more than a helper's few callers is not followed.
    if (++calls > MAX_HELPER_CALLS) return undefined;
    const open = call.index + call[0].length;
    const argument = enclosing.index === 0 ? open : argumentStart(source, open, enclosing.index);
    if (argument === undefined) return undefined;
    const text = source.slice(argument, argument + 400);
    const word = /^\s*([A-Za-z_$][\w$]*)\s*[,)]/.exec(text)?.[1];
    const quote = /^\s*["'`]/.exec(text);
    const found =
      word !== undefined
        ? boundLiterals(source, word, argument, depth + 1)
        : quote
          ? [argument + quote[0].length - 1]
          : undefined;
    if (found === undefined) return undefined;
    starts.push(...found);
  }
  return starts.length ? starts : undefined;
}

/**
 * Records a label. A `label` setting only counts as a literal (it may label anything, from a menu item
 * to a chart): a computed one says nothing.
 */
function record(
  expression: LabelExpression,
  source: string,
  at: number,
  file: string,
  out: CodeWindowLabels,
  settingOnly = false,
  url?: WindowUrl,
): void {
  const line = lineOf(source, at);
  const made = { label: expression.value, file, line, ...(url ? { url } : {}) };
  if (expression.kind === "literal") out.labels.push(made);
  else if (!settingOnly) out.prefixes.push(made);
}

/** Where argument `n` (0-based) of a call starts, given the offset just after its `(`. */
function argumentStart(source: string, open: number, n: number): number | undefined {
  let depth = 0;
  let index = 0;
  const end = Math.min(source.length, open + 2000);
  for (let i = open; i < end; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < end && source[i] !== c; i++) if (source[i] === "\\") i++;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth-- === 0) return undefined;
    } else if (c === "," && depth === 0 && ++index === n) return i + 1;
  }
  return undefined;
}

/** Where the argument starting at `from` ends (its closing `,` or `)` at depth 0), bounded like argumentStart. */
function argumentEnd(source: string, from: number): number {
  let depth = 0;
  const end = Math.min(source.length, from + 2000);
  for (let i = from; i < end; i++) {
    const c = source[i]!;
    if (c === '"' || c === "'" || c === "`") {
      for (i++; i < end && source[i] !== c; i++) if (source[i] === "\\") i++;
    } else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth-- === 0) return i;
    } else if (c === "," && depth === 0) return i;
  }
  return end;
}

function lineOf(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf("\n"); i >= 0 && i < offset; i = source.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Whether a capability's label pattern can match a label made in code: a literal label it matches, or
 * a run-time prefix its own literal start agrees with (`reader-*` and `format!("reader-{}")`).
 */
export function plausibleInCode(
  matches: (label: string) => boolean,
  pattern: string,
  code: CodeWindowLabels,
): boolean {
  if (code.labels.some(({ label }) => matches(label))) return true;
  const literalStart = pattern.split(/[*?[]/, 1)[0]!;
  return code.prefixes.some(
    ({ label: prefix }) => literalStart.startsWith(prefix) || prefix.startsWith(literalStart),
  );
}
