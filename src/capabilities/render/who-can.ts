import type { ResolvedCommand } from "../engine/index.js";
import type { CommandLookup } from "../queries/command-names.js";
import { contextLabel, provenanceJson, type SourceLines } from "../queries/project-model.js";
import { describePlatforms, platformNote } from "../queries/platforms.js";
import { NO_PAINT, textLines, type Paint } from "../../core/terminal-text.js";

type Entries = Array<{ item: ResolvedCommand; platforms: string[] }>;

/** What `caplint who-can` answers, ready to print: entries merged across platforms. */
export interface WhoCanAnswer {
  lookup: Extract<CommandLookup, { ok: true }>;
  asked: string[];
  allowed: Entries;
  denied: Entries;
  /** Platforms on which a deny blocks the command everywhere. */
  deniedOn: string[];
  lines: SourceLines;
}

export function renderWhoCanJson({ lookup, asked, allowed, denied, deniedOn, lines }: WhoCanAnswer): string {
  const withPlatforms = ({ item, platforms }: Entries[number]) => ({ ...provenanceJson(item, lines), platforms });
  return (
    JSON.stringify(
      {
        command: lookup.command,
        ...(asked.length === 1 ? { platform: asked[0] } : {}),
        platforms: asked,
        deniedEverywhere: deniedOn.length > 0,
        deniedOn,
        allowedBy: allowed.map(withPlatforms),
        deniedBy: denied.map(withPlatforms),
      },
      null,
      2,
    ) + "\n"
  );
}

/** With colour: "allowed for" green, "DENIED everywhere" red, the granting chains and explanations dim. */
export function renderWhoCanText({ lookup, asked, allowed, denied, deniedOn, lines }: WhoCanAnswer, paint: Paint = NO_PAINT): string {
  const out = [`${lookup.command} on ${describePlatforms(asked, asked)}`];
  if (allowed.length === 0 && denied.length === 0) {
    out.push("  no active capability grants or denies it");
  }
  for (const { item: entry, platforms } of allowed) {
    const targets = [entry.windows.length ? `windows: ${entry.windows.join(", ")}` : "", entry.webviews.length ? `webviews: ${entry.webviews.join(", ")}` : ""]
      .filter(Boolean)
      .join("; ");
    out.push(
      `  ${paint.ok("allowed")} for [${targets || "nothing: no windows or webviews"}] from ${contextLabel(entry)}${paint.dim(platformNote(platforms, asked))}`,
    );
    out.push(paint.dim(`    by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`));
  }
  for (const { item: entry, platforms } of denied) {
    out.push(
      `  ${paint.error("DENIED everywhere")} by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  ${paint.dim(`(${lines.where(entry)})`)}${paint.dim(platformNote(platforms, asked))}`,
    );
  }
  if (deniedOn.length && allowed.length) out.push(paint.dim("  a deny in any active capability wins over every allow, for every window and origin"));
  return textLines(out);
}
