/**
 * The app's build, per target: which plugins each target's build sees. tauri-build reads the
 * permissions of the app crate's direct dependencies only (Cargo passes a plugin's `links` metadata
 * to direct dependents), so a plugin granted in a capability but missing from the dependencies of
 * that target fails the build ("Permission opener:allow-open-path not found").
 *
 * Read: the app crate's Cargo.toml (renamed dependencies, `workspace = true` from the workspace
 * root, optional dependencies and the default features, `[target.'cfg(…)'.dependencies]`), and its
 * Cargo.lock (versions, git and path sources). With a lock but no Cargo.toml the lock alone says
 * which plugin crates exist at all. Nothing is read outside the repository.
 */
import path from "node:path";
import { isPlainObject } from "../../core/json.js";
import { pathKind, readTextFile } from "../../core/source/read.js";
import { TARGETS } from "../model/types.js";
import { targetKeyApplies, type BuildTarget, type Truth } from "./cfg.js";
import { lockedPackages, searchFolders, staysInside, type LockedPackage } from "./cargo.js";
import { newestMatching } from "../catalog/versions.js";

/**
 * Whether a target's build sees a plugin: `yes`; `maybe` (behind a cfg predicate caplint cannot
 * decide for the whole platform); `feature` (an optional dependency the default features leave
 * out); `no`.
 */
export type Presence = "yes" | "maybe" | "feature" | "no";

const RANK: Record<Presence, number> = { no: 0, feature: 1, maybe: 2, yes: 3 };

/** A path dependency's `dir` is unknown when only the lock names it (a lock entry without `source`). */
export type PluginSource = { kind: "registry" } | { kind: "git"; url: string } | { kind: "path"; dir?: string; inside: boolean };

export interface BuildDependency {
  /** The manifest key the build gives it: the crate (or its `links`) without `tauri-plugin-`. */
  key: string;
  /** The package name (after a rename). */
  crate: string;
  /** The name it has in Cargo.toml (`opener = { package = "tauri-plugin-opener" }`: `opener`). */
  declaredAs: string;
  source: PluginSource;
  /** The locked version, when a lock names it. */
  version?: string;
  presence: Record<BuildTarget, Presence>;
  /** The dependency tables that declare it (`dependencies`, `target.'cfg(…)'.dependencies`). */
  tables: string[];
  /** A feature that turns on an optional dependency the default features leave out. */
  feature?: string;
}

export interface AppBuild {
  /** Where the dependencies come from: the app crate's Cargo.toml, or only its lock. */
  kind: "Cargo.toml" | "Cargo.lock";
  /** That file, relative to the working directory. */
  file: string;
  /** Plugin dependencies by manifest key. */
  plugins: Map<string, BuildDependency>;
  /** Committed mobile projects (`gen/android`, `gen/apple`), relative: the app builds for these too. */
  mobileProjects: Partial<Record<"android" | "iOS", string>>;
  /** The repository root (absolute): no file above it is read. */
  root: string;
}

/** The key tauri-build derives from a crate (or `links`) name. */
export function pluginKeyOf(crate: string): string {
  return crate
    .toLowerCase()
    .replace(/_/g, "-")
    .replace(/^(tauri|host)-plugin-/, "");
}

const PLUGIN_CRATE = /^(tauri|host)-plugin-./;

type Toml = Record<string, unknown>;

async function parseTomlText(text: string): Promise<Toml | undefined> {
  const { parseToml } = await import("../../core/source/toml.js");
  const parsed = parseToml(text);
  return isPlainObject(parsed.value) ? parsed.value : undefined;
}

async function readToml(file: string, root: string, maxBytes: number): Promise<Toml | undefined> {
  if ((await pathKind(file)) !== "file" || !staysInside(file, root)) return undefined;
  const read = readTextFile(file, maxBytes);
  return read.ok ? parseTomlText(read.text) : undefined;
}

/**
 * The app's build, or undefined when no Cargo file tells it (or the Cargo.toml found is not the app
 * crate's: no `[package]`, or no `tauri` dependency): then the built-in catalogs stand, as before.
 */
