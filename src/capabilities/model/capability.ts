import { samePath, type JsonPath } from "../../core/location.js";
import { isPlainObject } from "../../core/json.js";
import { BoundedMemo } from "../../core/bounded-memo.js";
import type {
  Capability,
  CapabilitySource,
  ListField,
  ModelItem,
  PermissionEntry,
  ScopeValue,
  UnknownField,
  WrittenCapability,
} from "./types.js";

export type FileForm = "single" | "list" | "wrapped";

/** The fields the format defines; the host ignores any other (and rejects a repeated one of these). */
export const CAPABILITY_FIELDS = [
  "identifier",
  "description",
  "remote",
  "local",
  "windows",
  "webviews",
  "permissions",
  "platforms",
] as const;
export const REMOTE_FIELDS = ["urls"] as const;
export const PERMISSION_ENTRY_FIELDS = ["identifier", "allow", "deny"] as const;
export const WRAPPED_FILE_FIELDS = ["capabilities"] as const;

export interface CapabilityObject {
  path: JsonPath;
  value: Record<string, unknown>;
}

/** The form a parsed file takes, decided like the host does: array, object with `capabilities`, other object. */
export function fileForm(value: unknown): FileForm | undefined {
  if (Array.isArray(value)) return "list";
  if (isPlainObject(value))
    return Object.prototype.hasOwnProperty.call(value, "capabilities") ? "wrapped" : "single";
  return undefined;
}

/**
 * `path` and `steps` as one path. An array of exactly their length: a spread (`[...path, step]`)
 * leaves room to grow, 209 bytes for a three-step path against 80, and the model keeps a path for
 * every capability, list item and permission list of a file.
 */
export function childPath(path: JsonPath, ...steps: Array<string | number>): JsonPath {
  return path.concat(steps);
}

/** Every capability object of a file, with its path; items that are not objects are skipped. */
export function capabilityObjects(value: unknown): CapabilityObject[] {
  const form = fileForm(value);
  const out: CapabilityObject[] = [];
  const collect = (items: unknown, base: JsonPath) => {
    if (!Array.isArray(items)) return;
    // An indexed loop: `forEach` took a closure per file and ran unoptimised over 20,000 items.
    for (let index = 0; index < items.length; index++) {
      const item: unknown = items[index];
      if (isPlainObject(item)) out.push({ path: childPath(base, index), value: item });
    }
  };
  if (form === "list") collect(value, []);
  else if (form === "wrapped")
    collect((value as Record<string, unknown>).capabilities, ["capabilities"]);
  else if (form === "single") out.push({ path: [], value: value as Record<string, unknown> });
  return out;
}

/** The capability field that lists rule ids to silence inside that capability; the host ignores it. */
export const SUPPRESSION_FIELD = "caplint-disable";

/**
 * A typed capability from a raw object. Lenient: a field or list item of the wrong type is dropped
 * (the schema stage reports it), so rules always see well-typed data; every kept list item carries
 * its own path, and what the object says beyond the typed values is in `written`. Returns undefined
 * without a string identifier.
 */
