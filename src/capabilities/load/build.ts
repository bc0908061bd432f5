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
import { readdirSync } from "node:fs";
import { noteRead } from "../../core/source/read-log.js";
import { TARGETS, type Capability } from "../model/types.js";
import { targetKeyApplies, type BuildTarget, type Truth } from "./cfg.js";
import { appLock, searchFolders, staysInside, type LockedPackage } from "./cargo.js";
import { newestMatching } from "../catalog/versions.js";

/**
 * Whether a target's build sees a plugin: `yes`; `maybe` (behind a cfg predicate caplint cannot
 * decide for the whole platform); `feature` (an optional dependency the default features leave
 * out); `no`.
 */
export type Presence = "yes" | "maybe" | "feature" | "no";

const RANK: Record<Presence, number> = { no: 0, feature: 1, maybe: 2, yes: 3 };

/** A path dependency's `dir` is unknown when only the lock names it (a lock entry without `source`). */
export type PluginSource =
  | { kind: "registry" }
  | { kind: "git"; url: string }
  | { kind: "path"; dir?: string; inside: boolean };

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
  /**
   * What in the repository says the app builds for android or iOS (committed `gen/android`, platform
   * configs, CI workflows, Cargo target tables), in the order found; capabilities add theirs in
   * `shippedTargets`.
   */
  mobileEvidence: Partial<Record<MobileTarget, TargetEvidence[]>>;
  /** The repository root (absolute): no file above it is read. */
  root: string;
}

export type MobileTarget = "android" | "iOS";

/**
 * One piece of evidence that the app ships a target. `certain`: only a build for that target makes or
 * needs it (a generated project, a platform config, a CI job that builds it, a capability naming it);
 * otherwise it only suggests the target (a Cargo target table that leaves a dependency out of it, which
 * `tauri add` writes for every desktop-only plugin).
 */
