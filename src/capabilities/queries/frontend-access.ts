/**
 * The frontend's calls against the capabilities, as the host will judge them at run time: for each call
 * the windows that load its code, the platforms on which each of them is refused, and the narrowest
 * permission that would let it through; for each permission entry of a local capability, whether any
 * call of a window it covers uses a command it grants. One answer for the rules, `least-privilege`,
 * the language server and the matrix/report marks. It reads only the loaded model.
 */
import { Catalog } from "../catalog/catalog.js";
import { APP_KEY, type Manifest } from "../catalog/types.js";
import { resolveAccess, type Verdict } from "../engine/access.js";
import { catalogKeyOf, parseCommandName } from "../engine/command-name.js";
import type { Resolution } from "../engine/resolve.js";
import type { ResolvedModel } from "../engine/model.js";
import type { FrontendCall, FrontendScan } from "../frontend/scan.js";
import type { Project } from "../load/project.js";
import {
  TARGETS,
  loadedOn,
  valuesOf,
  type Capability,
  type PermissionEntry,
  type Target,
} from "../model/types.js";
import { labelMatches } from "../engine/match/glob.js";
import { shippedTargets } from "../load/build.js";
import type { WindowDecl } from "../load/app-config.js";

const MOBILE_TARGETS: ReadonlySet<string> = new Set(["android", "iOS"]);

export interface Refusal {
  window: string;
  platforms: string[];
  verdict: Exclude<Verdict, "allowed" | "unchecked">;
}

export interface CallJudgement {
  call: FrontendCall;
  command: string;
  /** The windows judged: those whose page loads the call's file, or every window that loads local pages. */
  windows: string[];
  /** Whether the windows come from the page that loads the file (else: every local window). */
  byPage: boolean;
  /** Windows judged by their own page (made in code, or on a route): among `windows` whatever `byPage` says. */
  ownPageWindows: string[];
  refusals: Refusal[];
  /** The narrowest permission that grants the command, qualified (`core:window:allow-start-dragging`). */
  permission?: string;
  /** The manifest key of the command's plugin, when the catalog has it. */
  key?: string;
  /** The capability that covers the refused windows, to add the permission to. */
  capability?: Capability;
  /** The plugin takes a scope: the permission needs one to do anything useful. */
  scoped: boolean;
  /** The platforms on which the call runs: the app's targets, narrowed by a platform check around it. */
  targets: string[];
}

export interface EntryUse {
  capability: Capability;
  entry: PermissionEntry;
  /** Commands the entry grants that some call of a window it covers makes. */
  used: string[];
  /** Every command it grants (on some platform). */
  granted: string[];
}

export interface FrontendAccess {
  scan: FrontendScan;
  judgements: CallJudgement[];
  /** Permission entries of local capabilities that cover a window loading the frontend. */
  entries: EntryUse[];
  /** Windows that load local pages (declared in the app config). */
  localWindows: string[];
  /** The platforms the resolution tells apart: a refusal on all of them holds everywhere. */
  platforms: readonly string[];
  /** The platforms the app ships (its build's targets), among those resolved: a refusal elsewhere is never met. */
  targets: readonly string[];
}

/** Whether the frontend was scanned and the model can be judged against it. */
export function hasFrontend(project: Project): project is Project & { frontend: FrontendScan } {
  return project.frontend !== undefined && project.frontend.files.length > 0;
}

