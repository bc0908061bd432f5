import { APP_FILE_NAMES } from "../load/cargo.js";
import { readPaths } from "../../core/source/read-log.js";
import type { Command } from "commander";
import path from "node:path";
import { lint } from "../lint.js";
import { loadProject, type Project } from "../load/project.js";
import { configDocuments } from "../load/app-config.js";
import { knownWindowLabels, originDisplay } from "../queries/project-model.js";
import {
  describePlatforms,
  resolvePlatformGroups,
  type PlatformGroup,
} from "../queries/platforms.js";
import { EXIT_OK } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { toolVersion } from "../../core/tool.js";
import { UsageError } from "../../core/errors.js";
import { frontendCallsByWindow, hasFrontend } from "../queries/frontend-access.js";
import { capabilitySettings, lintSettings, loadOptionsFrom } from "../check-run.js";
import { CAPABILITY_RULES } from "../rules/index.js";
import type { RuleMeta } from "../../core/lint/rule.js";
import {
  addQueryOptions,
  answerPaint,
  loadGroups,
  originOf,
  type QueryOptions,
} from "./query-options.js";
import { writeOutputFile } from "../../core/output.js";
import { addColorOptions } from "../../core/options.js";
import type { SetExitCode } from "../../core/command.js";
import { plural } from "../../core/wording.js";

interface ReportOptions extends QueryOptions {
  rule: string[];
  html?: string;
  /** The same as `html`: every other command writes its output with -o/--output. */
  output?: string;
  against?: string;
  window: string[];
  url?: string;
}

export function registerReport(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("report")
    .description(
      "a self-contained HTML page for security reviews: access heat map, grant chains, findings, and the diff against a baseline",
    )
    .option(
      "--html <file>",
      "write the HTML report to this file (atomically); - for standard output",
    )
    .option("-o, --output <file>", "the same as --html")
    .option(
      "--against <dir>",
      "a baseline version of the app (folder) to compare with: what this version grants beyond it is new",
    )
    .option(
      "-w, --window <label>",
      "a window to include (repeatable; default: every known label)",
      (v: string, p: string[]) => [...p, v],
      [],
    )
    .option(
      "-u, --url <url>",
      "origin of the calling pages: a URL, or local (default: every origin, local pages and every remote pattern)",
    )
    .option(
      "--rule <id=severity>",
      "set a rule's severity for the findings shown: off, suggestion, warning or error (repeatable)",
      (v: string, p: string[]) => [...p, v],
      [],
    );
  addColorOptions(addQueryOptions(command, ["html"])).action(
    async (paths: string[], options: ReportOptions) => {
      const { flag, target } = reportTarget(options);
      // The same settings as `check`, so both count the same findings.
      const settings = await capabilitySettings(options, io.cwd, allRules);
      const linted = lintSettings(settings, CAPABILITY_RULES);
      const { project, asked, groups } = await loadGroups(
        paths,
        options,
        io,
        settings,
        linted.only,
      );
      // Without --url the page covers every origin: a grant made only to remote pages is access too.
      const origin = options.url === undefined ? undefined : originOf(options.url, project);
      const windows = options.window.length ? options.window : knownWindowLabels(project);
      const result = await lint(project, { ...linted, platforms: asked });
      let against: { label: string; project: Project; groups: PlatformGroup[] } | undefined;
      if (options.against !== undefined) {
        const baseline = await loadProject(
          loadOptionsFrom([options.against], { ...options, app: undefined }, io.cwd, io.env ?? {}),
        );
        against = {
          label: options.against,
          project: baseline,
          groups: resolvePlatformGroups(baseline, asked),
        };
      }
      // Imported here so the other commands do not load the page's code.
      const [{ buildReport }, { renderReportHtml }] = await Promise.all([
        import("../html-report/model.js"),
        import("../html-report/html.js"),
      ]);
      const data = await buildReport({
        project,
        groups,
        asked,
        lint: result,
        windows,
        ...(origin ? { origin } : {}),
        app: appLabel(project, paths, options.app, io.cwd),
        toolVersion: toolVersion(),
        ...(against ? { against } : {}),
        // Which grants the frontend uses, for the pages the app serves (not asked for a remote origin).
        ...(origin?.kind !== "remote" && hasFrontend(project)
          ? { frontendCalls: frontendCallsByWindow(project) }
          : {}),
      });
      const html = renderReportHtml(data);
      if (target === "-") {
        io.stdout.write(html);
      } else {
        const inputs = [
          ...readPaths(project.read),
          ...project.documents.map((d) => d.absolutePath),
          ...configDocuments(project.config).map((document) => document.absolutePath),
        ];
        await writeOutputFile(
          flag,
          {
            given: target,
            cwd: io.cwd,
            stdout: io.stdout,
            inputs,
            projectFiles: APP_FILE_NAMES,
          },
          html,
        );
        const c = data.counts;
        // The line that says what was written: findings and dangerous grants coloured as `check` colours them.
        const paint = await answerPaint(options, io, true);
        const counted = (count: number, noun: string, colour: (text: string) => string) =>
          count ? colour(plural(count, noun)) : plural(count, noun);
        const scope = `${describePlatforms(asked, asked)}${data.platformGroups.length > 1 ? " (they differ)" : ""}, ${origin ? `origin ${originDisplay(origin)}` : "every origin"}`;
        const parts = [
          `${plural(c.windows, "window")} × ${plural(c.plugins, "plugin")} on ${scope}`,
          ...(c.remote ? [`${plural(c.remote, "command grant")} from remote pages only`] : []),
          `${counted(c.errors, "error", paint.error)}, ${counted(c.warnings, "warning", paint.warning)}${c.suggestions ? `, ${paint.dim(plural(c.suggestions, "suggestion"))}` : ""}`,
          counted(c.dangerousFindings, "dangerous grant", paint.error),
          ...(data.diff
            ? [
                `${c.added} new and ${c.removed} removed command grant${c.removed === 1 ? "" : "s"}${c.widened ? `, ${plural(c.widened, "wider scope value")}` : ""} against ${data.diff.against}`,
              ]
            : []),
          ...(settings.configLabel ? [`config: ${settings.configLabel}`] : []),
        ];
        io.stdout.write(`wrote ${target}: ${parts.join("; ")}\n`);
      }
      // The report is informational: findings and new access do not change the exit code.
      setExitCode(EXIT_OK);
    },
  );
}

/** Where the page goes, and the option that said so (errors about the file name it). */
function reportTarget(options: Pick<ReportOptions, "html" | "output">): {
  flag: string;
  target: string;
} {
  const html = options.html || undefined;
  const output = options.output || undefined;
  if (html !== undefined && output !== undefined && html !== output)
    throw new UsageError(
      `report: --html ${html} and --output ${output} name two places to write the page; give one`,
    );
  if (html !== undefined) return { flag: "--html", target: html };
  if (output !== undefined) return { flag: "--output", target: output };
  throw new UsageError(
    "report: say where to write it with --html FILE or -o FILE (- for standard output)",
  );
}

/** The app folder as the reader knows it: relative to the working directory, POSIX separators. */
function appLabel(
  project: Project,
  paths: readonly string[],
  app: string | undefined,
  cwd: string,
): string {
  const relative = (absolute: string) =>
    path.relative(cwd, absolute).split(path.sep).join("/") || ".";
  if (project.srcTauri)
    return relative(
      path.basename(project.srcTauri) === "src-tauri"
        ? path.dirname(project.srcTauri)
        : project.srcTauri,
    );
  if (app !== undefined) return app;
  return paths.length ? paths.join(", ") : ".";
}
