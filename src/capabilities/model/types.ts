import type { JsonPath } from "../../core/location.js";

export const TARGETS = ["linux", "macOS", "windows", "android", "iOS"] as const;
export type Target = (typeof TARGETS)[number];

export function isTarget(value: unknown): value is Target {
  return typeof value === "string" && (TARGETS as readonly string[]).includes(value);
}

/** A scope value: any JSON value. */
export type ScopeValue = unknown;

export interface PermissionEntry {
  identifier: string;
  /** Extended scope; `undefined` when the key is absent, `null` when explicitly null. */
  allow?: ScopeValue[] | null;
  deny?: ScopeValue[] | null;
  /** True for the object form `{identifier, allow?, deny?}`. */
  extended: boolean;
  /** Path of the entry inside its document. */
  path: JsonPath;
}

/**
 * A list item the model keeps, with its own path in the document. The model drops wrongly typed items
 * (`"urls": [123, "example.com"]` keeps one), so an index into the kept list is not an index into the
 * file: rules point at `path`, never at an index they compute.
 */
export interface ModelItem {
  value: string;
  path: JsonPath;
}

/** The list fields of a capability, as the schema names them. */
export type ListField = "windows" | "webviews" | "platforms" | "remote.urls";

/** A key the format does not define (the host ignores it), in a capability or in one of its objects. */
export interface UnknownField {
  key: string;
  path: JsonPath;
  /** The object it is in. */
  object: "capability" | "remote" | "permission entry";
  /** Every key that object has: a did-you-mean must not suggest one of them. */
  siblings: ReadonlySet<string>;
}

/** What a capability says as written, beyond the typed values: for rules that judge the text itself. */
export interface WrittenCapability {
  /**
   * How many items each list field holds as written, wrongly typed ones included; `null` when the
   * field holds something other than a list; no key when the field is absent.
   */
  listLengths: Partial<Record<ListField, number | null>>;
  /** Whether `remote` is an object (with or without a usable `urls`). */
  remoteObject: boolean;
  /** Keys of the capability, its `remote` and its extended permission entries that the format does not define. */
  unknownFields: UnknownField[];
  /** The `caplint-disable` items that are strings. */
  suppressions: ModelItem[];
}

/**
 * Whether a target's app loads the capability: its `platforms` allow the target and its app config (or the
 * target's platform config) lists it there.
 */
export function loadedOn(capability: Capability, target: string): boolean {
  return (
    (!capability.platforms || valuesOf(capability.platforms).includes(target)) &&
    (!capability.configPlatforms || capability.configPlatforms.some((loaded) => loaded === target))
  );
}

export interface Capability {
  identifier: string;
  description: string;
  remote?: { urls: ModelItem[] };
  local: boolean;
  windows: ModelItem[];
  webviews: ModelItem[];
  permissions: PermissionEntry[];
  /** `undefined` (absent or null) = every platform; `[]` = none. */
  platforms?: ModelItem[];
  /**
   * The targets whose app config loads it, where platform configs (`tauri.<platform>.conf.json`) select
   * capabilities differently per target; undefined: every target `platforms` allows.
   */
  configPlatforms?: readonly Target[];
  written: WrittenCapability;
  /** Its `$schema`, when a string: the schema it was written against (`../gen/schemas/mobile-schema.json` says a mobile build ran). */
  schemaRef?: string;
  /** Where it was declared. */
  source: CapabilitySource;
}

/** The values of model items, for code that matches rather than points. */
export function valuesOf(items: readonly ModelItem[]): string[] {
  // Not `map`: the arrays `map` returns differ in elements kind (empty or not, the builtin's or the
  // optimiser's inlined copy), and the resolution's optimised loop, which sorts these, was thrown
  // away at each new kind (wrong map) and compiled again. Nor a `[]` literal: its copies have an
  // allocation site for V8 to pretenure (the resolution keeps them for the run; see
  // model/capability.ts). A copy of the items overwritten in place is made at its length (a first
  // `push` grows a list to 17 slots, 152 bytes, and the resolution keeps one per capability) and is
  // of the kind a list of strings has, like the copies of an empty list of strings.
  if (items.length === 0) return NO_STRINGS.slice();
  const values = items.slice() as unknown as string[];
  for (let i = 0; i < values.length; i++) values[i] = items[i]!.value;
  return values;
}

const NO_STRINGS: string[] = (() => {
  const list = [""];
  list.pop();
  return list;
})();

export interface CapabilitySource {
  /** POSIX path relative to the working directory; for inline config capabilities the config file. */
  file: string;
  absolutePath: string;
  /** Path of the capability object inside that file. */
  path: JsonPath;
  /** Declared inline in tauri.conf.json (`app.security.capabilities`). */
  inline?: boolean;
}
