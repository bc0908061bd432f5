import type { Command } from "commander";
import { loadProject } from "../../load/project.js";
import { diffAccess, type Grant } from "../../query/diff.js";
import { provenanceJson, SourceLines } from "../../query/project-model.js";
import { describePlatforms, platformNote, PlatformMerge, resolvePlatformGroups } from "../../query/platforms.js";
import { EXIT_FINDINGS, EXIT_OK } from "../exit-codes.js";
import type { MainOptions } from "../io.js";
import { loadOptionsFrom } from "../options.js";
import { addQueryOptions, askedPlatforms, type QueryOptions } from "../query-options.js";
import type { SetExitCode } from "./index.js";
import { textLines } from "../../core/terminal-text.js";

export function registerDiff(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("diff")
    .description('access NEW grants that OLD did not, and access removed, on every platform unless --platform; exit 1 when anything is new (a "no new access" gate)')
    .argument("<old>", "old app folder or capabilities folder")
    .argument("<new>", "new app folder or capabilities folder");
  for (const option of addQueryOptions(program.createCommand("diff"), ["text", "json"]).options) {
    if (option.long !== "--app") command.addOption(option);
  }
  command.action(async (oldPath: string, newPath: string, options: QueryOptions) => {
    const asked = askedPlatforms(options);
    const sides = await Promise.all(
      [oldPath, newPath].map(async (side) => {
        const project = await loadProject(loadOptionsFrom([side], { ...options, app: undefined }, io.cwd));
        return { groups: resolvePlatformGroups(project, asked), lines: new SourceLines(project) };
      }),
    );
    const [before, after] = sides as [(typeof sides)[number], (typeof sides)[number]];
    // A change can grant access on one platform only (a capability with `platforms`): every platform
    // is compared, and a grant is reported with the platforms it is new on.
    const added = new PlatformMerge<Grant>();
    const removed = new PlatformMerge<Grant>();
    for (const old of before.groups) {
      for (const current of after.groups) {
        const platforms = old.platforms.filter((p) => current.platforms.includes(p));
        if (platforms.length === 0) continue;
        const diff = diffAccess(old.model, current.model);
        for (const grant of diff.added) added.add(grantKey(grant), grant, platforms);
        for (const grant of diff.removed) removed.add(grantKey(grant), grant, platforms);
      }
    }
    const ordered = (merge: PlatformMerge<Grant>) => merge.values().sort((a, b) => compareGrants(a.item, b.item));
    const newGrants = ordered(added);
    const oldGrants = ordered(removed);
    if (options.format === "json") {
      const json = ({ item: grant, platforms }: { item: Grant; platforms: string[] }, lines: SourceLines) => ({
        command: grant.command,
        context: grant.context,
        [grant.target === "window" ? "window" : "webview"]: grant.pattern,
        platforms: asked.filter((p) => platforms.includes(p)),
        grantedBy: grant.entries.map((e) => provenanceJson(e, lines)),
      });
      io.stdout.write(
        JSON.stringify(
          {
            ...(asked.length === 1 ? { platform: asked[0] } : {}),
            platforms: asked,
            added: newGrants.map((g) => json(g, after.lines)),
            removed: oldGrants.map((g) => json(g, before.lines)),
          },
          null,
          2,
        ) + "\n",
      );
    } else {
      const out: string[] = [];
      // Grouped by who gains or loses the access, so a broadened pattern reads as one change.
      const section = (title: string, grants: Array<{ item: Grant; platforms: string[] }>, lines: SourceLines) => {
        const groups = new Map<string, Array<{ item: Grant; platforms: string[] }>>();
        for (const grant of grants) {
          const key = `${grant.item.target} "${grant.item.pattern}" from ${grant.item.context}`;
          groups.set(key, [...(groups.get(key) ?? []), grant]);
        }
        out.push(`${title} (${grants.length} command grant${grants.length === 1 ? "" : "s"}):`);
        for (const [who, list] of groups) {
          out.push(`  ${who}:`);
          for (const { item: grant, platforms } of list) {
            const entry = grant.entries[0]!;
            out.push(`    ${grant.command}  ← ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})${platformNote(platforms, asked)}`);
          }
        }
      };
      const on = describePlatforms(asked, asked);
      if (newGrants.length) section(`NEW ACCESS on ${on}`, newGrants, after.lines);
      else out.push(`no new access on ${on}`);
      if (oldGrants.length) section("removed access", oldGrants, before.lines);
      io.stdout.write(textLines(out));
    }
    setExitCode(newGrants.length ? EXIT_FINDINGS : EXIT_OK);
  });
}

function grantKey(grant: Grant): string {
  return JSON.stringify([grant.command, grant.context, grant.target, grant.pattern]);
}

function compareGrants(a: Grant, b: Grant): number {
  return a.command < b.command ? -1 : a.command > b.command ? 1 : grantKey(a) < grantKey(b) ? -1 : grantKey(a) > grantKey(b) ? 1 : 0;
}