export function frontendAccess(
  project: Project & { frontend: FrontendScan },
  resolution: Resolution,
): FrontendAccess {
  const scan = project.frontend;
  const catalog = project.catalog;
  const uniqueWindows = localWindowLabels(project);
  const targets = appTargets(project, resolution);
  // A window a platform config declares exists on that platform only (HuLa's "mobile-home" on android and iOS, "tray" on desktop).
  const windowPlatforms = new Map<string, Set<string>>();
  for (const declaration of localWindowDeclarations(project)) {
    const set = windowPlatforms.get(declaration.label) ?? new Set<string>();
    for (const platform of declaration.platforms ?? TARGETS) set.add(platform);
    windowPlatforms.set(declaration.label, set);
  }
  // A window made at run time is one more window: Tauri's mobile apps show the one window of their activity
  // or view controller, so the windows an app makes in code are judged on desktop only.
  for (const label of scan.ownPageWindows.keys())
    if (!windowPlatforms.has(label))
      windowPlatforms.set(
        label,
        new Set(TARGETS.filter((platform) => !MOBILE_TARGETS.has(platform))),
      );
  // A window that exists on mobile only next to desktop ones: one frontend serving both form factors.
  const onlyOn = (platforms: ReadonlySet<string>, side: (platform: string) => boolean) =>
    [...platforms].every(side);
  const formFactorSplit =
    [...windowPlatforms.values()].some((platforms) =>
      onlyOn(platforms, (platform) => MOBILE_TARGETS.has(platform)),
    ) &&
    [...windowPlatforms.values()].some((platforms) =>
      [...platforms].some((platform) => !MOBILE_TARGETS.has(platform)),
    );
  const judgements: CallJudgement[] = [];
  const windowsOf = (call: FrontendCall) => windowsLoading(scan, uniqueWindows, call);
  const models = resolution.models;
  for (const call of scan.calls) {
    const { windows, byPage, made } = windowsOf(call);
    for (const command of call.commands) {
      const spelled = catalog.spellCommand(command);
      // A call under a platform check (`if (isDesktop())`) runs on those platforms only. In one bundle that
      // desktop-only and mobile-only windows share, the app splits its code by platform at run time (HuLa's
      // router picks desktop or mobile routes): code no check ties to mobile is judged on desktop only.
      const callTargets = call.platforms
        ? targets.filter((platform) => call.platforms!.includes(platform as Target))
        : formFactorSplit && !byPage
          ? targets.filter((platform) => !MOBILE_TARGETS.has(platform))
          : targets;
      const refusals = refusalsOf(models, spelled, windows, callTargets, windowPlatforms);
      const { plugin, name } = parseCommandName(spelled);
      const key = catalogKeyOf(plugin, catalog);
      const manifest = key === undefined ? undefined : catalog.get(key);
      const judgement: CallJudgement = {
        call,
        command: spelled,
        windows,
        byPage,
        ownPageWindows: made,
        refusals,
        scoped: !!manifest?.global_scope_schema,
        targets: callTargets,
      };
      if (key !== undefined) judgement.key = key;
      if (manifest && key !== undefined) {
        const permission = narrowestPermission(manifest, key, name);
        if (permission) judgement.permission = catalog.spellIdentifier(permission);
      }
      const capability = targetCapability(project.activeCapabilities, refusals, key);
      if (capability) judgement.capability = capability;
      judgements.push(judgement);
    }
  }
  return {
    scan,
    judgements,
    entries: entryUses(resolution, judgements, [
      ...new Set([...uniqueWindows, ...scan.ownPageWindows.keys()]),
    ]),
    localWindows: uniqueWindows,
    platforms: resolution.models.map((model) => model.platform),
    targets,
  };
}

/**
 * The platforms the app ships, among those resolved: the desktop ones, a mobile one when the build
 * shows it (shippedTargets), and only those its capabilities name when every local capability names
 * its platforms (Steam Game Idler's only capability says `["windows", "linux"]`: on macOS it would
 * have no grant at all, so it is not a target; a refusal there is never met).
 */
function appTargets(project: Project, resolution: Resolution): string[] {
  const resolved = resolution.models.map((model) => model.platform);
  let shipped: Set<string> = new Set(resolved);
  if (project.build)
    shipped = new Set([...shippedTargets(project.build, project.activeCapabilities).keys()]);
  const local = project.activeCapabilities.filter((capability) => !capability.remote);
  if (
    local.length > 0 &&
    local.every(
      (capability) =>
        (capability.platforms?.length ?? 0) > 0 || capability.configPlatforms !== undefined,
    )
  ) {
    const named = new Set<string>();
    for (const capability of local) {
      for (const item of capability.platforms ?? []) {
        // A misspelt platform (`macos`) still says which platform was meant.
        const target = TARGETS.find((t) => t.toLowerCase() === String(item.value).toLowerCase());
        if (target) named.add(target);
      }
      for (const target of capability.configPlatforms ?? []) named.add(target);
    }
    if (named.size > 0)
      shipped = new Set([...shipped].filter((target) => named.has(target as Target)));
  }
  const kept = resolved.filter((platform) => shipped.has(platform));
  return kept.length > 0 ? kept : resolved;
}

/** The declarations of windows that load local pages (declared in the app config, with no http(s) `url`). */
function localWindowDeclarations(project: Project): WindowDecl[] {
  return (project.config?.windows ?? []).filter((window) => {
    const url = windowUrl(project, window.path, window.document.value);
    return url === undefined || !/^https?:/i.test(url);
  });
}

/** Windows that load local pages, each once. */
function localWindowLabels(project: Project): string[] {
  return [...new Set(localWindowDeclarations(project).map((window) => window.label))];
}

