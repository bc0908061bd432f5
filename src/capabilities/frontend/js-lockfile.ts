/**
 * Which version of each `@tauri-apps/*` package an app's frontend installs: from its lockfile
 * (package-lock.json v1-v3, pnpm-lock.yaml, yarn.lock v1 and berry, bun.lock), else the range its
 * package.json asks for (`from: "package.json range"`; js-api.ts answers a range with the newest
 * version it allows). The lockfile is the nearest one at or above the frontend's folder, not above
 * `root`; files are read through the project's readers (size limit, UTF-8) and a link out of `root`
 * is never read.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { parse as parseJsonc } from "jsonc-parser";
import { isWithin, leavesRoot, pathKind, readTextFile } from "../../core/source/read.js";

export type JsVersionSource =
  | "package-lock.json"
  | "npm-shrinkwrap.json"
  | "pnpm-lock.yaml"
  | "yarn.lock"
  | "bun.lock"
  | "package.json range";

export interface JsPackageVersion {
  readonly name: string;
  /** A published version (from a lockfile) or the package.json range (`^2.0.0`). */
  readonly version: string;
  readonly from: JsVersionSource;
  /** The file it was read from (absolute). */
  readonly file: string;
}

export interface JsPackageVersions {
  /** package name → its version, for every `@tauri-apps/*` package the frontend's package.json names. */
  readonly packages: ReadonlyMap<string, JsPackageVersion>;
  /** Files that could not be read or understood, in one line each. */
  readonly notes: readonly string[];
}

const LOCKFILES: readonly JsVersionSource[] = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lock",
];
const SCOPE = "@tauri-apps/";

interface Wanted {
  name: string;
  range: string;
}

/** The versions of the `@tauri-apps/*` packages of the frontend whose package.json is in `frontendDir`. */
export async function jsPackageVersions(
  frontendDir: string,
  options: { root: string; maxBytes: number },
): Promise<JsPackageVersions> {
  const notes: string[] = [];
  const rootReal = realOr(options.root);
  const read = async (file: string): Promise<string | undefined> => {
    if ((await pathKind(file)) !== "file") return undefined;
    if (await leavesRoot(file, rootReal)) {
      notes.push(`${file}: a link out of the project; not read`);
      return undefined;
    }
    const result = readTextFile(file, options.maxBytes);
    if (!result.ok) notes.push(`${file}: ${result.message}`);
    return result.ok ? result.text : undefined;
  };

  const manifestFile = path.join(frontendDir, "package.json");
  const manifestText = await read(manifestFile);
  const wanted =
    manifestText === undefined ? [] : wantedPackages(manifestText, manifestFile, notes);
  const packages = new Map<string, JsPackageVersion>();
  if (wanted.length === 0) return { packages, notes };

  const lock = await nearestLockfile(frontendDir, rootReal, read);
  for (const { name, range } of wanted) {
    const locked = lock
      ? lockedVersion(
          lock,
          name,
          range,
          path.relative(path.dirname(lock.file), frontendDir).split(path.sep).join("/") || ".",
        )
      : undefined;
    if (lock && locked === undefined && !lock.unreadable)
      notes.push(`${lock.file}: no entry for ${name}; the package.json range ${range} is used`);
    packages.set(
      name,
      locked
        ? { name, version: locked, from: lock!.kind, file: lock!.file }
        : { name, version: range, from: "package.json range", file: manifestFile },
    );
  }
  return { packages, notes };
}

function realOr(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

function wantedPackages(text: string, file: string, notes: string[]): Wanted[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    notes.push(
      `${file}: not JSON (${(error as Error).message.split("\n")[0]}); its packages' versions are unknown`,
    );
    return [];
  }
  const wanted = new Map<string, string>();
  for (const field of [
    "dependencies",
    "devDependencies",
    "optionalDependencies",
    "peerDependencies",
  ]) {
    const deps = (manifest as Record<string, unknown> | null)?.[field];
    if (!deps || typeof deps !== "object") continue;
    for (const [name, range] of Object.entries(deps as Record<string, unknown>)) {
      if (name.startsWith(SCOPE) && typeof range === "string" && !wanted.has(name))
        wanted.set(name, range);
    }
  }
  return [...wanted].map(([name, range]) => ({ name, range }));
}

interface Lockfile {
  kind: JsVersionSource;
  file: string;
  text: string;
  unreadable?: boolean;
  parsed?: unknown;
}

async function nearestLockfile(
  frontendDir: string,
  rootReal: string,
  read: (file: string) => Promise<string | undefined>,
): Promise<Lockfile | undefined> {
  for (let dir = path.resolve(frontendDir); ;) {
    for (const kind of LOCKFILES) {
      const file = path.join(dir, kind);
      const text = await read(file);
      if (text !== undefined) return { kind, file, text };
    }
    const parent = path.dirname(dir);
    if (parent === dir || !isWithin(realOr(parent), rootReal)) return undefined;
    dir = parent;
  }
}

