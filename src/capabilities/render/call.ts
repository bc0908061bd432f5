import type { ResolvedCommand } from "../engine/index.js";
import type { CallExplanation } from "../queries/explain.js";
import { describePlatforms } from "../queries/platforms.js";
import { contextLabel, provenanceJson, type SourceLines } from "../queries/project-model.js";
import { quoteList, wordList } from "../../core/did-you-mean.js";
import { NO_PAINT, type Paint } from "../../core/terminal-text.js";
import { blockValue, fileText, syntaxOf } from "../../core/source/syntax.js";
import { nearMissText } from "./near-miss.js";
import { REMOTE_APP_COMMANDS_CHECKED_SINCE } from "../catalog/versions.js";

const LISTED_PERMISSIONS = 8;

/** The runtime's message lists every permission enabling the command; fs has dozens, so the text form shows a few. */
export function shortenPermissionList(message: string, permissions: readonly string[]): string {
  if (permissions.length <= LISTED_PERMISSIONS) return message;
  const full = permissions.join(", ");
  // The command's own `allow-<command>` permission is the usual answer: it goes first.
  const direct = (p: string) => /:allow-[^:]+$/.test(p) && !/-(read|write)(-recursive)?$/.test(p);
  const ordered = [...permissions.filter(direct), ...permissions.filter((p) => !direct(p))];
  const short = `${ordered.slice(0, LISTED_PERMISSIONS).join(", ")} and ${permissions.length - LISTED_PERMISSIONS} more (--format json lists all)`;
  return message.replace(full, short);
}

export function chain(entry: ResolvedCommand): string {
  return `capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")} [${contextLabel(entry)}]`;
}

/**
 * The verdict per platform group, then (when refused somewhere) the smallest grant that allows the call.
 * With colour: the verdict word green (allowed), red (refused) or yellow (not checked), notes
 * yellow, the host's own explanation and file positions dim.
 */
export function renderCall(
  call: CallExplanation,
  asked: readonly string[],
  lines: SourceLines,
  paint: Paint = NO_PAINT,
): string[] {
  const out: string[] = [];
  const note = paint.warning("note:");
  if (!call.known && call.verdicts.every((v) => v.explanation.verdict !== "allowed")) {
    const close = call.suggestions;
    // Without a suggestion the command's plugin is known and lacks it: no entry could allow it.
    const nothingToAdd = call.suggestion
      ? ""
      : ", and no permission can allow a command its plugin does not have";
    if (close.length)
      out.push(
        `${note} no known plugin has the command "${call.command}"${nothingToAdd}; did you mean ${quoteList(close)}?`,
      );
    else if (nothingToAdd)
      out.push(`${note} no known plugin has the command "${call.command}"${nothingToAdd}`);
  }
  if (!call.windowKnown) {
    out.push(
      `${note} no capability and no window in tauri.conf.json has the label "${call.window}"${call.windowSuggestions.length ? `; did you mean ${quoteList(call.windowSuggestions)}?` : " (a window created in code?)"}`,
    );
  }
  for (const { platforms, explanation: e } of call.verdicts) {
    out.push("");
    const on =
      call.verdicts.length > 1 || asked.length === 1
        ? ` on ${describePlatforms(platforms, asked)}`
        : "";
    const heading =
      e.verdict === "allowed"
        ? paint.ok("ALLOWED")
        : e.verdict === "unchecked"
          ? paint.warning("NOT CHECKED")
          : paint.error("NOT ALLOWED");
    out.push(`${paint.bold(heading)}: ${e.command} (${e.verdict})${on}`);
    for (const line of shortenPermissionList(e.message, e.associatedPermissions).split("\n"))
      if (line) out.push(`  ${paint.dim(line)}`);
    if (!e.enforced)
      out.push(
        call.origin.kind === "local"
          ? `  ${note} ${call.framework} does not check this app command from local pages because the app defines no permissions`
          : `  ${paint.error("exposed:")} ${call.framework} does not check this app command even from remote pages at the release the app builds with: define app permissions (src-tauri/permissions/) or build with release ${REMOTE_APP_COMMANDS_CHECKED_SINCE} or later, which refuses them`,
      );
    for (const entry of e.verdict === "denied"
      ? e.deniedBy
      : e.verdict === "allowed"
        ? e.grantedBy
        : e.allowEntries) {
      out.push(
        `  ${e.verdict === "denied" ? "denied by" : e.verdict === "allowed" ? "granted by" : "granted elsewhere by"} ${chain(entry)}  ${paint.dim(`(${lines.where(entry)})`)}`,
      );
    }
  }
  const s = call.suggestion;
  // An app command the host does not check needs no grant: nothing to add.
  if (
    s &&
    !call.verdicts.every(
      (v) => v.explanation.verdict === "unchecked" || v.explanation.verdict === "allowed",
    )
  ) {
    out.push("");
    out.push(paint.bold("to allow it:"));
    const from = call.origin.kind === "local" ? "local pages" : call.origin.url;
    for (const miss of s.nearMissWindows)
      out.push(`  ${note} ${nearMissText(miss, call.window, call.command)}`);
    for (const deny of s.removeDenies)
      out.push(
        `  remove the deny ${deny.provenance.chain[0]} from capability ${deny.provenance.capability}  ${paint.dim(`(${lines.where(deny)})`)}`,
      );
    if (s.addTo) {
      out.push(
        `  add this entry to "permissions" of capability ${s.addTo.capability}  (${s.addTo.file}:${s.addTo.line}), which already covers window "${call.window}" from ${from}:`,
      );
      for (const line of blockValue(s.entry, syntaxOf(s.addTo.file)).split("\n"))
        out.push(`    ${line}`);
      out.push(`  or a capability of its own (${s.newCapabilityFile}):`);
    } else if (s.addToEach) {
      out.push(
        `  add this entry to "permissions" of each of these capabilities, which together cover window "${call.window}" from ${from} on every platform it is refused on:`,
      );
      for (const part of s.addToEach) {
        out.push(
          `    capability ${part.capability}  (${part.file}:${part.line}), on ${wordList(part.platforms)}:`,
        );
        for (const line of blockValue(s.entry, syntaxOf(part.file)).split("\n"))
          out.push(`      ${line}`);
      }
      out.push(`  or a capability of its own (${s.newCapabilityFile}):`);
    } else {
      // One that covers it on some of those platforms only is named: "no capability covers" next to a
      // file that lists the window reads as a contradiction.
      const some = s.partlyCoveredBy.length
        ? ` on every platform it is refused on (only on some: ${s.partlyCoveredBy
            .map((c) => `${c.capability} on ${wordList(c.platforms)}`)
            .join(", ")})`
        : "";
      out.push(
        `  no capability covers window "${call.window}" from ${from}${some}; a new capability file (${s.newCapabilityFile}):`,
      );
    }
    for (const line of fileText(s.newCapability, syntaxOf(s.newCapabilityFile))
      .trimEnd()
      .split("\n"))
      out.push(`    ${line}`);
    out.push(`  ${s.reason}`);
    for (const text of s.notes) out.push(`  ${note} ${text}`);
  }
  return out;
}

