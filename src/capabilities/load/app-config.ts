/**
 * The app config as each target's build reads it. The host's config loader (tauri-utils
 * `config/parse.rs`: `read_from`, `read_platform`) reads `tauri.conf.json` (else `Tauri.toml`) and merges
 * the target's platform config over it as an RFC 7396 JSON merge patch (`json_patch::merge`):
 * `tauri.linux.conf.json`, else `tauri.linux.conf.json5`, else `Tauri.linux.toml` (likewise `windows`,
 * `macos`, `android`, `ios`). A merge patch merges objects key by key, deletes a key set to `null` and
 * replaces everything else whole, arrays included: a platform config that lists `app.windows` or
 * `app.security.capabilities` replaces the base list on that target.
 */
import path from "node:path";
import { isPlainObject } from "../../core/json.js";
import { SourceDocument, type TomlParser } from "../../core/source/document.js";
import { pathKind, readTextFile } from "../../core/source/read.js";
import { toCapability } from "../model/capability.js";
import { FileBudget, labelTooLong, limitCapability, LIMITS } from "../model/limits.js";
import { TARGETS, type Capability, type Target } from "../model/types.js";
import type { JsonPath } from "../../core/location.js";
import { APP_CONFIG_NAMES } from "./apps.js";
import { CAPABILITY_WORDING } from "./wording.js";

export interface WindowDecl {
  label: string;
  /** Path of the window object in the config document. */
  path: (string | number)[];
  /** The config file that declares it: tauri.conf.json, or a platform config. */
  document: SourceDocument;
  /** The targets whose config has it, where platform configs make that differ; undefined: every target. */
  platforms?: Target[];
}

export interface CapabilityRef {
  identifier: string;
  path: (string | number)[];
  /** The config file whose `app.security.capabilities` lists it. */
  document: SourceDocument;
  /** The targets on which that list is the one in force; undefined: every target. */
  platforms?: Target[];
}

/** A non-empty `app.security.capabilities`, and the targets on which it is the list in force. */
export interface CapabilityList {
  document: SourceDocument;
  /** Undefined: every target. */
  platforms?: Target[];
  refs: CapabilityRef[];
  inline: Capability[];
  /** How many entries the list has, when it has more than caplint reads (`LIMITS.configCapabilities`). */
  listed?: number;
}

export interface PlatformConfig {
  platform: Target;
  document: SourceDocument;
}

export interface AppConfig {
  /** tauri.conf.json or Tauri.toml. */
  document: SourceDocument;
  /** The platform configs merged over it, one per target at most. */
  platformConfigs: PlatformConfig[];
  /** Every window declaration in force on some target, once, with the targets it is in force on. */
  windows: WindowDecl[];
  /** `app.security.capabilities` references of every list in force on some target. */
  capabilityRefs: CapabilityRef[];
  /** Inline capabilities of every list in force on some target, with `configPlatforms` where that is not every target. */
  inlineCapabilities: Capability[];
  /** The non-empty capability lists; a target none of them covers uses every capability file. */
  capabilityLists: CapabilityList[];
}

/** The app config and its platform configs. */
export function configDocuments(config: AppConfig | undefined): SourceDocument[] {
  return config
    ? [config.document, ...config.platformConfigs.map((platformConfig) => platformConfig.document)]
    : [];
}

/** How a target is written in platform config names. */
const FILE_WORD: Record<Target, string> = {
  linux: "linux",
  macOS: "macos",
  windows: "windows",
  android: "android",
  iOS: "ios",
};

/** `tauri.<platform>.conf.json`, `.json5`, `Tauri.<platform>.toml`: the host's order of preference. */
export function platformConfigNames(target: Target): [json: string, json5: string, toml: string] {
  const word = FILE_WORD[target];
  return [`tauri.${word}.conf.json`, `tauri.${word}.conf.json5`, `Tauri.${word}.toml`];
}

type ProblemSink = (absolutePath: string, message: string, at?: JsonPath) => void;

interface ReadContext {
  maxBytes: number;
  problem: ProblemSink;
  notes: string[];
  tomlParser: () => Promise<TomlParser>;
  relative: (absolute: string) => string;
}

/**
 * The app config next to (or above) the capabilities folder, with the platform configs beside it.
 * `isOutside` says whether a file's real path leaves the app (such a file is never read).
 */
