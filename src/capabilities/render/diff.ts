import type { PlatformGrant } from "../queries/diff.js";
import { provenanceJson, type SourceLines } from "../queries/project-model.js";
import { describePlatforms, platformNote } from "../queries/platforms.js";
import { NO_PAINT, textLines, type Paint } from "../../core/terminal-text.js";
import { plural } from "../../core/wording.js";

/** What `caplint diff` answers, ready to print; each side's grants point into that side's files. */
export interface DiffAnswer {
  /** The platforms compared. */
  asked: string[];
  added: PlatformGrant[];
  removed: PlatformGrant[];
  before: SourceLines;
  after: SourceLines;
}

export function renderDiffJson({ asked, added, removed, before, after }: DiffAnswer): string {
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
        added: added.map((g) => json(g, after)),
        removed: removed.map((g) => json(g, before)),
      },
      null,
      2,
    ) + "\n"
  );
}

/** With colour: NEW ACCESS red (the gate fails), "no new access" green, file positions and platform notes dim. */
export function renderDiffText({ asked, added, removed, before, after }: DiffAnswer, paint: Paint = NO_PAINT): string {
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
      for (const { item: grant, platforms } of list) {
        const entry = grant.entries[0]!;
        out.push(
          `    ${grant.command}  ← ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  ${paint.dim(`(${lines.where(entry)})`)}${paint.dim(platformNote(platforms, asked))}`,
        );
      }
    }
  };
  const on = describePlatforms(asked, asked);
  if (added.length) section(`${paint.bold(paint.error("NEW ACCESS"))} on ${on}`, added, after);
  else out.push(`${paint.ok("no new access")} on ${on}`);
  if (removed.length) section(paint.bold("removed access"), removed, before);
  return textLines(out);
}
