/**
 * The host and official-plugin versions an app builds with: its `Cargo.lock` (in `src-tauri/` or a
 * Cargo workspace root above it), else its `Cargo.toml` requirements, resolved to the newest known
 * release they allow. The search never leaves the repository (the folder holding `.git`), or, outside
 * a repository, the app folder: a lock file elsewhere on the machine must not change the verdict.
 */
import path from "node:path";
import { BoundedMemo } from "../../core/bounded-memo.js";
import { memoPerLoad } from "../../core/source/read-log.js";
import { isPlainObject } from "../../core/json.js";
import { work } from "../work.js";
import { newestMatching, type LockedCrate, type VersionHistory } from "../catalog/versions.js";
import {
  foldersToRepositoryRoot,
  pathKind,
  readTextFile,
  realPath,
} from "../../core/source/read.js";

export interface AppVersions {
  /** History catalog (`core`, `fs` …) → the version used. */
  crates: Map<string, LockedCrate>;
  /** Where the versions came from; undefined when neither a lock nor a Cargo.toml was found. */
  source?: { kind: "Cargo.lock" | "Cargo.toml"; file: string };
}

/** The files an app's checks read besides its capabilities: a report never replaces one (`schema -o tauri.conf.json`). */
export const APP_FILE_NAMES =
  /^((tauri|host)(\.[A-Za-z]+)?\.conf\.(json5?|toml)|Cargo\.(toml|lock)|build\.rs|acl-manifests\.json)$/;

/** Folders to look in, nearest first: `src-tauri`, then up to the repository root. */
export function searchFolders(srcTauri: string): Promise<string[]> {
  return foldersToRepositoryRoot(srcTauri, appFolders(srcTauri));
}

/** Outside a repository, only the app itself counts: `src-tauri` and the folder holding it. */
export function appFolders(folder: string): string[] {
  return path.basename(folder) === "src-tauri" ? [folder, path.dirname(folder)] : [folder];
}

/** Whether `file`'s real location is still inside `root` (a symlink may point anywhere). */
export function staysInside(file: string, root: string): boolean {
  // Each asked of the disk once per load (the lock and the root are asked about by the build and the versions).
  const real = realPath(file);
  const base = realPath(root);
  if (real === undefined || base === undefined) return false;
  const relative = path.relative(base, real);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

export async function readAppVersions(
  srcTauri: string,
  history: VersionHistory,
  relative: (absolute: string) => string,
  maxBytes: number,
): Promise<AppVersions> {
  const folders = await searchFolders(srcTauri);
  const root = folders[folders.length - 1]!;
  const lock = await appLock(folders, root, maxBytes);
  if (lock) {
    const file = relative(lock.file);
    const crates = new Map<string, LockedCrate>();
    for (const { name, version } of lock.packages) {
      const catalog = history.catalogOfCrate(name);
      if (catalog) crates.set(catalog, { crate: name, version, source: "Cargo.lock", file });
    }
    return { crates, source: { kind: "Cargo.lock", file } };
  }
  const manifest = path.join(srcTauri, "Cargo.toml");
  if ((await pathKind(manifest)) === "file" && staysInside(manifest, root)) {
    const read = readTextFile(manifest, maxBytes);
    if (read.ok) {
      const file = relative(manifest);
      const crates = new Map<string, LockedCrate>();
      const workspace = await workspaceDependencies(folders.slice(1), root, maxBytes);
      for (const [name, requirement] of await dependencyRequirements(read.text, workspace)) {
        const catalog = history.catalogOfCrate(name);
        if (!catalog) continue;
        const version = newestMatching(requirement, history.versions(catalog));
        if (version) crates.set(catalog, { crate: name, version, source: "Cargo.toml", file });
      }
      return { crates, source: { kind: "Cargo.toml", file } };
    }
  }
  return { crates: new Map() };
}

/** An app's Cargo.lock: where it is and its packages. */
export interface AppLock {
  file: string;
  packages: readonly LockedPackage[];
}

/** Work counters for tests (never timed): Cargo.lock searches made (each probes, resolves and reads). */
export const cargoWork = { lockSearches: 0 };

/**
 * The app's lock: the first `Cargo.lock` of `folders` (nearest first) that is a readable file inside
 * `root`. The build and the versions both look for it: one load probes, resolves and reads its lock
 * once, and the next load looks again (see `memoPerLoad`).
 */
export function appLock(
  folders: readonly string[],
  root: string,
  maxBytes: number,
): Promise<AppLock | undefined> {
  return locksPerLoad(`${maxBytes}\0${root}\0${folders.join("\0")}`, () =>
    searchLock(folders, root, maxBytes),
  );
}

const locksPerLoad = memoPerLoad<Promise<AppLock | undefined>>();

async function searchLock(
  folders: readonly string[],
  root: string,
  maxBytes: number,
): Promise<AppLock | undefined> {
  cargoWork.lockSearches++;
  for (const dir of folders) {
    const file = path.join(dir, "Cargo.lock");
    if ((await pathKind(file)) !== "file" || !staysInside(file, root)) continue;
    const read = readTextFile(file, maxBytes);
    if (read.ok) return { file, packages: lockedPackagesOf(read.text) };
  }
  return undefined;
}

export interface LockedPackage {
  name: string;
  version: string;
  /** `registry+…`, `git+…#commit`; none for a path dependency or a workspace member. */
  source?: string;
}

/**
 * Each lock text read once: the build and the versions both read the app's lock, and the apps of a
 * monorepo pinned to the same releases often commit the same one. Callers never change the list.
 */
const lockTexts = new BoundedMemo<string, readonly LockedPackage[]>(32);

/** {@link lockedPackages} of a lock text, shared with every earlier read of the same text. */
export function lockedPackagesOf(text: string): readonly LockedPackage[] {
  return lockTexts.get(text, () => {
    work.lockFilesParsed++;
    return lockedPackages(text);
  });
}

/**
 * `[[package]]` entries of a Cargo.lock, read line by line (the format is generated and regular;
 * linear in the file's size whatever it holds).
 */
export function lockedPackages(text: string): LockedPackage[] {
  const packages: LockedPackage[] = [];
  let current: { name?: string; version?: string; source?: string } | undefined;
  const flush = () => {
    if (current?.name !== undefined && current.version !== undefined)
      packages.push({
        name: current.name,
        version: current.version,
        ...(current.source !== undefined ? { source: current.source } : {}),
      });
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      flush();
      current = line === "[[package]]" ? {} : undefined;
      continue;
    }
    if (!current) continue;
    const match = /^(name|version|source)\s*=\s*"([^"]*)"\s*$/.exec(line);
    if (match) current[match[1] as "name" | "version" | "source"] = match[2]!;
  }
  flush();
  return packages;
}

