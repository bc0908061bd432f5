/**
 * Which permission and set identifiers exist in which release of the host (`tauri` crate) and of each
 * official plugin (`tauri-plugin-<name>`), from data/acl-versions.json (derived from acl-history.json;
 * see data/acl-history.md). The built-in catalogs hold the newest content; this module turns them into
 * the catalog of the version an app locks.
 */
import { BoundedMemo } from "../../core/bounded-memo.js";
import { readPackageJson } from "../../core/package-files.js";
import { work } from "../work.js";
import { lazyManifests, unreadBuiltins, type UnreadManifest } from "./builtin.js";
import type { AclManifests, Manifest, PermissionDef, PermissionSetDef } from "./types.js";

/** [since, until, sinceAfter?, untilBefore?, unverified?] */
type IdRecord = [string, string | null, (string | null)?, (string | null)?, string?];

interface CatalogHistory {
  crate: string;
  versions: string[];
  verifiedThrough: string;
  unknownVersions: string[];
  ids: Record<string, IdRecord>;
  sets: string[];
  members: Record<string, Record<string, string[]>>;
  /** Permissions whose commands changed between releases: id → {first version with that content: [allow, deny, that release's description?]}. */
  commands?: Record<string, Record<string, [string[], string[], string?]>>;
}

interface VersionData {
  catalogs: Record<string, CatalogHistory>;
}

/** The bundled version history, parsed once per process: the same data for every run, whatever it checks. */
let cached: VersionHistory | undefined;
let historiesRead = 0;

/**
 * The bundled history, read and parsed when first asked a question: every load asks for it, but only an
 * app (its lock file and build) or a committed manifest is compared with it, so a check of loose files
 * never reads the file (17 KB parsed, a fifth of the JSON a one-file check parsed).
 */
export function loadVersionHistory(): Promise<VersionHistory> {
  cached ??= new VersionHistory(() => {
    historiesRead++;
    return readPackageJson<VersionData>("data", "acl-versions.json");
  });
  return Promise.resolve(cached);
}

/** How many times this process read the bundled version history (a test counts them). */
export function versionHistoriesRead(): number {
  return historiesRead;
}

/** Does an identifier exist in a version: yes, no, or the history cannot tell (`null`). */
export type Existence = boolean | null;

export interface IdentifierHistory {
  since: string;
  until: string | null;
  sinceAfter?: string;
  untilBefore?: string;
  unverified?: string;
}

/** Where a version came from: the lock file, Cargo.toml's requirement, or nothing (the newest). */
export type VersionSource = "Cargo.lock" | "Cargo.toml" | "newest";

export interface LockedCrate {
  crate: string;
  version: string;
  source: VersionSource;
  /** The lock or manifest file it was read from (relative POSIX path). */
  file?: string;
}

/** The version-history catalog a manifest key belongs to: `core` for every `core:*` key, else the key. */
export function historyCatalogOf(key: string): string {
  return key === "core" || key.startsWith("core:") ? "core" : key;
}

export class VersionHistory {
  private readonly namesByKey = new Map<string, Map<string, string[]>>();

  private read: VersionData | undefined;

  /** `data`: the history, or how to read it on first use. */
  constructor(private readonly source: VersionData | (() => VersionData)) {}

  private get data(): VersionData {
    return (this.read ??= typeof this.source === "function" ? this.source() : this.source);
  }

  catalogs(): string[] {
    return Object.keys(this.data.catalogs);
  }

