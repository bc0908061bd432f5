/**
 * Where apps are: the app a given file belongs to (so a file list, as pre-commit passes it, is checked
 * in its app's context), and every app below a monorepo root.
 */
import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { minimatch } from "minimatch";
import { pathKind } from "../../core/source/read.js";

/**
 * The app config files the host's CLI reads, in its order: `tauri.conf.json`, else `Tauri.toml` (its
 * "config-toml" feature; the keys caplint reads are the same words in both).
 */
export const APP_CONFIG_NAMES: readonly string[] = ["tauri.conf.json", "Tauri.toml"];

/** Whether a folder holds an app config. */
export async function hasAppConfig(dir: string): Promise<boolean> {
  for (const name of APP_CONFIG_NAMES) if ((await pathKind(path.join(dir, name))) === "file") return true;
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
    if ((await pathKind(path.join(dir, "src-tauri"))) === "directory") return path.join(dir, "src-tauri");
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
  const visit = async (dir: string, ignores: readonly IgnoreRules[]): Promise<void> => {
    if (++folders > MAX_FOLDERS) {
      truncated ??= `the search for apps below this folder stopped at ${path.relative(root, dir)}: it looks into at most ${MAX_FOLDERS.toLocaleString("en-US")} folders`;
      return;
    }
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (entries.some((e) => e.isDirectory() && e.name === "src-tauri") || entries.some((e) => e.isFile() && APP_CONFIG_NAMES.includes(e.name))) {
      apps.push(dir);
      return;
    }
    const rules = entries.some((e) => e.isFile() && e.name === ".gitignore") ? [...ignores, readIgnoreRules(dir)] : ignores;
    const children = entries.filter((e) => e.isDirectory() && !NEVER_WALKED.has(e.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      const full = path.join(dir, child.name);
      if (isIgnored(full, rules)) continue;
      await visit(full, rules);
    }
  };
  await visit(root, []);
  return truncated === undefined ? { apps } : { apps, truncated };
}

interface IgnoreRules {
  base: string;
  patterns: Array<{ glob: string; negated: boolean; anchored: boolean }>;
}

function readIgnoreRules(dir: string): IgnoreRules {
  let text = "";
  try {
    text = readFileSync(path.join(dir, ".gitignore"), "utf8").slice(0, 256 * 1024);
  } catch {
    // An unreadable .gitignore ignores nothing.
  }
  const patterns: IgnoreRules["patterns"] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    line = line.replace(/^\\/, "");
    // Discovery only asks about folders, so a trailing slash (folders only) changes nothing here.
    line = line.replace(/\/+$/, "");
    if (line === "") continue;
    const anchored = line.includes("/");
    patterns.push({ glob: line.replace(/^\//, ""), negated, anchored });
  }
  return { base: dir, patterns };
}

/** Git's rule: the last matching pattern decides, deeper .gitignore files after shallower ones. */
function isIgnored(folder: string, rules: readonly IgnoreRules[]): boolean {
  let ignored = false;
  for (const { base, patterns } of rules) {
    const relative = path.relative(base, folder).split(path.sep).join("/");
    if (relative.startsWith("..")) continue;
    const name = path.basename(folder);
    for (const pattern of patterns) {
      const matches = pattern.anchored ? minimatch(relative, pattern.glob, { dot: true }) : minimatch(name, pattern.glob, { dot: true });
      if (matches) ignored = !pattern.negated;
    }
  }
  return ignored;
}
