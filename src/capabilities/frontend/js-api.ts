/**
 * From a call into a Tauri JS package to the IPC commands it invokes, at the package version the app
 * installs: data/js-api-map.json (generated from every published 2.x release of `@tauri-apps/api` and of
 * the official plugins' JS packages by scripts/build-js-api-map.mjs; data/js-api-map.md says how) and
 * the hand-kept data/js-api-overrides.json (what the packages' code does not show, each entry with its
 * source). Both are read on first use, never at start-up.
 *
 * A command may hold `{n}`: the call's n-th argument (0-based), as a string — `invoke` is `{0}`,
 * `addPluginListener` is `plugin:{0}|register_listener` — or `{?}`: a part the package computes at run
 * time (the member's note says so).
 */
import { readPackageJson } from "../../core/package-files.js";

export interface JsApiMember {
  readonly commands: readonly string[];
  readonly returns?: string;
  /** The class of the elements of the array it returns (`getAllWindows()` → `Window`), from the overrides. */
  readonly returnsArrayOf?: string;
  readonly note?: string;
}

export interface JsApiModule {
  readonly specifier: string; // "@tauri-apps/api/window"
  readonly packageName: string; // "@tauri-apps/api"
  readonly version: string; // the published version this answer is for
  readonly exact: boolean; // false when the requested version was not published/known and the nearest was used
  /**
   * "open" (export), "Window" (class: its constructor), "Window#setTitle" (instance member, inherited
   * ones included), "Database.load" (static); on a module that exports namespaces (`@tauri-apps/api`),
   * "window.getCurrentWindow" (a member of the namespace's module).
   */
  member(name: string): JsApiMember | undefined;
}

export interface ImplicitCall {
  readonly trigger: string;
  readonly commands: readonly string[];
  readonly source: string;
  /** A web API the injected script replaces, as called: "new Notification", "Notification.requestPermission", "alert", "confirm" (with or without `window.`). */
  readonly global?: string;
}

interface TableMember {
  c: string[];
  r?: string;
}

interface Table {
  members: Record<string, TableMember>;
  /** namespace export → the module it stands for */
  ns?: Record<string, string>;
  /** a class this module's members return but do not export → the module that exports it */
  classes?: Record<string, string>;
}

interface PackageEntry {
  versions: string[];
  /** specifier → index into `tables` per version (null: the module did not exist in that version) */
  modules: Record<string, (number | null)[]>;
}

interface JsApiMap {
  apiResolvedAgainst: string | null;
  packages: Record<string, PackageEntry>;
  tables: Table[];
}

interface MemberOverride {
  specifier: string;
  member: string;
  note?: string;
  /** The member resolves to an array of this class's instances (its declared type, which the call map does not record). */
  returnsArrayOf?: string;
  source: string;
}

interface Overrides {
  implicit: ImplicitCall[];
  members: MemberOverride[];
}

const API_PACKAGE = "@tauri-apps/api";
const PLUGIN_PREFIX = "@tauri-apps/plugin-";

/** The bundled map, parsed on first use (a few hundred kilobytes no other command needs). */
function apiMap(): JsApiMap {
  return readPackageJson<JsApiMap>("data", "js-api-map.json");
}

function overrides(): Overrides {
  return readPackageJson<Overrides>("data", "js-api-overrides.json");
}

/** `@tauri-apps/api/window` → `@tauri-apps/api`; `@tauri-apps/plugin-fs` → itself. */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

type Triple = [number, number, number];

function parseVersion(text: string): Triple | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * The published version that answers for a requested one, and whether it is that very version. An exact
 * version picks itself or, when it was never published (a pre-release, a version newer than the data),
 * the nearest published one not above it (else the oldest). A range (`^2.1.0`, `~2.2`, `2`, `>=2.0.0`,
 * what package.json says when no lockfile does) picks the newest published version it allows, which
 * is what installing it gets; undefined picks the newest.
 */