export async function loadAppConfig(
  srcTauri: string,
  context: ReadContext,
  isOutside: (file: string) => Promise<boolean>,
): Promise<AppConfig | undefined> {
  for (const dir of [srcTauri, path.dirname(srcTauri)]) {
    for (const name of APP_CONFIG_NAMES) {
      const file = path.join(dir, name);
      if ((await pathKind(file)) !== "file") continue;
      if (await isOutside(file)) return undefined;
      const document = await readConfig(file, context);
      if (!document) return undefined;
      const platformConfigs: PlatformConfig[] = [];
      for (const platform of TARGETS) {
        const found = await readPlatformConfig(dir, platform, context, isOutside);
        if (found) platformConfigs.push({ platform, document: found });
      }
      const config = appConfigFrom(document, platformConfigs);
      limitConfig(config, context.problem);
      return config;
    }
  }
  return undefined;
}

async function readConfig(file: string, context: ReadContext): Promise<SourceDocument | undefined> {
  const name = path.basename(file);
  const read = readTextFile(file, context.maxBytes);
  if (!read.ok) {
    context.problem(file, read.message);
    return undefined;
  }
  const toml = name.endsWith(".toml");
  const document = SourceDocument.parse(
    file,
    context.relative(file),
    read.text,
    toml ? "toml" : "json",
    toml ? await context.tomlParser() : undefined,
    read.invalidUtf8At,
    CAPABILITY_WORDING,
  );
  if (!document.ok) {
    context.problem(file, `${document.parseError!.message} (${name} is ignored)`);
    return undefined;
  }
  return document;
}

/** The platform config of `target` in `dir`, as the host picks it; a JSON5 one is named in a note, not read. */
async function readPlatformConfig(
  dir: string,
  target: Target,
  context: ReadContext,
  isOutside: (file: string) => Promise<boolean>,
): Promise<SourceDocument | undefined> {
  const [json, json5, toml] = platformConfigNames(target).map((name) => path.join(dir, name)) as [
    string,
    string,
    string,
  ];
  let file: string | undefined;
  if ((await pathKind(json)) === "file") file = json;
  else if ((await pathKind(json5)) === "file") {
    context.notes.push(
      `${context.relative(json5)}: JSON5 platform configs are not read (Tauri reads them only with its "config-json5" Cargo feature); the windows and capabilities it declares for ${target} are not known`,
    );
    return undefined;
  } else if ((await pathKind(toml)) === "file") file = toml;
  if (file === undefined || (await isOutside(file))) return undefined;
  const document = await readConfig(file, context);
  if (document && !isPlainObject(document.value)) {
    context.problem(
      file,
      `a platform config must be an object, merged over the app config; the ${target} build rejects this one (${path.basename(file)} is ignored)`,
    );
    return undefined;
  }
  return document;
}

/**
 * RFC 7396: `patch` merged over `target`. Objects are copied only where the patch changes them; arrays
 * and other values are shared, not copied, so a caller can tell by identity which file a list came from.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const merged: Record<string, unknown> = isPlainObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    // Defined, not assigned: a `__proto__` key stays a plain key.
    else
      Object.defineProperty(merged, key, {
        value: mergePatch(Object.hasOwn(merged, key) ? merged[key] : undefined, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return merged;
}

/**
 * `valueAt(mergePatch(target, patch), keys)` without merging the rest: only the lists at two paths are
 * read from a merged config, and merging whole configs (a platform config's bundle section, copied key by
 * key) was a fixed cost of every app with one. Arrays and other values are the same objects mergePatch
 * would give, so identities still tell which file a list came from.
 */
function mergedValueAt(target: unknown, patch: unknown, keys: readonly string[]): unknown {
  if (keys.length === 0 || !isPlainObject(patch)) return valueAt(mergePatch(target, patch), keys);
  const [key, ...rest] = keys as [string, ...string[]];
  const base = isPlainObject(target) && Object.hasOwn(target, key) ? target[key] : undefined;
  if (!Object.hasOwn(patch, key)) return valueAt(base, rest);
  const value = patch[key];
  return value === null ? undefined : mergedValueAt(base, value, rest);
}

