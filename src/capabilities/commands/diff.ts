import path from "node:path";
import { Option, type Command } from "commander";
import { loadProject } from "../load/project.js";
import { ACCESS_KINDS, diffAccessOnPlatforms, type AccessKind } from "../queries/diff.js";
import { SourceLines } from "../queries/project-model.js";
import { resolvePlatformGroups } from "../queries/platforms.js";
import {
  diffDiagnostics,
  renderDiffJson,
  renderDiffText,
  type DiffAnswer,
} from "../render/diff.js";
import { exitCodeFor } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { UsageError } from "../../core/errors.js";
import {
  gitLocation,
  resolveCommit,
  snapshotCommit,
  type GitSnapshot,
} from "../load/git-snapshot.js";
import { DEFAULT_MAX_FILE_BYTES } from "../../core/source/read.js";
import { loadReporter } from "../../core/reporters/index.js";
import { reporterContext } from "../../core/reporters/context.js";
import { summarize } from "../../core/diagnostics.js";
import { applyConfig, capabilitySettings, loadOptionsFrom } from "../check-run.js";
import {
  addQueryOptions,
  answerPaint,
  askedPlatforms,
  type QueryOptions,
} from "./query-options.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/lint/rule.js";
import { HOMEPAGE } from "../../core/tool.js";
import { abbreviated, didYouMean, nearest } from "../../core/did-you-mean.js";

interface DiffOptions extends QueryOptions {
  base?: string;
  head?: string;
  failOn: AccessKind[];
}

const FORMATS = ["text", "json", "compact", "github", "sarif"] as const;

