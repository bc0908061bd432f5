import { checkIdentifier } from "./identifier.js";
import { unreadBuiltins, type UnreadManifest } from "./builtin.js";
import {
  frameworkName,
  spellCommand,
  spellIdentifier,
  spellingOfManifest,
  spellManifest,
  spellName,
  type Spelling,
} from "./brand.js";
import { distanceTablesFilled, nearest, SuggestionPool } from "../../core/did-you-mean.js";
import { work } from "../work.js";
import {
  checksRemoteAppCommands,
  historyCatalogOf,
  isCheckableVersion,
  LATEST_RELEASE,
  type Existence,
  type IdentifierHistory,
  type LockedCrate,
  type VersionHistory,
} from "./versions.js";
import {
  APP_KEY,
  type AclManifests,
  type Manifest,
  type ManifestProvenance,
  type PermissionDef,
  type PermissionSetDef,
} from "./types.js";

export type TopLevelLookup =
  | { kind: "default"; key: string; set: PermissionSetDef | null }
  | { kind: "set"; key: string; set: PermissionSetDef }
  | { kind: "permission"; key: string; permission: PermissionDef };

/**
 * Every permission the linter knows about, keyed like `acl-manifests.json`. Later sources replace
 * earlier ones per key: built-in catalogs, then manifests given or discovered, then permission folders.
 */
export class Catalog {
  /** Built-in manifests stay unread until a lookup names their key (see `read`). */
  private readonly manifests = new Map<string, Manifest | Unread>();
  private readonly provenance = new Map<string, ManifestProvenance>();
  private identifierCache: string[] | undefined;
  /** `identifierCache` with each name lowercased, for suggestions (made from the plugins' pools). */
  private identifierPool: SuggestionPool | undefined;
  private readonly suggestions = new Map<string, readonly string[]>();
  /** Whether each identifier asked about is known: rules ask for every entry, and entries repeat a few hundred identifiers. */
  private readonly known = new Map<string, boolean>();
  private contentKeyCache: string | undefined;
  private currentSpelling: Spelling = "host";
  private spellingFromManifest = false;
  private versionData:
    { history: VersionHistory; crates: ReadonlyMap<string, LockedCrate> } | undefined;
  /** The host release the app builds with, as its Cargo files say (even one the history cannot check). */
  private hostReleaseData: LockedCrate | undefined;

  add(manifests: AclManifests, provenance: ManifestProvenance): this {
    if (provenance.origin === "manifest" && !this.spellingFromManifest) {
      // A generated manifest shows how the project's framework spells its brand word: answers follow it.
      for (const [key, manifest] of Object.entries(manifests)) {
        const spelling = spellingOfManifest(key, manifest);
        if (spelling) {
          this.spellingFromManifest = true;
          this.useSpelling(spelling);
        }
      }
    }
    const unread = provenance.origin === "builtin" ? unreadBuiltins(manifests) : undefined;
    if (unread)
      for (const [key, manifest] of unread) {
        this.manifests.set(key, Unread.of(manifest, this.currentSpelling));
        this.provenance.set(key, provenance);
      }
    else
      for (const [key, manifest] of Object.entries(manifests)) {
        this.manifests.set(key, spelledManifest(key, manifest, this.currentSpelling));
        this.provenance.set(key, provenance);
      }
    this.identifierCache = undefined;
    this.identifierPool = undefined;
    this.contentKeyCache = undefined;
    this.suggestions.clear();
    this.known.clear();
    return this;
  }

  /** A catalog with the same definitions, to extend without changing this one (its lookups start cold). */
  copy(): Catalog {
    const copy = new Catalog();
    for (const [key, manifest] of this.manifests) copy.manifests.set(key, manifest);
    for (const [key, provenance] of this.provenance) copy.provenance.set(key, provenance);
    copy.currentSpelling = this.currentSpelling;
    copy.spellingFromManifest = this.spellingFromManifest;
    copy.versionData = this.versionData;
    copy.hostReleaseData = this.hostReleaseData;
    return copy;
  }

  /**
   * How answers write the brand word (`host` as in the spec, `tauri` as real apps): the project's
   * manifest decides, else its capability files (see `loadProject`). Lookups accept both spellings.
   */
  get spelling(): Spelling {
    return this.currentSpelling;
  }

  /** The framework as this app's answers name it in prose: "Tauri", or the spec's "the host". */
  get framework(): string {
    return frameworkName(this.currentSpelling);
  }

  /** Whether a generated manifest fixed the spelling (capability files then do not change it). */
  get spellingFixed(): boolean {
    return this.spellingFromManifest;
  }

