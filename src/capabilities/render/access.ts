import type { AccessResult, CommandExplanation, Origin, ResolvedCommand } from "../engine/index.js";
import { contextLabel, provenanceJson, type SourceLines } from "../queries/project-model.js";
import { textLines } from "../../core/terminal-text.js";

/** What `caplint access` answers, ready to print. */
export interface AccessAnswer {
  result: AccessResult;
  origin: Origin;
  webview: string;
  platform: string;
  lines: SourceLines;
}

export function renderAccessJson({ result, origin, platform, lines }: AccessAnswer): string {
  return JSON.stringify(
    {
      window: result.window,
      webview: result.webview,
      origin: origin.kind === "local" ? "local" : origin.url,
      platform,
      capabilities: result.capabilities,
      allowed: result.allowed.map((a) => ({
        command: a.command,
        grantedBy: a.grantedBy.map((e) => provenanceJson(e, lines)),
        scopes: { allow: a.scope.allow, deny: a.scope.deny },
        ...(a.globalScope ? { globalScope: a.globalScope } : {}),
      })),
      denied: result.denied.map((d) => ({
        command: d.command,
        deniedBy: d.deniedBy.map((e) => provenanceJson(e, lines)),
        overriddenGrants: d.overriddenGrants.map((e) => provenanceJson(e, lines)),
      })),
      ...(result.explanation
        ? {
            explanation: {
              command: result.explanation.command,
              verdict: result.explanation.verdict,
              enforced: result.explanation.enforced,
              message: result.explanation.message,
              allowedOn: result.explanation.allowedOn,
              referencedBy: result.explanation.referencedBy,
              associatedPermissions: result.explanation.associatedPermissions,
            },
          }
        : {}),
    },
    null,
    2,
  ) + "\n";
}

export function renderAccessText({ result, origin, webview, platform, lines }: AccessAnswer): string {
  const out: string[] = [];
  const originText = origin.kind === "local" ? "local" : origin.url;
  out.push(`window "${result.window}", webview "${webview}", origin ${originText}, platform ${platform}`);
  out.push(`capabilities: ${result.capabilities.length ? result.capabilities.join(", ") : "none match"}`);
  if (result.explanation) {
    const e = result.explanation;
    out.push("");
    out.push(`${e.verdict === "allowed" ? "ALLOWED" : e.verdict === "unchecked" ? "NOT CHECKED" : "NOT ALLOWED"}: ${e.command} (${e.verdict})`);
    out.push(...messageLines(e));
    for (const entry of e.verdict === "denied" ? e.deniedBy : e.grantedBy) out.push(`  ${e.verdict === "denied" ? "denied by" : "granted by"} ${chain(entry)}  (${lines.where(entry)})`);
  } else {
    out.push("");
    out.push(`allowed: ${result.allowed.length} command${result.allowed.length === 1 ? "" : "s"}`);
    let plugin = "";
    for (const allowed of result.allowed) {
      const group = pluginOf(allowed.command);
      if (group !== plugin) {
        out.push(`  ${group}`);
        plugin = group;
      }
      const first = allowed.grantedBy[0]!;
      const more = allowed.grantedBy.length > 1 ? ` (+${allowed.grantedBy.length - 1} more)` : "";
      const scoped = allowed.scope.allow.length || allowed.scope.deny.length ? ` [scope: ${allowed.scope.allow.length} allow, ${allowed.scope.deny.length} deny]` : "";
      out.push(`    ${allowed.command}  ← ${chain(first)}${more}${scoped}  (${lines.where(first)})`);
    }
    if (result.denied.length) {
      out.push("");
      out.push(`denied everywhere (a deny in any active capability wins for every window and origin): ${result.denied.length}`);
      for (const denied of result.denied) {
        const by = denied.deniedBy[0]!;
        const requested = denied.overriddenGrants.length ? ", although granted here" : "";
        out.push(`    ${denied.command}  ✖ ${chain(by)}${requested}  (${lines.where(by)})`);
      }
    }
  }
  return textLines(out);
}

const LISTED_PERMISSIONS = 8;

/**
 * The runtime's message as lines. Its paragraphs are rebuilt from the explanation's fields rather than
 * split on the message's line breaks: a capability identifier from a file may hold a line break of its
 * own, which must stay escaped inside its line instead of forging one.
 */
function messageLines(e: CommandExplanation): string[] {
  const headline = e.message.split("\n\n", 1)[0]!;
  const lines = [`  ${shortenPermissionList(headline, e.associatedPermissions)}`];
  if (e.verdict === "not-allowed-here") lines.push("", e.allowedOn);
  if (e.referencedBy) lines.push("", `referenced by: ${e.referencedBy}`);
  return lines;
}

/** The runtime's message lists every permission enabling the command; fs has dozens, so the text form shows a few. */
function shortenPermissionList(message: string, permissions: readonly string[]): string {
  if (permissions.length <= LISTED_PERMISSIONS) return message;
  const full = permissions.join(", ");
  // The command's own `allow-<command>` permission is the usual answer: it goes first.
  const direct = (p: string) => /:allow-[^:]+$/.test(p) && !/-(read|write)(-recursive)?$/.test(p);
  const ordered = [...permissions.filter(direct), ...permissions.filter((p) => !direct(p))];
  const short = `${ordered.slice(0, LISTED_PERMISSIONS).join(", ")} and ${permissions.length - LISTED_PERMISSIONS} more (--format json lists all)`;
  return message.replace(full, short);
}

function chain(entry: ResolvedCommand): string {
  return `capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")} [${contextLabel(entry)}]`;
}

function pluginOf(command: string): string {
  const match = /^plugin:([^|]+)\|/.exec(command);
  return match ? match[1]! : "app commands";
}