function valueAt(root: unknown, keys: readonly string[]): unknown {
  let value = root;
  for (const key of keys) {
    if (!isPlainObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

const WINDOWS = ["app", "windows"] as const;
const CAPABILITIES = ["app", "security", "capabilities"] as const;

/** Each distinct list (by identity) at `keys` of the targets' merged configs, with the document it is written in and its targets. */
function listsInForce(
  merged: readonly MergedConfig[],
  base: SourceDocument,
  keys: readonly string[],
) {
  const lists = new Map<unknown[], { document: SourceDocument; platforms: Target[] }>();
  for (const { platform, patch, base: target } of merged) {
    const list = patch ? mergedValueAt(target, patch.value, keys) : valueAt(target, keys);
    if (!Array.isArray(list)) continue;
    const seen = lists.get(list);
    if (seen) seen.platforms.push(platform);
    else
      lists.set(list, {
        document: patch && valueAt(patch.value, keys) === list ? patch : base,
        platforms: [platform],
      });
  }
  return [...lists].map(([list, { document, platforms }]) => ({
    list,
    document,
    platforms: platforms.length === TARGETS.length ? undefined : platforms,
  }));
}

interface MergedConfig {
  platform: Target;
  /** The platform config merged over the base, if the target has one. */
  patch?: SourceDocument;
  /** The base config's value. */
  base: unknown;
}

export function appConfigFrom(
  document: SourceDocument,
  platformConfigs: readonly PlatformConfig[] = [],
): AppConfig {
  const config: AppConfig = {
    document,
    platformConfigs: [...platformConfigs],
    windows: [],
    capabilityRefs: [],
    inlineCapabilities: [],
    capabilityLists: [],
  };
  const merged: MergedConfig[] = TARGETS.map((platform) => {
    const patch = platformConfigs.find((config) => config.platform === platform)?.document;
    return patch ? { platform, patch, base: document.value } : { platform, base: document.value };
  });
  for (const { list, document: declaredIn, platforms } of listsInForce(merged, document, WINDOWS)) {
    list.forEach((window, index) => {
      if (!isPlainObject(window)) return;
      // A window without a label is created as "main".
      const label = typeof window.label === "string" ? window.label : "main";
      config.windows.push({
        label,
        path: [...WINDOWS, index],
        document: declaredIn,
        ...(platforms ? { platforms } : {}),
      });
    });
  }
  for (const { list, document: declaredIn, platforms } of listsInForce(
    merged,
    document,
    CAPABILITIES,
  )) {
    const selection: CapabilityList = {
      document: declaredIn,
      refs: [],
      inline: [],
      ...(platforms ? { platforms } : {}),
    };
    // Each reference is kept with its path and document: 3,000,000 of them held 1.2 GB.
    const read = Math.min(list.length, LIMITS.configCapabilities);
    if (read < list.length) selection.listed = list.length;
    list.slice(0, read).forEach((item, index) => {
      const itemPath = [...CAPABILITIES, index];
      if (typeof item === "string")
        selection.refs.push({
          identifier: item,
          path: itemPath,
          document: declaredIn,
          ...(platforms ? { platforms } : {}),
        });
      else if (isPlainObject(item)) {
        const capability = toCapability(
          { path: itemPath, value: item },
          { file: declaredIn.file, absolutePath: declaredIn.absolutePath, inline: true },
        );
        if (!capability) return;
        if (platforms) capability.configPlatforms = platforms;
        selection.inline.push(capability);
      }
    });
    for (const item of selection.refs) config.capabilityRefs.push(item);
    for (const item of selection.inline) config.inlineCapabilities.push(item);
    if (selection.refs.length + selection.inline.length > 0) config.capabilityLists.push(selection);
  }
  return config;
}

/**
 * The per-value bounds of capability files, applied to the app configs too: the inline capabilities of
 * one config file share one budget as a file's capabilities do, and an over-long window label is left
 * out (matching costs pattern × label length), each reported at its value.
 */
function limitConfig(config: AppConfig, problem: ProblemSink): void {
  const budgets = new Map<string, FileBudget>();
  for (const capability of config.inlineCapabilities) {
    let budget = budgets.get(capability.source.absolutePath);
    if (!budget) budgets.set(capability.source.absolutePath, (budget = new FileBudget()));
    for (const over of limitCapability(capability, budget))
      problem(capability.source.absolutePath, over.message, over.path);
  }
  for (const list of config.capabilityLists) {
    if (list.listed === undefined) continue;
    problem(
      list.document.absolutePath,
      `app.security.capabilities lists ${list.listed.toLocaleString("en-US")} entries, over the limit of ${LIMITS.configCapabilities.toLocaleString("en-US")} caplint checks; the rest are not checked`,
      [...CAPABILITIES],
    );
  }
  const kept: WindowDecl[] = [];
  const counts = new Map<SourceDocument, number>();
  for (const window of config.windows) {
    const count = (counts.get(window.document) ?? 0) + 1;
    counts.set(window.document, count);
    if (count === LIMITS.configWindows + 1) {
      const total = config.windows.filter((other) => other.document === window.document).length;
      problem(
        window.document.absolutePath,
        `app.windows lists ${total.toLocaleString("en-US")} windows, over the limit of ${LIMITS.configWindows.toLocaleString("en-US")} caplint checks; the rest are not checked`,
        [...WINDOWS],
      );
    }
    if (count > LIMITS.configWindows) continue;
    if (window.label.length > LIMITS.labelLength)
      problem(window.document.absolutePath, labelTooLong(window.label.length), [
        ...window.path,
        "label",
      ]);
    else kept.push(window);
  }
  config.windows = kept;
}
