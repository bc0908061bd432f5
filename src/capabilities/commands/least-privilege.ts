import { lstat } from "node:fs/promises";
import { Option, type Command } from "commander";
import type { SetExitCode } from "../../core/command.js";
import { UsageError } from "../../core/errors.js";
import { exitCodeFor } from "../../core/exit-codes.js";
import { writeFixes } from "../../core/fix/write-fixes.js";
import type { MainOptions } from "../../core/io.js";
import { lintReporterContext } from "../../core/lint/lint-command.js";
import type { RuleMeta } from "../../core/lint/rule.js";
import { loadReporter } from "../../core/reporters/index.js";
import { readForCodeFrame } from "../../core/source/read.js";
import { summarize } from "../../core/diagnostics.js";
import { loadVersionHistory } from "../catalog/versions.js";
import { capabilitySettings, FRONTEND_RULES } from "../check-run.js";
import { resolveAll } from "../engine/index.js";
import { lint } from "../lint.js";
import { TARGETS } from "../model/types.js";
import { hasFrontend } from "../queries/frontend-access.js";
import { leastPrivilege } from "../queries/least-privilege.js";
import { isPlatformIndependent } from "../queries/platforms.js";
import { SourceLines } from "../queries/project-model.js";
import { renderLeastPrivilegeJson, renderLeastPrivilegeText } from "../render/least-privilege.js";
import { CAPABILITY_RULES_BY_ID } from "../rules/index.js";
import {
  addQueryOptions,
  answerPaint,
  askedPlatforms,
  loadProjectFor,
  type QueryOptions,
} from "./query-options.js";

interface LeastPrivilegeOptions extends QueryOptions {
  fix?: boolean;
  write?: boolean;
}

/**
 * `caplint least-privilege`: per window, the calls its frontend makes, the grants they use and those
 * they do not, and the smallest change to the capability files, shown as a diff; `--fix` writes it.
 * Exit codes follow `terraform plan -detailed-exitcode` in caplint's range: 0 nothing to change (or
 * everything changed with --fix), 1 a change is proposed or left to do by hand, 2 usage or fatal.
 */
export function registerLeastPrivilege(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("least-privilege")
    .description(
      "per window: the calls the frontend makes (file:line → command → narrowest permission), the grants used and unused, and the smallest capability change as a diff; --fix writes it (exit 0 nothing to change, 1 a change proposed)",
    )
    .option(
      "--fix",
      "write the proposed change to the capability files (atomically, formatting kept; never through a symbolic link)",
    )
    .addOption(new Option("--write", "the same as --fix").hideHelp());
  addQueryOptions(command, ["text", "json", "sarif"]).action(
    async (paths: string[], options: LeastPrivilegeOptions) => {
      const settings = await capabilitySettings(options, io.cwd, allRules);
      const project = await loadProjectFor(paths, options, io, settings, new Set(FRONTEND_RULES));
      if (!hasFrontend(project))
        throw new UsageError(
          `no frontend found for ${project.srcTauri ? "this app" : "these files"}: least-privilege reads the app's frontend (give --app, the folder of its package.json and src-tauri/)`,
        );
      const platforms = askedPlatforms(options);
      const resolution = resolveAll({
        capabilities: project.activeCapabilities,
        catalog: project.catalog,
        platforms: isPlatformIndependent(project) ? platforms.slice(0, 1) : platforms,
      });
      const history = await loadVersionHistory();
      const plan = leastPrivilege(project, resolution, (plugin) => history.has(plugin));
      const notWritten: Array<{ file: string; reason: string }> = [];
      let written: string[] | undefined;
      if (options.fix || options.write) {
        const writable = new Map(plan.files);
        for (const [absolutePath, change] of plan.files) {
          const link = await lstat(absolutePath).catch(() => undefined);
          if (link?.isSymbolicLink()) {
            notWritten.push({
              file: change.file,
              reason: "is a symbolic link: not written through it (edit the file it names)",
            });
            writable.delete(absolutePath);
          }
        }
        await writeFixes(writable);
        written = [...writable.values()].map((change) => change.file);
      }
      const left =
        plan.byHand.length > 0 ||
        notWritten.length > 0 ||
        (written === undefined && plan.changes.length > 0);
      const answer = {
        plan,
        lines: new SourceLines(project),
        ...(written ? { written } : {}),
        notWritten,
      };
      if (options.format === "sarif") {
        // The same findings as `check` gives for the frontend rules, through the core SARIF reporter.
        const only = new Set(FRONTEND_RULES.filter((id) => settings.runs(id)));
        const result = await lint(project, {
          only,
          severityFor: settings.severityFor,
          platforms: options.platform?.length ? options.platform : TARGETS,
        });
        const reporter = await loadReporter("sarif");
        const context = await lintReporterContext(
          { format: "sarif", rule: [], only: [] },
          io,
          io.stdout,
          CAPABILITY_RULES_BY_ID,
          readForCodeFrame,
        );
        io.stdout.write(
          reporter(
            {
              diagnostics: result.diagnostics,
              summary: summarize(result.diagnostics, result.files),
              notes: [plan.confidence],
            },
            context,
          ),
        );
      } else if (options.format === "json") io.stdout.write(renderLeastPrivilegeJson(answer));
      else io.stdout.write(renderLeastPrivilegeText(answer, await answerPaint(options, io)));
      setExitCode(exitCodeFor({ failed: left }));
    },
  );
}