export async function readAppBuild(srcTauri: string, relative: (absolute: string) => string, maxBytes: number): Promise<AppBuild | undefined> {
  const folders = await searchFolders(srcTauri);
  const root = folders[folders.length - 1]!;
  const lock = await readLock(folders, root, maxBytes);
  const mobileProjects: AppBuild["mobileProjects"] = {};
  for (const [target, folder] of [
    ["android", "android"],
    ["iOS", "apple"],
  ] as const) {
    const dir = path.join(srcTauri, "gen", folder);
    if ((await pathKind(dir)) === "directory") mobileProjects[target] = relative(dir);
  }
  const manifestFile = path.join(srcTauri, "Cargo.toml");
  const manifest = await readToml(manifestFile, root, maxBytes);
  if (manifest && isPlainObject(manifest.package)) {
    const workspace = await workspaceRoot(folders.slice(1), root, maxBytes);
    const plugins = dependencyPlugins(manifest, srcTauri, workspace, lock?.packages ?? [], root);
    if (plugins) return { kind: "Cargo.toml", file: relative(manifestFile), plugins, mobileProjects, root };
  }
  if (lock && lock.packages.some((p) => p.name === "tauri" || p.name === "host")) {
    // A lock lists every crate any target may build (optional ones included): a plugin crate that
    // is not there is in no build; one that is there may be a transitive dependency only.
    const plugins = new Map<string, BuildDependency>();
    for (const locked of lock.packages) {
      if (!PLUGIN_CRATE.test(locked.name)) continue;
      const key = pluginKeyOf(locked.name);
      if (plugins.has(key)) continue;
      plugins.set(key, {
        key,
        crate: locked.name,
        declaredAs: locked.name,
        source: lockedSource(locked, undefined),
        version: locked.version,
        presence: everywhere("yes"),
        tables: [],
      });
    }
    return { kind: "Cargo.lock", file: relative(lock.file), plugins, mobileProjects, root };
  }
  return undefined;
}

async function readLock(folders: string[], root: string, maxBytes: number): Promise<{ file: string; packages: LockedPackage[] } | undefined> {
  for (const dir of folders) {
    const file = path.join(dir, "Cargo.lock");
    if ((await pathKind(file)) !== "file" || !staysInside(file, root)) continue;
    const read = readTextFile(file, maxBytes);
    if (read.ok) return { file, packages: lockedPackages(read.text) };
  }
  return undefined;
}

interface WorkspaceRoot {
  dir: string;
  dependencies: Toml;
}

async function workspaceRoot(folders: string[], root: string, maxBytes: number): Promise<WorkspaceRoot | undefined> {
  for (const dir of folders) {
    const toml = await readToml(path.join(dir, "Cargo.toml"), root, maxBytes);
    if (toml && isPlainObject(toml.workspace)) {
      return { dir, dependencies: isPlainObject(toml.workspace.dependencies) ? toml.workspace.dependencies : {} };
    }
  }
  return undefined;
}

function everywhere(presence: Presence): Record<BuildTarget, Presence> {
  return Object.fromEntries(TARGETS.map((target) => [target, presence])) as Record<BuildTarget, Presence>;
}

function presenceOf(applies: Truth, enabled: boolean): Presence {
  if (applies === false) return "no";
  if (!enabled) return "feature";
  return applies === true ? "yes" : "maybe";
}

/** The plugin dependencies of an app crate's manifest; undefined when it has no `tauri` dependency (not the app crate). */
function dependencyPlugins(manifest: Toml, manifestDir: string, workspace: WorkspaceRoot | undefined, locked: LockedPackage[], root: string) {
  const tables: Array<{ name: string; table: Toml; applies: (target: BuildTarget) => Truth }> = [];
  if (isPlainObject(manifest.dependencies)) tables.push({ name: "dependencies", table: manifest.dependencies, applies: () => true });
  if (isPlainObject(manifest.target)) {
    for (const [key, target] of Object.entries(manifest.target)) {
      if (isPlainObject(target) && isPlainObject(target.dependencies)) {
        tables.push({ name: `target.'${key}'.dependencies`, table: target.dependencies, applies: (t) => targetKeyApplies(key, t) });
      }
    }
  }
  const features = new DefaultFeatures(isPlainObject(manifest.features) ? manifest.features : {});
  const plugins = new Map<string, BuildDependency>();
  let hasHost = false;
  for (const { name: tableName, table, applies } of tables) {
    for (const [declaredAs, written] of Object.entries(table)) {
      const inherited = isPlainObject(written) && written.workspace === true ? workspace?.dependencies[declaredAs] : undefined;
      const value: unknown =
        inherited === undefined
          ? written
          : typeof inherited === "string"
            ? { ...(written as Toml), version: inherited }
            : { ...(inherited as Toml), ...(written as Toml) };
      const crate = isPlainObject(value) && typeof value.package === "string" ? value.package : declaredAs;
      if (crate === "tauri" || crate === "host") hasHost = true;
      if (!PLUGIN_CRATE.test(crate) && !(isPlainObject(value) && typeof value.path === "string")) continue;
      const baseDir = inherited !== undefined && workspace ? workspace.dir : manifestDir;
      const optional = isPlainObject(value) && value.optional === true;
      const enabled = !optional || features.enables(declaredAs);
      const requirement = typeof value === "string" ? value : isPlainObject(value) && typeof value.version === "string" ? value.version : undefined;
      const lockedPackage = lockedFor(crate, requirement, locked);
      const declared = declaredSource(value, baseDir, root);
      // A path dependency that is no plugin crate by name: only a plugin if its folder says so (read later).
      if (!PLUGIN_CRATE.test(crate) && declared?.kind !== "path") continue;
      const key = pluginKeyOf(crate);
      let plugin = plugins.get(key);
      if (!plugin) {
        plugin = {
          key,
          crate,
          declaredAs,
          source: lockedSource(lockedPackage, declared),
          ...(lockedPackage ? { version: lockedPackage.version } : {}),
          presence: everywhere("no"),
          tables: [],
        };
        plugins.set(key, plugin);
      }
      // A lock entry without a source says "path" but not where: a declaration with its path does.
      if (declared?.kind === "path" && plugin.source.kind === "path" && plugin.source.dir === undefined) plugin.source = declared;
      plugin.tables.push(tableName);
      if (optional && !enabled && plugin.feature === undefined) {
        const feature = features.featureEnabling(declaredAs);
        if (feature !== undefined) plugin.feature = feature;
      }
      for (const target of TARGETS) {
        const presence = presenceOf(applies(target), enabled);
        if (RANK[presence] > RANK[plugin.presence[target]]) plugin.presence[target] = presence;
      }
    }
  }
  return hasHost ? plugins : undefined;
}