function pickVersion(
  versions: readonly string[],
  requested: string | undefined,
): { version: string; exact: boolean } | undefined {
  const newest = versions.at(-1);
  if (newest === undefined) return undefined;
  if (
    requested === undefined ||
    requested.trim() === "" ||
    requested.trim() === "*" ||
    requested.trim() === "latest"
  )
    return { version: newest, exact: false };
  const text = requested.trim();
  if (versions.includes(text)) return { version: text, exact: true };
  const parsed = versions
    .map((version) => [version, parseVersion(version)] as const)
    .filter((entry): entry is readonly [string, Triple] => entry[1] !== undefined);
  const range =
    /^(\^|~|>=?|=)?\s*v?(\d+(?:\.(?:\d+|x|\*))?(?:\.(?:\d+|x|\*))?)(-[0-9A-Za-z.-]+)?$/.exec(text);
  if (!range) return { version: newest, exact: false };
  const operator = range[1] ?? "";
  const numbers = (range[2] ?? "").split(".");
  const wanted = parseVersion(
    numbers.map((part) => (part === "x" || part === "*" ? "0" : part)).join("."),
  );
  if (!wanted) return { version: newest, exact: false };
  const fixedParts = numbers.findIndex((part) => part === "x" || part === "*");
  const given = fixedParts === -1 ? numbers.length : fixedParts;
  let allowed: (version: Triple) => boolean;
  if (operator === "^")
    allowed = (v) =>
      v[0] === wanted[0] && compare(v, wanted) >= 0 && (wanted[0] !== 0 || v[1] === wanted[1]);
  else if (operator === "~")
    allowed = (v) => v[0] === wanted[0] && v[1] === wanted[1] && compare(v, wanted) >= 0;
  else if (operator.startsWith(">"))
    allowed = (v) => compare(v, wanted) >= (operator === ">" ? 1 : 0);
  else if (given < 3) allowed = (v) => v[0] === wanted[0] && (given < 2 || v[1] === wanted[1]);
  else {
    // An exact version that was never published (a pre-release, or newer than the data).
    const notAbove = parsed.filter(
      ([, v]) => compare(v, wanted) <= 0 && !(range[3] && compare(v, wanted) === 0),
    );
    return { version: (notAbove.at(-1) ?? parsed[0])?.[0] ?? newest, exact: false };
  }
  const matching = parsed.filter(([, v]) => allowed(v));
  return { version: matching.at(-1)?.[0] ?? newest, exact: false };
}

const placeholderNote = (commands: readonly string[]): string | undefined => {
  const notes: string[] = [];
  const argumentsUsed = [
    ...new Set(
      commands.flatMap((command) =>
        [...command.matchAll(/\{(\d+)\}/g)].map((match) => Number(match[1]) + 1),
      ),
    ),
  ].sort((a, b) => a - b);
  if (argumentsUsed.length > 0)
    notes.push(`the command depends on argument ${argumentsUsed.join(" and ")}`);
  if (commands.some((command) => command.includes("{?}")))
    notes.push("part of a command is only known at run time");
  return notes.length > 0 ? notes.join("; ") : undefined;
};

class MappedModule implements JsApiModule {
  readonly packageName: string;
  /** Members already looked up (each lookup filters the overrides). */
  private readonly members = new Map<string, JsApiMember | undefined>();

  constructor(
    readonly specifier: string,
    readonly version: string,
    readonly exact: boolean,
    private readonly table: Table,
  ) {
    this.packageName = packageOf(specifier);
  }

  member(name: string): JsApiMember | undefined {
    if (!this.members.has(name)) this.members.set(name, this.lookUp(name));
    return this.members.get(name);
  }

