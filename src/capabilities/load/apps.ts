/**
 * Where apps are: the app a given file belongs to (so a file list, as pre-commit passes it, is checked
 * in its app's context), and every app below a monorepo root.
 */
import { readdirSync, readFileSync, realpathSync, type Dirent } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { isWithin, pathKind, repositoryRoot } from "../../core/source/read.js";
import { noteRead } from "../../core/source/read-log.js";

/**
 * The app config files the host's CLI reads, in its order: `tauri.conf.json`, else `Tauri.toml` (its
 * "config-toml" feature; the keys caplint reads are the same words in both).
 */
export const APP_CONFIG_NAMES: readonly string[] = ["tauri.conf.json", "Tauri.toml"];

/** Whether a folder holds an app config. */
export async function hasAppConfig(dir: string): Promise<boolean> {
  for (const name of APP_CONFIG_NAMES)
    if ((await pathKind(path.join(dir, name))) === "file") return true;
  return false;
}

/** Folders never searched for apps: dependencies, version control, build output of the host. */
const NEVER_WALKED = new Set(["node_modules", ".git", ".hg", ".svn", "target", "gen"]);

/**
 * Keeps discovery bounded in a huge or hostile tree; reaching it stops the run with an error naming
 * it (an app past it would otherwise go unchecked). Depth is not limited apart: an app 13 folders
 * down is as real as one at the top, and the folder count bounds a deep chain too.
 */
const MAX_FOLDERS = 20_000;

/**
 * The `src-tauri` folder of the app `file` belongs to: the nearest folder above it that holds a
 * `src-tauri/` folder or a `tauri.conf.json` (then that folder is the app's src-tauri). The search
 * stays inside `root` (the working directory): a file outside it is taken alone, so nothing outside
 * the repository changes the verdict.
 */