  useSpelling(spelling: Spelling): this {
    if (spelling === this.currentSpelling) return this;
    this.currentSpelling = spelling;
    for (const [key, manifest] of this.manifests)
      this.manifests.set(
        key,
        manifest instanceof Unread
          ? manifest.spelledAgain(spelling)
          : spelledManifest(key, manifest, spelling),
      );
    this.identifierCache = undefined;
    this.identifierPool = undefined;
    this.contentKeyCache = undefined;
    this.suggestions.clear();
    this.known.clear();
    return this;
  }

  /** An identifier in the project's spelling (`core:app:allow-host-version` ≡ `core:app:allow-tauri-version`). */
  spellIdentifier(identifier: string): string {
    return spellIdentifier(identifier, this.currentSpelling);
  }

  /** A command as invoked, in the project's spelling (`plugin:app|host_version` ≡ `plugin:app|tauri_version`). */
  spellCommand(command: string): string {
    return spellCommand(command, this.currentSpelling);
  }

  /** The releases the built-in catalogs were narrowed to (history catalog → crate and version). */
  useVersions(history: VersionHistory, crates: ReadonlyMap<string, LockedCrate>): this {
    this.versionData = { history, crates };
    return this;
  }

  /** Records the host (`tauri`) release the app's Cargo.lock or Cargo.toml names. */
  useHostRelease(release: LockedCrate | undefined): this {
    this.hostReleaseData = release;
    return this;
  }

  /** The host release the app builds with, when its Cargo files name one; undefined means the newest is assumed. */
  get hostRelease(): LockedCrate | undefined {
    return this.hostReleaseData;
  }

  /**
   * Whether the host checks app commands called from remote pages for this app: from 2.11.1 on (see
   * REMOTE_APP_COMMANDS_CHECKED_SINCE), and always when the app defines permissions.
   */
  get checksRemoteAppCommands(): boolean {
    return this.hasAppPermissions || checksRemoteAppCommands(this.hostReleaseData);
  }

  /** The release a key is checked against, when it comes from the built-in catalogs. */
  lockedVersionOf(key: string): LockedCrate | undefined {
    if (!this.versionData || this.provenance.get(key)?.origin !== "builtin") return undefined;
    return this.versionData.crates.get(historyCatalogOf(key));
  }

  /**
   * What the version history says about a name of a built-in key in the release the app uses: whether
   * it exists there, and when it was added or removed. Undefined for names no release ever had.
   */
  versionFacts(
    key: string,
    base: string,
  ): { locked: LockedCrate; entry: IdentifierHistory; existence: Existence } | undefined {
    const locked = this.lockedVersionOf(key);
    if (!locked || !this.versionData) return undefined;
    const catalog = historyCatalogOf(key);
    const id = `${key}:${spellName(key, base, "host")}`;
    const entry = this.versionData.history.entry(catalog, id);
    if (!entry) return undefined;
    const version = locked.source === "newest" ? LATEST_RELEASE : locked.version;
    return {
      locked,
      entry,
      existence: isCheckableVersion(version)
        ? this.versionData.history.exists(catalog, id, version)
        : null,
    };
  }

  keys(): string[] {
    return [...this.manifests.keys()].sort();
  }

  has(key: string): boolean {
    return this.manifests.has(key);
  }

  get(key: string): Manifest | undefined {
    return this.read(key);
  }

  /**
   * The manifest of `key`, read and spelled now when it was not yet. The entry stays the shared
   * wrapper (which keeps what it read), so catalogs of the same content keep the same entries
   * whichever of them read what (see `contentKey`).
   */
  private read(key: string): Manifest | undefined {
    const manifest = this.manifests.get(key);
    return manifest instanceof Unread ? manifest.spelled(key) : manifest;
  }

  /**
   * Equal for catalogs that hold the same manifest objects (or the same unread built-ins) under the
   * same keys in the same spelling, so whatever is worked out from their definitions alone (the
   * expansions of identifiers, suggestions) holds for both: the apps of a monorepo on the same
   * releases and plugins share it. Made on first use; a change of the catalog makes it again.
   */
  contentKey(): string {
    if (this.contentKeyCache === undefined) {
      const parts: string[] = [this.currentSpelling];
      for (const key of this.keys()) parts.push(`${key}=${objectNumber(this.manifests.get(key)!)}`);
      this.contentKeyCache = parts.join("\u0000");
    }
    return this.contentKeyCache;
  }

  /** Whether a permission of `key` may be limited to some platforms (a manifest not read yet answers from its text). */
  mayLimitPlatforms(key: string): boolean {
    const manifest = this.manifests.get(key);
    if (manifest instanceof Unread && !manifest.source.mayHold("platforms")) return false;
    const permissions = this.read(key)?.permissions ?? {};
    return Object.values(permissions).some((permission) => permission.platforms !== undefined);
  }

  provenanceOf(key: string): ManifestProvenance | undefined {
    return this.provenance.get(key);
  }

