import path from "node:path";
import type {
  AccessKind,
  PlatformGrant,
  PlatformScopeChange,
  ScopeChange,
} from "../queries/diff.js";
import type { EntryProvenance } from "../engine/index.js";
import { APP_KEY } from "../catalog/types.js";
import type { Diagnostic } from "../../core/diagnostics.js";
import { provenanceJson, type SourceLines } from "../queries/project-model.js";
import type { JsonPath } from "../../core/location.js";
import { describePlatforms, platformNote } from "../queries/platforms.js";
import { NO_PAINT, textLines, type Paint } from "../../core/terminal-text.js";
import { plural } from "../../core/wording.js";

/** What `caplint diff` answers, ready to print; each side's grants point into that side's files. */
export interface DiffAnswer {
  /** The platforms compared. */
  asked: string[];
  added: PlatformGrant[];
  removed: PlatformGrant[];
  /** Scope values newly allowed, or no longer denied: on commands both sides grant, and on global scopes their plugins read. */
  scopes: PlatformScopeChange[];
  before: SourceLines;
  after: SourceLines;
}

export function renderDiffJson(
  { asked, added, removed, scopes, before, after }: DiffAnswer,
  failOn: readonly AccessKind[],
): string {
  const json = ({ item: grant, platforms }: PlatformGrant, lines: SourceLines) => ({
    command: grant.command,
    context: grant.context,
    [grant.target === "window" ? "window" : "webview"]: grant.pattern,
    platforms: asked.filter((p) => platforms.includes(p)),
    grantedBy: grant.entries.map((e) => provenanceJson(e, lines)),
  });
  return (
    JSON.stringify(
      {
        ...(asked.length === 1 ? { platform: asked[0] } : {}),
        platforms: asked,
        failOn,
        added: added.map((g) => ({ ...json(g, after), kinds: g.kinds ?? [] })),
        removed: removed.map((g) => json(g, before)),
        widenedScopes: scopes.map(({ item, platforms }) => {
          const lines = item.change === "allowed" ? after : before;
          const source =
            item.scope === "command"
              ? provenanceJson(item.entry, lines)
              : globalProvenanceJson(item.contribution.provenance, lines);
          return {
            scope: item.scope,
            plugin: item.plugin,
            ...(item.scope === "command"
              ? { command: item.command, context: item.context, [item.target]: item.pattern }
              : {}),
            change: item.change,
            value: item.value,
            platforms: asked.filter((p) => platforms.includes(p)),
            [item.change === "allowed" ? "allowedBy" : "deniedBy"]: source,
          };
        }),
      },
      null,
      2,
    ) + "\n"
  );
}

/** With colour: NEW ACCESS red (the gate fails), "no new access" green, file positions and platform notes dim. */
export function renderDiffText(
  { asked, added, removed, scopes, before, after }: DiffAnswer,
  paint: Paint = NO_PAINT,
): string {
  const out: string[] = [];
  // Grouped by who gains or loses the access, so a broadened pattern reads as one change.
  const section = (title: string, grants: PlatformGrant[], lines: SourceLines) => {
    const groups = new Map<string, PlatformGrant[]>();
    for (const grant of grants) {
      const key = `${grant.item.target} "${grant.item.pattern}" from ${grant.item.context}`;
      groups.set(key, [...(groups.get(key) ?? []), grant]);
    }
    out.push(`${title} (${plural(grants.length, "command grant")}):`);
    for (const [who, list] of groups) {
      out.push(`  ${who}:`);
      for (const { item: grant, platforms, kinds } of list) {
        const entry = grant.entries[0]!;
        const kind = kinds?.length
          ? paint.dim(`  [${kinds.map((k) => KIND_WORDS[k]).join(", ")}]`)
          : "";
        out.push(
          `    ${grant.command}  ← ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  ${paint.dim(`(${lines.where(entry)})`)}${kind}${paint.dim(platformNote(platforms, asked))}`,
        );
      }
    }
  };
  const on = describePlatforms(asked, asked);
  if (added.length) section(`${paint.bold(paint.error("NEW ACCESS"))} on ${on}`, added, after);
  // Wider scopes are new access too: "no new access" above them would contradict the exit code.
  else if (scopes.length) out.push(`no new command grants on ${on}`);
  else out.push(`${paint.ok("no new access")} on ${on}`);
  const scopeLines = groupedByEntry(scopes);
  if (scopeLines.length) {
    out.push(
      `${paint.bold(paint.error("WIDER SCOPES"))} (${plural(scopeLines.length, "scope value")}):`,
    );
    for (const { item, platforms, reach } of scopeLines) {
      const lines = item.change === "allowed" ? after : before;
      const source = sourceOf(item);
      out.push(
        `  ${scopeChangeText(item, reach)}  ← ${source.provenance.capability} › ${source.provenance.chain.join(" › ")}  ${paint.dim(`(${lines.where(source)})`)}${paint.dim(platformNote(platforms, asked))}`,
      );
    }
  }
  if (removed.length) section(paint.bold("removed access"), removed, before);
  return textLines(out);
}

