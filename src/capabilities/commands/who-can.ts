import type { Command } from "commander";
import { EXIT_OK } from "../../core/exit-codes.js";
import { whoCan, type ResolvedCommand } from "../engine/index.js";
import { parseCommandName } from "../engine/command-name.js";
import { knownWindowLabels, SourceLines } from "../queries/project-model.js";
import { entryKey, PlatformMerge } from "../queries/platforms.js";
import { CommandIndex, lookupCommand } from "../queries/command-names.js";
import { renderWhoCanJson, renderWhoCanText } from "../render/who-can.js";
import { didYouMean, quoteList } from "../../core/did-you-mean.js";
import { UsageError } from "../../core/errors.js";
import { uncheckedRemoteAppCommands } from "../queries/explain.js";
import type { MainOptions } from "../../core/io.js";
import { addQueryOptions, answerPaint, loadGroups, type QueryOptions } from "./query-options.js";
import { capabilitySettings } from "../check-run.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/lint/rule.js";

export function registerWhoCan(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("who-can")
    .description(
      "every capability, window pattern and origin that grants a command, and the denies that block it (all platforms unless --platform)",
    )
    .argument(
      "<command>",
      "command: plugin:fs|read_file, fs.read_file, read_file, plugin:window|close, my_command",
    );
  addQueryOptions(command, ["text", "json"]).action(
    async (written: string, paths: string[], options: QueryOptions) => {
      const { project, asked, groups } = await loadGroups(
        paths,
        options,
        io,
        await capabilitySettings(options, io.cwd, allRules),
      );
      const index = new CommandIndex(
        project.catalog,
        groups.flatMap((g) => [...g.model.allowed.keys(), ...g.model.denied.keys()]),
      );
      // Either spelling of the brand word (plugin:app|host_version ≡ plugin:app|tauri_version), answered in the project's.
      const lookup = lookupCommand(written, index);
      if (!lookup.ok)
        throw new UsageError(
          `${lookup.message}${lookup.suggestions.length ? `; did you mean ${quoteList(lookup.suggestions)}?` : ""}`,
        );
      const allowed = new PlatformMerge<ResolvedCommand>();
      const denied = new PlatformMerge<ResolvedCommand>();
      const deniedOn: string[] = [];
      for (const group of groups) {
        const result = whoCan(group.model, lookup.command);
        for (const entry of result.allowedBy) allowed.add(entryKey(entry), entry, group.platforms);
        for (const entry of result.deniedBy) denied.add(entryKey(entry), entry, group.platforms);
        if (result.deniedEverywhere) deniedOn.push(...group.platforms);
      }
      // An answer about a command nothing knows is a typo's answer: "nothing grants it" would read as safe.
      // Not so for an app command of an app without permissions: the host does not check those from local
      // pages, so any name is a command the app may register (access answers "not checked").
      const uncheckedAppCommand =
        parseCommandName(lookup.command).plugin === undefined && !project.catalog.hasAppPermissions;
      if (
        !lookup.known &&
        !uncheckedAppCommand &&
        allowed.values().length === 0 &&
        denied.values().length === 0
      )
        throw new UsageError(
          `who-can ${written}: no permission of the app or its plugins names the command "${lookup.command}"${didYouMean(lookup.suggestions)}`,
        );
      const uncheckedFromRemotePages = uncheckedAppCommand
        ? uncheckedRemoteAppCommands(project.catalog)
        : undefined;
      const answer = {
        lookup,
        asked,
        allowed: allowed.values(),
        denied: denied.values(),
        deniedOn,
        lines: new SourceLines(project),
        windows: knownWindowLabels(project),
        uncheckedFromLocalPages: uncheckedAppCommand,
        ...(uncheckedFromRemotePages ? { uncheckedFromRemotePages } : {}),
        framework: project.catalog.framework,
      };
      io.stdout.write(
        options.format === "json"
          ? renderWhoCanJson(answer)
          : renderWhoCanText(answer, await answerPaint(options, io)),
      );
      setExitCode(EXIT_OK);
    },
  );
}
