/**
 * `caplint explain`: from the host's refusal text (what `invoke` rejects with) to the reason and
 * the smallest capability entry that would allow the call. The texts are the runtime's
 * (host-acl-semantics §3.8): release builds say `Command {cmd} not allowed by ACL`; debug builds
 * name the command as `{plugin}.{cmd}` (bare for app commands) and, for a call that reached the
 * window check, the window, webview and URL.
 */
import { APP_KEY } from "../catalog/types.js";
import type { Catalog } from "../catalog/catalog.js";
import type { Manifest, PermissionDef } from "../catalog/types.js";
import {
  resolveAccess,
  type CommandExplanation,
  type Origin,
  type ResolvedCommand,
  type ResolvedModel,
} from "../engine/index.js";
import { compareCodePoints, qualifiedIdentifier } from "../engine/index.js";
import type { Project } from "../load/project.js";
import { isPlainObject } from "../../core/json.js";
import { nearest, wordList } from "../../core/did-you-mean.js";
import { CommandIndex, lookupCommand } from "./command-names.js";
import { parseCommandName } from "../engine/command-name.js";
import { describeRelease, REMOTE_APP_COMMANDS_CHECKED_SINCE } from "../catalog/versions.js";
import type { PlatformGroup } from "./platforms.js";
import { knownWindowLabels } from "./project-model.js";
import { plural } from "../../core/wording.js";
import { syntaxOf, type Syntax } from "../../core/source/syntax.js";
import type { JsonPath } from "../../core/location.js";
import { TARGETS, type Capability } from "../model/types.js";

export type RefusalKind =
  | "release"
  | "plugin-not-found"
  | "command-not-found"
  | "permissions-listed"
  | "not-allowed-here"
  | "denied";

/** What a refusal text says, before looking at the project. */
export interface Refusal {
  kind: RefusalKind;
  /** The command as written in the text: `fs.read_text_file`, `greet`, `plugin:fs|read_text_file`. */
  written: string;
  /** True when the text names the command as invoked (release builds), not as `{plugin}.{cmd}`. */
  invokedForm: boolean;
  window?: string;
  webview?: string;
  /** `local` or the page URL the text names. */
  url?: string;
}

const NAME = String.raw`([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_]+)?)`;
const PATTERNS: ReadonlyArray<[RefusalKind, RegExp]> = [
  ["release", /Command (\S+?) not allowed by ACL/],
  ["denied", new RegExp(`${NAME} explicitly denied on origin (?:remote: )?(\\S+)`)],
  [
    "not-allowed-here",
    new RegExp(
      `${NAME} not allowed on window "([^"]*)", webview "([^"]*)", URL: (?:remote: )?(\\S+)`,
    ),
  ],
  ["plugin-not-found", new RegExp(`${NAME} not allowed\\. Plugin not found`)],
  ["command-not-found", new RegExp(`${NAME} not allowed\\. Command not found`)],
  [
    "permissions-listed",
    new RegExp(`${NAME} not allowed\\. Permissions associated with this command`),
  ],
];

/** Finds the host's refusal in a pasted text (console lines, quotes and prefixes around it are fine). */
export function parseRefusal(text: string): Refusal | undefined {
  for (const [kind, pattern] of PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const refusal: Refusal = { kind, written: match[1]!, invokedForm: kind === "release" };
    if (kind === "not-allowed-here") {
      refusal.window = match[2]!;
      refusal.webview = match[3]!;
      refusal.url = trimUrl(match[4]!);
    } else if (kind === "denied") {
      refusal.url = trimUrl(match[2]!);
    }
    return refusal;
  }
  return undefined;
}