export interface TargetEvidence {
  /** What was found, in words a finding can quote ("src-tauri/gen/android is committed"). */
  says: string;
  certain: boolean;
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
export async function readAppBuild(
  srcTauri: string,
  relative: (absolute: string) => string,
  maxBytes: number,
): Promise<AppBuild | undefined> {
  const folders = await searchFolders(srcTauri);
  const root = folders[folders.length - 1]!;
  const lock = await appLock(folders, root, maxBytes);
  const manifestFile = path.join(srcTauri, "Cargo.toml");
  const manifest = await readToml(manifestFile, root, maxBytes);
  const mobileEvidence = await repositoryMobileEvidence(
    srcTauri,
    root,
    manifest,
    relative,
    maxBytes,
  );
  if (manifest && isPlainObject(manifest.package)) {
    const workspace = await workspaceRoot(folders.slice(1), root, maxBytes);
    const plugins = dependencyPlugins(manifest, srcTauri, workspace, lock?.packages ?? [], root);
    if (plugins)
      return { kind: "Cargo.toml", file: relative(manifestFile), plugins, mobileEvidence, root };
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
    return { kind: "Cargo.lock", file: relative(lock.file), plugins, mobileEvidence, root };
  }
  return undefined;
}

interface WorkspaceRoot {
  dir: string;
  dependencies: Toml;
}

async function workspaceRoot(
  folders: string[],
  root: string,
  maxBytes: number,
): Promise<WorkspaceRoot | undefined> {
  for (const dir of folders) {
    const toml = await readToml(path.join(dir, "Cargo.toml"), root, maxBytes);
    if (toml && isPlainObject(toml.workspace)) {
      return {
        dir,
        dependencies: isPlainObject(toml.workspace.dependencies) ? toml.workspace.dependencies : {},
      };
    }
  }
  return undefined;
}

function everywhere(presence: Presence): Record<BuildTarget, Presence> {
  return Object.fromEntries(TARGETS.map((target) => [target, presence])) as Record<
    BuildTarget,
    Presence
  >;
}

function presenceOf(applies: Truth, enabled: boolean): Presence {
  if (applies === false) return "no";
  if (!enabled) return "feature";
  return applies === true ? "yes" : "maybe";
}

/** The plugin dependencies of an app crate's manifest; undefined when it has no `tauri` dependency (not the app crate). */
function dependencyPlugins(
  manifest: Toml,
  manifestDir: string,
  workspace: WorkspaceRoot | undefined,
  locked: readonly LockedPackage[],
  root: string,
) {
  const tables: Array<{ name: string; table: Toml; applies: (target: BuildTarget) => Truth }> = [];
  if (isPlainObject(manifest.dependencies))
    tables.push({ name: "dependencies", table: manifest.dependencies, applies: () => true });
  if (isPlainObject(manifest.target)) {
    for (const [key, target] of Object.entries(manifest.target)) {
      if (isPlainObject(target) && isPlainObject(target.dependencies)) {
        tables.push({
          name: `target.'${key}'.dependencies`,
          table: target.dependencies,
          applies: (t) => targetKeyApplies(key, t),
        });
      }
    }
  }
  const features = new DefaultFeatures(isPlainObject(manifest.features) ? manifest.features : {});
  const plugins = new Map<string, BuildDependency>();
  let hasHost = false;
  for (const { name: tableName, table, applies } of tables) {
    for (const [declaredAs, written] of Object.entries(table)) {
      const inherited =
        isPlainObject(written) && written.workspace === true
          ? workspace?.dependencies[declaredAs]
          : undefined;
      const value: unknown =
        inherited === undefined
          ? written
          : typeof inherited === "string"
            ? { ...(written as Toml), version: inherited }
            : { ...(inherited as Toml), ...(written as Toml) };
      const crate =
        isPlainObject(value) && typeof value.package === "string" ? value.package : declaredAs;
      if (crate === "tauri" || crate === "host") hasHost = true;
      if (!PLUGIN_CRATE.test(crate) && !(isPlainObject(value) && typeof value.path === "string"))
        continue;
      const baseDir = inherited !== undefined && workspace ? workspace.dir : manifestDir;
      const optional = isPlainObject(value) && value.optional === true;
      const enabled = !optional || features.enables(declaredAs);
      const requirement =
        typeof value === "string"
          ? value
          : isPlainObject(value) && typeof value.version === "string"
            ? value.version
            : undefined;
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
      if (
        declared?.kind === "path" &&
        plugin.source.kind === "path" &&
        plugin.source.dir === undefined
      )
        plugin.source = declared;
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

function lockedFor(
  crate: string,
  requirement: string | undefined,
  locked: readonly LockedPackage[],
): LockedPackage | undefined {
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
function lockedSource(
  locked: LockedPackage | undefined,
  declared: PluginSource | undefined,
): PluginSource {
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
    for (const name of Object.keys(this.features))
      if (name !== "default" && this.closure(name).has(dependency)) return name;
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

/** Where a target's build is what a mobile build writes or reads: its generated project and its platform configs. */
const MOBILE_FILES: Record<MobileTarget, { project: string; configs: string[] }> = {
  android: {
    project: "android",
    configs: ["tauri.android.conf.json", "tauri.android.conf.json5", "Tauri.android.toml"],
  },
  iOS: {
    project: "apple",
    configs: ["tauri.ios.conf.json", "tauri.ios.conf.json5", "Tauri.ios.toml"],
  },
};

/** A CI step that builds or sets up the mobile app (`tauri android build`, `cargo tauri ios build`, the tauri-action's `mobile` input aside). */
const MOBILE_CI_COMMAND: Record<MobileTarget, RegExp> = {
  android: /\btauri(?:[\s:"'-]+|\s+\S+\s+)android\s+(?:build|init|dev)\b/,
  iOS: /\btauri(?:[\s:"'-]+|\s+\S+\s+)ios\s+(?:build|init|dev)\b/,
};

/** A Cargo target key that singles out a mobile platform: `target_os = "android"`, `mobile`, an android or iOS triple. */
const MOBILE_CFG: Record<MobileTarget, RegExp> = {
  android: /target_os\s*=\s*"android"|\bmobile\b|-android(?:eabi)?\b/,
  iOS: /target_os\s*=\s*"ios"|\bmobile\b|-apple-ios\b/,
};

const MAX_WORKFLOWS = 64;

/**
 * `tauri add` writes every desktop-only plugin (updater, autostart …) under this key, in desktop-only
 * apps too: it says nothing about a mobile build. A table written by hand for one mobile target, or
 * one that adds a dependency there, does.
 */
function isDesktopOnlyTemplate(key: string): boolean {
  return key.replace(/\s+/g, "") === 'cfg(not(any(target_os="android",target_os="ios")))';
}

async function repositoryMobileEvidence(
  srcTauri: string,
  root: string,
  manifest: Toml | undefined,
  relative: (absolute: string) => string,
  maxBytes: number,
): Promise<AppBuild["mobileEvidence"]> {
  const evidence: AppBuild["mobileEvidence"] = {};
  const add = (target: MobileTarget, says: string, certain: boolean) =>
    (evidence[target] ??= []).push({ says, certain });
  const workflows = await workflowTexts(root, maxBytes);
  for (const target of ["android", "iOS"] as const) {
    const { project, configs } = MOBILE_FILES[target];
    const dir = path.join(srcTauri, "gen", project);
    if ((await pathKind(dir)) === "directory") add(target, `${relative(dir)} is committed`, true);
    for (const name of configs) {
      const file = path.join(srcTauri, name);
      if ((await pathKind(file)) === "file") add(target, `${relative(file)} configures it`, true);
    }
    for (const { file, text } of workflows)
      if (MOBILE_CI_COMMAND[target].test(text)) add(target, `${relative(file)} builds it`, true);
    const tables = isPlainObject(manifest?.target) ? Object.keys(manifest.target) : [];
    const naming = tables.find(
      (key) => MOBILE_CFG[target].test(key) && !isDesktopOnlyTemplate(key),
    );
    if (naming !== undefined) add(target, `Cargo.toml has a [target.'${naming}'] table`, false);
  }
  return evidence;
}

/** The repository's GitHub workflows (bounded in number and size); nothing outside the repository. */
async function workflowTexts(
  root: string,
  maxBytes: number,
): Promise<Array<{ file: string; text: string }>> {
  const dir = path.join(root, ".github", "workflows");
  if ((await pathKind(dir)) !== "directory" || !staysInside(dir, root)) return [];
  noteRead("folders", dir);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => /\.ya?ml$/.test(name))
      .sort()
      .slice(0, MAX_WORKFLOWS);
  } catch {
    return [];
  }
  const texts: Array<{ file: string; text: string }> = [];
  for (const name of names) {
    const file = path.join(dir, name);
    if ((await pathKind(file)) !== "file" || !staysInside(file, root)) continue;
    const read = readTextFile(file, maxBytes);
    if (read.ok) texts.push({ file, text: read.text });
  }
  return texts;
}

/** Why a target ships: the evidence that decided, and whether it is certain. */
export interface ShippedBecause {
  says: string;
  certain: boolean;
  /** Every piece of evidence found for the target, the deciding one first. */
  evidence: TargetEvidence[];
}

/** A capability's `$schema` that only a mobile build writes (`gen/schemas/mobile-schema.json` …). */
const MOBILE_SCHEMA: Record<MobileTarget, RegExp> = {
  android: /(?:^|[/\\])(?:mobile|android)-schema\.json$/,
  iOS: /(?:^|[/\\])(?:mobile|iOS)-schema\.json$/,
};

/**
 * The targets the app ships: the three desktop platforms, and android or iOS on any evidence the
 * repository holds (`build.mobileEvidence`, a capability whose `platforms` names the target or whose
 * `$schema` is a schema only a mobile build writes). Certain evidence decides before suggestive one.
 */
export function shippedTargets(
  build: AppBuild,
  capabilities: ReadonlyArray<Pick<Capability, "platforms" | "schemaRef" | "source">>,
): Map<BuildTarget, ShippedBecause> {
  const desktop = { says: "desktop", certain: true, evidence: [] };
  const shipped = new Map<BuildTarget, ShippedBecause>([
    ["linux", desktop],
    ["macOS", desktop],
    ["windows", desktop],
  ]);
  for (const target of ["android", "iOS"] as const) {
    const evidence = [...(build.mobileEvidence[target] ?? [])];
    const naming = capabilities.find((capability) =>
      capability.platforms?.some((item) => item.value === target),
    );
    if (naming)
      evidence.push({
        says: `capability file ${naming.source.file} names ${target} in "platforms"`,
        certain: true,
      });
    const schema = capabilities.find(
      (capability) =>
        capability.schemaRef !== undefined && MOBILE_SCHEMA[target].test(capability.schemaRef),
    );
    if (schema)
      evidence.push({
        says: `capability file ${schema.source.file} uses ${schema.schemaRef}, which only a mobile build writes`,
        certain: true,
      });
    if (evidence.length === 0) continue;
    const deciding = evidence.find((piece) => piece.certain) ?? evidence[0]!;
    shipped.set(target, {
      says: deciding.says,
      certain: deciding.certain,
      evidence: [deciding, ...evidence.filter((piece) => piece !== deciding)],
    });
  }
  return shipped;
}
