import type { Command } from "commander";
import { resolveAccess, type Origin, type ResolvedCommand, type ScopeLists } from "../../engine/index.js";
import type { Project } from "../../load/project.js";
import { isPlainObject } from "../../model/capability.js";
import { CommandIndex, lookupCommand } from "../../query/command-names.js";
import { explainCall } from "../../query/explain.js";
import { contextLabel, provenanceJson, SourceLines } from "../../query/project-model.js";
import { describePlatforms, entryKey, platformNote, PlatformMerge, type PlatformGroup } from "../../query/platforms.js";
import { quoteList } from "../../util/did-you-mean.js";
import { EXIT_FINDINGS, EXIT_OK } from "../exit-codes.js";
import type { MainOptions } from "../io.js";
import { UsageError } from "../main.js";
import { addQueryOptions, loadGroups, type QueryOptions } from "../query-options.js";
import { callJson, renderCall } from "../render/call.js";
import type { SetExitCode } from "./index.js";
import { textLines } from "../../core/terminal-text.js";

interface AccessOptions extends QueryOptions {
  window: string;
  webview?: string;
  url?: string;
  command?: string;
}

interface MergedCommand {
  command: string;
  platforms: string[];
  grantedBy: PlatformMerge<ResolvedCommand>;
  scope: ScopeLists;
  globalScope?: ScopeLists;
}