/**
 * The windows that load a call's file: those judged by their own page when it loads the file (made in code,
 * or on a route of their own); of the config's other windows, those whose page loads it when pages are
 * told apart, else every one (certain only when there is one).
 */
function windowsLoading(
  scan: FrontendScan,
  configWindows: readonly string[],
  call: FrontendCall,
): { windows: string[]; byPage: boolean; made: string[] } {
  const made = [...scan.ownPageWindows]
    .filter(([, page]) => page.files.has(call.file))
    .map(([label]) => label);
  const windows = configWindows.filter((label) => !scan.ownPageWindows.has(label));
  if (scan.pagesCertain) {
    const byPage = windows.filter((label) => scan.windowPages.get(label)?.files.has(call.file));
    const unnamed = scan.pages.some(
      (page) => page.windows.length === 0 && page.files.has(call.file),
    );
    if (!unnamed) return { windows: [...byPage, ...made], byPage: true, made };
  }
  // A file only the pages of such windows load (a route a HUD stays on) is theirs alone.
  const shared = scan.pages.some(
    (page) =>
      page.files.has(call.file) &&
      (page.windows.length === 0 || page.windows.some((label) => !scan.ownPageWindows.has(label))),
  );
  if (!shared && made.length > 0) return { windows: made, byPage: true, made };
  return { windows: [...windows, ...made], byPage: windows.length === 1, made };
}

/**
 * Per window that loads local pages, the commands its frontend calls (as the catalog spells them):
 * what `access` and `matrix` JSON and the HTML report mark as used. Needs no resolution.
 */
export function frontendCallsByWindow(
  project: Project & { frontend: FrontendScan },
): Map<string, Set<string>> {
  const windows = localWindowLabels(project);
  const calls = new Map(windows.map((window) => [window, new Set<string>()]));
  for (const call of project.frontend.calls) {
    for (const window of windowsLoading(project.frontend, windows, call).windows) {
      if (!calls.has(window)) calls.set(window, new Set());
      for (const command of call.commands)
        calls.get(window)!.add(project.catalog.spellCommand(command));
    }
  }
  return calls;
}

function windowUrl(
  _project: Project,
  windowPath: readonly (string | number)[],
  config: unknown,
): string | undefined {
  let value: unknown = config;
  for (const part of windowPath)
    value =
      value && typeof value === "object"
        ? (value as Record<string | number, unknown>)[part]
        : undefined;
  const url = value && typeof value === "object" ? (value as { url?: unknown }).url : undefined;
  return typeof url === "string" ? url : undefined;
}

/** Per window, the platforms on which the command is refused, from local pages. No window known: refused when no capability allows it anywhere. */
function refusalsOf(
  models: readonly ResolvedModel[],
  command: string,
  windows: readonly string[],
  targets: readonly string[],
  windowPlatforms: ReadonlyMap<string, ReadonlySet<string>>,
): Refusal[] {
  const refusals: Refusal[] = [];
  const labels = windows.length ? windows : [undefined];
  for (const window of labels) {
    const byVerdict = new Map<Refusal["verdict"], string[]>();
    for (const model of models) {
      // Not shipped there, or the window does not exist there: no one meets the refusal.
      if (!targets.includes(model.platform)) continue;
      if (window !== undefined && windowPlatforms.get(window)?.has(model.platform) === false)
        continue;
      let verdict: Verdict;
      if (window === undefined) {
        const explanation = resolveAccess(model, { window: "\u0000", command }).explanation!;
        if (!explanation.enforced) continue;
        const local = model
          .allowers(command)
          .some((index) =>
            model.capabilities[index]!.contexts.some((context) => context.kind === "local"),
          );
        verdict =
          (model.denied.get(command)?.length ?? 0) > 0
            ? "denied"
            : local
              ? "allowed"
              : "not-granted";
      } else verdict = resolveAccess(model, { window, command }).explanation!.verdict;
      if (verdict === "allowed" || verdict === "unchecked") continue;
      const list = byVerdict.get(verdict) ?? [];
      list.push(model.platform);
      byVerdict.set(verdict, list);
    }
    for (const [verdict, platforms] of byVerdict)
      refusals.push({ window: window ?? "*", platforms, verdict });
  }
  return refusals;
}

/**
 * The permission that enables the command and the fewest others: the command's own `allow-…`
 * permission when the plugin has one, else the smallest set that has it (the default set last).
 */