export function toCapability(
  object: CapabilityObject,
  source: Omit<CapabilitySource, "path">,
  /** At most this many permission entries are made (the file's bound keeps no more); the rest are counted. */
  entriesWanted = Infinity,
): Capability | undefined {
  const raw = object.value;
  if (typeof raw.identifier !== "string") return undefined;
  const base = object.path;
  const remote = isPlainObject(raw.remote) ? raw.remote : undefined;
  const lengths = new ListLengths();
  // Unknown fields in the order they are said: the capability's, its entries', its remote's.
  let unknown = unknownFields(raw, base, CAPABILITY_FIELDS, "capability", NO_ITEMS);
  const windows = listItems(lengths, "windows", raw.windows, base, "windows");
  const webviews = listItems(lengths, "webviews", raw.webviews, base, "webviews");
  let permissions: PermissionEntry[] = NO_ITEMS;
  let notMade = 0;
  if (Array.isArray(raw.permissions)) {
    const made = toEntries(raw.permissions, base, unknown, entriesWanted);
    permissions = made.entries;
    notMade = made.notMade;
    unknown = made.unknown;
  }
  let urls: ModelItem[] | undefined;
  if (remote) {
    unknown = unknownFields(remote, { base, field: "remote" }, REMOTE_FIELDS, "remote", unknown);
    urls = listItems(lengths, "remote.urls", remote.urls, base, REMOTE_URLS);
  }
  const capability = new ModelCapability(
    raw.identifier,
    typeof raw.description === "string" ? raw.description : "",
    typeof raw.local === "boolean" ? raw.local : true,
    windows,
    webviews,
    permissions,
    new Written(
      lengths,
      remote !== undefined,
      unknown,
      stringItems(raw[SUPPRESSION_FIELD], base, SUPPRESSION_FIELD),
    ),
    // Written out, not spread: a spread copies the source's shape, and the path added to it went
    // to a second, out-of-object store (80 bytes more a capability).
    source.inline
      ? new InlineSource(source.file, source.absolutePath, base)
      : new FileSource(source.file, source.absolutePath, base),
    notMade,
  );
  if (urls !== undefined && Array.isArray(remote!.urls)) capability.remote = new Remote(urls);
  if (typeof raw.$schema === "string") capability.schemaRef = raw.$schema;
  if (raw.platforms !== undefined) {
    const platforms = listItems(lengths, "platforms", raw.platforms, base, "platforms");
    if (Array.isArray(raw.platforms)) capability.platforms = platforms;
  }
  return capability;
}

/** The steps from a capability to its remote URLs, shared by every URL item. */
const REMOTE_URLS: readonly string[] = ["remote", "urls"];

/** A list field's items, its length as written noted in `lengths` (when the field is there). */
function listItems(
  lengths: ListLengths,
  field: ListField,
  value: unknown,
  base: JsonPath,
  steps: string | readonly string[],
): ModelItem[] {
  if (value !== undefined)
    (lengths as WrittenCapability["listLengths"])[field] = Array.isArray(value)
      ? value.length
      : null;
  return stringItems(value, base, steps);
}

// The objects the model keeps for the whole run are made by constructors, not object literals: V8
// tracks where a literal is allocated, and once a scavenge finds that a site's objects survive, it
// moves the site's allocations to the old generation and throws away the optimised code that
// allocated them young (helper "row2" in docs/performance.md: toCapability, stringItems and
// unknownFields were compiled again after the first scavenges of every large run). A constructor's
// objects have no such site. Their own properties are the literals' in the same order, so a copy
// or JSON of one is unchanged.

class ModelCapability implements Capability {
  identifier: string;
  description: string;
  local: boolean;
  windows: ModelItem[];
  webviews: ModelItem[];
  permissions: PermissionEntry[];
  written: WrittenCapability;
  source: CapabilitySource;
  declare remote?: { urls: ModelItem[] };
  declare schemaRef?: string;
  declare platforms?: ModelItem[];
  declare configPlatforms?: Capability["configPlatforms"];

  constructor(
    identifier: string,
    description: string,
    local: boolean,
    windows: ModelItem[],
    webviews: ModelItem[],
    permissions: PermissionEntry[],
    written: WrittenCapability,
    source: CapabilitySource,
    entriesNotMade: number,
  ) {
    this.identifier = identifier;
    this.description = description;
    this.local = local;
    this.windows = windows;
    this.webviews = webviews;
    this.permissions = permissions;
    this.written = written;
    this.source = source;
    // The optional fields are own properties from the start, undefined until written (here, and
    // `configPlatforms` by the loader): a capability that had them only when written took one of
    // several shapes, and the resolution's loop over the capabilities, optimised on the first shape,
    // was thrown away at the next (wrong map). In the order they were added, and JSON skips undefined.
    this.remote = undefined;
    this.schemaRef = undefined;
    this.platforms = undefined;
    this.configPlatforms = undefined;
    this.#entriesNotMade = entriesNotMade;
  }

  /**
   * Permission entries past the file's bound, counted and not made (`entriesWanted`). A private field:
   * no own property a copy or JSON of the capability would show; a `WeakMap` beside the model held
   * an entry for each of bench row 6's 18,500 capabilities past the bound, for the collector to trace.
   */
  readonly #entriesNotMade: number;