  get hasAppPermissions(): boolean {
    return this.manifests.has(APP_KEY);
  }

  /** The manifest key for a capability entry's identifier (app permissions use `__app-acl__`). */
  static keyOf(identifier: string): { key: string; base: string } | undefined {
    const check = checkIdentifier(identifier);
    if (!check.ok) return undefined;
    return { key: check.parsed.prefix ?? APP_KEY, base: check.parsed.base };
  }

  /** Top-level lookup order of a capability entry: default, then set, then permission (§3.2). */
  lookupTopLevel(key: string, base: string): TopLevelLookup | undefined {
    const manifest = this.read(key);
    if (!manifest) return undefined;
    base = spellName(key, base, this.currentSpelling);
    if (base === "default") return { kind: "default", key, set: manifest.default_permission };
    const set = own(manifest.permission_sets, base);
    if (set) return { kind: "set", key, set };
    const permission = own(manifest.permissions, base);
    if (permission) return { kind: "permission", key, permission };
    return undefined;
  }

  /** Every identifier a capability can reference, in the form it is written there. */
  allIdentifiers(): string[] {
    if (!this.identifierCache) {
      const ids: string[] = [];
      for (const key of this.keys()) for (const item of this.poolOf(key).names) ids.push(item);
      this.identifierCache = ids;
    }
    return this.identifierCache;
  }

  identifiersOf(key: string): string[] {
    return [...this.poolOf(key).names];
  }

  /**
   * The identifiers of `key`'s manifest, lowercased once: kept with the catalog's entry for the key
   * (a manifest or an unread built-in, shared by the catalogs of a run), so a catalog whose entry
   * changed (`add`, `useSpelling`) gets the pool of its new entry, never an old one.
   */
  private poolOf(key: string): SuggestionPool {
    const entry = this.manifests.get(key);
    if (!entry) return EMPTY_POOL;
    let byKey = identifierPools.get(entry);
    if (!byKey) identifierPools.set(entry, (byKey = new Map<string, SuggestionPool>()));
    let pool = byKey.get(key);
    if (!pool) {
      const manifest = this.read(key)!;
      const prefix = key === APP_KEY ? "" : `${key}:`;
      const ids: string[] = [];
      if (manifest.default_permission) ids.push(`${prefix}default`);
      for (const id of Object.keys(manifest.permission_sets)) ids.push(prefix + id);
      for (const id of Object.keys(manifest.permissions)) ids.push(prefix + id);
      byKey.set(key, (pool = new SuggestionPool(ids)));
      work.identifierPoolsMade++;
    }
    return pool;
  }

  /** Every identifier, lowercased once (the pool of a suggestion outside any known plugin). */
  private allIdentifiersPool(): SuggestionPool {
    if (!this.identifierPool) {
      const names: string[] = [];
      const lowered: string[] = [];
      for (const key of this.keys()) {
        const pool = this.poolOf(key);
        for (let i = 0; i < pool.names.length; i++) {
          names.push(pool.names[i]!);
          lowered.push(pool.lowered[i]!);
        }
      }
      this.identifierPool = new SuggestionPool(names, lowered);
    }
    return this.identifierPool;
  }

  isKnownIdentifier(identifier: string): boolean {
    let known = this.known.get(identifier);
    if (known === undefined) {
      const parts = Catalog.keyOf(identifier);
      known = !!parts && this.lookupTopLevel(parts.key, parts.base) !== undefined;
      this.known.set(identifier, known);
    }
    return known;
  }

  /**
   * Nearest known identifiers for a wrong one: first the common mistakes (missing `core:`, `.` for `:`,
   * `_` for `-`, a missing `allow-`; either spelling of the brand word is known), then edit distance within the same plugin or overall.
   */
  suggest(identifier: string, max = 3): string[] {
    // The same wrong identifier recurs across capabilities and files: its suggestions are computed once.
    const cacheKey = `${max}\u0000${identifier}`;
    const cached = this.suggestions.get(cacheKey);
    if (cached) return [...cached];
    const found = this.computeSuggestions(identifier, max);
    this.suggestions.set(cacheKey, found);
    return [...found];
  }

  private computeSuggestions(identifier: string, max: number): string[] {
    const out: string[] = [];
    const push = (candidate: string) => {
      candidate = this.spellIdentifier(candidate);
      if (candidate !== identifier && !out.includes(candidate) && this.isKnownIdentifier(candidate))
        out.push(candidate);
    };
    for (const candidate of commonMistakeCandidates(identifier)) push(candidate);
    const normalized = commonMistakeCandidates(identifier)[0] ?? identifier;
    const parts = Catalog.keyOf(normalized);
    const pool = parts && this.has(parts.key) ? this.poolOf(parts.key) : this.allIdentifiersPool();
    const tablesBefore = distanceTablesFilled();
    for (const candidate of nearest(normalized, pool, max)) push(candidate);
    work.suggestionDistanceTables += distanceTablesFilled() - tablesBefore;
    return out.slice(0, max);
  }
}

