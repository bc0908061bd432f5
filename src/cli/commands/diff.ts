import type { Command } from "commander";
import { loadProject } from "../../load/project.js";
import { diffAccess, type Grant } from "../../query/diff.js";
import { provenanceJson, resolveProject, SourceLines } from "../../query/project-model.js";
import { EXIT_FINDINGS, EXIT_OK } from "../exit-codes.js";
import type { MainOptions } from "../io.js";
import { loadOptionsFrom } from "../options.js";
import { addQueryOptions, type QueryOptions } from "../query-options.js";
import type { SetExitCode } from "./index.js";
import { textLines } from "../../core/terminal-text.js";

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
    if (options.format === "json") {
      const json = (grant: Grant, lines: SourceLines) => ({
        command: grant.command,
        context: grant.context,
        [grant.target === "window" ? "window" : "webview"]: grant.pattern,
        grantedBy: grant.entries.map((e) => provenanceJson(e, lines)),
      });
      io.stdout.write(
        JSON.stringify(
          { platform: options.platform, added: diff.added.map((g) => json(g, after.lines)), removed: diff.removed.map((g) => json(g, before.lines)) },
          null,
          2,
        ) + "\n",
      );
    } else {
      const out: string[] = [];
      // Grouped by who gains or loses the access, so a broadened pattern reads as one change.
      const section = (title: string, grants: Grant[], lines: SourceLines) => {
        const groups = new Map<string, Grant[]>();
        for (const grant of grants) {
          const key = `${grant.target} "${grant.pattern}" from ${grant.context}`;
          groups.set(key, [...(groups.get(key) ?? []), grant]);
        }
        out.push(`${title} (${grants.length} command grant${grants.length === 1 ? "" : "s"}):`);
        for (const [who, list] of groups) {
          out.push(`  ${who}:`);
          for (const grant of list) {
            const entry = grant.entries[0]!;
            out.push(`    ${grant.command}  ← ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`);
          }
        }
      };
      if (diff.added.length) section("NEW ACCESS", diff.added, after.lines);
      else out.push("no new access");
      if (diff.removed.length) section("removed access", diff.removed, before.lines);
      io.stdout.write(textLines(out));
    }
    setExitCode(diff.added.length ? EXIT_FINDINGS : EXIT_OK);
  });
}
