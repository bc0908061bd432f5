import type { Command } from "commander";
import { resolveAccess, type Origin } from "../engine/index.js";
import { CommandIndex, lookupCommand } from "../queries/command-names.js";
import { explainCall, uncheckedRemoteAppCommands } from "../queries/explain.js";
import { manifestUnionNotes } from "../queries/manifest-union.js";
import { SourceLines } from "../queries/project-model.js";
import { entryKey, PlatformMerge, type PlatformGroup } from "../queries/platforms.js";
import {
  renderAccessJson,
  renderAccessText,
  renderCallJson,
  renderCallText,
  type MergedAllowed,
  type MergedDenied,
} from "../render/access.js";
import { quoteList } from "../../core/did-you-mean.js";
import { exitCodeFor } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { UsageError } from "../../core/errors.js";
import {
  addQueryOptions,
  answerPaint,
  loadGroups,
  originOf,
  requireKnownWindow,
  type QueryOptions,
} from "./query-options.js";
import { capabilitySettings, FRONTEND_RULES } from "../check-run.js";
import { frontendCallsByWindow, hasFrontend } from "../queries/frontend-access.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/lint/rule.js";

interface AccessOptions extends QueryOptions {
  window: string;
  webview?: string;
  url?: string;
  command?: string;
}

export function registerAccess(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("access")
    .description(
      "what a window (or webview) may call from an origin, and why, on every platform unless --platform; with --command, one yes/no answer (exit 0/1)",
    )
    .requiredOption("-w, --window <label>", "window label")
    .option("--webview <label>", "webview label (default: the window's label)")
    .option("-u, --url <url>", "origin of the calling page (default: the app's own local pages)")
    .option(
      "-C, --command <name>",
      "one command: plugin:fs|read_text_file, fs.read_text_file, read_text_file, plugin:window|close, my_command",
    );
  addQueryOptions(command, ["text", "json"]).action(
    async (paths: string[], options: AccessOptions) => {
      // JSON marks which grants the frontend uses: only then is the frontend scanned.
      const scanFrontend =
        options.format === "json" && options.command === undefined
          ? new Set(FRONTEND_RULES)
          : undefined;
      const { project, asked, groups } = await loadGroups(
        paths,
        options,
        io,
        await capabilitySettings(options, io.cwd, allRules),
        scanFrontend,
      );
      const origin = originOf(options.url, project);
      const lines = new SourceLines(project);
      const window = options.window;
      const webview = options.webview ?? window;

      if (options.command !== undefined) {
        const index = new CommandIndex(
          project.catalog,
          groups.flatMap((g) => [...g.model.allowed.keys(), ...g.model.denied.keys()]),
        );
        const lookup = lookupCommand(options.command, index);
        if (!lookup.ok)
          throw new UsageError(
            `--command ${options.command}: ${lookup.message}${lookup.suggestions.length ? `; did you mean ${quoteList(lookup.suggestions)}?` : ""}`,
          );
        const call = explainCall(
          project,
          groups,
          {
            command: lookup.command,
            known: lookup.known,
            suggestions: lookup.suggestions,
            window,
            webview,
            origin,
          },
          (at) => lines.line(at.file, at.path),
        );
        const answer = {
          window,
          webview,
          origin,
          asked,
          capabilities: capabilitiesCovering(groups, window, webview, origin),
          call,
          lines,
        };
        io.stdout.write(
          options.format === "json"
            ? renderCallJson(answer)
            : renderCallText(answer, await answerPaint(options, io)),
        );
        setExitCode(
          exitCodeFor({
            failed: !call.verdicts.every(
              (v) => v.explanation.verdict === "allowed" || v.explanation.verdict === "unchecked",
            ),
          }),
        );
        return;
      }

      requireKnownWindow(project, groups, window, webview);
      // Each platform group answers; commands and entries are merged with the platforms they hold on.
      const allowed = new Map<string, MergedAllowed>();
      const denied = new Map<string, MergedDenied>();
      const capabilities = new PlatformMerge<string>();
      for (const group of groups) {
        const result = resolveAccess(group.model, { window, webview, origin });
        for (const name of result.capabilities) capabilities.add(name, name, group.platforms);
        for (const a of result.allowed) {
          let merged = allowed.get(a.command);
          if (!merged) {
            merged = {
              command: a.command,
              platforms: [],
              grantedBy: new PlatformMerge(),
              scope: a.scope,
            };
            if (a.globalScope) merged.globalScope = a.globalScope;
            allowed.set(a.command, merged);
          }
          merged.platforms.push(...group.platforms);
          for (const entry of a.grantedBy)
            merged.grantedBy.add(entryKey(entry), entry, group.platforms);
        }
        for (const d of result.denied) {
          let merged = denied.get(d.command);
          if (!merged)
            denied.set(
              d.command,
              (merged = {
                command: d.command,
                platforms: [],
                deniedBy: new PlatformMerge(),
                overridden: new PlatformMerge(),
              }),
            );
          merged.platforms.push(...group.platforms);
          for (const entry of d.deniedBy)
            merged.deniedBy.add(entryKey(entry), entry, group.platforms);
          for (const entry of d.overriddenGrants)
            merged.overridden.add(entryKey(entry), entry, group.platforms);
        }
      }
      const frontendCalls =
        scanFrontend && origin.kind === "local" && hasFrontend(project)
          ? frontendCallsByWindow(project).get(window)
          : undefined;
      const byCommand = <T extends { command: string }>(a: T, b: T) =>
        a.command < b.command ? -1 : a.command > b.command ? 1 : 0;
      const through = [...allowed.values()]
        .flatMap((a) => a.grantedBy.values())
        .concat([...denied.values()].flatMap((d) => d.deniedBy.values()));
      // Remote pages calling the app's own commands unchecked: the listing has no line for them, so it says it.
      const uncheckedAppCommands =
        origin.kind === "remote" ? uncheckedRemoteAppCommands(project.catalog) : undefined;
      const answer = {
        window,
        webview,
        origin,
        asked,
        capabilities: capabilities.values(),
        allowed: [...allowed.values()].sort(byCommand),
        denied: [...denied.values()].sort(byCommand),
        lines,
        manifestUnion: manifestUnionNotes(project.manifestDifferences, () =>
          through.map(({ item }) => item.provenance.chain),
        ),
        ...(frontendCalls ? { frontendCalls } : {}),
        ...(uncheckedAppCommands ? { uncheckedAppCommands } : {}),
        framework: project.catalog.framework,
      };
      io.stdout.write(
        options.format === "json"
          ? renderAccessJson(answer)
          : renderAccessText(answer, await answerPaint(options, io)),
      );
      setExitCode(exitCodeFor({ failed: false }));
    },
  );
}

/** Active capabilities (on any asked platform) that cover the webview and origin. */
function capabilitiesCovering(
  groups: readonly PlatformGroup[],
  window: string,
  webview: string,
  origin: Origin,
): string[] {
  const names = new Set<string>();
  for (const { model } of groups) {
    for (const c of model.capabilities) {
      if (
        c.matchesLabels(window, webview) &&
        c.contexts.some((_, i) => c.contextMatches(i, origin))
      )
        names.add(c.capability.identifier);
    }
  }
  return [...names];
}