function narrowestPermission(manifest: Manifest, key: string, command: string): string | undefined {
  // The command's own permission (`allow-set-title` for `set_title`) first, as the host's generated ones are named.
  const own = manifest.permissions[`allow-${command.replace(/_/g, "-")}`];
  if (own?.commands.allow.includes(command))
    return key === APP_KEY ? own.identifier : `${key}:${own.identifier}`;
  let best: { name: string; size: number } | undefined;
  for (const permission of Object.values(manifest.permissions)) {
    if (!permission.commands.allow.includes(command)) continue;
    const size = permission.commands.allow.length + (permission.scope ? 0.5 : 0);
    if (!best || size < best.size || (size === best.size && permission.identifier < best.name))
      best = { name: permission.identifier, size };
  }
  if (!best) {
    const setSize = (members: readonly string[]): number | undefined => {
      let has = false;
      let size = 0;
      for (const member of members) {
        const permission = manifest.permissions[member];
        if (!permission) continue;
        size += permission.commands.allow.length;
        if (permission.commands.allow.includes(command)) has = true;
      }
      return has ? size : undefined;
    };
    for (const set of Object.values(manifest.permission_sets)) {
      const size = setSize(set.permissions);
      if (size !== undefined && (!best || size < best.size)) best = { name: set.identifier, size };
    }
    if (
      !best &&
      manifest.default_permission &&
      setSize(manifest.default_permission.permissions) !== undefined
    )
      best = { name: "default", size: 0 };
  }
  if (!best) return undefined;
  return key === APP_KEY ? best.name : `${key}:${best.name}`;
}

/**
 * The capability to add a permission to: a local one (no `remote`) whose windows cover every refused
 * window, preferring one the build loads on every platform that refuses the call (a capability a
 * platform config lists, or one with `platforms`, fixes nothing elsewhere), then one that already
 * grants something of the same plugin, then a file over inline.
 */
function targetCapability(
  capabilities: readonly Capability[],
  refusals: readonly Refusal[],
  key: string | undefined,
): Capability | undefined {
  const labels = refusals.map((refusal) => refusal.window).filter((window) => window !== "*");
  const refusedOn = new Set(refusals.flatMap((refusal) => refusal.platforms));
  const covering = capabilities.filter(
    (capability) =>
      !capability.remote &&
      (labels.length === 0 ||
        labels.every((label) =>
          valuesOf(capability.windows).some((pattern) => labelMatches(pattern, label)),
        )),
  );
  const inForce = covering.filter((capability) =>
    [...refusedOn].every((platform) => loadedOn(capability, platform)),
  );
  const samePlugin = (capability: Capability) =>
    key !== undefined &&
    capability.permissions.some((entry) => Catalog.keyOf(entry.identifier)?.key === key);
  const pick = (candidates: readonly Capability[]) =>
    candidates.find((capability) => samePlugin(capability) && !capability.source.inline) ??
    candidates.find((capability) => !capability.source.inline) ??
    candidates[0];
  return pick(inForce) ?? pick(covering);
}

/** For each entry of a local capability that covers a window loading the frontend: the commands it grants, and those some call uses. */
function entryUses(
  resolution: Resolution,
  judgements: readonly CallJudgement[],
  windows: readonly string[],
): EntryUse[] {
  const calledBy = new Map<string, Set<string>>();
  for (const judgement of judgements) {
    const set = calledBy.get(judgement.command) ?? new Set<string>();
    for (const window of judgement.windows.length ? judgement.windows : ["*"]) set.add(window);
    calledBy.set(judgement.command, set);
  }
  const uses: EntryUse[] = [];
  for (const { resolved } of resolution.capabilities) {
    const capability = resolved.capability;
    if (capability.remote) continue;
    const patterns = valuesOf(capability.windows);
    const covered = windows.filter((window) =>
      patterns.some((pattern) => labelMatches(pattern, window)),
    );
    if (windows.length > 0 && covered.length === 0) continue;
    const lists = new Map<PermissionEntry, Set<string>>();
    for (const model of resolution.models) {
      const index = model.capabilities.findIndex((c) => c.capability === capability);
      if (index < 0) continue;
      model.allowedCommandLists(index).forEach((commands, entryIndex) => {
        const entry = capability.permissions[entryIndex];
        if (!entry) return;
        const set = lists.get(entry) ?? new Set<string>();
        for (const command of commands) set.add(command);
        lists.set(entry, set);
      });
    }
    for (const entry of capability.permissions) {
      const granted = [...(lists.get(entry) ?? [])];
      const used = granted.filter((command) => {
        const by = calledBy.get(command);
        return (
          by !== undefined &&
          (by.has("*") || covered.length === 0 || covered.some((window) => by.has(window)))
        );
      });
      uses.push({ capability, entry, used, granted });
    }
  }
  return uses;
}
