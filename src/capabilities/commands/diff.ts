import type { Command } from "commander";
import { loadProject } from "../load/project.js";
import { diffAccess } from "../queries/diff.js";
import { resolveProject, SourceLines } from "../queries/project-model.js";
import { renderDiffJson, renderDiffText } from "../render/diff.js";
import { EXIT_FINDINGS, EXIT_OK } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { loadOptionsFrom } from "./options.js";
import { addQueryOptions, type QueryOptions } from "./query-options.js";
import type { SetExitCode } from "../../core/command.js";

export function registerDiff(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("diff")
    .description('access NEW grants that OLD did not, and access removed; exit 1 when anything is new (a "no new access" gate)')
    .argument("<old>", "old app folder or capabilities folder")
    .argument("<new>", "new app folder or capabilities folder");
  for (const option of addQueryOptions(program.createCommand("diff"), ["text", "json"]).options) {
    if (option.long !== "--app") command.addOption(option);
  }
  command.action(async (oldPath: string, newPath: string, options: QueryOptions) => {
    const sides = await Promise.all(
      [oldPath, newPath].map(async (side) => {
        const project = await loadProject(loadOptionsFrom([side], { ...options, app: undefined }, io.cwd));
        return { project, model: resolveProject(project, options.platform), lines: new SourceLines(project) };
      }),
    );
    const [before, after] = sides as [(typeof sides)[number], (typeof sides)[number]];
    const diff = diffAccess(before.model, after.model);
    const render = options.format === "json" ? renderDiffJson : renderDiffText;
    io.stdout.write(render({ platform: options.platform, diff, before: before.lines, after: after.lines }));
    setExitCode(diff.added.length ? EXIT_FINDINGS : EXIT_OK);
  });
}
