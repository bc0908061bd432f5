import type { Command } from "commander";
import { EXIT_OK } from "../../core/exit-codes.js";
import { accessMatrix } from "../engine/index.js";
import { renderMatrixCsv, renderMatrixJson, renderMatrixText } from "../render/matrix.js";
import { knownWindowLabels } from "../queries/project-model.js";
import { manifestUnionNotes, modelChains } from "../queries/manifest-union.js";
import { manifestUnionLines } from "../render/manifest-union.js";
import { textLines } from "../../core/terminal-text.js";
import type { MainOptions } from "../../core/io.js";
import { uncheckedRemoteAppCommands } from "../queries/explain.js";
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

interface MatrixOptions extends QueryOptions {
  window: string[];
  url?: string;
}

export function registerMatrix(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("matrix")
    .description(
      "windows × commands: who can call what, on every platform unless --platform (the app's windows: tauri.conf.json and its platform configs, and those its Rust and frontend sources create; else the literal labels in capabilities)",
    )
    .option(
      "-w, --window <label>",
      "a window to include (repeatable; default: every known label)",
      (v: string, p: string[]) => [...p, v],
      [],
    )
    .option("-u, --url <url>", "origin of the calling pages (default: local)");
  addQueryOptions(command, ["text", "json", "csv"]).action(
    async (paths: string[], options: MatrixOptions) => {
      // JSON marks which grants the frontend uses: only then is the frontend scanned.
      const scanFrontend = options.format === "json" ? new Set(FRONTEND_RULES) : undefined;
      const { project, asked, groups } = await loadGroups(
        paths,
        options,
        io,
        await capabilitySettings(options, io.cwd, allRules),
        scanFrontend,
      );
      for (const window of options.window) requireKnownWindow(project, groups, window);
      const windows = options.window.length ? options.window : knownWindowLabels(project);
      const origin = originOf(options.url, project);
      const matrices = groups.map((group) => ({
        platforms: group.platforms,
        matrix: accessMatrix(group.model, windows, origin),
      }));
      const notes = manifestUnionNotes(project.manifestDifferences, function* () {
        for (const [i, group] of groups.entries())
          yield* modelChains(
            group.model,
            new Set(matrices[i]!.matrix.rows.flatMap((row) => row.capabilities)),
          );
      });
      const frontendCalls =
        scanFrontend && origin.kind === "local" && hasFrontend(project)
          ? frontendCallsByWindow(project)
          : undefined;
      // Remote pages calling the app's own commands unchecked: no cell shows them, so the answer says it.
      const uncheckedAppCommands =
        origin.kind === "remote" ? uncheckedRemoteAppCommands(project.catalog) : undefined;
      if (options.format === "json")
        io.stdout.write(
          renderMatrixJson(matrices, asked, notes, frontendCalls, uncheckedAppCommands),
        );
      else if (options.format === "csv") {
        io.stdout.write(renderMatrixCsv(matrices));
        // A CSV has no place for a note: it goes beside the data, where a person running the export sees it.
        if (notes.length) io.stderr.write(textLines(manifestUnionLines(notes)));
        if (uncheckedAppCommands)
          io.stderr.write(`exposed: not in the matrix, and not checked: ${uncheckedAppCommands}\n`);
      } else
        io.stdout.write(
          renderMatrixText(
            matrices,
            asked,
            await answerPaint(options, io),
            notes,
            uncheckedAppCommands,
          ),
        );
      setExitCode(EXIT_OK);
    },
  );
}