  get entriesNotMade(): number {
    return this.#entriesNotMade;
  }
}

class Written implements WrittenCapability {
  listLengths: WrittenCapability["listLengths"];
  remoteObject: boolean;
  unknownFields: UnknownField[];
  suppressions: ModelItem[];

  constructor(
    listLengths: ListLengths,
    remoteObject: boolean,
    unknownFields: UnknownField[],
    suppressions: ModelItem[],
  ) {
    this.listLengths = listLengths;
    this.remoteObject = remoteObject;
    this.unknownFields = unknownFields;
    this.suppressions = suppressions;
  }
}

class Remote {
  urls: ModelItem[];

  constructor(urls: ModelItem[]) {
    this.urls = urls;
  }
}

/** Filled field by field as the capability's lists are read: a plain object's own keys, in that order. */
class ListLengths {}

class FileSource implements CapabilitySource {
  file: string;
  absolutePath: string;
  path: JsonPath;

  constructor(file: string, absolutePath: string, path: JsonPath) {
    this.file = file;
    this.absolutePath = absolutePath;
    this.path = path;
  }
}

class InlineSource implements CapabilitySource {
  file: string;
  absolutePath: string;
  inline: true;
  path: JsonPath;

  constructor(file: string, absolutePath: string, path: JsonPath) {
    this.file = file;
    this.absolutePath = absolutePath;
    this.inline = true;
    this.path = path;
  }
}

/**
 * A string item of a capability's list. Its path is made when asked (a finding, a fix, a query's
 * line) from the capability's path, which all its items share, the list's steps and its index, and
 * not kept: an array per item, kept for the run, was a third of a capability's memory in bench row
 * 6 (two window items each), and a rule that reads every item's path for its findings (most items
 * have none) makes arrays that die young instead of ones the collector copies. Private fields: the
 * item's own properties stay `value` alone.
 */
class Item implements ModelItem {
  value: string;
  readonly #base: JsonPath;
  readonly #steps: string | readonly string[];
  readonly #index: number;

  constructor(value: string, base: JsonPath, steps: string | readonly string[], index: number) {
    this.value = value;
    this.#base = base;
    this.#steps = steps;
    this.#index = index;
  }

