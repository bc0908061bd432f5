import type { Command } from "commander";
import { resolveAccess, type Origin, type ResolvedCommand } from "../../engine/index.js";
import type { Project } from "../../load/project.js";
import { isPlainObject } from "../../model/capability.js";
import { contextLabel, provenanceJson, SourceLines } from "../../query/project-model.js";
import { nearest, quoteList } from "../../util/did-you-mean.js";
import { EXIT_FINDINGS, EXIT_OK } from "../exit-codes.js";
import type { MainOptions } from "../io.js";
import { UsageError } from "../main.js";
import { addQueryOptions, loadModel, type QueryOptions } from "../query-options.js";
import type { SetExitCode } from "./index.js";
import { textLines } from "../../core/terminal-text.js";

interface AccessOptions extends QueryOptions {
  window: string;
  webview?: string;
  url?: string;
  command?: string;
}

export function registerAccess(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("access")
    .description("what a window (or webview) may call from an origin, and why; with --command, one yes/no answer (exit 0/1)")
    .requiredOption("-w, --window <label>", "window label")
    .option("--webview <label>", "webview label (default: the window's label)")
    .option("-u, --url <url>", "origin of the calling page (default: the app's own local pages)")
    .option("-c, --command <name>", "one command, as invoked: plugin:window|close, plugin:fs|read_file, my_command");
  addQueryOptions(command, ["text", "json"]).action(async (paths: string[], options: AccessOptions) => {
    const { project, model } = await loadModel(paths, options, io);
    const origin = originOf(options.url, project);
    if (options.command !== undefined) {
      const known = new Set([...model.allowed.keys(), ...model.denied.keys()]);
      if (!known.has(options.command) && !options.command.includes("|") && !/^[a-z0-9_]+$/i.test(options.command)) {
        const close = nearest(options.command, known, 3);
        throw new UsageError(`--command ${options.command}: write the command as invoked, e.g. plugin:window|close${close.length ? `; did you mean ${quoteList(close)}?` : ""}`);
      }
    }
    const result = resolveAccess(model, { window: options.window, webview: options.webview, origin, command: options.command });
    const lines = new SourceLines(project);
    const webview = options.webview ?? options.window;
    if (options.format === "json") {
      io.stdout.write(
        JSON.stringify(
          {
            window: result.window,
            webview: result.webview,
            origin: origin.kind === "local" ? "local" : origin.url,
            platform: model.platform,
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
        ) + "\n",
      );
    } else {
      const out: string[] = [];
      const originText = origin.kind === "local" ? "local" : origin.url;
      out.push(`window "${result.window}", webview "${webview}", origin ${originText}, platform ${model.platform}`);
      out.push(`capabilities: ${result.capabilities.length ? result.capabilities.join(", ") : "none match"}`);
      if (result.explanation) {
        const e = result.explanation;
        out.push("");
        out.push(`${e.verdict === "allowed" ? "ALLOWED" : "NOT ALLOWED"}: ${e.command} (${e.verdict})`);
        out.push(`  ${shortenPermissionList(e.message, e.associatedPermissions)}`);
        if (!e.enforced) out.push("  note: the host does not check this app command from local pages because the app defines no permissions");
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
      io.stdout.write(textLines(out));
    }
    const verdict = result.explanation?.verdict;
    setExitCode(verdict === undefined || verdict === "allowed" ? EXIT_OK : EXIT_FINDINGS);
  });
}

const LISTED_PERMISSIONS = 8;

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