type Toml = Record<string, unknown>;

async function parseTomlText(text: string): Promise<Toml | undefined> {
  const { parseToml } = await import("../../core/source/toml.js");
  const parsed = parseToml(text);
  return isPlainObject(parsed.value) ? parsed.value : undefined;
}

/** `[workspace.dependencies]` of the nearest workspace root above the app, for `dep = { workspace = true }`. */
async function workspaceDependencies(
  folders: string[],
  root: string,
  maxBytes: number,
): Promise<Toml> {
  for (const dir of folders) {
    const file = path.join(dir, "Cargo.toml");
    if ((await pathKind(file)) !== "file" || !staysInside(file, root)) continue;
    const read = readTextFile(file, maxBytes);
    if (!read.ok) continue;
    const toml = await parseTomlText(read.text);
    const workspace = toml && isPlainObject(toml.workspace) ? toml.workspace : undefined;
    if (workspace) return isPlainObject(workspace.dependencies) ? workspace.dependencies : {};
  }
  return {};
}

/** Version requirements of the app's dependencies (any target); git and path dependencies have none. */
async function dependencyRequirements(text: string, workspace: Toml): Promise<Map<string, string>> {
  const toml = await parseTomlText(text);
  const out = new Map<string, string>();
  if (!toml) return out;
  const tables: unknown[] = [toml.dependencies];
  if (isPlainObject(toml.target))
    for (const target of Object.values(toml.target))
      if (isPlainObject(target)) tables.push(target.dependencies);
  const requirementOf = (value: unknown, name: string): string | undefined => {
    if (typeof value === "string") return value;
    if (!isPlainObject(value)) return undefined;
    if (value.workspace === true) return requirementOf(workspace[name], name);
    return typeof value.version === "string" ? value.version : undefined;
  };
  for (const table of tables) {
    if (!isPlainObject(table)) continue;
    for (const [key, value] of Object.entries(table)) {
      const name = isPlainObject(value) && typeof value.package === "string" ? value.package : key;
      const requirement = requirementOf(value, key);
      if (requirement !== undefined && !out.has(name)) out.set(name, requirement);
    }
  }
  return out;
}