export function registerAccess(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("access")
    .description("what a window (or webview) may call from an origin, and why, on every platform unless --platform; with --command, one yes/no answer (exit 0/1)")
    .requiredOption("-w, --window <label>", "window label")
    .option("--webview <label>", "webview label (default: the window's label)")
    .option("-u, --url <url>", "origin of the calling page (default: the app's own local pages)")
    .option("-C, --command <name>", "one command: plugin:fs|read_text_file, fs.read_text_file, read_text_file, plugin:window|close, my_command");
  addQueryOptions(command, ["text", "json"]).action(async (paths: string[], options: AccessOptions) => {
    const { project, asked, groups } = await loadGroups(paths, options, io);
    const origin = originOf(options.url, project);
    const lines = new SourceLines(project);
    const originText = origin.kind === "local" ? "local" : origin.url;
    const webview = options.webview ?? options.window;
    const header = `window "${options.window}", webview "${webview}", origin ${originText}, ${asked.length === 1 ? `platform ${asked[0]}` : `on ${describePlatforms(asked, asked)}`}`;

    if (options.command !== undefined) {
      const index = new CommandIndex(project.catalog, groups.flatMap((g) => [...g.model.allowed.keys(), ...g.model.denied.keys()]));
      const lookup = lookupCommand(options.command, index);
      if (!lookup.ok) throw new UsageError(`--command ${options.command}: ${lookup.message}${lookup.suggestions.length ? `; did you mean ${quoteList(lookup.suggestions)}?` : ""}`);
      const call = explainCall(project, groups, { command: lookup.command, known: lookup.known, suggestions: lookup.suggestions, window: options.window, webview, origin }, (at) => lines.line(at.file, at.path));
      const capabilities = capabilitiesCovering(groups, options.window, webview, origin);
      if (options.format === "json") {
        const first = call.verdicts.find((v) => v.explanation.verdict !== "allowed") ?? call.verdicts[0]!;
        const e = first.explanation;
        io.stdout.write(
          JSON.stringify(
            {
              window: options.window,
              webview,
              origin: originText,
              ...(asked.length === 1 ? { platform: asked[0] } : {}),
              platforms: asked,
              capabilities,
              explanation: { command: e.command, verdict: e.verdict, enforced: e.enforced, message: e.message, allowedOn: e.allowedOn, referencedBy: e.referencedBy, associatedPermissions: e.associatedPermissions },
              call: callJson(call, lines),
            },
            null,
            2,
          ) + "\n",
        );
      } else {
        const out = [header, `capabilities: ${capabilities.length ? capabilities.join(", ") : "none match"}`, ...renderCall(call, asked, lines)];
        io.stdout.write(textLines(out));
      }
      setExitCode(call.verdicts.every((v) => v.explanation.verdict === "allowed") ? EXIT_OK : EXIT_FINDINGS);
      return;
    }

    const allowed = new Map<string, MergedCommand>();
    const denied = new Map<string, { command: string; platforms: string[]; deniedBy: PlatformMerge<ResolvedCommand>; overridden: PlatformMerge<ResolvedCommand> }>();
    const capabilityNames = new PlatformMerge<string>();
    for (const group of groups) {
      const result = resolveAccess(group.model, { window: options.window, webview, origin });
      for (const name of result.capabilities) capabilityNames.add(name, name, group.platforms);
      for (const a of result.allowed) {
        let merged = allowed.get(a.command);
        if (!merged) {
          merged = { command: a.command, platforms: [], grantedBy: new PlatformMerge(), scope: a.scope };
          if (a.globalScope) merged.globalScope = a.globalScope;
          allowed.set(a.command, merged);
        }
        merged.platforms.push(...group.platforms);
        for (const entry of a.grantedBy) merged.grantedBy.add(entryKey(entry), entry, group.platforms);
      }
      for (const d of result.denied) {
        let merged = denied.get(d.command);
        if (!merged) denied.set(d.command, (merged = { command: d.command, platforms: [], deniedBy: new PlatformMerge(), overridden: new PlatformMerge() }));
        merged.platforms.push(...group.platforms);
        for (const entry of d.overriddenGrants) merged.overridden.add(entryKey(entry), entry, group.platforms);
        for (const entry of d.deniedBy) merged.deniedBy.add(entryKey(entry), entry, group.platforms);
      }
    }
    const allowedList = [...allowed.values()].sort((a, b) => compareCommands(a.command, b.command));
    const deniedList = [...denied.values()].sort((a, b) => compareCommands(a.command, b.command));
    const capabilities = capabilityNames.values();

    if (options.format === "json") {
      io.stdout.write(
        JSON.stringify(
          {
            window: options.window,
            webview,
            origin: originText,
            ...(asked.length === 1 ? { platform: asked[0] } : {}),
            platforms: asked,
            capabilities: capabilities.map((c) => c.item),
            allowed: allowedList.map((a) => ({
              command: a.command,
              platforms: a.platforms,
              grantedBy: a.grantedBy.values().map(({ item, platforms }) => ({ ...provenanceJson(item, lines), platforms })),
              scopes: { allow: a.scope.allow, deny: a.scope.deny },
              ...(a.globalScope ? { globalScope: a.globalScope } : {}),
            })),
            denied: deniedList.map((d) => ({
              command: d.command,
              platforms: d.platforms,
              deniedBy: d.deniedBy.values().map(({ item, platforms }) => ({ ...provenanceJson(item, lines), platforms })),
              overriddenGrants: d.overridden.values().map(({ item, platforms }) => ({ ...provenanceJson(item, lines), platforms })),
            })),
          },
          null,
          2,
        ) + "\n",
      );
    } else {
      const out: string[] = [header];
      out.push(`capabilities: ${capabilities.length ? capabilities.map((c) => `${c.item}${platformNote(c.platforms, asked)}`).join(", ") : "none match"}`);
      out.push("");
      out.push(`allowed: ${allowedList.length} command${allowedList.length === 1 ? "" : "s"}`);
      // One group per plugin (app commands once, whatever their names sort next to), each with the
      // global scope the host hands every command of the plugin.
      const byPlugin = new Map<string, MergedCommand[]>();
      for (const a of allowedList) byPlugin.set(pluginOf(a.command), [...(byPlugin.get(pluginOf(a.command)) ?? []), a]);
      for (const [plugin, commands] of byPlugin) {
        out.push(`  ${plugin}`);
        const global = commands.find((c) => c.globalScope)?.globalScope;
        if (global) out.push(`    global scope (the host hands it to every window): ${scopeText(global)}`);
        for (const a of commands) {
          const byCapability = new Map<string, Array<{ item: ResolvedCommand; platforms: string[] }>>();
          for (const granted of a.grantedBy.values()) {
            const key = `${granted.item.provenance.capability}\u0000${granted.item.provenance.chain.join(">")}`;
            byCapability.set(key, [...(byCapability.get(key) ?? []), granted]);
          }
          const [first, ...others] = [...byCapability.values()];
          const entry = first![0]!.item;
          const contexts = [...new Set(first!.map((g) => contextLabel(g.item)))].join(", ");
          const more = others.length ? ` (+${others.length} more)` : "";
          const scoped = a.scope.allow.length || a.scope.deny.length ? `  [command scope: ${scopeText(a.scope)}]` : "";
          out.push(`    ${a.command}  ← capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")} [${contexts}]${more}${scoped}  (${lines.where(entry)})${platformNote(a.platforms, asked)}`);
        }
      }
      if (deniedList.length) {
        out.push("");
        out.push(`denied everywhere (a deny in any active capability wins for every window and origin): ${deniedList.length}`);
        for (const d of deniedList) {
          const by = d.deniedBy.values()[0]!.item;
          out.push(`    ${d.command}  ✖ ${chainText(by)}${d.overridden.values().length ? ", although granted here" : ""}  (${lines.where(by)})${platformNote(d.platforms, asked)}`);
        }
      }
      io.stdout.write(textLines(out));
    }
    setExitCode(EXIT_OK);
  });
}

