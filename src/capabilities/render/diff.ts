import type { AccessDiff, Grant } from "../queries/diff.js";
import { provenanceJson, type SourceLines } from "../queries/project-model.js";
import { textLines } from "../../core/terminal-text.js";

/** What `caplint diff` answers, ready to print; each side's grants point into that side's files. */
export interface DiffAnswer {
  platform: string;
  diff: AccessDiff;
  before: SourceLines;
  after: SourceLines;
}

export function renderDiffJson({ platform, diff, before, after }: DiffAnswer): string {
  const json = (grant: Grant, lines: SourceLines) => ({
    command: grant.command,
    context: grant.context,
    [grant.target === "window" ? "window" : "webview"]: grant.pattern,
    grantedBy: grant.entries.map((e) => provenanceJson(e, lines)),
  });
  return JSON.stringify({ platform, added: diff.added.map((g) => json(g, after)), removed: diff.removed.map((g) => json(g, before)) }, null, 2) + "\n";
}

export function renderDiffText({ diff, before, after }: DiffAnswer): string {
  const out: string[] = [];
  // Grouped by who gains or loses the access, so a broadened pattern reads as one change.
  const section = (title: string, grants: Grant[], lines: SourceLines) => {
    const groups = new Map<string, Grant[]>();
    for (const grant of grants) {
      const key = `${grant.target} "${grant.pattern}" from ${grant.context}`;
      groups.set(key, [...(groups.get(key) ?? []), grant]);
    }
    out.push(`${title} (${grants.length} command grant${grants.length === 1 ? "" : "s"}):`);
    for (const [who, list] of groups) {
      out.push(`  ${who}:`);
      for (const grant of list) {
        const entry = grant.entries[0]!;
        out.push(`    ${grant.command}  ← ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`);
      }
    }
  };
  if (diff.added.length) section("NEW ACCESS", diff.added, after);
  else out.push("no new access");
  if (diff.removed.length) section("removed access", diff.removed, before);
  return textLines(out);
}