function lockedFor(crate: string, requirement: string | undefined, locked: LockedPackage[]): LockedPackage | undefined {
  const candidates = locked.filter((p) => p.name === crate);
  if (candidates.length <= 1 || requirement === undefined) return candidates[0];
  const chosen = newestMatching(
    requirement,
    candidates.map((p) => p.version),
  );
  return candidates.find((p) => p.version === chosen) ?? candidates[0];
}

function declaredSource(value: unknown, baseDir: string, root: string): PluginSource | undefined {
  if (!isPlainObject(value)) return undefined;
  if (typeof value.git === "string") return { kind: "git", url: value.git };
  if (typeof value.path === "string") {
    const dir = path.resolve(baseDir, value.path);
    const relative = path.relative(root, dir);
    return { kind: "path", dir, inside: !relative.startsWith("..") && !path.isAbsolute(relative) };
  }
  return undefined;
}

/** The lock's word wins for git (a `[patch]` may redirect a registry dependency); a path stays a path. */
function lockedSource(locked: LockedPackage | undefined, declared: PluginSource | undefined): PluginSource {
  if (locked?.source?.startsWith("git+")) return { kind: "git", url: locked.source.slice(4) };
  if (declared) return declared;
  // A lock entry without a source is a path dependency or a workspace member.
  if (locked && locked.source === undefined) return { kind: "path", inside: true };
  return { kind: "registry" };
}

/**
 * Which optional dependencies the default features turn on: `default = [...]`, followed through the
 * features it names (`dep:x`, `x`, `x/feature`; `x?/feature` enables nothing by itself).
 */
class DefaultFeatures {
  private readonly enabled = new Set<string>();

  constructor(private readonly features: Toml) {
    this.enabled = this.closure("default");
  }

  enables(dependency: string): boolean {
    return this.enabled.has(dependency);
  }

  /** A feature whose closure turns the dependency on, for the message ("build with --features x"). */
  featureEnabling(dependency: string): string | undefined {
    for (const name of Object.keys(this.features)) if (name !== "default" && this.closure(name).has(dependency)) return name;
    return undefined;
  }

  private closure(start: string): Set<string> {
    const dependencies = new Set<string>();
    const seen = new Set<string>();
    const pending = [start];
    while (pending.length) {
      const name = pending.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      const items = this.features[name];
      if (!Array.isArray(items)) {
        // No such feature: an optional dependency's implicit feature.
        if (name !== start) dependencies.add(name);
        continue;
      }
      for (const item of items) {
        if (typeof item !== "string") continue;
        if (item.startsWith("dep:")) dependencies.add(item.slice(4));
        else if (item.includes("/")) {
          const [dependency] = item.split("/");
          if (!dependency!.endsWith("?")) dependencies.add(dependency!);
        } else pending.push(item);
      }
    }
    return dependencies;
  }
}

/**
 * The targets the app ships: the three desktop platforms, and android or iOS when it builds for them
 * (a committed `gen/android` or `gen/apple`, or a capability whose `platforms` names the target).
 */
export function shippedTargets(build: AppBuild, capabilityPlatforms: Iterable<string>): Map<BuildTarget, string> {
  const shipped = new Map<BuildTarget, string>([
    ["linux", "desktop"],
    ["macOS", "desktop"],
    ["windows", "desktop"],
  ]);
  const named = new Set(capabilityPlatforms);
  for (const target of ["android", "iOS"] as const) {
    const project = build.mobileProjects[target];
    if (project !== undefined) shipped.set(target, `${project} is committed`);
    else if (named.has(target)) shipped.set(target, `a capability names ${target} in "platforms"`);
  }
  return shipped;
}
