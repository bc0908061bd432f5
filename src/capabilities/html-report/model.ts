/**
 * The data behind `caplint report`: the window × plugin access matrix, the provenance of every
 * callable command, the lint findings, dangerous grants and, with a baseline, the access diff.
 * Pure: built from already loaded projects, resolved models and a lint result; no I/O.
 */
import { accessMatrix, compareCodePoints, labelMatches, type AccessMatrix, type Origin, type ResolvedCommand, type ResolvedModel } from "../engine/index.js";
import path from "node:path";
import type { Diagnostic } from "../../core/diagnostics.js";
import type { JsonPath } from "../../core/location.js";
import type { LintResult } from "../lint.js";
import type { Project } from "../load/project.js";
import { isPlainObject } from "../../core/json.js";
import { diffAccess, type Grant } from "../queries/diff.js";
import { dangerousGrants } from "../dangers/index.js";
import { parseCommandName } from "../engine/command-name.js";
import { SourceLines } from "../queries/project-model.js";
import { valuesOf } from "../model/types.js";

/** Column id of the app's own commands (no `plugin:` prefix); a plugin name is never empty. */
export const APP_COMMANDS = "";
export const APP_COMMANDS_LABEL = "app commands";
const DANGEROUS_RULE = "dangerous-permission";
/** Scope values longer than this (as JSON) are shortened in the report. */
const MAX_SCOPE_TEXT = 300;

export interface ReportInput {
  project: Project;
  model: ResolvedModel;
  lint: LintResult;
  /** Matrix rows. */
  windows: readonly string[];
  origin: Origin;
  /** The app folder (or input paths) as shown to the reader. */
  app: string;
  toolVersion: string;
  /** A baseline version to compare with: access this version grants that the baseline did not is new. */
  against?: { label: string; project: Project; model: ResolvedModel };
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
  /** Callable here but not in the baseline. */
  added?: boolean;
}

export interface ReportDeniedCommand {
  command: string;
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
  /** Active capabilities covering the window at the origin. */
  capabilities: string[];
  callable: number;
  denied: number;
  dangerous: number;
  added: number;
  removed: number;
}

export interface ReportFinding {
  ruleId: string;
  severity: "error" | "warning";
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
  /** Not used on this platform (`platforms` excludes it). */
  inactive: boolean;
}

export interface DiffGrant {
  command: string;
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

export interface ReportDiff {
  against: string;
  added: DiffGroup[];
  removed: DiffGroup[];
  addedCount: number;
  removedCount: number;
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
  platform: string;
  origin: string;
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
    inactiveCapabilities: number;
    errors: number;
    warnings: number;
    dangerousFindings: number;
    dangerousCells: number;
    added?: number;
    removed?: number;
  };
  diff?: ReportDiff;
}

export const HEAT_LEVELS = 8;

