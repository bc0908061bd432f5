import type { Command } from "commander";
import { EXIT_OK } from "../../core/exit-codes.js";
import { accessMatrix } from "../engine/index.js";
import { renderMatrixCsv, renderMatrixJson, renderMatrixText } from "../render/matrix.js";
import { knownWindowLabels } from "../queries/project-model.js";
import type { MainOptions } from "../../core/io.js";
import { addQueryOptions, answerPaint, loadGroups, originOf, requireKnownWindow, type QueryOptions } from "./query-options.js";
import { capabilitySettings } from "./options.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/lint/rule.js";

interface MatrixOptions extends QueryOptions {
  window: string[];
  url?: string;
}

export function registerMatrix(program: Command, io: MainOptions, setExitCode: SetExitCode, allRules: ReadonlyMap<string, RuleMeta>): void {
  const command = program
    .command("matrix")
    .description(
      "windows × commands: who can call what, on every platform unless --platform (labels from tauri.conf.json, else the literal labels in capabilities)",
    )
    .option("-w, --window <label>", "a window to include (repeatable; default: every known label)", (v: string, p: string[]) => [...p, v], [])
    .option("-u, --url <url>", "origin of the calling pages (default: local)");
  addQueryOptions(command, ["text", "json", "csv"]).action(async (paths: string[], options: MatrixOptions) => {
    const { project, asked, groups } = await loadGroups(paths, options, io, await capabilitySettings(options, io.cwd, allRules));
    for (const window of options.window) await requireKnownWindow(project, groups, window);
    const windows = options.window.length ? options.window : knownWindowLabels(project);
    const origin = originOf(options.url, project);
    const matrices = groups.map((group) => ({ platforms: group.platforms, matrix: accessMatrix(group.model, windows, origin) }));
    if (options.format === "json") io.stdout.write(renderMatrixJson(matrices, asked));
    else if (options.format === "csv") io.stdout.write(renderMatrixCsv(matrices));
    else io.stdout.write(renderMatrixText(matrices, asked, await answerPaint(options, io)));
    setExitCode(EXIT_OK);
  });
}
