/**
 * The data behind `caplint report`: the window × plugin access matrix, the provenance of every
 * callable command, the lint findings, dangerous grants and, with a baseline, the access diff.
 * Pure: built from already loaded projects, resolved models and a lint result; no I/O.
 */
import {
  accessMatrix,
  compareCodePoints,
  labelMatches,
  LOCAL_ORIGIN,
  type AccessMatrix,
  type Origin,
  type ResolvedCommand,
  type ResolvedModel,
} from "../engine/index.js";
import path from "node:path";
import type { Diagnostic, Severity } from "../../core/diagnostics.js";
import type { JsonPath } from "../../core/location.js";
import type { LintResult } from "../lint.js";
import type { Project } from "../load/project.js";
import { isPlainObject } from "../../core/json.js";
import type { Capability } from "../model/types.js";
import { diffAccessOnPlatforms, type PlatformGrant } from "../queries/diff.js";
import { entryKey, type PlatformGroup } from "../queries/platforms.js";
import { everyOrigin, originDisplay, SourceLines } from "../queries/project-model.js";
import { scopeChangeViews } from "../render/diff.js";
import { dangerousGrants } from "../dangers/index.js";
import { parseCommandName } from "../engine/command-name.js";
import { valuesOf } from "../model/types.js";
import { uncheckedRemoteAppCommands } from "../queries/explain.js";

/** Column id of the app's own commands (no `plugin:` prefix); a plugin name is never empty. */
export const APP_COMMANDS = "";
export const APP_COMMANDS_LABEL = "app commands";
const DANGEROUS_RULE = "dangerous-permission";
/** Scope values longer than this (as JSON) are shortened in the report. */
const MAX_SCOPE_TEXT = 300;

