import type { CheckedEntry, ScopeExplanation } from "../queries/scope-refusal.js";
import { describePlatforms } from "../queries/platforms.js";
import { originDisplay } from "../queries/project-model.js";
import { NO_PAINT, type Paint } from "../../core/terminal-text.js";
import { blockValue, inlineValue, syntaxOf } from "../../core/source/syntax.js";
import { shortenPermissionList } from "./call.js";
import { nearMissText } from "./near-miss.js";

const PLUGIN_NAMES: Record<ScopeExplanation["refusal"]["plugin"], string> = {
  fs: "the fs plugin",
  http: "the http plugin",
  shell: "the shell plugin",
  opener: "the opener plugin",
  asset: "the asset protocol",
};

/** The scope refusal's answer as text: what was checked per platform, then the entry that allows it. */
export function renderScopeRefusal(
  answer: ScopeExplanation,
  asked: readonly string[],
  notes: readonly string[],
  paint: Paint = NO_PAINT,
): string[] {
  const { refusal } = answer;
  const note = paint.warning("note:");
  const commands = [...new Set(answer.verdicts.flatMap((v) => (v.command ? [v.command] : [])))];
  const out = [
    `${PLUGIN_NAMES[refusal.plugin]} refused the ${refusal.subjectKind} ${JSON.stringify(refusal.subject)}${refusal.with ? ` with ${JSON.stringify(refusal.with)}` : ""}${commands.length ? ` (${commands.join(", ")})` : ""} for window "${answer.window}", webview "${answer.webview}", origin ${originDisplay(answer.origin)} ${paint.dim(refusal.plugin === "asset" ? "(the asset protocol's scope in the app config)" : "(its scope, read after the ACL allowed the command)")}`,
    `caplint resolves this app for ${describePlatforms(asked, asked)}:`,
    ...[...notes, ...answer.notes].map((text) => `${note} ${text}`),
  ];
  if (answer.verdicts.length && answer.verdicts.every((v) => v.scope === "not-reached")) {
    out.push(
      `${note} the ACL refuses ${commands.join(", ") || "the command"} to this window on every platform asked, so the plugin never read its scope (is --window right?); the ACL's answer:`,
    );
    return out;
  }
  for (const verdict of answer.verdicts) {
    out.push("");
    const on =
      answer.verdicts.length > 1 || asked.length === 1
        ? ` on ${describePlatforms(verdict.platforms, asked)}`
        : "";
    switch (verdict.scope) {
      case "not-reached":
        out.push(
          `${paint.bold(paint.error("NOT ALLOWED BY THE ACL"))}${on}: the plugin never reads its scope for this window`,
        );
        for (const line of shortenPermissionList(
          verdict.acl?.message ?? "",
          verdict.acl?.associatedPermissions ?? [],
        ).split("\n"))
          if (line) out.push(`  ${paint.dim(line)}`);
        continue;
      case "allowed":
        out.push(`${paint.bold(paint.ok("SCOPE ALLOWS IT"))}${on}`);
        break;
      case "denied":
        out.push(`${paint.bold(paint.error("DENIED BY THE SCOPE"))}${on}`);
        break;
      case "unknown":
        out.push(
          `${paint.bold(paint.warning("NOT DECIDED"))}${on}: no entry matches, and caplint cannot place some`,
        );
        break;
      case "refused":
        out.push(`${paint.bold(paint.error("NOT IN THE SCOPE"))}${on}: no allow entry matches`);
        break;
    }
    if (verdict.checked.length === 0)
      out.push(
        `  the scope has no entry${refusal.plugin === "asset" ? " (app.security.assetProtocol.scope)" : " for this window"}: the plugin refuses every ${refusal.subjectKind}`,
      );
    for (const entry of verdict.checked) out.push(`  ${checkedLine(entry, paint)}`);
  }
  if (answer.verdicts.every((v) => v.scope === "allowed")) {
    out.push("");
    out.push(
      `caplint finds the scope allows it: the message comes from a build with other capabilities (rebuild the app), another platform or another window${refusal.subjectKind === "path" ? ", or the path resolves elsewhere (a symbolic link: the plugin checks the link's target)" : ""}`,
    );
  }
  const s = answer.suggestion;
  if (s) {
    out.push("");
    out.push(paint.bold("to allow it:"));
    for (const miss of answer.nearMissWindows)
      out.push(`  ${note} ${nearMissText(miss, answer.window, commands[0])}`);
    const syntax = syntaxOf(s.addTo?.file ?? "capability.json");
    if (s.entry === null)
      out.push(
        `  change "${s.addTo!.field}" of the entry in capability ${s.addTo!.capability}  (${s.addTo!.file}:${s.addTo!.line})`,
      );
    else {
      if (s.addTo)
        out.push(
          `  add this ${s.addTo.field === "permissions" ? "entry" : "value"} to "${s.addTo.field}"${s.addTo.capability ? ` of capability ${s.addTo.capability}` : ""}  (${s.addTo.file}:${s.addTo.line}):`,
        );
      else out.push(`  a permission entry for a capability that covers window "${answer.window}":`);
      for (const line of blockValue(s.entry, syntax).split("\n")) out.push(`    ${line}`);
    }
    out.push(`  ${s.reason}`);
    for (const text of s.notes) out.push(`  ${note} ${text}`);
  }
  return out;
}

function checkedLine(entry: CheckedEntry, paint: Paint): string {
  const shown =
    typeof entry.value === "string"
      ? JSON.stringify(entry.value)
      : inlineValue(entry.value, syntaxOf(entry.file));
  const from =
    entry.scopeOf === "config"
      ? "app config"
      : `${entry.scopeOf === "global" ? "global scope (every window) of" : "scope of"} capability ${entry.capability} › ${entry.chain!.join(" › ")}`;
  const verdict =
    entry.matches === true
      ? paint.ok("matches")
      : entry.matches === false
        ? "no match"
        : paint.warning("not decided");
  return `${entry.list} ${shown}  ${paint.dim(`${from} (${entry.file}:${entry.line})`)}: ${verdict}${entry.why ? `: ${entry.why}` : ""}`;
}

export function scopeRefusalJson(answer: ScopeExplanation) {
  const s = answer.suggestion;
  return {
    scopeRefusal: answer.refusal,
    window: answer.window,
    webview: answer.webview,
    origin: answer.origin.kind === "local" ? "local" : answer.origin.url,
    verdicts: answer.verdicts.map((v) => ({
      platforms: v.platforms,
      ...(v.command ? { command: v.command } : {}),
      ...(v.acl ? { acl: v.acl.verdict } : {}),
      scope: v.scope,
      checked: v.checked.map((entry) => ({
        list: entry.list,
        value: entry.value,
        scopeOf: entry.scopeOf,
        ...(entry.capability !== undefined
          ? { capability: entry.capability, permission: entry.chain?.[0] ?? "", chain: entry.chain }
          : {}),
        file: entry.file,
        line: entry.line,
        matches: entry.matches ?? null,
        ...(entry.why ? { why: entry.why } : {}),
      })),
    })),
    nearMissWindows: answer.nearMissWindows,
    notes: answer.notes,
    ...(s
      ? {
          suggestion: {
            ...s,
            ...(s.entry === null
              ? {}
              : { text: blockValue(s.entry, syntaxOf(s.addTo?.file ?? "capability.json")) }),
          },
        }
      : {}),
  };
}