const KIND_WORDS: Record<AccessKind, string> = {
  commands: "new command",
  origins: "new remote origin",
  scopes: "wider scope",
};

/** A plugin's name in answers; the app's own manifest key is an implementation detail. */
const pluginName = (plugin: string) => (plugin === APP_KEY ? "app" : plugin);

/**
 * One scope change in words, the same in text and findings: a command's scope names who gains it,
 * a global scope says that every command of the plugin reads it, whatever the window.
 */
function scopeChangeText(change: ScopeChange, reach: readonly string[]): string {
  const value = JSON.stringify(change.value);
  if (change.scope === "command")
    return `${change.command} ${change.change} ${value} for ${reach.join(", ")} from ${change.context}`;
  const name = pluginName(change.plugin);
  return `global scope of ${name} (every ${name} command, every window) ${change.change} ${value}`;
}

const sourceOf = (change: ScopeChange) =>
  change.scope === "command" ? change.entry : change.contribution;

/** One wider scope as every view shows it: its words, the entry behind it and the platforms it holds on. */
export interface ScopeChangeView {
  text: string;
  change: ScopeChange["change"];
  capability: string;
  chain: string[];
  /** The side's file (the new side's when allowed, the old side's when no longer denied) and line. */
  file: string;
  line: number;
  platforms: string[];
}

/** The wider scopes of an answer, grouped by entry as the text output lists them. */
export function scopeChangeViews({
  scopes,
  before,
  after,
}: Pick<DiffAnswer, "scopes" | "before" | "after">): ScopeChangeView[] {
  return groupedByEntry(scopes).map(({ item, platforms, reach }) => {
    const { provenance } = sourceOf(item);
    return {
      text: scopeChangeText(item, reach),
      change: item.change,
      capability: provenance.capability,
      chain: provenance.chain,
      file: provenance.file,
      line: (item.change === "allowed" ? after : before).line(provenance.file, provenance.path),
      platforms,
    };
  });
}

/**
 * Scope changes of one value from one entry, on the same platforms, as one line naming every window
 * and webview pattern it reaches: an entry of a capability for three windows is one change, not three.
 */
function groupedByEntry(
  scopes: readonly PlatformScopeChange[],
): Array<PlatformScopeChange & { reach: string[] }> {
  const groups = new Map<string, PlatformScopeChange & { reach: string[] }>();
  for (const { item, platforms } of scopes) {
    const { file, path: at } = sourceOf(item).provenance;
    const who = item.scope === "command" ? [item.command, item.context] : [item.plugin];
    const key = JSON.stringify([
      item.scope,
      ...who,
      item.change,
      JSON.stringify(item.value),
      file,
      at,
      platforms,
    ]);
    const group = groups.get(key);
    const reach = item.scope === "command" ? `${item.target} "${item.pattern}"` : undefined;
    if (!group) groups.set(key, { item, platforms, reach: reach === undefined ? [] : [reach] });
    else if (reach !== undefined) group.reach.push(reach);
  }
  return [...groups.values()];
}

/** Where a global scope value comes from, as `provenanceJson` says it for a command's entry. */
function globalProvenanceJson(provenance: EntryProvenance, lines: SourceLines) {
  return {
    capability: provenance.capability,
    permission: provenance.chain[0] ?? "",
    chain: provenance.chain,
    file: provenance.file,
    line: lines.line(provenance.file, provenance.path),
  };
}

/**
 * New access as findings (rule `new-access`) on the lines of the new side that grant it, for the
 * compact, github and SARIF formats: one per permission entry and kind of access, naming its commands.
 * An error when its kind fails the gate (`--fail-on`), else a warning. Files are named relative to the
 * new side's folder, which stands for `cwd` (the work tree) also when that side was read from git. A
 * deny the new side dropped has no line of its own there: its finding sits where the deny was
 * (`removalPlace`) and names where the old side had it; `newFileOf` names an old side's file as the
 * new side names the same file (they differ when OLD and NEW are two folders).
 */