  has(catalog: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.data.catalogs, catalog);
  }

  crateOf(catalog: string): string | undefined {
    return this.catalog(catalog)?.crate;
  }

  /** The history catalog of a crate name (`tauri` → core, `tauri-plugin-fs` → fs); `host` spellings too. */
  catalogOfCrate(crate: string): string | undefined {
    if (crate === "tauri" || crate === "host") return "core";
    const match = /^(?:tauri|host)-plugin-(.+)$/.exec(crate);
    return match && this.has(match[1]!) ? match[1] : undefined;
  }

  versions(catalog: string): readonly string[] {
    return this.catalog(catalog)?.versions ?? [];
  }

  newest(catalog: string): string | undefined {
    const versions = this.versions(catalog);
    return versions[versions.length - 1];
  }

  /** The history of a qualified identifier, or undefined when it is in every version (or unknown). */
  entry(catalog: string, identifier: string): IdentifierHistory | undefined {
    const record = this.catalog(catalog)?.ids[identifier];
    if (!record) return undefined;
    const [since, until, sinceAfter, untilBefore, unverified] = record;
    const entry: IdentifierHistory = { since, until };
    if (sinceAfter) entry.sinceAfter = sinceAfter;
    if (untilBefore) entry.untilBefore = untilBefore;
    if (unverified) entry.unverified = unverified;
    return entry;
  }

  /**
   * acl-history.md §3's existence test: present from `since` through `until`; uncertain between a
   * `sinceAfter`/`untilBefore` bound and the known edge, and whenever the evidence is unverified.
   * An identifier without a record exists in every release (when the built-in catalog has it).
   */
  exists(catalog: string, identifier: string, version: string): Existence {
    const entry = this.entry(catalog, identifier);
    if (!entry) return true;
    if (entry.unverified)
      return compareVersions(version, entry.sinceAfter ?? entry.since) <= 0 ? false : null;
    if (compareVersions(version, entry.since) < 0) {
      return entry.sinceAfter !== undefined && compareVersions(version, entry.sinceAfter) > 0
        ? null
        : false;
    }
    if (entry.until === null || compareVersions(version, entry.until) <= 0) return true;
    return entry.untilBefore !== undefined && compareVersions(version, entry.untilBefore) < 0
      ? null
      : false;
  }

  /** Identifiers with a record (added later, removed, or not in the built-in catalog). */
  recordedIds(catalog: string): string[] {
    return Object.keys(this.catalog(catalog)?.ids ?? {});
  }

  /**
   * The names of `key`'s identifiers with a record (`allow-x` of `core:app:allow-x` for `core:app`), in
   * {@link recordedIds}' order. Indexed once per catalog: a release's manifest of every key of a
   * catalog asked for them, and core's catalog has hundreds.
   */
  recordedNames(catalog: string, key: string): readonly string[] {
    let byKey = this.namesByKey.get(catalog);
    if (!byKey) {
      byKey = new Map();
      for (const id of this.recordedIds(catalog)) {
        const colon = id.lastIndexOf(":");
        if (colon === -1) continue;
        const owner = id.slice(0, colon);
        let names = byKey.get(owner);
        if (!names) byKey.set(owner, (names = []));
        names.push(id.slice(colon + 1));
      }
      this.namesByKey.set(catalog, byKey);
    }
    return byKey.get(key) ?? [];
  }

  isRemovedSet(catalog: string, identifier: string): boolean {
    return this.catalog(catalog)?.sets.includes(identifier) ?? false;
  }

  /** A set's members in `version`, when they changed over time (else the built-in members hold). */
  membersAt(catalog: string, identifier: string, version: string): string[] | undefined {
    const lists = this.catalog(catalog)?.members[identifier];
    if (!lists) return undefined;
    let chosen: string[] | undefined;
    for (const [from, members] of Object.entries(lists))
      if (compareVersions(from, version) <= 0) chosen = members;
    return chosen;
  }

  /**
   * A permission's commands in `version`, when they changed over time (else the built-in ones hold):
   * tauri-plugin-dialog's `allow-ask` enables `ask` up to 2.6 and `message` from 2.7.0.
   */
  commandsAt(
    catalog: string,
    identifier: string,
    version: string,
  ): { allow: string[]; deny: string[]; description?: string } | undefined {
    const lists = this.catalog(catalog)?.commands?.[identifier];
    if (!lists) return undefined;
    let chosen: [string[], string[], string?] | undefined;
    for (const [from, content] of Object.entries(lists))
      if (compareVersions(from, version) <= 0) chosen = content;
    if (!chosen) return undefined;
    const [allow, deny, description] = chosen;
    return description === undefined ? { allow, deny } : { allow, deny, description };
  }

  /**
   * Every permission of the catalog whose commands changed between releases, with each content and the
   * first release that has it: what a version-skew check compares the locked release with.
   */
  commandChanges(
    catalog: string,
  ): Array<{ identifier: string; from: string; allow: readonly string[] }> {
    const changes: Array<{ identifier: string; from: string; allow: readonly string[] }> = [];
    for (const [identifier, lists] of Object.entries(this.catalog(catalog)?.commands ?? {}))
      for (const [from, [allow]] of Object.entries(lists))
        changes.push({ identifier, from, allow });
    return changes;
  }

  /** Whether the version's content rests on evidence (git or observed), not only on a release list. */
  isVerified(catalog: string, version: string): boolean {
    const history = this.catalog(catalog);
    if (!history) return false;
    return (
      !history.unknownVersions.includes(version) &&
      compareVersions(version, history.verifiedThrough) <= 0
    );
  }

  private catalog(catalog: string): CatalogHistory | undefined {
    return this.has(catalog) ? this.data.catalogs[catalog] : undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Versions

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

type ParsedVersion = Readonly<{ major: number; minor: number; patch: number; pre?: string }>;

/**
 * Versions parsed, by text: a release's manifest and the comparisons with every release ask the
 * history's existence test for each identifier, each asking two to four comparisons. Lock files bring
 * new texts, so the memo is bounded; the parsed values are frozen, being shared.
 */
const parsedVersions = new BoundedMemo<string, ParsedVersion | undefined>(1024);

export function parseVersion(text: string): ParsedVersion | undefined {
  return parsedVersions.get(text, () => {
    const match = VERSION.exec(text.trim());
    if (!match) return undefined;
    const parsed: { major: number; minor: number; patch: number; pre?: string } = {
      major: Number(match[1]),
      minor: Number(match[2]),
      patch: Number(match[3]),
    };
    if (match[4] !== undefined) parsed.pre = match[4];
    return Object.freeze(parsed);
  });
}

export const isPrerelease = (version: string) => parseVersion(version)?.pre !== undefined;

/** Semver order (pre-releases before their release; pre-release tags compared as text). */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  return (
    x.major - y.major ||
    x.minor - y.minor ||
    x.patch - y.patch ||
    (x.pre === y.pre
      ? 0
      : x.pre === undefined
        ? 1
        : y.pre === undefined
          ? -1
          : x.pre < y.pre
            ? -1
            : 1)
  );
}

