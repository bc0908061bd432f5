import type { Origin, ResolvedCommand, ScopeLists } from "../engine/index.js";
import type { CallExplanation } from "../queries/explain.js";
import { describePlatforms, platformNote, type PlatformMerge } from "../queries/platforms.js";
import {
  contextLabel,
  originDisplay,
  provenanceJson,
  type SourceLines,
} from "../queries/project-model.js";
import { NO_PAINT, textLines, type Paint } from "../../core/terminal-text.js";
import { callJson, chain, renderCall, verdictJson } from "./call.js";
import { parseCommandName } from "../engine/command-name.js";
import { plural } from "../../core/wording.js";
import type { ManifestUnionNote } from "../queries/manifest-union.js";
import { manifestUnionLines } from "./manifest-union.js";

/** A command the window can call on some of the asked platforms, merged across them. */
export interface MergedAllowed {
  command: string;
  platforms: string[];
  grantedBy: PlatformMerge<ResolvedCommand>;
  scope: ScopeLists;
  globalScope?: ScopeLists;
}

export interface MergedDenied {
  command: string;
  platforms: string[];
  deniedBy: PlatformMerge<ResolvedCommand>;
  overridden: PlatformMerge<ResolvedCommand>;
}

/** What `caplint access` answers, ready to print: every platform asked, merged. */
export interface AccessAnswer {
  window: string;
  webview: string;
  origin: Origin;
  asked: string[];
  capabilities: Array<{ item: string; platforms: string[] }>;
  allowed: MergedAllowed[];
  denied: MergedDenied[];
  lines: SourceLines;
  /** Identifiers in this answer whose committed manifest and built-in catalog disagree: the answer rests on their union. */
  manifestUnion: ManifestUnionNote[];
  /** The commands the window's frontend calls, when the frontend was scanned and the window loads local pages (JSON marks each allowed command). */
  frontendCalls?: ReadonlySet<string>;
  /** For a remote origin: why it may call the app's own commands unchecked (uncheckedRemoteAppCommands), when it may. */
  uncheckedAppCommands?: string;
  /** The framework as this app's answers name it ("Tauri", or the spec's "the host"). */
  framework: string;
}

/** `access --command`: one call, answered per platform group. */
export interface CallAnswer {
  window: string;
  webview: string;
  origin: Origin;
  asked: string[];
  capabilities: string[];
  call: CallExplanation;
  lines: SourceLines;
}

function header({
  window,
  webview,
  origin,
  asked,
}: {
  window: string;
  webview: string;
  origin: Origin;
  asked: string[];
}): string {
  const where =
    asked.length === 1 ? `platform ${asked[0]}` : `on ${describePlatforms(asked, asked)}`;
  return `window "${window}", webview "${webview}", origin ${originDisplay(origin)}, ${where}`;
}

function originText(origin: Origin): string {
  return origin.kind === "local" ? "local" : origin.url;
}

/** The question an answer is about, as both JSON answers start. */
function questionJson({
  window,
  webview,
  origin,
  asked,
}: Pick<AccessAnswer, "window" | "webview" | "origin" | "asked">) {
  return {
    window,
    webview,
    origin: originText(origin),
    ...(asked.length === 1 ? { platform: asked[0] } : {}),
    platforms: asked,
  };
}

export function renderAccessJson(answer: AccessAnswer): string {
  const { capabilities, allowed, denied, lines } = answer;
  const entries = (merge: PlatformMerge<ResolvedCommand>) =>
    merge.values().map(({ item, platforms }) => ({ ...provenanceJson(item, lines), platforms }));
  return (
    JSON.stringify(
      {
        ...questionJson(answer),
        capabilities: capabilities.map((c) => c.item),
        allowed: allowed.map((a) => ({
          command: a.command,
          platforms: a.platforms,
          grantedBy: entries(a.grantedBy),
          scopes: { allow: a.scope.allow, deny: a.scope.deny },
          ...(a.globalScope ? { globalScope: a.globalScope } : {}),
          ...(answer.frontendCalls ? { usedByFrontend: answer.frontendCalls.has(a.command) } : {}),
        })),
        denied: denied.map((d) => ({
          command: d.command,
          platforms: d.platforms,
          deniedBy: entries(d.deniedBy),
          overriddenGrants: entries(d.overridden),
        })),
        ...(answer.manifestUnion.length ? { manifestUnion: answer.manifestUnion } : {}),
        ...(answer.uncheckedAppCommands
          ? { uncheckedAppCommands: answer.uncheckedAppCommands }
          : {}),
      },
      null,
      2,
    ) + "\n"
  );
}

