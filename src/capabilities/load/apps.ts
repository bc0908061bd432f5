/**
 * Where apps are: the app a given file belongs to (so a file list, as pre-commit passes it, is checked
 * in its app's context), and every app below a monorepo root.
 */
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { pathKind } from "../../core/source/read.js";
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
    noteRead("folders", dir);
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (
      entries.some((e) => e.isDirectory() && e.name === "src-tauri") ||
      entries.some((e) => e.isFile() && APP_CONFIG_NAMES.includes(e.name))
    ) {
      apps.push(dir);
      return;
    }
    const rules = entries.some((e) => e.isFile() && e.name === ".gitignore")
      ? withIgnoreFile(ignores, root, dir)
      : ignores;
    const children = entries
      .filter((e) => e.isDirectory() && !NEVER_WALKED.has(e.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
 * The `.gitignore` files from the walk's root down to one folder, as one matcher of the `ignore`
 * package (git's pattern rules) over paths relative to the root. Git reads each file's patterns
 * relative to its folder; they are rewritten relative to the root (in `a/.gitignore`, `foo` still
 * matches at any depth below `a`, `/foo` and `x/foo` only `a/foo` and `a/x/foo`) and added after the
 * shallower ones, which gives git's precedence: the last matching pattern decides, a deeper file
 * overrides a shallower one, and nothing below an ignored folder can be re-included. Only files from the root
 * down are read: a `.gitignore` outside the repository never changes which apps are checked.
 */
function withIgnoreFile(parent: Ignore, root: string, dir: string): Ignore {
  let text = "";
  noteRead("files", path.join(dir, ".gitignore"));
  try {
    // Only a `.gitignore` that readdir reports as a regular file gets here: a link is never followed.
    text = readFileSync(path.join(dir, ".gitignore"), "utf8").slice(0, 256 * 1024);
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