/**
 * The newest of `versions` that a Cargo requirement accepts (`2`, `^2.1`, `~2.0.3`, `=2.4.2`,
 * `>=2.1, <2.3`, `2.*`), or undefined. A bare version is a caret requirement, as in Cargo.
 */
export function newestMatching(
  requirement: string,
  versions: readonly string[],
): string | undefined {
  const comparators = requirement
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (comparators.length === 0) return undefined;
  const tests: Array<(v: string) => boolean> = [];
  for (const comparator of comparators) {
    const match =
      /^(\^|~|=|>=|<=|>|<)?\s*(\*|\d+)(?:\.(\*|\d+))?(?:\.(\*|\d+))?(-[0-9A-Za-z.-]+)?$/.exec(
        comparator,
      );
    if (!match) return undefined;
    if (match[2] === "*") continue;
    const number = (text: string | undefined) =>
      text === undefined || text === "*" ? undefined : Number(text);
    const [major, minor, patch] = [Number(match[2]), number(match[3]), number(match[4])];
    const wildcard = match[3] === "*" || match[4] === "*";
    const op = wildcard ? "=" : (match[1] ?? "^");
    const base = `${major}.${minor ?? 0}.${patch ?? 0}${match[5] ?? ""}`;
    // The first version past the range a caret, tilde or partial `=` allows.
    const nextMinor = `${major}.${(minor ?? 0) + 1}.0`;
    const nextMajor = `${major + 1}.0.0`;
    let upper: string | undefined;
    if (op === "^")
      upper =
        major > 0 || minor === undefined
          ? nextMajor
          : minor > 0 || patch === undefined
            ? nextMinor
            : `0.0.${patch + 1}`;
    else if (op === "~") upper = minor === undefined ? nextMajor : nextMinor;
    else if (op === "=" && patch === undefined) upper = minor === undefined ? nextMajor : nextMinor;
    if (upper !== undefined) {
      const top = upper;
      tests.push((v) => compareVersions(v, base) >= 0 && compareVersions(v, top) < 0);
    } else if (op === "=") tests.push((v) => compareVersions(v, base) === 0);
    else if (op === ">=") tests.push((v) => compareVersions(v, base) >= 0);
    else if (op === ">") tests.push((v) => compareVersions(v, base) > 0);
    else if (op === "<=") tests.push((v) => compareVersions(v, base) <= 0);
    else tests.push((v) => compareVersions(v, base) < 0);
  }
  const accepted = versions
    .filter((v) => !isPrerelease(v) && tests.every((test) => test(v)))
    .sort(compareVersions);
  return accepted[accepted.length - 1];
}

// ---------------------------------------------------------------------------------------------
// The catalog of a version

/**
 * The built-in manifests as of the locked versions: identifiers the version lacks are left out (an
 * uncertain one stays: no error without certainty), removed ones come back, and sets get the members
 * of that version. Versions that are pre-releases or outside 2.x are not versioned (the newest holds).
 */