  get path(): JsonPath {
    // Spread, not `concat`: a `concat` of strings and numbers takes V8's slow path (400 ns against
    // 80 ns a path; invalid-label-pattern asks for all 40,000 of bench row 6). The room to grow a
    // spread leaves costs nothing in an array that dies young.
    const steps = this.#steps;
    return typeof steps === "string"
      ? [...this.#base, steps, this.#index]
      : [...this.#base, ...steps, this.#index];
  }
}

/**
 * An empty list of objects for the model to fill, made by copying an empty template of the objects'
 * elements kind: a `[]` literal is an allocation site (the lists live for the run: pretenured,
 * above), and of small integers, another kind than the filled lists its readers meet.
 */
function emptyList<T extends object>(): T[] {
  return EMPTY_OBJECTS.slice() as T[];
}
const EMPTY_OBJECTS: object[] = (() => {
  const list = [{}];
  list.pop();
  return list;
})();

/**
 * The model's one empty list, of the filled lists' elements kind, for every list a capability does
 * not have (webviews, suppressions, unknown fields, the entries past the file's bound): most
 * capabilities have several, each an object kept for the run. Nothing writes a model list after
 * the model is made (the bounds replace a list by a shorter copy); the model copies it before adding.
 */
const NO_ITEMS: never[] = emptyList();

/**
 * Distinct strings the model keeps, one string object per text. Each parsed entry's identifier (and
 * each list item) is a string object of its own, and the engine, the rules and the memos look every
 * one up by text many times (`Map.get(entry.identifier)`): a lookup of another object with the same
 * text hashes that object and compares the two texts character by character; a lookup of the object
 * the map holds stops at the pointer. The memo is bounded like every memo of user input: a text
 * dropped from it only costs a lookup its pointer shortcut, never changes an answer.
 */
const sharedTexts = new BoundedMemo<string, string>(65_536);
const itself = (text: string): string => text;

/** The one string object the model uses for `text`. */
export function sharedText(text: string): string {
  return sharedTexts.get(text, itself);
}

/** The string items of the list at `base` + `steps`, each knowing its path; nothing when the value is no list. */
function stringItems(
  value: unknown,
  base: JsonPath,
  steps: string | readonly string[],
): ModelItem[] {
  if (!Array.isArray(value) || value.length === 0) return NO_ITEMS;
  // A list of strings only (the usual one) is made at its length: the first push grows a list to
  // 17 slots (152 bytes), and the model keeps one for every list of every capability. A copy of the
  // parsed list, overwritten in place: `every` and `map` took a closure each per list.
  let strings = true;
  for (let index = 0; index < value.length && strings; index++)
    strings = typeof value[index] === "string";
  if (strings) {
    const made = value.slice() as ModelItem[];
    for (let index = 0; index < made.length; index++)
      made[index] = new Item(sharedText(value[index] as string), base, steps, index);
    return made;
  }
  let items: ModelItem[] = NO_ITEMS;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (typeof item === "string") {
      if (items === NO_ITEMS) items = emptyList();
      items.push(new Item(sharedText(item), base, steps, index));
    }
  }
  return items;
}

function unknownFields(
  object: Record<string, unknown>,
  at: JsonPath | { readonly path: JsonPath } | { base: JsonPath; field: string | number },
  known: readonly string[],
  kind: UnknownField["object"],
  /** Unknown fields said before these, added to (a copy when it is the shared empty list). */
  before: UnknownField[],
): UnknownField[] {
  let unknownKeys: string[] | undefined;
  // `for in`, not `Object.keys`: no list of keys is made for an object that, like most, has no
  // unknown key; then no set and no path is made either. Own keys only, in `Object.keys` order.
  for (const key in object)
    if (!known.includes(key) && Object.prototype.hasOwnProperty.call(object, key))
      (unknownKeys ??= []).push(key);
  if (unknownKeys === undefined) return before;
  const keys = Object.keys(object);
  const path = "path" in at ? at.path : "base" in at ? childPath(at.base, at.field) : at;
  // One set for all of them: a did-you-mean asks it for each known field (an array made 32,000 unknown keys quadratic).
  const siblings: ReadonlySet<string> = new Set(keys);
  const fields = before === NO_ITEMS ? emptyList<UnknownField>() : before;
  for (const key of unknownKeys)
    fields.push({ key, path: childPath(path, key), object: kind, siblings });
  return fields;
}

/** Keys of a wrapped file's top-level object (`{"capabilities": [...]}`) that the format does not define. */
export function unknownFileFields(
  value: unknown,
): Array<{ key: string; path: JsonPath; siblings: ReadonlySet<string> }> {
  if (fileForm(value) !== "wrapped") return [];
  const keys = Object.keys(value as Record<string, unknown>);
  const siblings: ReadonlySet<string> = new Set(keys);
  return keys
    .filter((key) => !(WRAPPED_FILE_FIELDS as readonly string[]).includes(key))
    .map((key) => ({ key, path: [key], siblings }));
}

/**
 * Where to report on a permission entry: the identifier of an object entry, as the identifier rules
 * do (TOML documents can only locate strings and keys, so an inline table would point at `permissions`).
 */
export function entryPath(capability: Capability, path: JsonPath): JsonPath {
  const entry = capability.permissions.find((e) => entryIsAt(e, path));
  return entry?.extended ? [...path, "identifier"] : path;
}

/**
 * How many permission entries of a capability were not made because the file's entry bound keeps
 * none of them (`toCapability`'s `entriesWanted`): `limitCapability` counts them as the list's.
 */
export function entriesNotMade(capability: Capability): number {
  return capability instanceof ModelCapability ? capability.entriesNotMade : 0;
}

function toEntries(
  value: unknown[],
  base: JsonPath,
  before: UnknownField[],
  wanted: number,
): { entries: PermissionEntry[]; notMade: number; unknown: UnknownField[] } {
  let unknown = before;
  let entries: PermissionEntry[] = NO_ITEMS;
  // The list's path, shared by its entries, made with the first entry: a capability past the file's
  // bound (most of bench row 6's 20,000) makes none.
  let list: JsonPath | undefined;
  let notMade = 0;
  // An indexed loop: this runs once per capability, mostly before the optimiser compiles it, and a
  // `forEach` callback or a for-of step allocates there.
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (typeof item === "string") {
      if (entries.length < wanted) {
        if (entries === NO_ITEMS) entries = emptyList();
        list ??= childPath(base, "permissions");
        entries.push(new ListedEntry(sharedText(item), false, list, index, undefined, undefined));
      } else notMade++;
    } else if (isPlainObject(item) && typeof item.identifier === "string") {
      list ??= childPath(base, "permissions");
      if (entries.length >= wanted) {
        // Not checked past the bound, but its unknown keys are still said, as for the entries kept.
        unknown = unknownFields(
          item,
          { base: list, field: index },
          PERMISSION_ENTRY_FIELDS,
          "permission entry",
          unknown,
        );
        notMade++;
        continue;
      }
      if (entries === NO_ITEMS) entries = emptyList();
      const entry = new ListedEntry(
        sharedText(item.identifier),
        true,
        list,
        index,
        "allow" in item ? (Array.isArray(item.allow) ? item.allow : null) : undefined,
        "deny" in item ? (Array.isArray(item.deny) ? item.deny : null) : undefined,
      );
      unknown = unknownFields(item, entry, PERMISSION_ENTRY_FIELDS, "permission entry", unknown);
      entries.push(entry);
    }
  }
  return { entries, notMade, unknown };
}