/**
 * A built-in manifest not read yet, with the spellings it was to be given in turn: read, it is spelled
 * as the catalog would have spelled it when added and at each change of spelling since (each step
 * memoised, so every catalog of a run gets the same objects). The wrappers are shared too, one per
 * (manifest, spellings), so an app's catalog made or re-spelled makes none: every app of a monorepo
 * did, one a built-in key.
 */
class Unread {
  private static readonly first = new WeakMap<UnreadManifest, Map<Spelling, Unread>>();
  private readonly respelled = new Map<Spelling, Unread>();
  /** What `spelled` made, kept: the wrapper is shared by every catalog that holds it. */
  private read: { key: string; manifest: Manifest } | undefined;

  private constructor(
    readonly source: UnreadManifest,
    private readonly spellings: readonly Spelling[],
  ) {}

  /** The wrapper of `source` added to a catalog that spells `spelling`. */
  static of(source: UnreadManifest, spelling: Spelling): Unread {
    let bySpelling = Unread.first.get(source);
    if (!bySpelling) Unread.first.set(source, (bySpelling = new Map<Spelling, Unread>()));
    let unread = bySpelling.get(spelling);
    if (!unread) bySpelling.set(spelling, (unread = new Unread(source, [spelling])));
    return unread;
  }

  spelledAgain(spelling: Spelling): Unread {
    let unread = this.respelled.get(spelling);
    if (!unread)
      this.respelled.set(
        spelling,
        (unread = new Unread(this.source, [...this.spellings, spelling])),
      );
    return unread;
  }

  spelled(key: string): Manifest {
    if (this.read?.key === key) return this.read.manifest;
    let manifest = this.source.read();
    for (const spelling of this.spellings) manifest = spelledManifest(key, manifest, spelling);
    this.read = { key, manifest };
    return manifest;
  }
}

const EMPTY_POOL = new SuggestionPool([]);
/** The identifier pools of a catalog entry (a manifest or an unread built-in), by key: see `poolOf`. */
const identifierPools = new WeakMap<object, Map<string, SuggestionPool>>();

/** A number per object, for content keys: objects are compared by identity, never by their content. */
const objectNumbers = new WeakMap<object, number>();
let objectsNumbered = 0;

function objectNumber(object: object): number {
  let number = objectNumbers.get(object);
  if (number === undefined) objectNumbers.set(object, (number = ++objectsNumbered));
  return number;
}

/**
 * Each manifest normalised and spelled once per run and spelling: the built-in catalogs of a release are
 * shared between the apps of a run (see manifestAt), and re-spelling them for every app was a fixed cost
 * per app. The results are shared too: nothing may change a manifest in a catalog.
 */
const spelledManifests = new WeakMap<Manifest, Map<string, Manifest>>();

function spelledManifest(key: string, manifest: Manifest, spelling: Spelling): Manifest {
  let bySpelling = spelledManifests.get(manifest);
  if (!bySpelling) spelledManifests.set(manifest, (bySpelling = new Map<string, Manifest>()));
  const memoKey = `${spelling}\u0000${key}`;
  let spelled = bySpelling.get(memoKey);
  if (!spelled)
    bySpelling.set(memoKey, (spelled = spellManifest(key, normalizeManifest(manifest), spelling)));
  return spelled;
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

export function normalizeManifest(manifest: Manifest): Manifest {
  return {
    default_permission: manifest.default_permission ?? null,
    permissions: manifest.permissions ?? {},
    permission_sets: manifest.permission_sets ?? {},
    global_scope_schema: manifest.global_scope_schema ?? null,
  };
}

/** Rewrites of a wrong identifier that undo the usual mistakes, most specific first. */
export function commonMistakeCandidates(identifier: string): string[] {
  const base = identifier.trim().replace(/_/g, "-").replace(/\./g, ":");
  const candidates = new Set<string>([base, base.toLowerCase()]);
  // `fs-read` (from `fs_read`): the first hyphen may have been meant as the prefix separator.
  if (!base.includes(":") && base.includes("-")) candidates.add(base.replace("-", ":"));
  for (const id of [...candidates]) {
    if (!id.startsWith("core:")) candidates.add(`core:${id}`);
    const colon = id.lastIndexOf(":");
    const name = id.slice(colon + 1);
    if (!/^(allow|deny)-/.test(name) && name !== "default") {
      candidates.add(`${id.slice(0, colon + 1)}allow-${name}`);
      if (!id.startsWith("core:")) candidates.add(`core:${id.slice(0, colon + 1)}allow-${name}`);
    }
  }
  return [...candidates];
}