export function builtinsAt(
  builtin: AclManifests,
  history: VersionHistory,
  locked: ReadonlyMap<string, LockedCrate>,
): AclManifests {
  // The first catalogs asked about are the shipped ones (read once per process); others are not memoised.
  catalogsAt.builtin ??= builtin;
  catalogsAt.history ??= history;
  if (builtin !== catalogsAt.builtin || history !== catalogsAt.history)
    return buildBuiltinsAt(builtin, history, locked);
  // The version each catalog is taken at is all the result depends on (with the two shipped files).
  const versions = [...locked].map(([catalog, lock]) =>
    lock.source === "newest" ? `${catalog}=newest` : `${catalog}=${lock.version}`,
  );
  const unread = unreadBuiltins(builtin);
  return catalogsAt.memo.get(versions.join("\u0000"), () =>
    unread ? lazyBuiltinsAt(unread, history, locked) : buildBuiltinsAt(builtin, history, locked),
  );
}

/**
 * builtinsAt's result per set of releases, for one pair of catalogs and history (the shipped ones,
 * which every app of a run reads): the manifests in it were shared already (manifestAt), but the map
 * over every built-in key was made per app. Nothing changes the map after it is built.
 */
const catalogsAt = {
  builtin: undefined as AclManifests | undefined,
  history: undefined as VersionHistory | undefined,
  memo: new BoundedMemo<string, AclManifests>(64),
};

function buildBuiltinsAt(
  builtin: AclManifests,
  history: VersionHistory,
  locked: ReadonlyMap<string, LockedCrate>,
): AclManifests {
  const out: AclManifests = {};
  for (const [key, manifest] of Object.entries(builtin)) {
    const catalog = historyCatalogOf(key);
    const lock = locked.get(catalog);
    const version = lock?.source === "newest" ? LATEST_RELEASE : lock?.version;
    out[key] =
      version !== undefined && history.has(catalog) && isCheckableVersion(version)
        ? manifestAt(key, manifest, catalog, history, version)
        : manifest;
  }
  return out;
}

/**
 * {@link buildBuiltinsAt} of the shipped catalogs, each manifest built as of its release when first
 * read: an app reads a few of the thirty-odd, and building all of them for every set of releases a
 * monorepo's apps lock was a fixed cost per app. A release's manifest is the newest one's definitions
 * with that release's commands, members and descriptions, plus generated `allow-`/`deny-` permissions:
 * a field the newest one's text never names (`platforms`) it holds neither, so the newest's `mayHold`
 * answers for it.
 */
function lazyBuiltinsAt(
  shipped: ReadonlyMap<string, UnreadManifest>,
  history: VersionHistory,
  locked: ReadonlyMap<string, LockedCrate>,
): AclManifests {
  const unread = new Map<string, UnreadManifest>();
  for (const [key, newest] of shipped) {
    const catalog = historyCatalogOf(key);
    const lock = locked.get(catalog);
    const version = lock?.source === "newest" ? LATEST_RELEASE : lock?.version;
    if (version === undefined || !history.has(catalog) || !isCheckableVersion(version))
      unread.set(key, newest);
    else
      unread.set(key, {
        read: () => manifestAt(key, newest.read(), catalog, history, version),
        mayHold: (field) => newest.mayHold(field),
      });
  }
  return lazyManifests(unread);
}

/**
 * Stands for "whatever release is newest" when the app locks nothing: after every known release, so an
 * identifier added by an unverified newer release (core 2.12's `allow-exit`) is uncertain, not absent.
 */
export const LATEST_RELEASE = "2.999999.0";

/**
 * The first host release whose webview checks an app command (a bare `#[tauri::command]`, not a plugin's)
 * called from a remote page although the app defines no permissions: tauri-apps/tauri#15266 added
 * `|| !is_local` to the gate in `Webview::on_message`. 2.11.0's source has the old gate
 * (`plugin_command.is_some() || has_app_acl_manifest`), 2.11.2's the new one, and the PR's author names
 * 2.11.1 as the first release with it. Before it, any page a window shows, remote ones included, may
 * call every command the app registers.
 */
export const REMOTE_APP_COMMANDS_CHECKED_SINCE = "2.11.1";