export async function buildReport(input: ReportInput): Promise<ReportData> {
  const { project, model, origin } = input;
  const windows = [...input.windows];
  const matrix = accessMatrix(model, windows, origin);
  const lines = new SourceLines(project);

  // Errors first; otherwise lint's order (file, position).
  const diagnostics = [...input.lint.diagnostics].sort((a, b) => Number(b.severity === "error") - Number(a.severity === "error"));
  const findings: ReportFinding[] = diagnostics.map(findingOf);
  const dangers = await dangersOf(model, diagnostics);

  const entries: ReportEntry[] = [];
  const entryIds = new Map<ResolvedCommand, number>();
  const entryId = (entry: ResolvedCommand): number => {
    let id = entryIds.get(entry);
    if (id === undefined) {
      id = entries.length;
      entries.push(entryOf(entry, lines));
      entryIds.set(entry, id);
    }
    return id;
  };

  const columns = columnsOf(matrix);
  const columnIndex = new Map(columns.map((column, i) => [column.id, i]));
  const baseline = input.against ? accessMatrix(input.against.model, windows, origin) : undefined;

  const cells: ReportCell[][] = [];
  const rows: ReportRow[] = [];
  for (const [r, row] of matrix.rows.entries()) {
    const rowCells: ReportCell[] = columns.map(() => ({ count: 0, commands: [], denied: [], dangerous: false, heat: 0 }));
    const before = baseline ? new Set(baseline.rows[r]!.granted) : undefined;
    for (const command of row.granted) {
      const cell = rowCells[columnIndex.get(pluginOf(command))!]!;
      const { grantedBy } = matrix.cell(row.window, command);
      const item: ReportCommand = { command, grantedBy: grantedBy.map(entryId) };
      const scope = scopeText(grantedBy.flatMap((g) => g.scope?.allow ?? []), grantedBy.flatMap((g) => g.scope?.deny ?? []));
      if (scope) item.scope = scope;
      const global = model.globalScope.get(grantedBy[0]!.key);
      const globalScope = global ? scopeText(global.allow, global.deny) : undefined;
      if (globalScope) item.globalScope = globalScope;
      const plugin = pluginOf(command);
      const capabilities = new Set(grantedBy.map((g) => g.capabilityIndex));
      const locations = new Set(grantedBy.map((g) => locationKey(g.provenance.file, g.provenance.path)));
      for (const danger of dangers) {
        if (danger.plugin !== plugin || !capabilities.has(danger.capabilityIndex)) continue;
        const named = danger.commands.has(command);
        if (named) (item.dangers ??= []).push(danger.finding);
        if (named || locations.has(danger.location)) {
          cell.dangerous = true;
          if (!(cell.dangers ??= []).includes(danger.finding)) cell.dangers.push(danger.finding);
        }
      }
      if (before && !before.has(command)) item.added = true;
      cell.commands.push(item);
      cell.count++;
    }
    for (const command of row.overridden) {
      const cell = rowCells[columnIndex.get(pluginOf(command))!]!;
      const { grantedBy, deniedBy } = matrix.cell(row.window, command);
      cell.denied.push({ command, grantedBy: grantedBy.map(entryId), deniedBy: deniedBy.map(entryId) });
    }
    if (baseline) {
      const now = new Set(row.granted);
      for (const command of baseline.rows[r]!.granted) {
        if (now.has(command)) continue;
        const cell = rowCells[columnIndex.get(pluginOf(command)) ?? -1];
        // A plugin the new version no longer mentions at all has no column; the diff section lists it.
        if (cell) (cell.removed ??= []).push(command);
      }
    }
    cells.push(rowCells);
    rows.push({
      window: row.window,
      capabilities: row.capabilities,
      callable: row.granted.length,
      denied: row.overridden.length,
      dangerous: rowCells.filter((c) => c.dangerous).length,
      added: rowCells.reduce((n, c) => n + c.commands.filter((x) => x.added).length, 0),
      removed: before ? [...before].filter((command) => !row.granted.includes(command)).length : 0,
    });
  }

  const max = Math.max(0, ...cells.flat().map((cell) => cell.count));
  for (const cell of cells.flat()) cell.heat = heatLevel(cell.count, max);

  const callable = new Set(matrix.rows.flatMap((row) => row.granted));
  const data: ReportData = {
    tool: { name: "caplint", version: input.toolVersion },
    title: titleOf(project, input.app),
    app: input.app,
    platform: model.platform,
    origin: origin.kind === "local" ? "local" : origin.url,
    windows,
    columns,
    rows,
    cells,
    entries,
    findings,
    capabilities: capabilitiesOf(project, model, lines),
    heatLevels: heatLevels(max),
    counts: {
      windows: windows.length,
      plugins: columns.length,
      callable: callable.size,
      denied: matrix.denied.length,
      capabilities: model.capabilities.length,
      inactiveCapabilities: model.inactive.length,
      errors: findings.filter((f) => f.severity === "error").length,
      warnings: findings.filter((f) => f.severity === "warning").length,
      dangerousFindings: findings.filter((f) => f.ruleId === DANGEROUS_RULE).length,
      dangerousCells: cells.flat().filter((c) => c.dangerous).length,
    },
  };

  if (input.against) {
    const diff = diffAccess(input.against.model, model);
    const beforeLines = new SourceLines(input.against.project);
    data.diff = {
      against: input.against.label,
      added: groupGrants(diff.added, lines, windows),
      removed: groupGrants(diff.removed, beforeLines, windows),
      addedCount: diff.added.length,
      removedCount: diff.removed.length,
    };
    data.counts.added = diff.added.length;
    data.counts.removed = diff.removed.length;
  }
  return data;
}

function titleOf(project: Project, app: string): string {
  const config = project.config?.document.value;
  if (isPlainObject(config)) {
    for (const key of ["productName", "identifier"]) {
      const value = config[key];
      if (typeof value === "string" && value.trim() !== "") return value;
    }
  }
  const folder = project.srcTauri ? path.basename(path.basename(project.srcTauri) === "src-tauri" ? path.dirname(project.srcTauri) : project.srcTauri) : "";
  return folder || app;
}

