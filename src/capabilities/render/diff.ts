import path from "node:path";
import type { AccessKind, PlatformGrant, PlatformScopeChange } from "../queries/diff.js";
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
  /** Scope values newly allowed, or no longer denied, for commands both sides grant. */
  scopes: PlatformScopeChange[];
  before: SourceLines;
  after: SourceLines;
}

export function renderDiffJson({ asked, added, removed, scopes, before, after }: DiffAnswer, failOn: readonly AccessKind[]): string {
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
        widenedScopes: scopes.map(({ item, platforms }) => ({
          command: item.command,
          change: item.change,
          value: item.value,
          platforms: asked.filter((p) => platforms.includes(p)),
          [item.change === "allowed" ? "allowedBy" : "deniedBy"]: provenanceJson(item.entry, item.change === "allowed" ? after : before),
        })),
      },
      null,
      2,
    ) + "\n"
  );
}

/** With colour: NEW ACCESS red (the gate fails), "no new access" green, file positions and platform notes dim. */
export function renderDiffText({ asked, added, removed, scopes, before, after }: DiffAnswer, paint: Paint = NO_PAINT): string {
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
        const kind = kinds?.length ? paint.dim(`  [${kinds.map((k) => KIND_WORDS[k]).join(", ")}]`) : "";
        out.push(
          `    ${grant.command}  ← ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  ${paint.dim(`(${lines.where(entry)})`)}${kind}${paint.dim(platformNote(platforms, asked))}`,
        );
      }
    }
  };
  const on = describePlatforms(asked, asked);
  if (added.length) section(`${paint.bold(paint.error("NEW ACCESS"))} on ${on}`, added, after);
  else out.push(`${paint.ok("no new access")} on ${on}`);
  if (scopes.length) {
    out.push(`${paint.bold(paint.error("WIDER SCOPES"))} (${plural(scopes.length, "scope value")}):`);
    for (const { item, platforms } of scopes) {
      const lines = item.change === "allowed" ? after : before;
      out.push(
        `  ${item.command} ${item.change} ${JSON.stringify(item.value)}  ← ${item.entry.provenance.capability}  ${paint.dim(`(${lines.where(item.entry)})`)}${paint.dim(platformNote(platforms, asked))}`,
      );
    }
  }
  if (removed.length) section(paint.bold("removed access"), removed, before);
  return textLines(out);
}

const KIND_WORDS: Record<AccessKind, string> = { commands: "new command", origins: "new remote origin", scopes: "wider scope" };

/**
 * New access as findings (rule `new-access`) on the lines of the new side that grant it, for the
 * compact, github and SARIF formats: one per permission entry and kind of access, naming its commands.
 * An error when its kind fails the gate (`--fail-on`), else a warning. Files are named relative to the
 * new side's folder, which stands for `cwd` (the work tree) also when that side was read from git.
 */
export function diffDiagnostics({ asked, added, scopes, after }: DiffAnswer, failOn: readonly AccessKind[], cwd: string): Diagnostic[] {
  const byEntry = new Map<string, { file: string; path: JsonPath; kind: AccessKind; what: string[] }>();
  const note = (platforms: readonly string[]) => (platforms.length === asked.length ? "" : ` (${describePlatforms(platforms, asked)})`);
  const add = (file: string, at: JsonPath, kind: AccessKind, what: string) => {
    const key = JSON.stringify([file, at, kind]);
    const known = byEntry.get(key) ?? { file, path: at, kind, what: [] };
    if (!known.what.includes(what)) known.what.push(what);
    byEntry.set(key, known);
  };
  for (const { item: grant, platforms, kinds } of added) {
    const entry = grant.entries[0]!;
    const who = `${grant.command} to ${grant.target} "${grant.pattern}" from ${grant.context}${note(platforms)}`;
    for (const kind of kinds ?? ["scopes"]) add(entry.provenance.file, entry.provenance.path, kind, who);
  }
  for (const { item, platforms } of scopes) {
    if (item.change !== "allowed") continue;
    add(item.entry.provenance.file, item.entry.provenance.path, "scopes", `${item.command} scope ${JSON.stringify(item.value)}${note(platforms)}`);
  }
  const diagnostics: Diagnostic[] = [];
  for (const { file, path: at, kind, what } of byEntry.values()) {
    const range = after.range(file, at) ?? { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } };
    // The work tree's file, not the snapshot's: SARIF and annotations place the finding from it (a
    // `--head` side read from git lives in a temporary folder deleted when the run ends).
    const absolutePath = path.resolve(cwd, file);
    const shown = path.relative(cwd, absolutePath).split(path.sep).join("/");
    const listed = what.length > 3 ? `${what.slice(0, 3).join("; ")}; and ${what.length - 3} more` : what.join("; ");
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
      hint: "if this access is intended, say why in the pull request; a reviewer approves it (caplint diff --base shows all of it)",
      data: { kind, grants: what },
    });
  }
  return diagnostics.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.range.start.line - b.range.start.line));
}