export function registerDiff(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  rules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("diff")
    .description(
      'access NEW grants that OLD did not (commands, origins, windows, scope values of commands and of plugins\' global scopes), and access removed, on every platform unless --platform; exit 1 when anything is new (a "no new access" gate). ' +
        "With --base REF: the app at that git commit against the work tree (or --head REF), read from git's objects without a checkout",
    )
    .argument(
      "[old]",
      "old app folder or capabilities folder; with --base: the app folder in the repository (default: the app here)",
    )
    .argument("[new]", "new app folder or capabilities folder (not with --base)");
  for (const option of addQueryOptions(program.createCommand("diff"), FORMATS).options) {
    // --config: each side has its own (from git: that commit's caplint.config.json). --app means the
    // app folder inside the repository with --base, as in every other command; OLD and NEW name two apps.
    if (option.long === "--app")
      command.addOption(
        new Option(
          option.flags,
          "with --base: the app folder (holding src-tauri/, or src-tauri/ itself, or a folder above one; default: the app here)",
        ),
      );
    else if (option.long !== "--config") command.addOption(option);
  }
  command
    .addOption(
      new Option(
        "--base <ref>",
        "compare against this git commit, branch or tag (e.g. origin/main), read from git without a checkout",
      ),
    )
    .addOption(
      new Option(
        "--head <ref>",
        "with --base: the new side from this git commit too (default: the work tree)",
      ),
    )
    .addOption(
      new Option(
        "--fail-on <kinds>",
        `which new access fails the gate: ${ACCESS_KINDS.join(", ")} (comma-separated; scopes include plugins' global scopes), or none`,
      )
        .argParser(parseKinds)
        .default([...ACCESS_KINDS], ACCESS_KINDS.join(",")),
    );
  command.action(
    async (oldPath: string | undefined, newPath: string | undefined, options: DiffOptions) => {
      const asked = askedPlatforms(options);
      const snapshots: GitSnapshot[] = [];
      try {
        let sides: Array<{ cwd: string; paths: string[]; withConfig: boolean }>;
        // A file of the old side as the new side names it: the same name when both sides are one repository.
        let newFileOf = (file: string) => file;
        if (options.base !== undefined) {
          if (newPath !== undefined)
            throw new UsageError(
              "diff --base REF takes at most one folder (the app), not OLD and NEW",
            );
          if (oldPath !== undefined && options.app !== undefined)
            throw new UsageError(
              `diff --base: name the app once, as --app ${options.app} or as ${oldPath}`,
            );
          const { top, prefix } = await gitLocation(io.cwd);
          const maxBytes = options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES;
          const sideFromGit = async (option: string, ref: string) => {
            const snapshot = await snapshotCommit(
              top,
              await resolveCommit(top, option, ref),
              option,
              maxBytes,
            );
            snapshots.push(snapshot);
            return path.join(snapshot.root, ...prefix.split("/").filter(Boolean));
          };
          const baseCwd = await sideFromGit("--base", options.base);
          const headCwd =
            options.head === undefined ? io.cwd : await sideFromGit("--head", options.head);
          const paths = oldPath === undefined ? [] : [oldPath];
          sides = [
            { cwd: baseCwd, paths, withConfig: true },
            { cwd: headCwd, paths, withConfig: true },
          ];
        } else {
          if (options.head !== undefined) throw new UsageError("--head needs --base");
          if (options.app !== undefined)
            throw new UsageError(
              `diff --app ${options.app}: --app names the app with --base REF; without it, give OLD and NEW folders`,
            );
          if (oldPath === undefined || newPath === undefined)
            throw new UsageError(
              "diff needs OLD and NEW folders, or --base REF (a git commit to compare the work tree with)",
            );
          sides = [
            { cwd: io.cwd, paths: [oldPath], withConfig: false },
            { cwd: io.cwd, paths: [newPath], withConfig: false },
          ];
          const [oldRoot, newRoot] = [path.resolve(io.cwd, oldPath), path.resolve(io.cwd, newPath)];
          newFileOf = (file) =>
            path
              .relative(
                io.cwd,
                path.join(newRoot, path.relative(oldRoot, path.resolve(io.cwd, file))),
              )
              .split(path.sep)
              .join("/");
        }
        const loaded = await Promise.all(
          sides.map(async ({ cwd, paths, withConfig }) => {
            // --app (with --base) is the same folder in both sides' trees.
            const app = withConfig ? options.app : undefined;
            const load = loadOptionsFrom(paths, { ...options, app }, cwd, io.env ?? {});
            const project = await loadProject(
              withConfig ? applyConfig(load, await capabilitySettings({ app }, cwd, rules)) : load,
            );
            return {
              cwd,
              groups: resolvePlatformGroups(project, asked),
              lines: new SourceLines(project),
            };
          }),
        );
        const [before, after] = loaded as [(typeof loaded)[number], (typeof loaded)[number]];
        const answer: DiffAnswer = {
          asked,
          ...diffAccessOnPlatforms(before.groups, after.groups),
          before: before.lines,
          after: after.lines,
        };
        const failing =
          answer.added.some((grant) =>
            grant.kinds?.some((kind) => options.failOn.includes(kind)),
          ) ||
          (options.failOn.includes("scopes") && answer.scopes.length > 0);
        if (options.format === "json") io.stdout.write(renderDiffJson(answer, options.failOn));
        else if (options.format === "text")
          io.stdout.write(renderDiffText(answer, await answerPaint(options, io)));
        else {
          // The findings name the new side's files as the work tree does (a side read from git stands in for it at the same place).
          const diagnostics = diffDiagnostics(answer, options.failOn, io.cwd, newFileOf);
          const reporter = await loadReporter(options.format as "compact" | "github" | "sarif");
          const context = await reporterContext({
            cwd: io.cwd,
            color: options.color,
            isTTY: io.stdout.isTTY,
            env: io.env ?? {},
            rules: DIFF_RULES,
            sourceText: () => undefined,
          });
          // new-access is no lint rule with a page of its own: its docs are the README's section on diff.
          context.docsUrl = () => `${HOMEPAGE}#access-queries`;
          io.stdout.write(reporter({ diagnostics, summary: summarize(diagnostics, 0) }, context));
        }
        setExitCode(exitCodeFor({ failed: failing }));
      } finally {
        await Promise.all(snapshots.map((snapshot) => snapshot.dispose()));
      }
    },
  );
}

/** The one "rule" of diff's findings in compact, github and SARIF output. */
const DIFF_RULES: ReadonlyMap<string, RuleMeta> = new Map([
  [
    "new-access",
    {
      id: "new-access",
      domain: "capabilities",
      description:
        "A change grants access the base did not: a new command, a new remote origin, or a wider scope.",
      category: "security",
      defaultSeverity: "error",
      fixable: false,
      messages: {},
    } as unknown as RuleMeta,
  ],
]);

function closeKinds(kind: string): string[] {
  const kinds = [...ACCESS_KINDS, "none"];
  return [...new Set([...nearest(kind, kinds, 2), ...abbreviated(kind, kinds)])];
}

function parseKinds(value: string): AccessKind[] {
  if (value.trim() === "none") return [];
  const kinds = value.split(",").map((kind) => kind.trim().toLowerCase());
  for (const kind of kinds)
    if (!(ACCESS_KINDS as readonly string[]).includes(kind))
      throw new UsageError(
        `--fail-on ${value}: "${kind}" is not one of ${ACCESS_KINDS.join(", ")}, none${didYouMean(closeKinds(kind))}`,
      );
  return kinds as AccessKind[];
}