/** A path no entry has, of the kind (strings and integers) every entry's path is. */
const PATH_NOT_MADE: JsonPath = ["", 0];

/**
 * A permission entry as a capability file lists it. Its path is made on first use (a finding, a fix,
 * a query's line), from its list's path, which every entry of the capability shares, and its index:
 * only findings need a path, and an array per entry, kept for the whole run, was most of the model's
 * memory and of the garbage collector's copying on an app of 66,660 entries.
 */
class ListedEntry implements PermissionEntry {
  declare allow?: ScopeValue[] | null;
  declare deny?: ScopeValue[] | null;
  /**
   * {@link PATH_NOT_MADE} until made: a path of the same kind of array as the made ones, so the
   * field's type never changes (from `undefined` to an array it did, and V8 threw away the code
   * that had relied on it).
   */
  private madePath: JsonPath;

  constructor(
    readonly identifier: string,
    readonly extended: boolean,
    /** The path of the `permissions` list that holds it. */
    private readonly list: JsonPath,
    private readonly index: number,
    allow: ScopeValue[] | null | undefined,
    deny: ScopeValue[] | null | undefined,
  ) {
    // Assigned here, after the field's definition: a field stored once V8 takes for a constant, and
    // the first path made (after the model was built and its code optimised) threw that code away.
    // Stored twice from the first entry on, the field is known to change before anything is compiled.
    this.madePath = PATH_NOT_MADE;
    // Own properties of every entry, undefined when not written (JSON skips them, and no code asks
    // `in`): added only when written, they gave entries four shapes, and code optimised on one (the
    // resolution's loop, `entryIsAt`, `listsEntryAt`, `path`) was thrown away at the next (wrong
    // map). Set in the constructor, last, as they were added: a copy or JSON keeps its key order.
    this.allow = allow;
    this.deny = deny;
  }

  get path(): JsonPath {
    let path = this.madePath;
    if (path === PATH_NOT_MADE) path = this.madePath = childPath(this.list, this.index);
    return path;
  }

  /** Whether `path` is this entry's, without making its path. */
  isAt(path: JsonPath): boolean {
    const list = this.list;
    if (path.length !== list.length + 1 || path[list.length] !== this.index) return false;
    for (let i = 0; i < list.length; i++) if (path[i] !== list[i]) return false;
    return true;
  }
}

/** Whether `path` is the entry's place in its file: for entries of the model, without making the entry's path. */
export function entryIsAt(entry: PermissionEntry, path: JsonPath): boolean {
  return entry instanceof ListedEntry ? entry.isAt(path) : samePath(entry.path, path);
}