function capabilitiesCovering(groups: readonly PlatformGroup[], window: string, webview: string, origin: Origin): string[] {
  const names = new Set<string>();
  for (const { model } of groups) {
    for (const c of model.capabilities) {
      if (c.matchesLabels(window, webview) && c.contexts.some((_, i) => c.contextMatches(i, origin))) names.add(c.capability.identifier);
    }
  }
  return [...names];
}

function chainText(entry: ResolvedCommand): string {
  return `capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")} [${contextLabel(entry)}]`;
}

const SCOPE_SHOWN = 3;

function scopeText(scope: ScopeLists): string {
  const list = (values: readonly unknown[]) =>
    values.length <= SCOPE_SHOWN ? values.map((v) => JSON.stringify(v)).join(", ") : `${values.slice(0, SCOPE_SHOWN).map((v) => JSON.stringify(v)).join(", ")} and ${values.length - SCOPE_SHOWN} more`;
  return [scope.allow.length ? `allow ${list(scope.allow)}` : "", scope.deny.length ? `deny ${list(scope.deny)}` : ""].filter(Boolean).join("; ") || "empty";
}

function compareCommands(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function pluginOf(command: string): string {
  const match = /^plugin:([^|]+)\|/.exec(command);
  return match ? match[1]! : "app commands";
}

/** `--url` to an origin: the app's own URLs (and its dev server) are local, like the host decides. */
export function originOf(url: string | undefined, project: Project): Origin {
  if (url === undefined || url === "local") return { kind: "local" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url ${url}: not a URL (write it in full, e.g. https://example.com/page)`);
  }
  const href = parsed.href;
  if (parsed.protocol === "tauri:" || parsed.protocol === "host:" || /^https?:\/\/(tauri|host)\.localhost(\/|$)/.test(href)) return { kind: "local" };
  const build = isPlainObject(project.config?.document.value) ? (project.config!.document.value as Record<string, unknown>).build : undefined;
  const devUrl = isPlainObject(build) && typeof build.devUrl === "string" ? build.devUrl : undefined;
  if (devUrl && href.startsWith(new URL(devUrl).href.replace(/\/$/, ""))) return { kind: "local" };
  return { kind: "remote", url: href };
}