/** Whether a host release checks app commands from remote pages; an unknown release counts as the newest. */
export function checksRemoteAppCommands(release: LockedCrate | undefined): boolean {
  if (!release || release.source === "newest") return true;
  const parsed = parseVersion(release.version);
  if (!parsed || parsed.major !== 2) return true;
  return compareVersions(release.version, REMOTE_APP_COMMANDS_CHECKED_SINCE) >= 0;
}

/** `tauri 2.0.6 (Cargo.lock)`, `tauri 2.0.6 (the newest release Cargo.toml allows)`: how answers name a release. */
export function describeRelease(release: LockedCrate): string {
  const where =
    release.source === "Cargo.toml"
      ? `the newest release ${release.file ?? "Cargo.toml"} allows`
      : (release.file ?? release.source);
  return `${release.crate} ${release.version} (${where})`;
}

/** Versions the history can speak for: releases from 2.0.0 on. */
export function isCheckableVersion(version: string): boolean {
  const parsed = parseVersion(version);
  return !!parsed && parsed.pre === undefined && parsed.major === 2;
}

/**
 * manifestAt's results per history, built-in manifest and release. Every app that locks a release gets
 * the same catalog, so a monorepo of 100 apps builds each (plugin, release) once instead of once per app
 * (18 % of such a run). The results are shared: nothing may change a manifest after it is built.
 */
const manifestsAt = new WeakMap<VersionHistory, WeakMap<Manifest, Map<string, Manifest>>>();

/** One built-in manifest as of one release (see {@link builtinsAt}); built once per run and shared. */
export function manifestAt(
  key: string,
  manifest: Manifest,
  catalog: string,
  history: VersionHistory,
  version: string,
): Manifest {
  let byManifest = manifestsAt.get(history);
  if (!byManifest) manifestsAt.set(history, (byManifest = new WeakMap()));
  let byRelease = byManifest.get(manifest);
  if (!byRelease) byManifest.set(manifest, (byRelease = new Map<string, Manifest>()));
  const memoKey = `${key}\u0000${catalog}\u0000${version}`;
  let built = byRelease.get(memoKey);
  if (!built) {
    work.releaseManifestsBuilt++;
    byRelease.set(memoKey, (built = buildManifestAt(key, manifest, catalog, history, version)));
  }
  return built;
}

function buildManifestAt(
  key: string,
  manifest: Manifest,
  catalog: string,
  history: VersionHistory,
  version: string,
): Manifest {
  const prefix = `${key}:`;
  const exists = (name: string) => history.exists(catalog, prefix + name, version) !== false;
  const members = (name: string, set: PermissionSetDef): PermissionSetDef => {
    const listed = history.membersAt(catalog, prefix + name, version);
    return listed ? { ...set, permissions: listed } : set;
  };
  const permissions: Record<string, PermissionDef> = {};
  for (const [name, permission] of Object.entries(manifest.permissions)) {
    if (!exists(name)) continue;
    const then = history.commandsAt(catalog, prefix + name, version);
    permissions[name] = then
      ? {
          ...permission,
          commands: { allow: then.allow, deny: then.deny },
          ...(then.description ? { description: then.description } : {}),
        }
      : permission;
  }
  const sets: Record<string, PermissionSetDef> = {};
  for (const [name, set] of Object.entries(manifest.permission_sets))
    if (exists(name)) sets[name] = members(name, set);
  // Identifiers of this key that the version has but the newest catalog dropped: rebuilt from their names.
  for (const name of history.recordedNames(catalog, key)) {
    const id = prefix + name;
    // Uncertain ones too: no error without certainty.
    if (
      name === "default" ||
      permissions[name] ||
      sets[name] ||
      history.exists(catalog, id, version) === false
    )
      continue;
    if (history.isRemovedSet(catalog, id)) {
      sets[name] = {
        identifier: name,
        description: "",
        permissions: history.membersAt(catalog, id, version) ?? [],
      };
      continue;
    }
    const generated = /^(allow|deny)-(.+)$/.exec(name);
    if (!generated) continue;
    const command = generated[2]!.replace(/-/g, "_");
    const action = generated[1] === "allow" ? "Enables" : "Denies";
    permissions[name] = {
      identifier: name,
      description: `${action} the ${command} command without any pre-configured scope.`,
      commands:
        generated[1] === "allow" ? { allow: [command], deny: [] } : { allow: [], deny: [command] },
    };
  }
  const defaultPermission =
    manifest.default_permission && members("default", manifest.default_permission);
  return {
    ...manifest,
    default_permission: defaultPermission,
    permissions: sortKeys(permissions),
    permission_sets: sortKeys(sets),
  };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