/** `plugin:fs|read_file` → `fs`; an app command → APP_COMMANDS. */
export function pluginOf(command: string): string {
  return parseCommandName(command).plugin ?? APP_COMMANDS;
}

/** Every plugin the model mentions, by name, then the app's own commands. */
function columnsOf(matrix: AccessMatrix): ReportColumn[] {
  const counts = new Map<string, number>();
  for (const command of matrix.commands) counts.set(pluginOf(command), (counts.get(pluginOf(command)) ?? 0) + 1);
  return [...counts.keys()]
    .sort((a, b) => (a === APP_COMMANDS ? 1 : b === APP_COMMANDS ? -1 : compareCodePoints(a, b)))
    .map((id) => ({ id, label: id === APP_COMMANDS ? APP_COMMANDS_LABEL : id, commands: counts.get(id)! }));
}

/** Logarithmic, so one dangerous command still shows next to a plugin's eighty harmless ones. */
export function heatLevel(count: number, max: number): number {
  if (count <= 0 || max <= 0) return 0;
  if (max === 1) return HEAT_LEVELS;
  return Math.max(1, Math.min(HEAT_LEVELS, Math.ceil((HEAT_LEVELS * Math.log1p(count)) / Math.log1p(max))));
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
async function dangersOf(model: ResolvedModel, diagnostics: readonly Diagnostic[]): Promise<Danger[]> {
  // Several dangers can point at one entry (an `fs:scope` lending both read and write): the danger id tells them apart.
  const key = (file: string, path: JsonPath, danger: unknown) => JSON.stringify([file, path, danger]);
  const findingAt = new Map<string, number>();
  for (const [finding, diagnostic] of diagnostics.entries()) {
    if (diagnostic.ruleId === DANGEROUS_RULE) findingAt.set(key(diagnostic.file, diagnostic.path, diagnostic.data?.danger), finding);
  }
  const dangers: Danger[] = [];
  for (const found of await dangerousGrants(model)) {
    const finding = findingAt.get(key(found.capability.source.file, found.at, found.danger.id));
    if (finding === undefined) continue;
    const { provenance } = found.grant;
    dangers.push({ finding, capabilityIndex: found.capabilityIndex, plugin: pluginOf(found.grant.command), commands: new Set(found.commands), location: locationKey(provenance.file, provenance.path) });
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

function scopeText(allow: readonly unknown[], deny: readonly unknown[]): { allow: string[]; deny: string[] } | undefined {
  if (allow.length === 0 && deny.length === 0) return undefined;
  const text = (value: unknown) => {
    const json = JSON.stringify(value) ?? String(value);
    return json.length > MAX_SCOPE_TEXT ? `${json.slice(0, MAX_SCOPE_TEXT)}…` : json;
  };
  return { allow: [...new Set(allow.map(text))], deny: [...new Set(deny.map(text))] };
}

function capabilitiesOf(project: Project, model: ResolvedModel, lines: SourceLines): ReportCapability[] {
  const inactive = new Set(model.inactive);
  return [...project.activeCapabilities]
    .sort((a, b) => compareCodePoints(a.identifier, b.identifier))
    .map((capability) => {
      const item: ReportCapability = {
        identifier: capability.identifier,
        file: capability.source.file,
        line: lines.line(capability.source.file, capability.source.path),
        windows: valuesOf(capability.windows),
        webviews: valuesOf(capability.webviews),
        contexts: [...(capability.local ? ["local"] : []), ...valuesOf(capability.remote?.urls ?? [])],
        permissions: capability.permissions.length,
        inactive: inactive.has(capability),
      };
      if (capability.platforms) item.platforms = valuesOf(capability.platforms);
      return item;
    });
}

/** Grants grouped by who gains or loses them (target, pattern, context), in the diff's order. */
function groupGrants(grants: readonly Grant[], lines: SourceLines, windows: readonly string[]): DiffGroup[] {
  const groups = new Map<string, DiffGroup>();
  for (const grant of grants) {
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
      capability: entry.provenance.capability,
      chain: entry.provenance.chain,
      file: entry.provenance.file,
      line: lines.line(entry.provenance.file, entry.provenance.path),
    });
  }
  return [...groups.values()];
}