export interface ReportInput {
  project: Project;
  /** The project resolved for each asked platform, platforms that resolve alike grouped. */
  groups: readonly PlatformGroup[];
  /** The platforms asked (default: all five). */
  asked: readonly string[];
  lint: LintResult;
  /** Matrix rows. */
  windows: readonly string[];
  /** The calling pages' origin; undefined for every origin at once (local pages and every remote pattern). */
  origin?: Origin;
  /** The app folder (or input paths) as shown to the reader. */
  app: string;
  toolVersion: string;
  /** A baseline version to compare with, resolved for the same platforms: access this version grants that the baseline did not is new. */
  against?: { label: string; project: Project; groups: readonly PlatformGroup[] };
  /** Per window that loads local pages, the commands the app's frontend calls there (when it was scanned). */
  frontendCalls?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Where a command comes from: one allow or deny entry, as the reader needs it. */
export interface ReportEntry {
  capability: string;
  /** From the capability's entry down to the leaf permission. */
  chain: string[];
  file: string;
  line: number;
  /** `local` or the remote URL pattern. */
  context: string;
}

export interface ReportCommand {
  command: string;
  /** Indices into `ReportData.entries`: the allow entries granting it to this window. */
  grantedBy: number[];
  /** Command scope handed to it (JSON texts), from all granting entries. */
  scope?: { allow: string[]; deny: string[] };
  /** The plugin's global scope (JSON texts), shared by every window. */
  globalScope?: { allow: string[]; deny: string[] };
  /** Indices into `ReportData.findings`: `dangerous-permission` findings naming this command for a capability granting it here. */
  dangers?: number[];
  /** Callable here but not in the baseline (on at least one platform). */
  added?: boolean;
  /** The platforms it is callable on, when not every asked one. */
  platforms?: string[];
  /** Every grant behind it is for remote pages: local pages cannot call it. */
  remoteOnly?: boolean;
  /** Granted to a window that loads local pages, but the app's frontend never calls it there (least privilege). */
  unused?: boolean;
}

export interface ReportDeniedCommand {
  command: string;
  /** The platforms it is granted-but-denied on, when not every asked one. */
  platforms?: string[];
  /** Allow entries a deny overrides here. */
  grantedBy: number[];
  deniedBy: number[];
}

export interface ReportCell {
  /** Commands the window can call in this plugin. */
  count: number;
  commands: ReportCommand[];
  /** Granted here but denied (a deny anywhere wins everywhere). */
  denied: ReportDeniedCommand[];
  /** Some callable command comes from a grant the `dangerous-permission` rule reports. */
  dangerous: boolean;
  /** Indices into `ReportData.findings`: the `dangerous-permission` findings about grants in this cell. */
  dangers?: number[];
  /** With a baseline: commands callable in the baseline and not any more. */
  removed?: string[];
  /** Commands here that only remote pages can call. */
  remote: number;
  /** Commands here that some asked platforms do not grant. */
  platformSpecific: number;
  /** With a scanned frontend: callable commands here that the window's frontend never calls. */
  unused?: number;
  /** 0 for no access, else 1 (least) to HEAT_LEVELS (most). */
  heat: number;
}

export interface ReportColumn {
  /** Plugin name as invoked (`window`, `fs`), or APP_COMMANDS. */
  id: string;
  label: string;
  /** Commands of this plugin anywhere in the resolved model. */
  commands: number;
}

export interface ReportRow {
  window: string;
  /** Active capabilities covering the window at the origin (on any asked platform). */
  capabilities: string[];
  callable: number;
  denied: number;
  /** Callable commands that only remote pages can call. */
  remote: number;
  dangerous: number;
  added: number;
  removed: number;
  /** Capabilities covering the window that let remote pages call app commands nothing checks. */
  uncheckedRemoteAppCommands?: string[];
}

export interface ReportFinding {
  ruleId: string;
  severity: Severity;
  file: string;
  line: number;
  column: number;
  message: string;
  hint?: string;
}

export interface ReportCapability {
  identifier: string;
  file: string;
  line: number;
  windows: string[];
  webviews: string[];
  /** `local` and remote URL patterns. */
  contexts: string[];
  platforms?: string[];
  permissions: number;
  /** Not used on any asked platform (`platforms` excludes them all). */
  inactive: boolean;
  /** Asked platforms it is not used on, when it is used on others. */
  inactiveOn?: string[];
  /** For a capability that lets remote pages into windows: the app's own commands those pages can call. */
  remoteAppCommands?: RemoteAppCommands;
}

/**
 * The app's own commands a capability's remote pages can call: the ones its grants name, or every command
 * the app registers when the release the app builds with does not check them from remote pages (the
 * `remote-app-commands` rule's finding).
 */
interface RemoteAppCommands {
  /** True when nothing checks them: every command the app registers. */
  unchecked: boolean;
  /** The app commands the capability grants to its remote pages. */
  granted: string[];
}

export interface DiffGrant {
  command: string;
  /** The platforms the change holds on, when not every asked one. */
  platforms?: string[];
  capability: string;
  chain: string[];
  file: string;
  line: number;
}

export interface DiffGroup {
  target: "window" | "webview";
  pattern: string;
  context: string;
  /** Known windows (rows of the matrix) the pattern covers. */
  reaches: string[];
  grants: DiffGrant[];
}

/** A scope value the version allows that the baseline did not, or no longer denies (`caplint diff`'s wider scopes). */
export interface DiffScope {
  text: string;
  change: "allowed" | "no longer denied";
  /** The platforms it holds on, when not every asked one. */
  platforms?: string[];
  capability: string;
  chain: string[];
  /** This version's file when allowed, the baseline's when no longer denied. */
  file: string;
  line: number;
}

export interface ReportDiff {
  against: string;
  added: DiffGroup[];
  removed: DiffGroup[];
  addedCount: number;
  removedCount: number;
  scopes: DiffScope[];
}

export interface HeatLevel {
  level: number;
  min: number;
  max: number;
}

export interface ReportData {
  tool: { name: "caplint"; version: string };
  /** `productName`, else `identifier` from tauri.conf.json, else the folder's name. */
  title: string;
  app: string;
  /** The platforms asked. */
  platforms: string[];
  /** The one platform asked, when only one was. */
  platform?: string;
  /** Groups of asked platforms that resolve alike: more than one means the answers differ by platform. */
  platformGroups: string[][];
  /** `local`, the remote URL asked, or `any` (every origin: local pages and every remote pattern). */
  origin: string;
  /** The origin in words: "the app's own pages", "remote: https://…", "any origin (local pages and remote URLs)". */
  originText: string;
  windows: string[];
  columns: ReportColumn[];
  rows: ReportRow[];
  /** `cells[row][column]`. */
  cells: ReportCell[][];
  entries: ReportEntry[];
  findings: ReportFinding[];
  capabilities: ReportCapability[];
  heatLevels: HeatLevel[];
  counts: {
    windows: number;
    plugins: number;
    /** Distinct commands at least one window can call. */
    callable: number;
    /** Commands denied everywhere. */
    denied: number;
    capabilities: number;
    /** Capabilities no asked platform uses. */
    inactiveCapabilities: number;
    /** Callable commands (window × command) that only remote pages can call. */
    remote: number;
    errors: number;
    warnings: number;
    suggestions: number;
    dangerousFindings: number;
    dangerousCells: number;
    added?: number;
    removed?: number;
    /** Wider scope values against the baseline. */
    widened?: number;
    /** With a scanned frontend: callable commands (window × command) its frontend never calls. */
    unused?: number;
  };
  diff?: ReportDiff;
  /** Why remote pages may call every app command unchecked (uncheckedRemoteAppCommands), when a capability lets them in. */
  uncheckedRemoteAppCommands?: string;
  /** Whether the app's frontend was scanned, so cells mark the grants it never uses. */
  frontend: boolean;
}

export const HEAT_LEVELS = 8;

export async function buildReport(input: ReportInput): Promise<ReportData> {
  const { project, origin } = input;
  const asked = [...input.asked];
  const windows = [...input.windows];
  const lines = new SourceLines(project);
  // Without an origin, every context counts: a window whose only access is remote still shows it.
  const view = (model: ResolvedModel) => (origin ? model : everyOrigin(model));
  const matrixOf = (model: ResolvedModel) =>
    accessMatrix(view(model), windows, origin ?? LOCAL_ORIGIN);

  // Errors first; otherwise lint's order (file, position).
  const diagnostics = [...input.lint.diagnostics].sort(
    (a, b) => Number(b.severity === "error") - Number(a.severity === "error"),
  );
  const findings: ReportFinding[] = diagnostics.map(findingOf);

  const entries: ReportEntry[] = [];
  // One entry across platform resolutions: the same capability entry, chain and context.
  const entryIds = new Map<string, number>();
  const entryId = (entry: ResolvedCommand): number => {
    const key = entryKey(entry);
    let id = entryIds.get(key);
    if (id === undefined) {
      id = entries.length;
      entries.push(entryOf(entry, lines));
      entryIds.set(key, id);
    }
    return id;
  };

  const groups = await Promise.all(
    input.groups.map(async (group) => ({
      platforms: group.platforms,
      model: group.model,
      matrix: matrixOf(group.model),
      dangers: await dangersOf(view(group.model), diagnostics),
    })),
  );
  const columns = columnsOf(groups.map((g) => g.matrix));
  const columnIndex = new Map(columns.map((column, i) => [column.id, i]));
  // The baseline's callable commands per window and platform.
  const baseline = new Map<string, AccessMatrix>();
  for (const group of input.against?.groups ?? []) {
    const matrix = matrixOf(group.model);
    for (const platform of group.platforms) baseline.set(platform, matrix);
  }
  const onSome = (platforms: readonly string[]) =>
    platforms.length < asked.length ? asked.filter((p) => platforms.includes(p)) : undefined;

  const cells: ReportCell[][] = [];
  const rows: ReportRow[] = [];
  const rowContext: RowContext = {
    input,
    groups,
    columns,
    columnIndex,
    baseline,
    entries,
    entryId,
    onSome,
  };
  for (const [r, window] of windows.entries()) {
    const { rowCells, row } = windowRow(r, window, rowContext);
    cells.push(rowCells);
    rows.push(row);
  }

  const max = Math.max(0, ...cells.flat().map((cell) => cell.count));
  for (const cell of cells.flat()) cell.heat = heatLevel(cell.count, max);

  const callable = new Set(groups.flatMap((g) => g.matrix.rows.flatMap((row) => row.granted)));
  const capabilityList = capabilitiesOf(project, input.groups, asked, lines);
  const unchecked = markRemoteAppCommands(
    project,
    capabilityList,
    rows,
    cells,
    columnIndex,
    entries,
  );
  const data: ReportData = {
    tool: { name: "caplint", version: input.toolVersion },
    title: titleOf(project, input.app),
    app: input.app,
    platforms: asked,
    ...(asked.length === 1 ? { platform: asked[0]! } : {}),
    platformGroups: input.groups.map((g) => asked.filter((p) => g.platforms.includes(p))),
    origin: origin === undefined ? "any" : origin.kind === "local" ? "local" : origin.url,
    originText:
      origin === undefined
        ? "any origin (local pages and remote URLs)"
        : origin.kind === "local"
          ? "the app's own pages"
          : originDisplay(origin),
    windows,
    columns,
    rows,
    cells,
    entries,
    findings,
    capabilities: capabilityList,
    heatLevels: heatLevels(max),
    counts: {
      windows: windows.length,
      plugins: columns.length,
      callable: callable.size,
      denied: new Set(groups.flatMap((g) => g.matrix.denied)).size,
      capabilities: capabilityList.filter((c) => !c.inactive).length,
      inactiveCapabilities: capabilityList.filter((c) => c.inactive).length,
      remote: rows.reduce((n, row) => n + row.remote, 0),
      errors: findings.filter((f) => f.severity === "error").length,
      warnings: findings.filter((f) => f.severity === "warning").length,
      suggestions: findings.filter((f) => f.severity === "suggestion").length,
      dangerousFindings: findings.filter((f) => f.ruleId === DANGEROUS_RULE).length,
      dangerousCells: cells.flat().filter((c) => c.dangerous).length,
      ...(input.frontendCalls
        ? { unused: cells.flat().reduce((n, c) => n + (c.unused ?? 0), 0) }
        : {}),
    },
    frontend: input.frontendCalls !== undefined,
    ...(unchecked ? { uncheckedRemoteAppCommands: unchecked } : {}),
  };

  if (input.against) {
    data.diff = reportDiff(input.against, input.groups, lines, windows, asked);
    data.counts.added = data.diff.addedCount;
    data.counts.removed = data.diff.removedCount;
    data.counts.widened = data.diff.scopes.length;
  }
  return data;
}

/** What `--against` adds: the grants added and removed, and the scopes widened, since the baseline. */
function reportDiff(
  against: NonNullable<ReportInput["against"]>,
  groups: ReportInput["groups"],
  lines: SourceLines,
  windows: readonly string[],
  asked: readonly string[],
): ReportDiff {
  const diff = diffAccessOnPlatforms(against.groups, groups);
  const beforeLines = new SourceLines(against.project);
  return {
    against: against.label,
    added: groupGrants(diff.added, lines, windows, asked),
    removed: groupGrants(diff.removed, beforeLines, windows, asked),
    addedCount: diff.added.length,
    removedCount: diff.removed.length,
    scopes: scopeChangeViews({ scopes: diff.scopes, before: beforeLines, after: lines }).map(
      ({ platforms, ...view }) =>
        platforms.length === asked.length
          ? view
          : { ...view, platforms: asked.filter((p) => platforms.includes(p)) },
    ),
  };
}

/** What every row of the matrix reads: the groups' matrices and dangers, the columns, the baseline, the entry table. */
interface RowContext {
  input: ReportInput;
  groups: ReadonlyArray<{
    platforms: readonly string[];
    model: ResolvedModel;
    matrix: AccessMatrix;
    dangers: Danger[];
  }>;
  columns: readonly ReportColumn[];
  columnIndex: ReadonlyMap<string, number>;
  baseline: ReadonlyMap<string, AccessMatrix>;
  entries: readonly ReportEntry[];
  entryId(entry: ResolvedCommand): number;
  onSome(platforms: readonly string[]): string[] | undefined;
}

/** One window's row of the matrix: its cells (callable, denied, dangerous, added and removed commands) and its totals. */
function windowRow(
  r: number,
  window: string,
  context: RowContext,
): { rowCells: ReportCell[]; row: ReportRow } {
  const { input, groups, columns, columnIndex, baseline, entries, entryId, onSome } = context;
  const rowCells: ReportCell[] = columns.map(() => ({
    count: 0,
    commands: [],
    denied: [],
    dangerous: false,
    remote: 0,
    platformSpecific: 0,
    heat: 0,
  }));
  const callable = new Map<string, { item: ReportCommand; platforms: string[] }>();
  const denied = new Map<string, { item: ReportDeniedCommand; platforms: string[] }>();
  const removed = new Set<string>();
  const capabilities = new Set<string>();
  for (const group of groups) {
    const row = group.matrix.rows[r]!;
    for (const name of row.capabilities) capabilities.add(name);
    const before = input.against
      ? group.platforms.map((p) => new Set(baseline.get(p)?.rows[r]!.granted ?? []))
      : undefined;
    for (const command of row.granted) {
      const plugin = pluginOf(command);
      const cell = rowCells[columnIndex.get(plugin)!]!;
      const { grantedBy } = group.matrix.cell(window, command);
      let known = callable.get(command);
      if (!known) {
        known = { item: { command, grantedBy: [] }, platforms: [] };
        callable.set(command, known);
        cell.commands.push(known.item);
        cell.count++;
      }
      const item = known.item;
      known.platforms.push(...group.platforms);
      for (const id of grantedBy.map(entryId))
        if (!item.grantedBy.includes(id)) item.grantedBy.push(id);
      const scope = scopeText(
        grantedBy.flatMap((g) => g.scope?.allow ?? []),
        grantedBy.flatMap((g) => g.scope?.deny ?? []),
        item.scope,
      );
      if (scope) item.scope = scope;
      const global = group.model.globalScope.get(grantedBy[0]!.key);
      const globalScope = global
        ? scopeText(global.allow, global.deny, item.globalScope)
        : undefined;
      if (globalScope) item.globalScope = globalScope;
      const capabilityIndices = new Set(grantedBy.map((g) => g.capabilityIndex));
      const locations = new Set(
        grantedBy.map((g) => locationKey(g.provenance.file, g.provenance.path)),
      );
      for (const danger of group.dangers) {
        if (danger.plugin !== plugin || !capabilityIndices.has(danger.capabilityIndex)) continue;
        const named = danger.commands.has(command);
        if (named && !(item.dangers ??= []).includes(danger.finding))
          item.dangers.push(danger.finding);
        if (named || locations.has(danger.location)) {
          cell.dangerous = true;
          if (!(cell.dangers ??= []).includes(danger.finding)) cell.dangers.push(danger.finding);
        }
      }
      if (before?.some((set) => !set.has(command))) item.added = true;
    }
    for (const command of row.overridden) {
      const cell = rowCells[columnIndex.get(pluginOf(command))!]!;
      const { grantedBy, deniedBy } = group.matrix.cell(window, command);
      let known = denied.get(command);
      if (!known) {
        known = { item: { command, grantedBy: [], deniedBy: [] }, platforms: [] };
        denied.set(command, known);
        cell.denied.push(known.item);
      }
      known.platforms.push(...group.platforms);
      for (const id of grantedBy.map(entryId))
        if (!known.item.grantedBy.includes(id)) known.item.grantedBy.push(id);
      for (const id of deniedBy.map(entryId))
        if (!known.item.deniedBy.includes(id)) known.item.deniedBy.push(id);
    }
    if (before) {
      const now = new Set(row.granted);
      for (const set of before) {
        for (const command of set) {
          if (now.has(command) || removed.has(command)) continue;
          // A plugin the new version no longer mentions at all has no column; the diff section lists it.
          const cell = rowCells[columnIndex.get(pluginOf(command)) ?? -1];
          if (cell) (cell.removed ??= []).push(command);
          removed.add(command);
        }
      }
    }
  }
  for (const { item, platforms } of callable.values()) {
    const cell = rowCells[columnIndex.get(pluginOf(item.command))!]!;
    const some = onSome(platforms);
    if (some) {
      item.platforms = some;
      cell.platformSpecific++;
    }
    if (item.grantedBy.every((id) => entries[id]!.context !== "local")) {
      item.remoteOnly = true;
      cell.remote++;
    }
    const called = input.frontendCalls?.get(window);
    if (called && !item.remoteOnly && !called.has(item.command)) {
      item.unused = true;
      cell.unused = (cell.unused ?? 0) + 1;
    }
  }
  for (const { item, platforms } of denied.values()) {
    const some = onSome(platforms);
    if (some) item.platforms = some;
  }
  for (const cell of rowCells)
    cell.commands.sort((a, b) => compareCodePoints(a.command, b.command));
  const row: ReportRow = {
    window,
    capabilities: [...capabilities],
    callable: callable.size,
    denied: denied.size,
    remote: rowCells.reduce((n, c) => n + c.remote, 0),
    dangerous: rowCells.filter((c) => c.dangerous).length,
    added: rowCells.reduce((n, c) => n + c.commands.filter((x) => x.added).length, 0),
    removed: removed.size,
  };
  return { rowCells, row };
}

function titleOf(project: Project, app: string): string {
  const config = project.config?.document.value;
  if (isPlainObject(config)) {
    for (const key of ["productName", "identifier"]) {
      const value = config[key];
      if (typeof value === "string" && value.trim() !== "") return value;
    }
  }
  const folder = project.srcTauri
    ? path.basename(
        path.basename(project.srcTauri) === "src-tauri"
          ? path.dirname(project.srcTauri)
          : project.srcTauri,
      )
    : "";
  return folder || app;
}

/** `plugin:fs|read_file` → `fs`; an app command → APP_COMMANDS. */
export function pluginOf(command: string): string {
  return parseCommandName(command).plugin ?? APP_COMMANDS;
}

/** Every plugin the model mentions, by name, then the app's own commands. */
function columnsOf(matrices: readonly AccessMatrix[]): ReportColumn[] {
  const counts = new Map<string, number>();
  for (const command of new Set(matrices.flatMap((matrix) => matrix.commands)))
    counts.set(pluginOf(command), (counts.get(pluginOf(command)) ?? 0) + 1);
  return [...counts.keys()]
    .sort((a, b) => (a === APP_COMMANDS ? 1 : b === APP_COMMANDS ? -1 : compareCodePoints(a, b)))
    .map((id) => ({
      id,
      label: id === APP_COMMANDS ? APP_COMMANDS_LABEL : id,
      commands: counts.get(id)!,
    }));
}

/** Logarithmic, so one dangerous command still shows next to a plugin's eighty harmless ones. */
export function heatLevel(count: number, max: number): number {
  if (count <= 0 || max <= 0) return 0;
  if (max === 1) return HEAT_LEVELS;
  return Math.max(
    1,
    Math.min(HEAT_LEVELS, Math.ceil((HEAT_LEVELS * Math.log1p(count)) / Math.log1p(max))),
  );
}

/** The count ranges each heat level stands for, for the legend; levels no count reaches are left out. */
function heatLevels(max: number): HeatLevel[] {
  const levels: HeatLevel[] = [];
  for (let count = 1; count <= max; count++) {
    const level = heatLevel(count, max);
    const last = levels[levels.length - 1];
    if (last && last.level === level) last.max = count;
    else levels.push({ level, min: count, max: count });
  }
  return levels;
}

function findingOf(diagnostic: Diagnostic): ReportFinding {
  const finding: ReportFinding = {
    ruleId: diagnostic.ruleId,
    severity: diagnostic.severity,
    file: diagnostic.file,
    line: diagnostic.range.start.line,
    column: diagnostic.range.start.column,
    message: diagnostic.message,
  };
  if (diagnostic.hint) finding.hint = diagnostic.hint;
  return finding;
}

const locationKey = (file: string, path: JsonPath) => JSON.stringify([file, path]);

/** One `dangerous-permission` finding, tied to the grants it is about. */
interface Danger {
  /** Index into the findings. */
  finding: number;
  /** The capability whose grants it reports. */
  capabilityIndex: number;
  /** The plugin of its commands (every danger is about one plugin). */
  plugin: string;
  /** The dangerous commands it covers. */
  commands: ReadonlySet<string>;
  /** The capability entry behind the first of them. */
  location: string;
}

/**
 * Ties the dangerous grants (the data the `dangerous-permission` rule words) to that rule's findings:
 * a grant is marked when the run reported it (the rule may be off, or the finding suppressed). A
 * matrix cell is marked when the capability grants the window one of its commands, or any command
 * through the entry behind the first of them; a command is marked when it is one of them.
 */
async function dangersOf(
  model: ResolvedModel,
  diagnostics: readonly Diagnostic[],
): Promise<Danger[]> {
  // Several dangers can point at one entry (an `fs:scope` lending both read and write): the danger id tells them apart.
  const key = (file: string, path: JsonPath, danger: unknown) =>
    JSON.stringify([file, path, danger]);
  const findingAt = new Map<string, number>();
  for (const [finding, diagnostic] of diagnostics.entries()) {
    if (diagnostic.ruleId === DANGEROUS_RULE)
      findingAt.set(key(diagnostic.file, diagnostic.path, diagnostic.data?.danger), finding);
  }
  const dangers: Danger[] = [];
  for (const found of await dangerousGrants(model)) {
    const finding = findingAt.get(key(found.capability.source.file, found.at, found.danger.id));
    if (finding === undefined) continue;
    const { provenance } = found.grant;
    dangers.push({
      finding,
      capabilityIndex: found.capabilityIndex,
      plugin: pluginOf(found.grant.command),
      commands: new Set(found.commands),
      location: locationKey(provenance.file, provenance.path),
    });
  }
  return dangers;
}

function entryOf(entry: ResolvedCommand, lines: SourceLines): ReportEntry {
  return {
    capability: entry.provenance.capability,
    chain: entry.provenance.chain,
    file: entry.provenance.file,
    line: lines.line(entry.provenance.file, entry.provenance.path),
    context: entry.context.kind === "local" ? "local" : entry.context.url,
  };
}

/** Scope values as JSON texts, added to those already known (another platform's grant of the same command). */
function scopeText(
  allow: readonly unknown[],
  deny: readonly unknown[],
  known?: { allow: string[]; deny: string[] },
): { allow: string[]; deny: string[] } | undefined {
  if (allow.length === 0 && deny.length === 0) return known;
  const text = (value: unknown) => {
    const json = JSON.stringify(value) ?? String(value);
    return json.length > MAX_SCOPE_TEXT ? `${json.slice(0, MAX_SCOPE_TEXT)}…` : json;
  };
  return {
    allow: [...new Set([...(known?.allow ?? []), ...allow.map(text)])],
    deny: [...new Set([...(known?.deny ?? []), ...deny.map(text)])],
  };
}

function capabilitiesOf(
  project: Project,
  groups: readonly PlatformGroup[],
  asked: readonly string[],
  lines: SourceLines,
): ReportCapability[] {
  // The asked platforms each capability is inactive on.
  const inactiveOn = new Map<Capability, string[]>();
  for (const group of groups)
    for (const capability of group.model.inactive)
      inactiveOn.set(capability, [...(inactiveOn.get(capability) ?? []), ...group.platforms]);
  return [...project.activeCapabilities]
    .sort((a, b) => compareCodePoints(a.identifier, b.identifier))
    .map((capability) => {
      const off = asked.filter((p) => inactiveOn.get(capability)?.includes(p));
      const item: ReportCapability = {
        identifier: capability.identifier,
        file: capability.source.file,
        line: lines.line(capability.source.file, capability.source.path),
        windows: valuesOf(capability.windows),
        webviews: valuesOf(capability.webviews),
        contexts: [
          ...(capability.local ? ["local"] : []),
          ...valuesOf(capability.remote?.urls ?? []),
        ],
        permissions: capability.permissions.length,
        inactive: off.length === asked.length,
      };
      if (off.length > 0 && off.length < asked.length) item.inactiveOn = off;
      if (capability.platforms) item.platforms = valuesOf(capability.platforms);
      return item;
    });
}

/**
 * Marks what remote pages can call among the app's own commands: per capability with remote URLs, the app
 * commands it grants them (from the matrix's app-command cells) and, when the app's release does not check
 * app commands from remote pages, that they may call every command; per window, the capabilities that let
 * such pages in. Returns the reason when nothing checks them.
 */
function markRemoteAppCommands(
  project: Project,
  capabilities: ReportCapability[],
  rows: ReportRow[],
  cells: ReportCell[][],
  columnIndex: ReadonlyMap<string, number>,
  entries: readonly ReportEntry[],
): string | undefined {
  const reason = uncheckedRemoteAppCommands(project.catalog);
  const remote = capabilities.filter(
    (c) =>
      !c.inactive &&
      c.contexts.some((context) => context !== "local") &&
      c.windows.length + c.webviews.length > 0,
  );
  if (remote.length === 0) return undefined;
  const granted = new Map<string, Set<string>>(remote.map((c) => [c.identifier, new Set()]));
  const column = columnIndex.get(APP_COMMANDS);
  if (column !== undefined)
    for (const row of cells)
      for (const command of row[column]?.commands ?? [])
        for (const id of command.grantedBy) {
          const entry = entries[id]!;
          if (entry.context !== "local") granted.get(entry.capability)?.add(command.command);
        }
  for (const capability of remote)
    capability.remoteAppCommands = {
      unchecked: reason !== undefined,
      granted: [...granted.get(capability.identifier)!].sort(compareCodePoints),
    };
  if (reason === undefined) return undefined;
  const exposing = new Set(remote.map((c) => c.identifier));
  for (const row of rows) {
    const through = row.capabilities.filter((id) => exposing.has(id));
    if (through.length) row.uncheckedRemoteAppCommands = through;
  }
  return reason;
}

/** Grants grouped by who gains or loses them (target, pattern, context), in the diff's order. */
function groupGrants(
  grants: readonly PlatformGrant[],
  lines: SourceLines,
  windows: readonly string[],
  asked: readonly string[],
): DiffGroup[] {
  const groups = new Map<string, DiffGroup>();
  for (const { item: grant, platforms } of grants) {
    const key = JSON.stringify([grant.target, grant.pattern, grant.context]);
    let group = groups.get(key);
    if (!group) {
      group = {
        target: grant.target,
        pattern: grant.pattern,
        context: grant.context,
        // A window's own webview carries the window's label, so webview patterns reach windows too.
        reaches: windows.filter((window) => labelMatches(grant.pattern, window)),
        grants: [],
      };
      groups.set(key, group);
    }
    const entry = grant.entries[0]!;
    group.grants.push({
      command: grant.command,
      ...(platforms.length < asked.length
        ? { platforms: asked.filter((p) => platforms.includes(p)) }
        : {}),
      capability: entry.provenance.capability,
      chain: entry.provenance.chain,
      file: entry.provenance.file,
      line: lines.line(entry.provenance.file, entry.provenance.path),
    });
  }
  return [...groups.values()];
}
