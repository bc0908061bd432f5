import type { Command } from "commander";
import { loadProject } from "../load/project.js";
import { diffAccessOnPlatforms } from "../queries/diff.js";
import { SourceLines } from "../queries/project-model.js";
import { resolvePlatformGroups } from "../queries/platforms.js";
import { renderDiffJson, renderDiffText } from "../render/diff.js";
import { exitCodeFor } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { loadOptionsFrom } from "./options.js";
import { addQueryOptions, answerPaint, askedPlatforms, type QueryOptions } from "./query-options.js";
import type { SetExitCode } from "../../core/command.js";

export function registerDiff(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("diff")
    .description(
      'access NEW grants that OLD did not, and access removed, on every platform unless --platform; exit 1 when anything is new (a "no new access" gate)',
    )
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
        const project = await loadProject(loadOptionsFrom([side], { ...options, app: undefined }, io.cwd, io.env ?? {}));
        return { groups: resolvePlatformGroups(project, asked), lines: new SourceLines(project) };
      }),
    );
    const [before, after] = sides as [(typeof sides)[number], (typeof sides)[number]];
    const answer = { asked, ...diffAccessOnPlatforms(before.groups, after.groups), before: before.lines, after: after.lines };
    io.stdout.write(options.format === "json" ? renderDiffJson(answer) : renderDiffText(answer, await answerPaint(options, io)));
    setExitCode(exitCodeFor({ failed: answer.added.length > 0 }));
  });
}
