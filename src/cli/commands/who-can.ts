import type { Command } from "commander";
import { whoCan, type ResolvedCommand } from "../../engine/index.js";
import { contextLabel, provenanceJson, SourceLines } from "../../query/project-model.js";
import { describePlatforms, entryKey, platformNote, PlatformMerge } from "../../query/platforms.js";
import { CommandIndex, lookupCommand } from "../../query/command-names.js";
import { quoteList } from "../../util/did-you-mean.js";
import type { MainOptions } from "../io.js";
import { UsageError } from "../main.js";
import { addQueryOptions, loadGroups, type QueryOptions } from "../query-options.js";
import type { SetExitCode } from "./index.js";
import { textLines } from "../../core/terminal-text.js";

export function registerWhoCan(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("who-can")
    .description("every capability, window pattern and origin that grants a command, and the denies that block it (all platforms unless --platform)")
    .argument("<command>", "command: plugin:fs|read_file, fs.read_file, read_file, plugin:window|close, my_command");
  addQueryOptions(command, ["text", "json"]).action(async (written: string, paths: string[], options: QueryOptions) => {
    const { project, asked, groups } = await loadGroups(paths, options, io);
    const index = new CommandIndex(project.catalog, groups.flatMap((g) => [...g.model.allowed.keys(), ...g.model.denied.keys()]));
    const lookup = lookupCommand(written, index);
    if (!lookup.ok) throw new UsageError(`${lookup.message}${lookup.suggestions.length ? `; did you mean ${quoteList(lookup.suggestions)}?` : ""}`);
    const name = lookup.command;
    const allowed = new PlatformMerge<ResolvedCommand>();
    const denied = new PlatformMerge<ResolvedCommand>();
    const deniedOn: string[] = [];
    for (const group of groups) {
      const result = whoCan(group.model, name);
      for (const entry of result.allowedBy) allowed.add(entryKey(entry), entry, group.platforms);
      for (const entry of result.deniedBy) denied.add(entryKey(entry), entry, group.platforms);
      if (result.deniedEverywhere) deniedOn.push(...group.platforms);
    }
    const lines = new SourceLines(project);
    if (options.format === "json") {
      const withPlatforms = ({ item, platforms }: { item: ResolvedCommand; platforms: string[] }) => ({ ...provenanceJson(item, lines), platforms });
      io.stdout.write(
        JSON.stringify(
          {
            command: name,
            ...(asked.length === 1 ? { platform: asked[0] } : {}),
            platforms: asked,
            deniedEverywhere: deniedOn.length > 0,
            deniedOn,
            allowedBy: allowed.values().map(withPlatforms),
            deniedBy: denied.values().map(withPlatforms),
          },
          null,
          2,
        ) + "\n",
      );
    } else {
      const out = [`${name} on ${describePlatforms(asked, asked)}`];
      if (allowed.values().length === 0 && denied.values().length === 0) {
        const hint = lookup.suggestions.length ? `; did you mean ${quoteList(lookup.suggestions)}?` : lookup.known ? "" : " (no known manifest lists this command)";
        out.push(`  no active capability grants or denies it${hint}`);
      }
      for (const { item: entry, platforms } of allowed.values()) {
        const targets = [entry.windows.length ? `windows: ${entry.windows.join(", ")}` : "", entry.webviews.length ? `webviews: ${entry.webviews.join(", ")}` : ""].filter(Boolean).join("; ");
        out.push(`  allowed for [${targets || "nothing: no windows or webviews"}] from ${contextLabel(entry)}${platformNote(platforms, asked)}`);
        out.push(`    by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`);
      }
      for (const { item: entry, platforms } of denied.values()) {
        out.push(`  DENIED everywhere by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})${platformNote(platforms, asked)}`);
      }
      if (deniedOn.length && allowed.values().length) out.push("  a deny in any active capability wins over every allow, for every window and origin");
      io.stdout.write(textLines(out));
    }
    setExitCode(0);
  });
}