export function diffDiagnostics(
  { asked, added, scopes, before, after }: DiffAnswer,
  failOn: readonly AccessKind[],
  cwd: string,
  newFileOf: (oldFile: string) => string = (file) => file,
): Diagnostic[] {
  const byEntry = new Map<
    string,
    { file: string; path: JsonPath; kind: AccessKind; removal: boolean; what: string[] }
  >();
  const note = (platforms: readonly string[]) =>
    platforms.length === asked.length ? "" : ` (${describePlatforms(platforms, asked)})`;
  const add = (file: string, at: JsonPath, kind: AccessKind, what: string, removal = false) => {
    const key = JSON.stringify([file, at, kind, removal]);
    const known = byEntry.get(key) ?? { file, path: at, kind, removal, what: [] };
    if (!known.what.includes(what)) known.what.push(what);
    byEntry.set(key, known);
  };
  for (const { item: grant, platforms, kinds } of added) {
    const entry = grant.entries[0]!;
    const who = `${grant.command} to ${grant.target} "${grant.pattern}" from ${grant.context}${note(platforms)}`;
    for (const kind of kinds ?? ["scopes"])
      add(entry.provenance.file, entry.provenance.path, kind, who);
  }
  for (const { item, platforms, reach } of groupedByEntry(scopes)) {
    const source = sourceOf(item).provenance;
    if (item.change === "allowed") {
      add(source.file, source.path, "scopes", `${scopeChangeText(item, reach)}${note(platforms)}`);
      continue;
    }
    const place = removalPlace(source, newFileOf(source.file), before, after);
    if (place)
      add(
        place.file,
        place.path,
        "scopes",
        `${scopeChangeText(item, reach)}, denied on the old side by ${deniedBefore(source, before)}${note(platforms)}`,
        true,
      );
  }
  const diagnostics: Diagnostic[] = [];
  for (const { file, path: at, kind, removal, what } of byEntry.values()) {
    const range = after.range(file, at) ?? {
      start: { line: 1, column: 1 },
      end: { line: 1, column: 1 },
    };
    // The work tree's file, not the snapshot's: SARIF and annotations place the finding from it (a
    // `--head` side read from git lives in a temporary folder deleted when the run ends).
    const absolutePath = path.resolve(cwd, file);
    const shown = path.relative(cwd, absolutePath).split(path.sep).join("/");
    const listed =
      what.length > 3
        ? `${what.slice(0, 3).join("; ")}; and ${what.length - 3} more`
        : what.join("; ");
    diagnostics.push({
      ruleId: "new-access",
      severity: failOn.includes(kind) ? "error" : "warning",
      message: `${KIND_WORDS[kind]}: ${listed}`,
      file: shown,
      absolutePath,
      path: at,
      range,
      offset: 0,
      length: 0,
      hint: removal
        ? "a deny no longer narrows what the windows may reach: put it back, or say in the pull request why it goes; a reviewer approves it (caplint diff --base shows all of it)"
        : "if this access is intended, say why in the pull request; a reviewer approves it (caplint diff --base shows all of it)",
      data: { kind, grants: what },
    });
  }
  return diagnostics.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start.line - b.range.start.line,
  );
}

/** Where the old side denied what the new side no longer denies: "capability › chain (file:line)". */
function deniedBefore(source: EntryProvenance, before: SourceLines): string {
  return `${source.capability} › ${source.chain.join(" › ")} (${source.file}:${before.line(source.file, source.path)})`;
}

/**
 * The best place on the new side for a deny it no longer has: the same permission entry when its file
 * still holds one with the same identifier there (the entry lost its `deny`), else that capability's
 * `permissions` list in the same file (the entry is gone), else, the file gone too, the app's first
 * capability file. Undefined for a new side without capability files: nothing to annotate.
 */
function removalPlace(
  source: EntryProvenance,
  newFile: string,
  before: SourceLines,
  after: SourceLines,
): { file: string; path: JsonPath } | undefined {
  if (after.has(newFile)) {
    const identifier = (value: unknown) =>
      typeof value === "string"
        ? value
        : (value as { identifier?: unknown } | undefined)?.identifier;
    const same = identifier(after.valueAt(newFile, source.path));
    if (same !== undefined && same === identifier(before.valueAt(source.file, source.path)))
      return { file: newFile, path: source.path };
    const list = source.path.slice(0, -1);
    return { file: newFile, path: after.valueAt(newFile, list) === undefined ? [] : list };
  }
  return after.firstCapabilityFile === undefined
    ? undefined
    : { file: after.firstCapabilityFile, path: [] };
}
