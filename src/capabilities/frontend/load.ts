/**
 * The frontend scan as the project loader runs it: the map of Tauri's JS packages at the versions the
 * frontend's lockfile (else package.json) names, and the app config's windows and build settings.
 */
import path from "node:path";
import { isPlainObject } from "../../core/json.js";
import type { AppConfig } from "../load/app-config.js";
import type { CodeWindowLabels } from "../load/window-labels.js";
import type { ApiLookup } from "./api.js";
import { globalNamespaceModule, implicitCalls, jsApiModule, type JsApiModule } from "./js-api.js";
import { jsPackageVersions, type JsPackageVersions } from "./js-lockfile.js";
import { scanFrontend, type FrontendConfig, type FrontendScan, type ModuleCache } from "./scan.js";

export interface FrontendLoadOptions {
  appRoot: string;
  srcTauri: string;
  boundary: string;
  cwd: string;
  maxBytes: number;
  config: AppConfig | undefined;
  /** The windows the app makes in its Rust and frontend code (the same list unmatched-window reads). */
  codeWindows?: CodeWindowLabels;
  frontend?: FrontendConfig;
  /** Kept by the project's load context between reloads (see scan.ts). */
  cache?: ModuleCache;
}

export async function loadFrontend(
  options: FrontendLoadOptions,
): Promise<FrontendScan | undefined> {
  const value = options.config?.document.ok ? options.config.document.value : undefined;
  const build = isPlainObject(value) && isPlainObject(value.build) ? value.build : {};
  const windows = (options.config?.windows ?? []).map((window) => {
    let declared: unknown = window.document.value;
    for (const part of window.path)
      declared =
        isPlainObject(declared) || Array.isArray(declared)
          ? (declared as Record<string | number, unknown>)[part]
          : undefined;
    return { label: window.label, url: isPlainObject(declared) ? declared.url : undefined };
  });
  let versionNotes: readonly string[] = [];
  let jsVersions: JsPackageVersions["packages"] | undefined;
  const scan = await scanFrontend({
    appRoot: options.appRoot,
    srcTauri: options.srcTauri,
    boundary: options.boundary,
    cwd: options.cwd,
    maxBytes: options.maxBytes,
    build: {
      frontendDist: build.frontendDist,
      devUrl: build.devUrl,
      beforeBuildCommand: build.beforeBuildCommand,
      beforeDevCommand: build.beforeDevCommand,
    },
    windows,
    madeWindows: madeWindows(options.codeWindows, new Set(windows.map((window) => window.label))),
    ...(options.frontend ? { config: options.frontend } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
    apiFor: async (root) => {
      const versions = await jsPackageVersions(root, {
        root: options.boundary,
        maxBytes: options.maxBytes,
      });
      versionNotes = versions.notes;
      jsVersions = versions.packages;
      return apiLookup((packageName) => versions.packages.get(packageName)?.version);
    },
  });
  if (scan && jsVersions) scan.jsVersions = jsVersions;
  if (scan)
    scan.notes.push(
      ...versionNotes.map(
        (note) => `${path.relative(options.cwd, options.appRoot) || "."}: ${note}`,
      ),
    );
  return scan;
}

/**
 * The windows made in code, with each page of the app their code says they load, skipping those the
 * config declares. A label built at run time counts by its literal start (`reader-${id}` → `reader-*`,
 * the pattern a capability matches it with); one with no literal start is not judged.
 */
function madeWindows(
  code: CodeWindowLabels | undefined,
  declared: ReadonlySet<string>,
): Array<{ label: string; url: string }> {
  const made = new Map<string, { label: string; url: string }>();
  const add = (label: string, url: CodeWindowLabels["labels"][number]["url"]) => {
    if (url?.kind === "app" && !declared.has(label))
      made.set(`${label}\u0000${url.path}`, { label, url: url.path });
  };
  for (const window of code?.labels ?? []) add(window.label, window.url);
  for (const window of code?.prefixes ?? [])
    if (window.label !== "") add(`${window.label}*`, window.url);
  return [...made.values()];
}

/** The map of Tauri's packages at the versions `versionOf` names (undefined: the newest). */
export function apiLookup(versionOf: (packageName: string) => string | undefined): ApiLookup {
  const packageOf = (specifier: string) => specifier.split("/").slice(0, 2).join("/");
  const implicit = implicitCalls();
  // The linker asks once per call site and call-through; picking the version each time was a tenth of the scan.
  const modules = new Map<string, JsApiModule | undefined>();
  return {
    module: (specifier) => {
      if (!modules.has(specifier))
        modules.set(specifier, jsApiModule(specifier, versionOf(packageOf(specifier))));
      return modules.get(specifier);
    },
    globalNamespace: globalNamespaceModule,
    implicit: (trigger) =>
      implicit.filter((call) => call.trigger.includes(trigger)).flatMap((call) => call.commands),
  };
}
