import { readPackageText } from "../../core/package-files.js";
import type { AclManifests, Manifest } from "./types.js";

/** A built-in manifest, parsed from its text on first use. */
export interface UnreadManifest {
  read(): Manifest;
  /** False when no object of the manifest can hold `field` (its text never names it). */
  mayHold(field: string): boolean;
}

let builtins: AclManifests | undefined;
const unreadOf = new WeakMap<AclManifests, ReadonlyMap<string, UnreadManifest>>();
let manifestsParsed = 0;
let manifestTextSearches = 0;

/**
 * The core and official-plugin catalogs shipped in `data/`, read once per process and shared (never
 * changed). Each plugin's manifest is parsed when first asked for: a check names a few plugins of the
 * thirty, and parsing all of them was most of the JSON a one-file check parsed. The object reads as
 * the parsed files would (every key, in their order); a catalog built from it takes the unread
 * manifests as they are (`unreadBuiltins`).
 */
export function loadBuiltinManifests(): Promise<AclManifests> {
  if (!builtins) {
    const unread = new Map<string, UnreadManifest>();
    for (const name of ["core-acl-manifest.json", "plugins-acl-manifest.json"])
      for (const [key, manifest] of topLevelManifests(readPackageText("data", name)))
        unread.set(key, manifest);
    builtins = lazyManifests(unread);
  }
  return Promise.resolve(builtins);
}

/**
 * An object that reads as the manifests would (every key, in `unread`'s order), each read on first
 * use; a catalog built from it takes them unread (`unreadBuiltins`).
 */
export function lazyManifests(unread: ReadonlyMap<string, UnreadManifest>): AclManifests {
  const manifests: AclManifests = {};
  for (const [key, manifest] of unread)
    Object.defineProperty(manifests, key, {
      get: () => manifest.read(),
      enumerable: true,
      configurable: false,
    });
  unreadOf.set(manifests, unread);
  return manifests;
}

/** The manifests of `loadBuiltinManifests`'s object, unread; undefined for any other object. */
export function unreadBuiltins(
  manifests: AclManifests,
): ReadonlyMap<string, UnreadManifest> | undefined {
  return unreadOf.get(manifests);
}

/** How many times a built-in manifest's text was searched for a field name (a test counts them). */
export function builtinManifestTextSearches(): number {
  return manifestTextSearches;
}

/** How many built-in manifests this process has parsed (a test counts them). */
export function builtinManifestsParsed(): number {
  return manifestsParsed;
}

/**
 * The top-level members of a catalog file, each parsed on first use. The shipped files are written
 * with two spaces of indentation, one member a line: a member starts at a line that opens with two
 * spaces and a quote (JSON strings hold no raw line break, so no string can look like one). A file
 * written otherwise is parsed whole, at once.
 */
function topLevelManifests(text: string): Array<[string, UnreadManifest]> {
  const members: Array<[string, UnreadManifest]> = [];
  const starts: number[] = [];
  for (let at = text.indexOf('\n  "'); at !== -1; at = text.indexOf('\n  "', at + 1))
    starts.push(at + 3);
  const end = text.lastIndexOf("}");
  const wholeFile = () =>
    Object.entries(JSON.parse(text) as AclManifests).map(
      ([key, manifest]): [string, UnreadManifest] => [key, readManifest(manifest)],
    );
  if (!text.startsWith("{\n") || starts.length === 0 || text.slice(end + 1).trim() !== "")
    return wholeFile();
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    const close = text.indexOf('": ', start + 1);
    const key = text.slice(start + 1, close);
    const valueEnd = i + 1 < starts.length ? text.lastIndexOf(",", starts[i + 1]) : end;
    const value = text.slice(close + 3, valueEnd).trimEnd();
    if (close === -1 || /["\\\n]/.test(key) || !value.startsWith("{") || !value.endsWith("}"))
      return wholeFile();
    members.push([key, unreadManifest(value)]);
  }
  return members;
}

function unreadManifest(text: string): UnreadManifest {
  let parsed: Manifest | undefined;
  // A field written with an escape (`"platfor\u006ds"`) would not be found by its name.
  const escaped = text.includes("\\u");
  const heldFields = new Map<string, boolean>();
  return {
    read: () => {
      if (!parsed) {
        parsed = JSON.parse(text) as Manifest;
        manifestsParsed++;
      }
      return parsed;
    },
    // Asked of every built-in manifest by every app (`platforms`: is the app platform-independent?),
    // and the answer is the text's: one search of a manifest's text per field and process.
    mayHold: (field) => {
      let held = heldFields.get(field);
      if (held === undefined) {
        manifestTextSearches++;
        heldFields.set(field, (held = escaped || text.includes(`"${field}"`)));
      }
      return held;
    },
  };
}

function readManifest(manifest: Manifest): UnreadManifest {
  return { read: () => manifest, mayHold: () => true };
}