/** With colour: "allowed" green, the denies red, plugins bold, file positions and platform notes dim. */
export function renderAccessText(answer: AccessAnswer, paint: Paint = NO_PAINT): string {
  const { asked, capabilities, allowed, denied, lines } = answer;
  const onlyOn = (platforms: readonly string[]) => paint.dim(platformNote(platforms, asked));
  const out: string[] = [header(answer)];
  out.push(
    `capabilities: ${capabilities.length ? capabilities.map((c) => `${c.item}${onlyOn(c.platforms)}`).join(", ") : "none match"}`,
  );
  out.push("");
  out.push(`${paint.ok("allowed")}: ${plural(allowed.length, "command")}`);
  // One group per plugin (app commands once, whatever their names sort next to), each with the
  // global scope the host hands every command of the plugin: that is where a window's `**` lives.
  const byPlugin = new Map<string, MergedAllowed[]>();
  for (const a of allowed)
    byPlugin.set(pluginOf(a.command), [...(byPlugin.get(pluginOf(a.command)) ?? []), a]);
  for (const [plugin, commands] of byPlugin) {
    out.push(`  ${paint.bold(plugin)}`);
    const global = commands.find((c) => c.globalScope)?.globalScope;
    if (global)
      out.push(
        `    global scope (${answer.framework} hands it to every window): ${scopeText(global)}`,
      );
    for (const a of commands) {
      // A capability is listed once, with every URL pattern through which it grants the command.
      const byCapability = new Map<string, ResolvedCommand[]>();
      for (const { item } of a.grantedBy.values()) {
        const key = `${item.provenance.capability}\u0000${item.provenance.chain.join(">")}`;
        byCapability.set(key, [...(byCapability.get(key) ?? []), item]);
      }
      const [first, ...others] = [...byCapability.values()];
      const entry = first![0]!;
      const contexts = [...new Set(first!.map(contextLabel))].join(", ");
      const more = others.length ? ` (+${others.length} more)` : "";
      const scoped =
        a.scope.allow.length || a.scope.deny.length
          ? `  [command scope: ${scopeText(a.scope)}]`
          : "";
      out.push(
        `    ${a.command}  ← capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")} [${contexts}]${more}${scoped}  ${paint.dim(`(${lines.where(entry)})`)}${onlyOn(a.platforms)}`,
      );
    }
  }
  if (denied.length) {
    out.push("");
    out.push(
      `${paint.error("denied everywhere")} (a deny in any active capability wins for every window and origin): ${denied.length}`,
    );
    for (const d of denied) {
      const by = d.deniedBy.values()[0]!.item;
      out.push(
        `    ${d.command}  ${paint.error("✖")} ${chain(by)}${d.overridden.values().length ? ", although granted here" : ""}  ${paint.dim(`(${lines.where(by)})`)}${onlyOn(d.platforms)}`,
      );
    }
  }
  if (answer.uncheckedAppCommands)
    out.push(
      "",
      `${paint.error("exposed:")} also callable, not checked: ${answer.uncheckedAppCommands}`,
    );
  if (answer.manifestUnion.length) out.push("", ...manifestUnionLines(answer.manifestUnion, paint));
  return textLines(out);
}

export function renderCallJson(answer: CallAnswer): string {
  const { capabilities, call, lines } = answer;
  // The verdict that decides the exit code, with the platforms it holds on: a refusal wins over an
  // unchecked app command, which wins over "allowed"; `call.verdicts` has every platform group.
  const refused = (v: (typeof call.verdicts)[number]) =>
    v.explanation.verdict !== "allowed" && v.explanation.verdict !== "unchecked";
  const deciding =
    call.verdicts.find(refused) ??
    call.verdicts.find((v) => v.explanation.verdict === "unchecked") ??
    call.verdicts[0]!;
  const e = deciding.explanation;
  return (
    JSON.stringify(
      {
        ...questionJson(answer),
        capabilities,
        allowed: !call.verdicts.some(refused),
        explanation: { command: e.command, platforms: deciding.platforms, ...verdictJson(e) },
        call: callJson(call, lines),
      },
      null,
      2,
    ) + "\n"
  );
}

export function renderCallText(answer: CallAnswer, paint: Paint = NO_PAINT): string {
  const { capabilities, call, asked, lines } = answer;
  return textLines([
    header(answer),
    `capabilities: ${capabilities.length ? capabilities.join(", ") : "none match"}`,
    ...renderCall(call, asked, lines, paint),
  ]);
}

const SCOPE_SHOWN = 3;

function scopeText(scope: ScopeLists): string {
  const list = (values: readonly unknown[]) =>
    values.length <= SCOPE_SHOWN
      ? values.map((v) => JSON.stringify(v)).join(", ")
      : `${values
          .slice(0, SCOPE_SHOWN)
          .map((v) => JSON.stringify(v))
          .join(", ")} and ${values.length - SCOPE_SHOWN} more`;
  return (
    [
      scope.allow.length ? `allow ${list(scope.allow)}` : "",
      scope.deny.length ? `deny ${list(scope.deny)}` : "",
    ]
      .filter(Boolean)
      .join("; ") || "empty"
  );
}

function pluginOf(command: string): string {
  return parseCommandName(command).plugin ?? "app commands";
}