function lockedVersion(
  lock: Lockfile,
  name: string,
  range: string,
  importer: string,
): string | undefined {
  switch (lock.kind) {
    case "package-lock.json":
    case "npm-shrinkwrap.json":
      return npmLocked(lock, name, importer);
    case "pnpm-lock.yaml":
      return pnpmLocked(lock, name, importer);
    case "yarn.lock":
      return yarnLocked(lock.text, name, range);
    case "bun.lock":
      return bunLocked(lock, name, importer);
    default:
      return undefined;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function versionField(value: unknown): string | undefined {
  const version = record(value)?.version;
  return typeof version === "string" ? version : undefined;
}

function parsedJson(lock: Lockfile, jsonc: boolean): Record<string, unknown> | undefined {
  if (lock.parsed === undefined) {
    try {
      lock.parsed = jsonc
        ? parseJsonc(lock.text, [], { allowTrailingComma: true })
        : JSON.parse(lock.text);
    } catch {
      lock.parsed = null;
      lock.unreadable = true;
    }
  }
  return record(lock.parsed);
}

/** package-lock v2/v3 (`packages["node_modules/<name>"]`, nested under a workspace first) and v1 (`dependencies`). */
function npmLocked(lock: Lockfile, name: string, importer: string): string | undefined {
  const json = parsedJson(lock, false);
  const packages = record(json?.packages);
  if (packages) {
    const nested =
      importer === "." ? undefined : versionField(packages[`${importer}/node_modules/${name}`]);
    return nested ?? versionField(packages[`node_modules/${name}`]);
  }
  return versionField(record(json?.dependencies)?.[name]);
}

/** bun.lock: `packages: { "<name>": ["<name>@<version>", ...] }` (a workspace's own copy as "<workspace>/<name>"). */
function bunLocked(lock: Lockfile, name: string, importer: string): string | undefined {
  const packages = record(parsedJson(lock, true)?.packages);
  if (!packages) return undefined;
  const workspaceName = importer === "." ? undefined : workspacePackageName(lock, importer);
  const entry =
    (workspaceName ? packages[`${workspaceName}/${name}`] : undefined) ?? packages[name];
  const resolved: unknown = Array.isArray(entry) ? entry[0] : undefined;
  if (typeof resolved !== "string" || !resolved.startsWith(`${name}@`)) return undefined;
  return resolved.slice(name.length + 1).replace(/^npm:/, "");
}

function workspacePackageName(lock: Lockfile, importer: string): string | undefined {
  const name = record(record(record(lock.parsed)?.workspaces)?.[importer])?.name;
  return typeof name === "string" ? name : undefined;
}

/** yarn.lock v1 (`"name@range":` / `  version "x"`) and berry (`"name@npm:range":` / `  version: x`). */
function yarnLocked(text: string, name: string, range: string): string | undefined {
  let fallback: string | undefined;
  let headerMatches: "exact" | "name" | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.length === 0 || line.startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      headerMatches = undefined;
      const descriptors = line
        .replace(/:$/, "")
        .split(/,\s*/)
        .map((part) => part.trim().replace(/^"|"$/g, ""));
      for (const descriptor of descriptors) {
        if (!descriptor.startsWith(`${name}@`)) continue;
        const wantedRange = descriptor.slice(name.length + 1).replace(/^npm:/, "");
        headerMatches = wantedRange === range ? "exact" : (headerMatches ?? "name");
      }
      continue;
    }
    if (!headerMatches) continue;
    const version = /^\s+version:?\s+"?([^"\s]+)"?\s*$/.exec(line)?.[1];
    if (!version) continue;
    if (headerMatches === "exact") return version;
    fallback ??= version;
    headerMatches = undefined;
  }
  return fallback;
}

/**
 * pnpm-lock.yaml, read by indentation (a block-mapping subset of YAML, which is what pnpm writes):
 * `importers.<path>.(dev)dependencies.<name>` (a version, or `{ specifier, version }` since lockfile 6),
 * or the top-level `dependencies` of lockfiles without importers. A version may carry peer suffixes
 * (`2.1.1(typescript@5.0.0)`).
 */
function pnpmLocked(lock: Lockfile, name: string, importer: string): string | undefined {
  const sections = ["dependencies", "devDependencies", "optionalDependencies"];
  const paths: string[][] = [
    ...sections.map((section) => ["importers", importer, section, name]),
    ...sections.map((section) => [section, name]),
  ];
  const values = pnpmValues(lock.text, paths);
  for (const value of values) {
    const version = /^[~^]?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)/.exec(value)?.[1];
    if (version) return version;
  }
  return undefined;
}

/** The scalar at each key path (or its `version` child), in the order of the paths asked. */
function pnpmValues(text: string, paths: string[][]): string[] {
  const found = new Map<string, string>();
  const wanted = new Set(paths.map((keys) => keys.join("\0")));
  const stack: { indent: number; key: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^(\s*)(?:'([^']*)'|"([^"]*)"|([^\s:'"][^:]*?)):(?:\s+(.*))?$/.exec(line);
    if (!match || line.trimStart().startsWith("#") || line.trimStart().startsWith("- ")) continue;
    const indent = match[1]!.length;
    const key = match[2] ?? match[3] ?? match[4] ?? "";
    while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop();
    const keys = [...stack.map((entry) => entry.key), key];
    const value = match[5]?.trim().replace(/^['"]|['"]$/g, "");
    if (value && value !== "{}" && value !== "[]") {
      const joined = keys.join("\0");
      // `name: { specifier: ^2.0.0, version: 2.1.1 }` on one line gives its version.
      if (wanted.has(joined))
        found.set(
          joined,
          value.startsWith("{")
            ? (/version:\s*['"]?([^,}'"\s]+)/.exec(value)?.[1] ?? value)
            : value,
        );
      else if (key === "version" && wanted.has(keys.slice(0, -1).join("\0")))
        found.set(keys.slice(0, -1).join("\0"), value);
    } else stack.push({ indent, key });
  }
  return paths
    .map((keys) => found.get(keys.join("\0")))
    .filter((value): value is string => value !== undefined);
}
