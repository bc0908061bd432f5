import { readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { Catalog, normalizeManifest } from "../catalog/catalog.js";
import { majoritySpelling, spellingOfManifest, spellManifest } from "../catalog/brand.js";
import { compareManifest, unionManifest, type ManifestDifference } from "../catalog/manifest-compare.js";
import { builtinsAt, historyCatalogOf, isCheckableVersion, loadVersionHistory, type LockedCrate, type VersionHistory } from "../catalog/versions.js";
import { readAppVersions, type AppVersions } from "./cargo.js";
import { loadBuiltinManifests } from "../catalog/builtin.js";
import { APP_KEY, type AclManifests } from "../catalog/types.js";
import { capabilityObjects, toCapability } from "../model/capability.js";
import { isPlainObject } from "../../core/json.js";
import { FileBudget, labelTooLong, limitCapability, LIMITS } from "../model/limits.js";
import { checkAclManifests, checkPermissionFile } from "../catalog/manifest-shape.js";
import { OptionError, requireByteCount, requireString, requireStringList } from "../library-options.js";
import type { JsonPath } from "../../core/location.js";
import type { Capability } from "../model/types.js";
import { SourceDocument, type TomlParser } from "../../core/source/document.js";
import { DEFAULT_MAX_FILE_BYTES, leavesRoot, pathKind, readTextFile, walk, type OutsideLink } from "../../core/source/read.js";
import { FatalError } from "../../core/errors.js";
import { manifestFromPermissionFiles } from "./permission-files.js";

export const CAPABILITY_EXTENSIONS = [".json", ".toml"] as const;
/** `tauri.conf.json` and its platform variants (`tauri.linux.conf.json` …): app configs, never capability files. */
export const HOST_CONFIG_NAME = /^tauri(\.[A-Za-z]+)?\.conf\.json$/;

export interface LoadOptions {
  /** Absolute working directory; reported file names are relative to it. */
  cwd: string;
  /** Capability files or folders. A folder that looks like an app is loaded as one. */
  paths?: string[];
  /** App folder (holding `src-tauri/`, or `src-tauri/` itself). */
  app?: string;
  /** `acl-manifests.json` files. */
  manifests?: string[];
  /** Folders with one sub-folder of permission files per plugin key. */
  plugins?: string[];
  /** Folders with the app's own permission files. */
  permissions?: string[];
  maxFileBytes?: number;
  /** Without paths or `app`: look for an app in `cwd` (default), or, when false, load only the catalog. */
  discover?: boolean;
  /** Texts to use instead of the files' contents (absolute path → text): fixes in progress. */
  sourceOverrides?: ReadonlyMap<string, string>;
}

export interface LoadProblem {
  file: string;
  absolutePath: string;
  message: string;
  /** Where in the file, when the problem is one value (a list over its bound, a definition of the wrong shape). */
  path?: JsonPath;
  /** The parsed file the path is in, when it is not a capability file (a manifest). */
  document?: SourceDocument;
}

type ProblemSink = (absolutePath: string, message: string, at?: JsonPath, document?: SourceDocument) => void;

export interface WindowDecl {
  label: string;
  /** Path of the window object in the config document. */
  path: (string | number)[];
}

export interface AppConfig {
  document: SourceDocument;
  windows: WindowDecl[];
  /** `app.security.capabilities`; empty means every capability file is used. */
  capabilityRefs: Array<{ identifier: string; path: (string | number)[] }>;
  inlineCapabilities: Capability[];
}

export interface Project {
  cwd: string;
  /** The `src-tauri` folder, in app mode. */
  srcTauri?: string;
  documents: SourceDocument[];
  problems: LoadProblem[];
  /** Files in capability folders the host does not load (wrong extension). */
  skippedFiles: string[];
  /** Symbolic links in the app or a folder given whose target leaves it: never read. */
  outsideLinks: OutsideLink[];
  capabilities: Capability[];
  /** Capabilities the build uses: all, or those listed in `app.security.capabilities`. */
  activeCapabilities: Capability[];
  catalog: Catalog;
  config?: AppConfig;
  /** The host and plugin versions the app builds with (app mode). */
  versions?: AppVersions;
  /** Said once per run, not per finding (e.g. that no Cargo.lock was found). */
  notes: string[];
  /** Generated manifests read, for positions of manifest-mismatch findings. */
  manifestDocuments: SourceDocument[];
  /** Where a manifest's official plugins differ from the built-in catalog of the locked release. */
  manifestDifferences: Array<ManifestDifference & { file: string; absolutePath: string }>;
  /** Every input file and folder, for watch mode. */
  inputs: string[];
}

/** Finds the `src-tauri` folder of an app folder, or undefined when `dir` is not an app. */
export async function findSrcTauri(dir: string): Promise<string | undefined> {
  if ((await pathKind(path.join(dir, "src-tauri"))) === "directory") return path.join(dir, "src-tauri");
  if ((await pathKind(path.join(dir, "capabilities"))) === "directory" || (await pathKind(path.join(dir, "tauri.conf.json"))) === "file") return dir;
  return undefined;
}

export function relativeFile(cwd: string, absolute: string): string {
  const rel = path.relative(cwd, absolute);
  const chosen = rel === "" ? "." : rel.startsWith("..") && path.isAbsolute(absolute) && rel.split(path.sep).filter((p) => p === "..").length > 3 ? absolute : rel;
  return chosen.split(path.sep).join("/");
}

export async function loadProject(options: LoadOptions): Promise<Project> {
  if (typeof options !== "object" || options === null) throw new OptionError("loadProject: expected an options object with at least cwd");
  if (typeof options.cwd !== "string" || !path.isAbsolute(options.cwd)) throw new OptionError(`cwd: expected an absolute folder path, got ${JSON.stringify(options.cwd) ?? "nothing"}`);
  for (const name of ["paths", "manifests", "plugins", "permissions"] as const) requireStringList(name, options[name]);
  requireString("app", options.app);
  requireByteCount("maxFileBytes", options.maxFileBytes);
  if (options.discover !== undefined && typeof options.discover !== "boolean") throw new OptionError(`discover: expected true or false, got ${JSON.stringify(options.discover)}`);
  const cwd = options.cwd;
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const resolve = (p: string) => path.resolve(cwd, p);
  const project: Project = {
    cwd,
    documents: [],
    problems: [],
    skippedFiles: [],
    outsideLinks: [],
    capabilities: [],
    activeCapabilities: [],
    catalog: new Catalog(),
    inputs: [],
    notes: [],
    manifestDocuments: [],
    manifestDifferences: [],
  };
  const problem: ProblemSink = (absolutePath, message, at, document) =>
    project.problems.push({ file: relativeFile(cwd, absolutePath), absolutePath, message, ...(at ? { path: at } : {}), ...(document ? { document } : {}) });

  const capabilityFiles: string[] = [];
  const addWalk = async (dir: string, ignoreName?: (name: string) => boolean, boundary = dir) => {
    const result = await walk(dir, CAPABILITY_EXTENSIONS, ignoreName, boundary);
    capabilityFiles.push(...result.files);
    project.outsideLinks.push(...result.outside);
    // Only a capabilities folder's other files are ones the build would have skipped; any other
    // folder given on the command line may hold anything.
    project.skippedFiles.push(...result.skipped.filter((file) => path.relative(cwd, file).split(path.sep).includes("capabilities")));
    for (const p of result.problems) problem(p.file, p.message);
  };

  const paths = options.paths ?? [];
  let srcTauri: string | undefined;
  if (options.app !== undefined) {
    const appDir = resolve(options.app);
    if ((await pathKind(appDir)) !== "directory") throw new FatalError(`--app ${options.app}: no such folder`);
    srcTauri = await findSrcTauri(appDir);
    if (!srcTauri) throw new FatalError(`--app ${options.app}: not an app folder (no src-tauri/, capabilities/ or tauri.conf.json)`);
  } else if (paths.length === 0) {
    srcTauri = await findSrcTauri(cwd);
    if (!srcTauri && options.discover !== false) {
      throw new FatalError("no app here: run caplint in an app folder (with src-tauri/), or pass files, folders or --app DIR");
    }
  }
  for (const given of paths) {
    const absolute = resolve(given);
    // Standard input (`check -`) arrives as an override of a file that need not exist.
    const kind = options.sourceOverrides?.has(absolute) ? "file" : await pathKind(absolute);
    if (kind === "missing") throw new FatalError(`${given}: no such file or directory`);
    project.inputs.push(absolute);
    if (kind === "file" && HOST_CONFIG_NAME.test(path.basename(absolute))) {
      // A host config is no capability file: passing it (as pre-commit does when it changes) means
      // "check this app". The first one selects the app; another app's config adds its capabilities.
      const appSrc = await findSrcTauri(path.dirname(absolute));
      if (!srcTauri && appSrc) srcTauri = appSrc;
      else if (appSrc && appSrc !== srcTauri && (await pathKind(path.join(appSrc, "capabilities"))) === "directory") {
        await addWalk(path.join(appSrc, "capabilities"), undefined, appRootOf(appSrc));
      }
    } else if (kind === "file") capabilityFiles.push(absolute);
    else if (kind === "other") throw new FatalError(`${given}: not a regular file or folder`);
    else {
      const appSrc = srcTauri ? undefined : await findSrcTauri(absolute);
      if (appSrc && paths.length === 1) srcTauri = appSrc;
      else await addWalk(absolute, isWellKnownNonCapability);
    }
  }

  // Catalog: built-ins (as of the releases the app locks), then the app's generated manifest, then given
  // manifests and permission folders.
  const history = await loadVersionHistory();
  const releases = srcTauri ? await appReleases(srcTauri, history, cwd, maxBytes, project) : undefined;
  const builtins = releases ? builtinsAt(await loadBuiltinManifests(), history, releases) : await loadBuiltinManifests();
  project.catalog.add(builtins, { origin: "builtin" });
  if (releases) project.catalog.useVersions(history, releases);
  const addManifest = async (absolute: string) => {
    const file = relativeFile(cwd, absolute);
    const { manifests, document } = await readManifestFile(absolute, cwd, maxBytes, problem);
    project.catalog.add(checkedAgainstBuiltins(manifests, builtins, { history, releases, file, absolutePath: absolute, project }), { origin: "manifest", file });
    project.manifestDocuments.push(document);
    project.inputs.push(absolute);
  };
  if (srcTauri) {
    project.srcTauri = srcTauri;
    const capDir = path.join(srcTauri, "capabilities");
    project.inputs.push(capDir);
    const appRoot = appRootOf(srcTauri);
    if ((await pathKind(capDir)) === "directory") await addWalk(capDir, undefined, appRoot);
    const generated = path.join(srcTauri, "gen", "schemas", "acl-manifests.json");
    if ((await pathKind(generated)) === "file" && !(await outsideApp(generated, appRoot, project))) await addManifest(generated);
  }
  for (const file of options.manifests ?? []) await addManifest(resolve(file));

  let toml: TomlParser | undefined;
  const tomlParser = async () => (toml ??= (await import("../../core/source/toml.js")).parseToml);
  const parseFile = async (absolute: string): Promise<SourceDocument | undefined> => {
    const override = options.sourceOverrides?.get(absolute);
    const read = override !== undefined ? { ok: true as const, text: override } : readTextFile(absolute, maxBytes);
    if (!read.ok) {
      problem(absolute, read.message);
      return undefined;
    }
    const format = absolute.endsWith(".toml") ? "toml" : "json";
    const invalidUtf8At = "invalidUtf8At" in read ? read.invalidUtf8At : undefined;
    return SourceDocument.parse(absolute, relativeFile(cwd, absolute), read.text, format, format === "toml" ? await tomlParser() : undefined, invalidUtf8At);
  };

  for (const dir of options.plugins ?? []) {
    const absolute = resolve(dir);
    if ((await pathKind(absolute)) !== "directory") throw new FatalError(`--plugins ${dir}: no such folder`);
    project.inputs.push(absolute);
    const manifests: AclManifests = {};
    for (const entry of (await readdir(absolute, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!entry.isDirectory()) continue;
      // A plugin's key is its crate name without the `tauri-plugin-` prefix, as the host derives it.
      const key = entry.name.replace(/^(tauri|host)-plugin-/, "");
      manifests[key] = await permissionFolderManifest(path.join(absolute, entry.name), parseFile, problem, project, absolute);
    }
    project.catalog.add(manifests, { origin: "plugins-dir", file: relativeFile(cwd, absolute) });
  }
  const appPermissionDirs = (options.permissions ?? []).map(resolve);
  if (srcTauri && appPermissionDirs.length === 0) {
    const discovered = path.join(srcTauri, "permissions");
    if ((await pathKind(discovered)) === "directory") appPermissionDirs.push(discovered);
  }
  for (const dir of appPermissionDirs) {
    if ((await pathKind(dir)) !== "directory") throw new FatalError(`--permissions ${relativeFile(cwd, dir)}: no such folder`);
    project.inputs.push(dir);
    const manifest = await permissionFolderManifest(dir, parseFile, problem, project, options.permissions?.length ? dir : srcTauri && appRootOf(srcTauri));
    const hasAny = manifest.default_permission || Object.keys(manifest.permissions).length || Object.keys(manifest.permission_sets).length;
    if (hasAny) project.catalog.add({ [APP_KEY]: manifest }, { origin: "app-permissions", file: relativeFile(cwd, dir) });
  }

  // Files are read concurrently; results keep the discovery order, so output stays deterministic.
  const documents = await mapConcurrently([...new Set(capabilityFiles)], READ_CONCURRENCY, parseFile);
  for (const document of documents) {
    if (!document) continue;
    project.documents.push(document);
    if (!document.ok) continue;
    const budget = new FileBudget();
    for (const object of capabilityObjects(document.value)) {
      const capability = toCapability(object, { file: document.file, absolutePath: document.absolutePath });
      if (!capability) continue;
      for (const over of limitCapability(capability, budget)) problem(document.absolutePath, over.message, over.path);
      project.capabilities.push(capability);
    }
  }

  if (srcTauri) project.config = await loadAppConfig(srcTauri, cwd, maxBytes, problem, project);
  if (project.config) limitConfig(project.config, problem);
  project.activeCapabilities = selectActive(project.capabilities, project.config);
  if (project.config) project.capabilities.push(...project.config.inlineCapabilities);
  if (!project.catalog.spellingFixed) {
    const spelling = majoritySpelling(project.capabilities.flatMap((capability) => capability.permissions.map((entry) => entry.identifier)));
    if (spelling) project.catalog.useSpelling(spelling);
  }
  return project;
}

const READ_CONCURRENCY = 32;

async function mapConcurrently<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** JSON files a user's folder often holds next to capabilities; a capabilities/ folder is walked without this filter, like tauri-build does. */
function isWellKnownNonCapability(name: string): boolean {
  return /^(caplint\.config|package|package-lock|tsconfig|tauri(\.[\w-]+)?\.conf|acl-manifests)\.json$/.test(name);
}

function selectActive(capabilities: Capability[], config: AppConfig | undefined): Capability[] {
  if (!config || config.capabilityRefs.length === 0 && config.inlineCapabilities.length === 0) return [...capabilities];
  const listed = new Set(config.capabilityRefs.map((ref) => ref.identifier));
  return [...capabilities.filter((c) => listed.has(c.identifier)), ...config.inlineCapabilities];
}

/** The folder an app's files must stay in: the one holding `src-tauri/` (or `src-tauri/` itself when that is all there is). */
function appRootOf(srcTauri: string): string {
  return path.basename(srcTauri) === "src-tauri" ? path.dirname(srcTauri) : srcTauri;
}

/** Records `file` as an outside link when its real path leaves the app; such a file is never read. */
async function outsideApp(file: string, appRoot: string, project: Project): Promise<boolean> {
  const target = await leavesRoot(file, await realpath(appRoot).catch(() => appRoot));
  if (target !== undefined) project.outsideLinks.push({ file, target });
  return target !== undefined;
}

async function permissionFolderManifest(
  dir: string,
  parseFile: (file: string) => Promise<SourceDocument | undefined>,
  problem: ProblemSink,
  project: Project,
  boundary: string = dir,
) {
  const { files, problems, outside } = await walk(dir, [".toml", ".json"], undefined, boundary);
  project.outsideLinks.push(...outside);
  for (const p of problems) problem(p.file, p.message);
  const values: unknown[] = [];
  for (const file of files) {
    const document = await parseFile(file);
    if (!document) continue;
    if (!document.ok) problem(file, document.parseError!.message);
    else {
      for (const p of checkPermissionFile(document.value)) problem(file, `${p.message} (the host's build rejects this permission file)`, p.path, document);
      values.push(document.value);
    }
  }
  return manifestFromPermissionFiles(values);
}

/**
 * A generated `acl-manifests.json`. Unreadable or not JSON: fatal (nothing can be checked against
 * it). A definition of the wrong shape: a finding at its place (through `problem`), the rest is used.
 */
async function readManifestFile(file: string, cwd: string, maxBytes: number, problem: ProblemSink): Promise<{ manifests: AclManifests; document: SourceDocument }> {
  const read = readTextFile(file, maxBytes);
  const name = relativeFile(cwd, file);
  if (!read.ok) throw new FatalError(`${name}: ${read.message}`);
  const document = SourceDocument.parse(file, name, read.text, "json", undefined, read.invalidUtf8At);
  if (!document.ok) throw new FatalError(`${name}: ${document.parseError!.message}`);
  const { manifests, problems } = checkAclManifests(document.value);
  for (const p of problems) problem(file, `${p.message} (the host's build rejects this manifest)`, p.path, document);
  return { manifests, document };
}

/**
 * The host and official-plugin releases the app builds with, for every history catalog: from its
 * Cargo.lock (or Cargo.toml), else the newest, which one note says once.
 */
async function appReleases(srcTauri: string, history: VersionHistory, cwd: string, maxBytes: number, project: Project): Promise<Map<string, LockedCrate>> {
  const found = await readAppVersions(srcTauri, history, (absolute) => relativeFile(cwd, absolute), maxBytes);
  project.versions = found;
  const releases = new Map<string, LockedCrate>();
  const unchecked: string[] = [];
  for (const catalog of history.catalogs()) {
    const locked = found.crates.get(catalog);
    if (locked && isCheckableVersion(locked.version)) releases.set(catalog, locked);
    else {
      if (locked) unchecked.push(`${locked.crate} ${locked.version}`);
      releases.set(catalog, { crate: history.crateOf(catalog)!, version: history.newest(catalog)!, source: "newest" });
    }
  }
  if (!found.source) {
    project.notes.push("no Cargo.lock or Cargo.toml found for the app: identifiers were checked against the newest host and plugin releases");
  } else if (found.source.kind === "Cargo.toml") {
    project.notes.push(`no Cargo.lock found: identifiers were checked against the newest releases ${found.source.file} allows`);
  }
  if (unchecked.length) project.notes.push(`${unchecked.join(", ")}: not a 2.x release the version history covers; checked against the newest catalog`);
  return releases;
}

/**
 * A manifest's official plugins compared with the built-in catalog of the locked release: differences
 * become manifest-mismatch findings, and the catalog takes the union of both definitions.
 */
function checkedAgainstBuiltins(
  manifests: AclManifests,
  builtins: AclManifests,
  context: { history: VersionHistory; releases: ReadonlyMap<string, LockedCrate> | undefined; file: string; absolutePath: string; project: Project },
): AclManifests {
  const out: AclManifests = {};
  for (const [key, raw] of Object.entries(manifests)) {
    const reference = Object.prototype.hasOwnProperty.call(builtins, key) ? builtins[key] : undefined;
    if (!reference) {
      out[key] = raw;
      continue;
    }
    const spelling = spellingOfManifest(key, raw) ?? "host";
    const manifest = spellManifest(key, normalizeManifest(raw), "host");
    const locked = context.releases?.get(historyCatalogOf(key));
    const differences = compareManifest(key, manifest, reference, { history: context.history, ...(locked && locked.source !== "newest" ? { locked } : {}) });
    for (const difference of differences) context.project.manifestDifferences.push({ ...difference, file: context.file, absolutePath: context.absolutePath });
    out[key] = spellManifest(key, unionManifest(manifest, reference), spelling);
  }
  return out;
}

/**
 * The per-value bounds of capability files, applied to tauri.conf.json too: its inline capabilities
 * (`app.security.capabilities`) share one budget as a file's capabilities do, and an over-long window
 * label is left out (matching costs pattern × label length), each reported at its value.
 */
function limitConfig(config: AppConfig, problem: ProblemSink): void {
  const budget = new FileBudget();
  for (const capability of config.inlineCapabilities) {
    for (const over of limitCapability(capability, budget)) problem(config.document.absolutePath, over.message, over.path);
  }
  config.windows = config.windows.filter((window) => {
    if (window.label.length <= LIMITS.labelLength) return true;
    problem(config.document.absolutePath, labelTooLong(window.label.length), [...window.path, "label"]);
    return false;
  });
}

/** Reads `tauri.conf.json` next to (or above) the capabilities folder. */
async function loadAppConfig(
  srcTauri: string,
  cwd: string,
  maxBytes: number,
  problem: (file: string, message: string) => void,
  project: Project,
): Promise<AppConfig | undefined> {
  const candidates = [path.join(srcTauri, "tauri.conf.json"), path.join(path.dirname(srcTauri), "tauri.conf.json")];
  for (const file of candidates) {
    if ((await pathKind(file)) !== "file") continue;
    if (await outsideApp(file, path.dirname(srcTauri), project)) return undefined;
    const read = readTextFile(file, maxBytes);
    if (!read.ok) {
      problem(file, read.message);
      return undefined;
    }
    const document = SourceDocument.parse(file, relativeFile(cwd, file), read.text, "json", undefined, read.invalidUtf8At);
    if (!document.ok) {
      problem(file, `${document.parseError!.message} (tauri.conf.json is ignored)`);
      return undefined;
    }
    return appConfigFrom(document);
  }
  return undefined;
}

export function appConfigFrom(document: SourceDocument): AppConfig {
  const config: AppConfig = { document, windows: [], capabilityRefs: [], inlineCapabilities: [] };
  const root = document.value;
  const app = isPlainObject(root) && isPlainObject(root.app) ? root.app : undefined;
  if (!app) return config;
  if (Array.isArray(app.windows)) {
    app.windows.forEach((window, index) => {
      if (!isPlainObject(window)) return;
      // A window without a label is created as "main".
      const label = typeof window.label === "string" ? window.label : "main";
      config.windows.push({ label, path: ["app", "windows", index] });
    });
  }
  const security = isPlainObject(app.security) ? app.security : undefined;
  if (security && Array.isArray(security.capabilities)) {
    security.capabilities.forEach((item, index) => {
      const itemPath = ["app", "security", "capabilities", index];
      if (typeof item === "string") config.capabilityRefs.push({ identifier: item, path: itemPath });
      else if (isPlainObject(item)) {
        const capability = toCapability({ path: itemPath, value: item }, { file: document.file, absolutePath: document.absolutePath, inline: true });
        if (capability) config.inlineCapabilities.push(capability);
      }
    });
  }
  return config;
}