/** The verdict fields of one explanation, as both JSON answers (access --command, explain) write them. */
export function verdictJson(e: CallExplanation["verdicts"][number]["explanation"]) {
  return {
    verdict: e.verdict,
    enforced: e.enforced,
    message: e.message,
    allowedOn: e.allowedOn,
    referencedBy: e.referencedBy,
    associatedPermissions: e.associatedPermissions,
  };
}

export function callJson(call: CallExplanation, lines: SourceLines) {
  const s = call.suggestion;
  return {
    command: call.command,
    known: call.known,
    window: call.window,
    webview: call.webview,
    origin: call.origin.kind === "local" ? "local" : call.origin.url,
    verdicts: call.verdicts.map(({ platforms, explanation: e }) => ({
      platforms,
      ...verdictJson(e),
      grantedBy: e.grantedBy.map((entry) => provenanceJson(entry, lines)),
      deniedBy: e.deniedBy.map((entry) => provenanceJson(entry, lines)),
    })),
    ...(call.windowKnown
      ? {}
      : { unknownWindow: { label: call.window, didYouMean: call.windowSuggestions } }),
    ...(call.suggestions.length ? { didYouMean: call.suggestions } : {}),
    ...(s
      ? {
          suggestion: {
            entry: s.entry,
            reason: s.reason,
            ...(s.addTo ? { addTo: s.addTo } : {}),
            newCapability: s.newCapability,
            // The same, as text to paste in the file's own language (a TOML capability gets TOML).
            text: {
              ...(s.addTo ? { entry: blockValue(s.entry, syntaxOf(s.addTo.file)) } : {}),
              newCapabilityFile: s.newCapabilityFile,
              newCapability: fileText(s.newCapability, syntaxOf(s.newCapabilityFile)),
            },
            ...(s.partlyCoveredBy.length ? { partlyCoveredBy: s.partlyCoveredBy } : {}),
            ...(s.addToEach
              ? {
                  addToEach: s.addToEach.map((part) => ({
                    ...part,
                    text: blockValue(s.entry, syntaxOf(part.file)),
                  })),
                }
              : {}),
            removeDenies: s.removeDenies.map((entry) => provenanceJson(entry, lines)),
            nearMissWindows: s.nearMissWindows,
            notes: s.notes,
          },
        }
      : {}),
  };
}
