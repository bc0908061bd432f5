import type { ResolvedCommand } from "../engine/index.js";
import type { CommandLookup } from "../queries/command-names.js";
import { contextLabel, provenanceJson, type SourceLines } from "../queries/project-model.js";
import { labelMatches } from "../engine/match/glob.js";
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
  /** The app's windows (knownWindowLabels): each grant says which of them its patterns reach. */
  windows: readonly string[];
  /** An app command of an app without permissions: the host lets every window call it from local pages. */
  uncheckedFromLocalPages: boolean;
  /** Why remote pages may call it unchecked too (uncheckedRemoteAppCommands), when they may. */
  uncheckedFromRemotePages?: string;
  /** The framework as this app's answers name it ("Tauri", or the spec's "the host"). */
  framework: string;
}

const unchecked = (framework: string) =>
  `not checked by ${framework} from local pages: the app defines no permissions, so any window may call its own command (from a remote origin it is checked)`;

/** The app's windows a grant's patterns reach: a window's own webview carries its label, so webview patterns reach it too. */
function reachedWindows(entry: ResolvedCommand, windows: readonly string[]): string[] {
  const patterns = [...entry.windows, ...entry.webviews];
  return windows.filter((window) => patterns.some((pattern) => labelMatches(pattern, window)));
}

export function renderWhoCanJson({
  lookup,
  asked,
  allowed,
  denied,
  deniedOn,
  lines,
  windows,
  uncheckedFromLocalPages,
  uncheckedFromRemotePages,
}: WhoCanAnswer): string {
  const withPlatforms = ({ item, platforms }: Entries[number]) => ({
    ...provenanceJson(item, lines),
    platforms,
  });
  const withReach = (entry: Entries[number]) => ({
    ...withPlatforms(entry),
    reaches: reachedWindows(entry.item, windows),
  });
  return (
    JSON.stringify(
      {
        command: lookup.command,
        ...(uncheckedFromLocalPages ? { checkedFromLocalPages: false } : {}),
        ...(uncheckedFromRemotePages
          ? { checkedFromRemotePages: false, uncheckedFromRemotePages }
          : {}),
        ...(asked.length === 1 ? { platform: asked[0] } : {}),
        platforms: asked,
        deniedEverywhere: deniedOn.length > 0,
        deniedOn,
        allowedBy: allowed.map(withReach),
        deniedBy: denied.map(withPlatforms),
      },
      null,
      2,
    ) + "\n"
  );
}

/** With colour: "allowed for" green, "DENIED everywhere" red, the granting chains and explanations dim. */
export function renderWhoCanText(
  {
    lookup,
    asked,
    allowed,
    denied,
    deniedOn,
    lines,
    windows,
    uncheckedFromLocalPages,
    uncheckedFromRemotePages,
    framework,
  }: WhoCanAnswer,
  paint: Paint = NO_PAINT,
): string {
  const out = [`${lookup.command} on ${describePlatforms(asked, asked)}`];
  if (uncheckedFromRemotePages)
    out.push(
      `  ${paint.error(`not checked by ${framework} from any page: ${uncheckedFromRemotePages}`)}`,
    );
  else if (uncheckedFromLocalPages) out.push(`  ${paint.warning(unchecked(framework))}`);
  if (allowed.length === 0 && denied.length === 0) {
    out.push("  no active capability grants or denies it");
  }
  for (const { item: entry, platforms } of allowed) {
    const targets = [
      entry.windows.length ? `windows: ${entry.windows.join(", ")}` : "",
      entry.webviews.length ? `webviews: ${entry.webviews.join(", ")}` : "",
    ]
      .filter(Boolean)
      .join("; ");
    const reached = reachedWindows(entry, windows);
    out.push(
      `  ${paint.ok("allowed")} for [${targets || "nothing: no windows or webviews"}] from ${contextLabel(entry)}${paint.dim(platformNote(platforms, asked))}`,
    );
    // Said only where the patterns alone do not say it: a glob, or a label that is no window of the app.
    const plain = [...entry.windows, ...entry.webviews].every(
      (pattern) => !/[*?[\]]/.test(pattern) && windows.includes(pattern),
    );
    if (windows.length && !plain)
      out.push(`    the app's windows it reaches: ${reached.length ? reached.join(", ") : "none"}`);
    out.push(
      paint.dim(
        `    by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`,
      ),
    );
  }
  for (const { item: entry, platforms } of denied) {
    out.push(
      `  ${paint.error("DENIED everywhere")} by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  ${paint.dim(`(${lines.where(entry)})`)}${paint.dim(platformNote(platforms, asked))}`,
    );
  }
  if (deniedOn.length && allowed.length)
    out.push(
      paint.dim(
        "  a deny in any active capability wins over every allow, for every window and origin",
      ),
    );
  return textLines(out);
}