  private lookUp(name: string): JsApiMember | undefined {
    const own = this.table.members[name];
    if (own) return this.withNotes(name, own);
    const dot = name.indexOf(".");
    const namespace = dot > 0 ? this.table.ns?.[name.slice(0, dot)] : undefined;
    if (namespace) return this.related(namespace)?.member(name.slice(dot + 1));
    const className = /^([^#.]+)[#.]/.exec(name)?.[1];
    if (!className) return undefined;
    // `default.load` (import Database from "@tauri-apps/plugin-sql") or a renamed export: the class's own name.
    const aliased = this.table.members[className]?.r;
    if (aliased && aliased !== className && this.table.members[aliased])
      return this.member(aliased + name.slice(className.length));
    const home = this.table.classes?.[className];
    return home ? this.related(home)?.member(name) : undefined;
  }

  /** A module this one points to: of the same package at the same version, or of another package at its newest (what the data resolved against). */
  private related(specifier: string): JsApiModule | undefined {
    return jsApiModule(
      specifier,
      packageOf(specifier) === this.packageName ? this.version : undefined,
    );
  }

  private withNotes(name: string, entry: TableMember): JsApiMember {
    const own = overrides().members.filter(
      (o) => o.specifier === this.specifier && o.member === name,
    );
    const notes = [
      placeholderNote(entry.c),
      ...own.filter((o) => o.note !== undefined).map((o) => `${o.note} (${o.source})`),
    ].filter((note): note is string => note !== undefined);
    const arrayOf = own.find((o) => o.returnsArrayOf !== undefined)?.returnsArrayOf;
    return {
      commands: entry.c,
      ...(entry.r ? { returns: entry.r } : {}),
      ...(arrayOf ? { returnsArrayOf: arrayOf } : {}),
      ...(notes.length > 0 ? { note: notes.join("; ") } : {}),
    };
  }
}

/** What a module of a Tauri JS package invokes, at the version the app installs (a locked version or a package.json range). */
export function jsApiModule(
  specifier: string,
  version: string | undefined,
): JsApiModule | undefined {
  const entry = apiMap().packages[packageOf(specifier)];
  const tables = entry?.modules[specifier];
  if (!entry || !tables) return undefined;
  // Only the versions in which this module exists.
  const present = entry.versions.filter(
    (_, index) => tables[index] !== null && tables[index] !== undefined,
  );
  const picked = pickVersion(present, version);
  if (!picked) return undefined;
  const index = tables[entry.versions.indexOf(picked.version)];
  const table = index === null || index === undefined ? undefined : apiMap().tables[index];
  return table ? new MappedModule(specifier, picked.version, picked.exact, table) : undefined;
}

/**
 * Every command a JS package invokes at a version (all its modules and members, placeholders left
 * out): the version-skew check compares it with what the locked crate's permissions enable.
 */
export function packageCommands(
  packageName: string,
  version: string | undefined,
): { version: string; exact: boolean; commands: readonly string[] } | undefined {
  const map = apiMap();
  const entry = map.packages[packageName];
  if (!entry) return undefined;
  const usable = entry.versions.filter((_, index) =>
    Object.values(entry.modules).some(
      (tables) => tables[index] !== null && tables[index] !== undefined,
    ),
  );
  const picked = pickVersion(usable, version);
  if (!picked) return undefined;
  const position = entry.versions.indexOf(picked.version);
  const commands = new Set<string>();
  for (const tables of Object.values(entry.modules)) {
    const index = tables[position];
    const table = index === null || index === undefined ? undefined : map.tables[index];
    for (const member of Object.values(table?.members ?? {}))
      for (const command of member.c) if (!command.includes("{")) commands.add(command);
  }
  return { version: picked.version, exact: picked.exact, commands: [...commands].sort() };
}

/** window.__TAURI__.<namespace> → module specifier, e.g. "dialog" → "@tauri-apps/plugin-dialog", "window" → "@tauri-apps/api/window" */
export function globalNamespaceModule(namespace: string): string | undefined {
  const map = apiMap();
  const api = map.packages[API_PACKAGE];
  const rootIndex = api?.modules[API_PACKAGE]?.at(-1);
  const apiNamespace =
    rootIndex === null || rootIndex === undefined
      ? undefined
      : map.tables[rootIndex]?.ns?.[namespace];
  if (apiNamespace) return apiNamespace;
  // Each plugin's global script defines window.__TAURI__.<its name in camelCase> (clipboard-manager → clipboardManager).
  for (const name of Object.keys(map.packages)) {
    if (!name.startsWith(PLUGIN_PREFIX)) continue;
    const camel = name
      .slice(PLUGIN_PREFIX.length)
      .replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
    if (camel === namespace) return name;
  }
  return undefined;
}

/** Commands the host or a plugin invokes from the page without a call in the app's code (scripts they inject). */
export function implicitCalls(): readonly ImplicitCall[] {
  return overrides().implicit;
}