export async function enclosingApp(file: string, root: string): Promise<string | undefined> {
  const relative = path.relative(root, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  let dir = path.dirname(file);
  for (;;) {
    if (path.basename(dir) === "src-tauri" && (await pathKind(dir)) === "directory") return dir;
    if ((await pathKind(path.join(dir, "src-tauri"))) === "directory")
      return path.join(dir, "src-tauri");
    if (await hasAppConfig(dir)) return dir;
    if (dir === root) return undefined;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export interface DiscoveredApps {
  /** App folders (each holding `src-tauri/` or a `tauri.conf.json`), sorted. */
  apps: string[];
  /** Which limit cut the search short, in words naming it and where; undefined when none did. */
  truncated?: string;
}

/**
 * Every app below `root`, for a monorepo: folders holding `src-tauri/` or `tauri.conf.json`. It never
 * enters node_modules, .git or build output, honours each folder's `.gitignore`, does not follow
 * symbolic links, and does not look inside an app it found.
 */
export async function discoverApps(root: string): Promise<DiscoveredApps> {
  const apps: string[] = [];
  let folders = 0;
  let truncated: string | undefined;
  const visit = async (dir: string, ignores: Ignore): Promise<void> => {
    if (++folders > MAX_FOLDERS) {
      truncated ??= `the search for apps below this folder stopped at ${path.relative(root, dir)}: it looks into at most ${MAX_FOLDERS.toLocaleString("en-US")} folders`;
      return;
    }
    const entries = listFolder(dir);
    if (!entries) return;
    if (
      entries.some((e) => e.isDirectory() && e.name === "src-tauri") ||
      entries.some((e) => e.isFile() && APP_CONFIG_NAMES.includes(e.name))
    ) {
      apps.push(dir);
      return;
    }
    const rules = entries.some((e) => e.isFile() && e.name === ".gitignore")
      ? withIgnoreFile(ignores, root, dir, ".gitignore")
      : ignores;
    const children = entries
      .filter((e) => e.isDirectory() && !NEVER_WALKED.has(e.name))
      .sort(byName);
    for (const child of children) {
      const full = path.join(dir, child.name);
      if (isIgnored(rules, root, full)) continue;
      await visit(full, rules);
    }
  };
  await visit(root, ignore({ ignorecase: IGNORE_CASE }));
  return truncated === undefined ? { apps } : { apps, truncated };
}

/**
 * A folder's entries, counted as read; undefined when it cannot be listed (gone, or not a folder).
 * Synchronous, like the loader's reads (core/source/read.ts): the search lists one folder after the
 * other, and a thread-pool round trip per folder (one per app of a monorepo) cost more than the listing.
 */
function listFolder(folder: string): Dirent[] | undefined {
  noteRead("folders", folder);
  discoveryWork.folderListings++;
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return undefined;
  }
}

/** Work counters for tests (never timed): folders the search for apps listed. */
export const discoveryWork = { folderListings: 0 };

/** By name, so a walk meets folders in the same order whatever order the file system lists them in. */
function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The file names the Tauri CLI takes for an app's config when it looks for the app (tauri-utils
 * `folder_has_configuration_file` with the target it passes, linux): more than caplint reads, so that
 * a folder holding only `tauri.conf.json5` or `tauri.linux.conf.json` is the app's folder for both.
 */
const CLI_CONFIG_NAMES: readonly string[] = [
  "tauri.conf.json",
  "tauri.conf.json5",
  "Tauri.toml",
  "tauri.linux.conf.json",
  "tauri.linux.conf.json5",
  "Tauri.linux.toml",
];

/** How many folders down the CLI looks: its `TAURI_CLI_CONFIG_DEPTH` default (3). */
const CLI_LOOKUP_DEPTH = 3;

/** What the CLI's walk never enters besides hidden folders: its built-in ignore file (`tauri.gitignore`). */
const CLI_DEFAULT_IGNORES = ["node_modules/", "target/"];

export interface CliLookup {
  /** The folders holding an app config the CLI's walk can meet first, sorted; one folder: that is the app. */
  apps: string[];
  /** Which limit cut the search short, in words; undefined when none did. */
  truncated?: string;
}

/**
 * The app the Tauri CLI builds when run in `dir`, a folder that holds no app config itself and no
 * `src-tauri/` (tauri-cli `app_paths.rs`, `resolve_tauri_dir`): it walks the folders below `dir`, at most
 * three down, for the first one holding a config, skipping hidden folders, the folders a `.gitignore`
 * or `.taurignore` from `dir` down ignores (none above `dir`), `node_modules/` and `target/`, and not
 * entering symbolic links. Which of two such folders it meets first depends on the order the file
 * system lists them in, so every folder it could meet is returned (not the ones inside another, which
 * it meets first): the caller takes one, and refuses to guess between several.
 *
 * Bounded, unlike the CLI: only inside a repository (the nearest folder with `.git` at or above `dir`;
 * outside one nothing is walked), a link is taken only when its target stays in that repository, and
 * each folder is read once (at most {@link MAX_FOLDERS}).
 */
export async function appsTheCliFinds(dir: string): Promise<CliLookup> {
  const repository = repositoryRoot(dir);
  if (repository === undefined) return { apps: [] };
  let repositoryReal: string;
  try {
    repositoryReal = realpathSync(repository);
  } catch {
    return { apps: [] };
  }
  const apps: string[] = [];
  let folders = 0;
  let truncated: string | undefined;
  const visit = async (folder: string, depth: number, ignores: Ignore): Promise<void> => {
    if (++folders > MAX_FOLDERS) {
      truncated ??= `the search for the app below ${dir} stopped at ${path.relative(dir, folder)}: it looks into at most ${MAX_FOLDERS.toLocaleString("en-US")} folders`;
      return;
    }
    const entries = listFolder(folder);
    if (!entries) return;
    if (entries.some((e) => !e.isDirectory() && CLI_CONFIG_NAMES.includes(e.name))) {
      apps.push(folder);
      return;
    }
    if (depth === CLI_LOOKUP_DEPTH) return;
    let rules = ignores;
    for (const name of [".gitignore", ".taurignore"])
      if (entries.some((e) => e.isFile() && e.name === name))
        rules = withIgnoreFile(rules, dir, folder, name);
    const children = entries
      .filter((e) => !e.name.startsWith(".") && (e.isDirectory() || e.isSymbolicLink()))
      .sort(byName);
    for (const child of children) {
      const full = path.join(folder, child.name);
      if (isIgnored(rules, dir, full)) continue;
      if (child.isSymbolicLink()) {
        // The CLI does not enter a link, but takes a linked folder that holds a config.
        if (await linkedApp(full, repositoryReal)) apps.push(full);
        continue;
      }
      await visit(full, depth + 1, rules);
    }
  };
  await visit(dir, 0, ignore({ ignorecase: IGNORE_CASE }).add(CLI_DEFAULT_IGNORES));
  const sorted = apps.sort();
  return truncated === undefined ? { apps: sorted } : { apps: sorted, truncated };
}

/** Whether a symbolic link leads to a folder inside the repository that holds an app config. */
async function linkedApp(link: string, repositoryReal: string): Promise<boolean> {
  let real: string;
  try {
    real = realpathSync(link);
  } catch {
    return false;
  }
  if (!isWithin(real, repositoryReal) || (await pathKind(real)) !== "directory") return false;
  for (const name of CLI_CONFIG_NAMES)
    if ((await pathKind(path.join(real, name))) === "file") return true;
  return false;
}

/**
 * The `.gitignore` files from the walk's root down to one folder, as one matcher of the `ignore`
 * package (git's pattern rules) over paths relative to the root. Git reads each file's patterns
 * relative to its folder; they are rewritten relative to the root (in `a/.gitignore`, `foo` still
 * matches at any depth below `a`, `/foo` and `x/foo` only `a/foo` and `a/x/foo`) and added after the
 * shallower ones, which gives git's precedence: the last matching pattern decides, a deeper file
 * overrides a shallower one, and nothing below an ignored folder can be re-included. Only files from the root
 * down are read: a `.gitignore` outside the repository never changes which apps are checked.
 */
function withIgnoreFile(parent: Ignore, root: string, dir: string, name: string): Ignore {
  let text = "";
  noteRead("files", path.join(dir, name));
  try {
    // Only an ignore file that readdir reports as a regular file gets here: a link is never followed.
    text = readFileSync(path.join(dir, name), "utf8").slice(0, 256 * 1024);
  } catch {
    // An unreadable .gitignore ignores nothing.
  }
  const folder = path.relative(root, dir).split(path.sep).join("/");
  const patterns = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => (folder === "" ? line : relativeToRoot(line, folder)));
  return ignore({ ignorecase: IGNORE_CASE }).add(parent).add(patterns);
}

/** A pattern of `folder/.gitignore` rewritten for paths relative to the root. */
function relativeToRoot(line: string, folder: string): string {
  const negation = line.startsWith("!") ? "!" : "";
  const pattern = line.slice(negation.length);
  if (pattern.trim() === "") return "";
  // A slash at the start or in the middle anchors the pattern to its file's folder; a trailing one only means "folders".
  const anchored = pattern.replace(/\/+\s*$/, "").includes("/");
  const prefix = folder.replace(/[\\*?[\]!#]/g, "\\$&");
  return anchored
    ? `${negation}${prefix}/${pattern.replace(/^\//, "")}`
    : `${negation}${prefix}/**/${pattern}`;
}

/**
 * Git matches case-sensitively unless `core.ignoreCase` is set, which `git init` does on the
 * case-insensitive file systems of macOS and Windows.
 */
const IGNORE_CASE = process.platform === "darwin" || process.platform === "win32";

/** Whether a folder below the root is ignored; the trailing slash lets folder-only patterns (`build/`) match it. */
function isIgnored(matcher: Ignore, root: string, folder: string): boolean {
  return matcher.ignores(`${path.relative(root, folder).split(path.sep).join("/")}/`);
}
