import type { Command } from "commander";
import { loadProject } from "../load/project.js";
import { diffAccess, type Grant } from "../queries/diff.js";
import { SourceLines } from "../queries/project-model.js";
import { PlatformMerge, resolvePlatformGroups } from "../queries/platforms.js";
import { renderDiffJson, renderDiffText } from "../render/diff.js";
import { EXIT_FINDINGS, EXIT_OK } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { loadOptionsFrom } from "./options.js";
import { addQueryOptions, askedPlatforms, type QueryOptions } from "./query-options.js";
import type { SetExitCode } from "../../core/command.js";

export function registerDiff(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("diff")
    .description('access NEW grants that OLD did not, and access removed, on every platform unless --platform; exit 1 when anything is new (a "no new access" gate)')
    .argument("<old>", "old app folder or capabilities folder")
    .argument("<new>", "new app folder or capabilities folder");
  for (const option of addQueryOptions(program.createCommand("diff"), ["text", "json"]).options) {
    // Both sides are named folders: no app to find, and no config (each side would need its own).
    if (option.long !== "--app" && option.long !== "--config") command.addOption(option);
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
    const ordered = (merge: PlatformMerge<Grant>) => merge.values().sort((a, b) => compareKeys(grantKey(a.item), grantKey(b.item)));
    const answer = { asked, added: ordered(added), removed: ordered(removed), before: before.lines, after: after.lines };
    io.stdout.write(options.format === "json" ? renderDiffJson(answer) : renderDiffText(answer));
    setExitCode(answer.added.length ? EXIT_FINDINGS : EXIT_OK);
  });
}

function grantKey(grant: Grant): string {
  return JSON.stringify([grant.command, grant.context, grant.target, grant.pattern]);
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