/** A URL at the end of a sentence or inside quotes loses the punctuation after it. */
function trimUrl(url: string): string {
  return url.replace(/[",;'`)\].]+$/, "");
}

/** The command a refusal names, as invoked. In `{plugin}.{cmd}` texts a bare name is an app command. */
export function commandOfRefusal(
  refusal: Refusal,
  index: CommandIndex,
): ReturnType<typeof lookupCommand> {
  if (!refusal.invokedForm && !refusal.written.includes(".")) {
    const known = index.has(refusal.written);
    return {
      ok: true,
      command: refusal.written,
      known,
      suggestions: known ? [] : index.suggest(refusal.written),
    };
  }
  return lookupCommand(refusal.written, index);
}

/** A capability that covers the window and origin on `platforms` only, of those that refuse the call. */
export interface PartCover {
  capability: string;
  file: string;
  /** Where its `permissions` list is written. */
  line: number;
  platforms: string[];
}

/** One platform group's answer for the call. */
export interface PlatformVerdict {
  platforms: string[];
  explanation: CommandExplanation;
}

export interface Suggestion {
  /** The permission entry to add, as it is written in a capability file. */
  entry: string | { identifier: string; allow: unknown[] };
  /** Why this entry: the permission it names and what it enables. */
  reason: string;
  /** An active capability that already covers the window and origin, to add the entry to. */
  addTo?: { capability: string; file: string; line: number };
  /**
   * Without one: the capabilities that cover the window and origin on some of the platforms the call
   * is refused on, with those platforms (the entry added to one would not fix the others).
   */
  partlyCoveredBy: PartCover[];
  /**
   * Without one capability for every refusing platform: some of `partlyCoveredBy` that together cover
   * them all (an app's desktop and mobile capabilities), to add the entry to each.
   */
  addToEach?: PartCover[];
  /** A whole new capability granting just this, when none covers the window and origin. */
  newCapability: Record<string, unknown>;
  /** Where that new capability would go: JSON or TOML as the app's own capability files are written. */
  newCapabilityFile: string;
  /** Denies to remove first: a deny wins for every window and origin. */
  removeDenies: ResolvedCommand[];
  /** Window patterns a typo or a case away from the window: shown before any new grant. */
  nearMissWindows: NearMissWindow[];
  notes: string[];
}

export interface CallExplanation {
  command: string;
  /** False for a command the catalog does not list (an app command, or a typo). */
  known: boolean;
  /** Nearest known commands, for an unknown one. */
  suggestions: string[];
  window: string;
  webview: string;
  origin: Origin;
  verdicts: PlatformVerdict[];
  /** For calls some platform refuses. */
  suggestion?: Suggestion;
  /** Did-you-mean for a window label no capability and no config names. */
  windowSuggestions: string[];
  windowKnown: boolean;
  /** The framework as this app's answers name it ("Tauri", or the spec's "the host"). */
  framework: string;
}

export interface CallQuery {
  command: string;
  known: boolean;
  suggestions?: string[];
  window: string;
  webview?: string;
  origin: Origin;
  /** The scope value the entry gets instead of the schema's placeholder (explain knows the path, URL or program refused). */
  scope?: Record<string, unknown> | string;
}

/** Answers one call on every platform group and, when some refuse it, works out the smallest grant. */
export function explainCall(
  project: Project,
  groups: readonly PlatformGroup[],
  query: CallQuery,
  lineOf: (entry: { file: string; path: JsonPath }) => number,
): CallExplanation {
  const webview = query.webview ?? query.window;
  const verdicts: PlatformVerdict[] = [];
  for (const group of groups) {
    const result = resolveAccess(group.model, {
      window: query.window,
      webview,
      origin: query.origin,
      command: query.command,
    });
    const explanation = result.explanation!;
    const same = verdicts.find(
      (v) =>
        v.explanation.verdict === explanation.verdict &&
        v.explanation.message === explanation.message,
    );
    if (same) same.platforms.push(...group.platforms);
    else verdicts.push({ platforms: [...group.platforms], explanation });
  }
  const labels = new Set(knownWindowLabels(project));
  const windowKnown =
    labels.has(query.window) ||
    groups.some((g) => g.model.capabilities.some((c) => c.matchesLabels(query.window, webview)));
  const answer: CallExplanation = {
    command: query.command,
    known: query.known,
    suggestions: query.suggestions ?? [],
    window: query.window,
    webview,
    origin: query.origin,
    verdicts,
    windowKnown,
    windowSuggestions: windowKnown ? [] : nearest(query.window, labels, 3),
    framework: project.catalog.framework,
  };
  // A command a known plugin does not have is a typo (the note says "did you mean"): no permission can grant it.
  const { plugin } = parseCommandName(query.command);
  const notInItsPlugin =
    !query.known &&
    plugin !== undefined &&
    (project.catalog.has(plugin) || project.catalog.has(`core:${plugin}`));
  if (verdicts.some((v) => v.explanation.verdict !== "allowed") && !notInItsPlugin)
    answer.suggestion = suggest(project, groups, query, webview, verdicts, lineOf);
  return answer;
}

function suggest(
  project: Project,
  groups: readonly PlatformGroup[],
  query: CallQuery,
  webview: string,
  verdicts: readonly PlatformVerdict[],
  lineOf: (entry: { file: string; path: JsonPath }) => number,
): Suggestion {
  const catalog = project.catalog;
  const { plugin, name } = parseCommandName(query.command);
  const key =
    plugin === undefined
      ? APP_KEY
      : catalog.has(plugin)
        ? plugin
        : catalog.has(`core:${plugin}`)
          ? `core:${plugin}`
          : plugin;
  const manifest = catalog.get(key);
  const notes: string[] = [];
  const smallest = manifest ? smallestPermission(manifest, name) : undefined;
  let entry: Suggestion["entry"];
  let reason: string;
  if (smallest) {
    const identifier = qualifiedIdentifier(key, smallest.identifier);
    const scope = manifest!.global_scope_schema
      ? (query.scope ?? scopeTemplate(manifest!.global_scope_schema))
      : undefined;
    entry = scope ? { identifier, allow: [scope] } : identifier;
    const others = smallest.commands.allow.filter((c) => c !== name);
    reason = `"${identifier}" enables ${others.length ? `${name} and ${plural(others.length, "other command")} (${others.join(", ")})` : `only ${name}`}`;
    if (scope && query.scope === undefined)
      notes.push(
        `the ${key} plugin reads a scope: replace the placeholder${Object.keys(scope).length > 1 ? "s" : ""} with the narrowest value the window needs (without a matching scope the command refuses at run time)`,
      );
  } else if (plugin === undefined) {
    const slug = `allow-${name.replace(/_/g, "-")}`;
    entry = slug;
    reason = `"${slug}" is an app permission you define: add src-tauri/permissions/${slug}.toml with [[permission]] identifier = "${slug}", commands.allow = ["${name}"]`;
    if (!catalog.hasAppPermissions) {
      notes.push(
        query.origin.kind === "local"
          ? `the app defines no permissions, so ${catalog.framework} does not check app commands from local pages; this refusal comes from a remote page or a build whose app defines permissions`
          : `from ${REMOTE_APP_COMMANDS_CHECKED_SINCE} ${catalog.framework} checks app commands called from remote pages even when the app defines no permissions${catalog.hostRelease ? ` (this app builds with ${describeRelease(catalog.hostRelease)})` : ""}`,
      );
    }
  } else if (!manifest) {
    entry = `${plugin}:default`;
    reason = `plugin "${plugin}" is unknown to caplint: its commands cannot be checked (give its manifest with --manifest or build the app once)`;
  } else {
    entry = `${qualifiedIdentifier(key, `allow-${name.replace(/_/g, "-")}`)}`;
    reason = `no permission of ${key} enables ${name}: the plugin does not have this command`;
  }

  const refusing = verdicts.filter((v) => v.explanation.verdict !== "allowed");
  const removeDenies = refusing.flatMap((v) =>
    v.explanation.verdict === "denied" ? v.explanation.deniedBy : [],
  );
  if (removeDenies.length)
    notes.unshift(
      "a deny wins over every allow, for every window and origin: remove the deny first",
    );

  // Added to a capability that covers the window and origin on every refusing platform, the entry fixes them all.
  const refusedOn = refusing.flatMap((v) => v.platforms);
  const refusingGroups = groups.filter((g) => g.platforms.some((p) => refusedOn.includes(p)));
  const covering = coveringCapability(
    refusingGroups.map((g) => g.model),
    query.window,
    webview,
    query.origin,
  );
  const partlyCoveredBy = covering
    ? []
    : capabilitiesCoveringOn(refusingGroups, refusedOn, query.window, webview, query.origin).map(
        ({ capability, platforms }) => ({
          capability: capability.identifier,
          file: capability.source.file,
          line: lineOf({
            file: capability.source.file,
            path: [...capability.source.path, "permissions"],
          }),
          platforms,
        }),
      );
  for (const item of selectionNotes(project, groups, query, webview, refusedOn)) notes.push(item);
  const capability = newCapability(query, entry, refusedOn, groups);
  const newCapabilityFile = `src-tauri/capabilities/${String(capability.identifier)}.${capabilitySyntax(project)}`;
  const nearMissWindows = nearMissWindowPatterns(
    project,
    groups,
    query.window,
    webview,
    query.command,
    (file, path) => lineOf({ file, path }),
  );
  const suggestion: Suggestion = {
    entry,
    reason,
    newCapability: capability,
    newCapabilityFile,
    removeDenies,
    nearMissWindows,
    partlyCoveredBy,
    notes,
  };
  if (covering) {
    const permissionsPath = [...covering.source.path, "permissions"];
    suggestion.addTo = {
      capability: covering.identifier,
      file: covering.source.file,
      line: lineOf({ file: covering.source.file, path: permissionsPath }),
    };
  } else {
    const each = coverEvery(partlyCoveredBy, refusedOn);
    if (each) suggestion.addToEach = each;
  }
  return suggestion;
}

/** The language most of the app's capability files are written in (JSON when tied or none). */
function capabilitySyntax(project: Project): Syntax {
  const files = project.capabilities.filter((c) => !c.source.inline);
  const toml = files.filter((c) => syntaxOf(c.source) === "toml").length;
  return toml > files.length - toml ? "toml" : "json";
}

/**
 * The permission of `manifest` that enables `command` and the fewest other commands, without a
 * scope of its own (a scoped one would hand the window values it did not ask for); `allow-<command>`
 * when it exists.
 */
export function smallestPermission(manifest: Manifest, command: string): PermissionDef | undefined {
  const enabling = Object.values(manifest.permissions).filter(
    (p) => p.commands.allow.includes(command) && !p.commands.deny.includes(command),
  );
  const size = (p: PermissionDef) =>
    p.commands.allow.length * 2 +
    (p.scope && (p.scope.allow?.length || p.scope.deny?.length) ? 1 : 0);
  return enabling.sort(
    (a, b) => size(a) - size(b) || compareCodePoints(a.identifier, b.identifier),
  )[0];
}

/** An allow-scope entry shaped by the plugin's scope schema: its object form with placeholders. */
export function scopeTemplate(schema: unknown): Record<string, string> | undefined {
  const variants = isPlainObject(schema)
    ? [
        schema,
        ...[schema.anyOf, schema.oneOf].flatMap((v): unknown[] => (Array.isArray(v) ? v : [])),
      ]
    : [];
  for (const variant of variants) {
    if (!isPlainObject(variant) || !isPlainObject(variant.properties)) continue;
    const required = Array.isArray(variant.required)
      ? variant.required.filter((r): r is string => typeof r === "string")
      : [];
    const names = required.length ? required : Object.keys(variant.properties).slice(0, 1);
    if (names.length === 0) continue;
    return Object.fromEntries(names.map((name) => [name, `<${name}>`]));
  }
  return undefined;
}

/**
 * Where app.security.capabilities decides what the refusing builds load: a capability that covers the
 * window but that a platform config leaves out there, and the list a new capability must join.
 */
function selectionNotes(
  project: Project,
  groups: readonly PlatformGroup[],
  query: CallQuery,
  webview: string,
  refusedOn: readonly string[],
): string[] {
  const notes: string[] = [];
  for (const capability of project.activeCapabilities) {
    const missingOn = refusedOn.filter(
      (platform) =>
        capability.configPlatforms &&
        !capability.configPlatforms.some((target) => target === platform),
    );
    if (missingOn.length === 0) continue;
    const covers = groups.some((group) =>
      group.model.capabilities.some(
        (c) =>
          c.capability === capability &&
          c.matchesLabels(query.window, webview) &&
          c.contexts.some((_, i) => c.contextMatches(i, query.origin)),
      ),
    );
    if (!covers) continue;
    const files = (project.config?.capabilityLists ?? [])
      .filter((list) => list.platforms?.some((target) => missingOn.includes(target)))
      .map((list) => list.document.file);
    notes.push(
      capability.source.inline
        ? `capability "${capability.identifier}" covers this window on ${wordList([...capability.configPlatforms!])} only: it is declared inline in ${capability.source.file}, the config of ${capability.configPlatforms!.length > 1 ? "those platforms" : "that platform"}`
        : `capability "${capability.identifier}" covers this window but is not loaded on ${wordList(missingOn)}: app.security.capabilities in ${wordList(files)} does not list it`,
    );
  }
  const declarations =
    project.config?.windows.filter((window) => window.label === query.window) ?? [];
  const declaredOn = declarations.some((window) => !window.platforms)
    ? undefined
    : [...new Set(declarations.flatMap((window) => window.platforms!))];
  const absentOn = declaredOn?.length
    ? refusedOn.filter((platform) => !declaredOn.some((target) => target === platform))
    : [];
  if (absentOn.length)
    notes.push(
      `window "${query.window}" is declared for ${wordList(declaredOn!)} only, in ${wordList([...new Set(declarations.map((window) => window.document.file))])}: on ${wordList(absentOn)} it exists only if the app creates it in code`,
    );
  for (const list of project.config?.capabilityLists ?? []) {
    const on = refusedOn.filter(
      (platform) => !list.platforms || list.platforms.some((target) => target === platform),
    );
    if (on.length && list.platforms)
      notes.push(
        `app.security.capabilities in ${list.document.file} selects what the ${wordList(on)} build${on.length > 1 ? "s load" : " loads"}: list a new capability there too`,
      );
  }
  return notes;
}

/** The capabilities of `model` (written in a file) that reach the window or webview from `origin`. */
function capabilitiesCovering(
  model: ResolvedModel,
  window: string,
  webview: string,
  origin: Origin,
): Capability[] {
  return model.capabilities
    .filter(
      (c) =>
        c.matchesLabels(window, webview) &&
        c.contexts.some((_, i) => c.contextMatches(i, origin)) &&
        !c.capability.source.inline,
    )
    .map((c) => c.capability);
}

function coveringCapability(
  models: readonly ResolvedModel[],
  window: string,
  webview: string,
  origin: Origin,
) {
  const [first, ...others] = models.map((model) =>
    capabilitiesCovering(model, window, webview, origin),
  );
  return first?.find((capability) => others.every((list) => list.includes(capability)));
}

/** Each capability that covers the window and origin on some of the `refusedOn` platforms, with those platforms, in platform order. */
function capabilitiesCoveringOn(
  groups: readonly PlatformGroup[],
  refusedOn: readonly string[],
  window: string,
  webview: string,
  origin: Origin,
): Array<{ capability: Capability; platforms: string[] }> {
  const platformsOf = new Map<Capability, string[]>();
  for (const group of groups)
    for (const capability of capabilitiesCovering(group.model, window, webview, origin)) {
      const platforms = platformsOf.get(capability) ?? [];
      platformsOf.set(capability, platforms);
      platforms.push(...group.platforms.filter((p) => refusedOn.includes(p)));
    }
  return [...platformsOf].map(([capability, platforms]) => ({
    capability,
    platforms: TARGETS.filter((target) => platforms.includes(target)),
  }));
}

/**
 * Capabilities of `parts`, in order, each covering a platform the ones before it did not, when
 * together they cover every one of `refusedOn`; undefined when they cannot.
 */
function coverEvery(
  parts: readonly PartCover[],
  refusedOn: readonly string[],
): PartCover[] | undefined {
  const covered = new Set<string>();
  const chosen = parts.filter((part) => {
    if (part.platforms.every((platform) => covered.has(platform))) return false;
    for (const platform of part.platforms) covered.add(platform);
    return true;
  });
  return refusedOn.every((platform) => covered.has(platform)) ? chosen : undefined;
}

function newCapability(
  query: CallQuery,
  entry: Suggestion["entry"],
  refusedOn: readonly string[],
  groups: readonly PlatformGroup[],
): Record<string, unknown> {
  const { name } = parseCommandName(query.command);
  const capability: Record<string, unknown> = {
    identifier: `${query.window}-${name.replace(/_/g, "-")}`.replace(/[^A-Za-z0-9-]/g, "-"),
  };
  if (query.webview !== undefined && query.webview !== query.window)
    capability.webviews = [query.webview];
  else capability.windows = [query.window];
  if (query.origin.kind === "remote") {
    const url = new URL(query.origin.url);
    capability.remote = { urls: [`${url.protocol}//${url.host}/*`] };
    capability.local = false;
  }
  const asked = groups.flatMap((g) => g.platforms);
  if (refusedOn.length < asked.length) capability.platforms = [...refusedOn];
  capability.permissions = [entry];
  return capability;
}

/** Every command the catalog lists plus those the resolutions grant or deny. */
export function commandIndexFor(catalog: Catalog, groups: readonly PlatformGroup[]): CommandIndex {
  return new CommandIndex(
    catalog,
    groups.flatMap((g) => [...g.model.allowed.keys(), ...g.model.denied.keys()]),
  );
}

/** A capability window pattern one typo or a case away from the calling window's label. */
export interface NearMissWindow {
  capability: string;
  file: string;
  line: number;
  pattern: string;
  /** Whether that capability grants the command asked about: fixing the label then allows the call. */
  grantsCommand: boolean;
}

/**
 * Window patterns of capabilities that miss the calling window by a typo or a case (`setings`,
 * `Settings` for `settings`): pointed at before any new capability is proposed.
 */
export function nearMissWindowPatterns(
  project: Project,
  groups: readonly PlatformGroup[],
  window: string,
  webview: string,
  command: string | undefined,
  lineOf: (file: string, path: JsonPath) => number,
): NearMissWindow[] {
  // A pattern naming another window the app declares or creates is that window's, not a typo.
  const declared = new Set([
    ...(project.config?.windows.map((w) => w.label) ?? []),
    ...(project.codeWindows?.labels.map((made) => made.label) ?? []),
  ]);
  const found = new Map<string, NearMissWindow>();
  for (const group of groups) {
    for (const resolved of group.model.capabilities) {
      if (resolved.matchesLabels(window, webview)) continue;
      for (const item of resolved.capability.windows) {
        if (
          item.value === window ||
          declared.has(item.value) ||
          /[*?[]/.test(item.value) ||
          nearest(window, [item.value], 1).length === 0
        )
          continue;
        const key = `${resolved.capability.source.file}\0${JSON.stringify(item.path)}`;
        const grantsCommand =
          command !== undefined && group.model.allowsIn(command, resolved.index).length > 0;
        const known = found.get(key);
        if (known) known.grantsCommand ||= grantsCommand;
        else
          found.set(key, {
            capability: resolved.capability.identifier,
            file: resolved.capability.source.file,
            line: lineOf(resolved.capability.source.file, item.path),
            pattern: item.value,
            grantsCommand,
          });
      }
    }
  }
  return [...found.values()];
}

/**
 * Why remote pages may call the app's own commands unchecked, when they may: the app defines no
 * permissions and builds with a release before REMOTE_APP_COMMANDS_CHECKED_SINCE. Undefined otherwise.
 */
export function uncheckedRemoteAppCommands(catalog: Catalog): string | undefined {
  if (catalog.checksRemoteAppCommands) return undefined;
  return `the app defines no permissions and ${describeRelease(catalog.hostRelease!)} checks app commands from remote pages only from ${REMOTE_APP_COMMANDS_CHECKED_SINCE} on, so any page a window shows, remote ones included, may call every command the app registers`;
}
