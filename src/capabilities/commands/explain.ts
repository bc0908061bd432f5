import type { Command } from "commander";
import {
  commandIndexFor,
  commandOfRefusal,
  explainCall,
  parseRefusal,
  type CallExplanation,
  type Refusal,
} from "../queries/explain.js";
import { lookupCommand } from "../queries/command-names.js";
import {
  appIdentifier,
  explainScopeRefusal,
  narrowestScopeValue,
  parseScopeRefusal,
  type ScopeRefusal,
} from "../queries/scope-refusal.js";
import { renderScopeRefusal, scopeRefusalJson } from "../render/scope-refusal.js";
import { knownWindowLabels, originDisplay, SourceLines } from "../queries/project-model.js";
import { describePlatforms, type PlatformGroup } from "../queries/platforms.js";
import { quoteList } from "../../core/did-you-mean.js";
import { EXIT_OK } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { UsageError } from "../../core/errors.js";
import {
  addQueryOptions,
  answerPaint,
  loadGroups,
  originOf,
  type QueryOptions,
} from "./query-options.js";
import { capabilitySettings } from "../check-run.js";
import { callJson, renderCall } from "../render/call.js";
import type { SetExitCode } from "../../core/command.js";
import type { RuleMeta } from "../../core/lint/rule.js";
import { textLines, type Paint } from "../../core/terminal-text.js";
import type { Project } from "../load/project.js";
import { readStandardInput } from "../../core/source/stdin.js";
import { DEFAULT_MAX_FILE_BYTES } from "../../core/source/read.js";

interface ExplainOptions extends QueryOptions {
  window?: string;
  webview?: string;
  url?: string;
  command?: string;
}

const EXAMPLE = `caplint explain 'fs.read_text_file not allowed on window "main", webview "main", URL: local'`;

export function registerExplain(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
): void {
  const command = program
    .command("explain")
    .description(
      "paste Tauri's \"not allowed\" error or a plugin's scope refusal (fs, http, shell, opener, asset protocol): why the call was refused, and the smallest entry that allows it",
    )
    .argument(
      "<message>",
      "the error text as the runtime printed it (- reads it from standard input)",
    )
    .option(
      "-w, --window <label>",
      "the calling window, when the message does not name it (release builds)",
    )
    .option("--webview <label>", "the calling webview, when the message does not name it")
    .option(
      "-u, --url <url>",
      "the calling page's URL, when the message does not name it (default: local)",
    )
    .option(
      "-C, --command <command>",
      "the refused command, for an fs refusal that names no permission (release builds)",
    );
  addQueryOptions(command, ["text", "json"]).action(
    async (message: string, paths: string[], options: ExplainOptions) => {
      // Through io.stdin as check - reads it: bounded, injectable into main(), and a non-blocking pipe waits instead of failing with EAGAIN.
      const text =
        message === "-"
          ? await readStandardInput(io.stdin, options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES)
          : message;
      const refusal = parseRefusal(text);
      const scopeRefusal = refusal ? undefined : parseScopeRefusal(text);
      if (!refusal && !scopeRefusal) {
        throw new UsageError(
          `explain: no refusal of Tauri's ACL or of a plugin's scope found in the text; paste the error as printed, e.g. ${EXAMPLE} or 'forbidden path: /home/me/notes.md, maybe it is not allowed on the scope for \`allow-read-text-file\` permission in your capability file'`,
        );
      }
      const { project, asked, groups } = await loadGroups(
        paths,
        options,
        io,
        await capabilitySettings(options, io.cwd, allRules),
      );
      const paint = options.format === "json" ? undefined : await answerPaint(options, io);
      const answer = refusal
        ? explainRefusal(project, refusal, { groups, asked, ...options }, paint)
        : explainScopeText(project, scopeRefusal!, { groups, asked, ...options }, paint);
      io.stdout.write(answer);
      setExitCode(EXIT_OK);
    },
  );
}

export interface RefusalQuestion {
  groups: PlatformGroup[];
  /** The platforms asked about. */
  asked: string[];
  window?: string;
  webview?: string;
  url?: string;
}

/**
 * Why the host refused a call, in the app `project`: the text `caplint explain` prints (or, without
 * `paint`, its JSON). The language server's "explain" action writes the same text. A command the
 * catalog does not know is a UsageError.
 */
export function explainRefusal(
  project: Project,
  refusal: Refusal,
  question: RefusalQuestion,
  paint?: Paint,
): string {
  const { groups, asked } = question;
  const index = commandIndexFor(project.catalog, groups);
  const lookup = commandOfRefusal(refusal, index);
  if (!lookup.ok)
    throw new UsageError(
      `explain: ${lookup.message}${lookup.suggestions.length ? `; did you mean ${quoteList(lookup.suggestions)}?` : ""}`,
    );

  const notes: string[] = [];
  const { window, webview, origin } = caller(
    project,
    question,
    refusal,
    notes,
    "a release build, or a check before the window check",
  );
  const lines = new SourceLines(project);
  const call = explainCall(
    project,
    groups,
    {
      command: lookup.command,
      known: lookup.known,
      suggestions: lookup.suggestions,
      window,
      webview,
      origin,
    },
    (at) => lines.line(at.file, at.path),
  );

  if (!paint)
    return (
      JSON.stringify({ refusal, platforms: asked, notes, ...callJson(call, lines) }, null, 2) + "\n"
    );
  const out = [
    `${call.framework} refused ${lookup.command} for window "${window}", webview "${webview}", origin ${originDisplay(origin)} ${paint.dim(`(${describeKind(kindFound(refusal.kind, call), call.framework)})`)}`,
    `caplint resolves this app for ${describePlatforms(asked, asked)}:`,
    ...notes.map((note) => `${paint.warning("note:")} ${note}`),
    ...renderCall(call, asked, lines, paint),
  ];
  if (call.verdicts.every((v) => v.explanation.verdict === "allowed")) {
    out.push("");
    out.push(
      "caplint finds the call allowed: the message comes from a build with other capabilities (rebuild the app), another platform, or another window or URL than the one given",
    );
  }
  return textLines(out);
}

/** The calling window, webview and origin: the options, else the message, else the app's likeliest window (with a note). */
function caller(
  project: Project,
  question: RefusalQuestion,
  named: { window?: string; webview?: string; url?: string },
  notes: string[],
  why: string,
) {
  let window = question.window ?? named.window;
  if (window === undefined) {
    const labels = knownWindowLabels(project);
    window =
      labels.length === 1 ? labels[0]! : labels.includes("main") ? "main" : (labels[0] ?? "main");
    notes.push(
      `the message does not name the window (${why}); assuming "${window}" (pass --window)`,
    );
  }
  return {
    window,
    webview: question.webview ?? named.webview ?? window,
    origin: originOf(question.url ?? named.url, project),
  };
}

/**
 * A plugin's scope refusal (fs, http, shell, opener, the asset protocol): the scope entries the
 * plugin read for the window, per platform, and the narrowest entry that lets the call through.
 */
export function explainScopeText(
  project: Project,
  refusal: ScopeRefusal,
  question: RefusalQuestion & { command?: string },
  paint?: Paint,
): string {
  const { groups, asked } = question;
  const notes: string[] = [];
  let command: string | undefined;
  if (question.command !== undefined) {
    const lookup = lookupCommand(question.command, commandIndexFor(project.catalog, groups));
    if (!lookup.ok || !lookup.known) {
      const suggestions = lookup.suggestions;
      throw new UsageError(
        `--command: ${lookup.ok ? `no permission of the app or its plugins names ${lookup.command}` : lookup.message}${suggestions.length ? `; did you mean ${quoteList(suggestions)}?` : ""}`,
      );
    }
    if (!lookup.command.startsWith(`plugin:${refusal.plugin}|`))
      throw new UsageError(
        `--command: ${lookup.command} is not a command of the ${refusal.plugin} plugin, whose refusal the text holds`,
      );
    command = lookup.command;
  }
  const { window, webview, origin } = caller(
    project,
    question,
    {},
    notes,
    "a plugin's scope refusal never does",
  );
  // The asset protocol's scope is the app's, whatever window loads the file.
  if (refusal.plugin === "asset") notes.length = 0;
  const lines = new SourceLines(project);
  const answer = explainScopeRefusal(
    project,
    groups,
    refusal,
    { window, webview, origin, ...(command ? { command } : {}) },
    (file, path) => lines.line(file, path),
  );
  // The ACL refuses the command to this window everywhere: the plugin never read its scope, and the
  // answer is the ACL's, with the refused path, URL or program as the new grant's scope.
  const aclCommand = answer.verdicts.every((v) => v.scope === "not-reached")
    ? answer.verdicts.find((v) => v.command)?.command
    : undefined;
  const call = aclCommand
    ? explainCall(
        project,
        groups,
        {
          command: aclCommand,
          known: true,
          window,
          webview,
          origin,
          scope: narrowestScopeValue(refusal, appIdentifier(project)),
        },
        (at) => lines.line(at.file, at.path),
      )
    : undefined;
  if (!paint)
    return (
      JSON.stringify(
        {
          platforms: asked,
          ...scopeRefusalJson({ ...answer, notes: [...notes, ...answer.notes] }),
          ...(call ? { call: callJson(call, lines) } : {}),
        },
        null,
        2,
      ) + "\n"
    );
  return textLines([
    ...renderScopeRefusal(answer, asked, notes, paint),
    ...(call ? renderCall(call, asked, lines, paint) : []),
  ]);
}

/**
 * The refusal's kind as this app's capabilities show it: the host says "not allowed on window …" for a
 * command no capability grants too (a command it found in no allow list), and that is not "granted elsewhere".
 */
function kindFound(kind: string, call: CallExplanation): string {
  if (
    kind === "not-allowed-here" &&
    call.verdicts.every((v) => v.explanation.allowEntries.length === 0)
  )
    return "not-granted";
  return kind;
}

function describeKind(kind: string, framework: string): string {
  switch (kind) {
    case "release":
      return "release-build message: it names no window or URL";
    case "denied":
      return "an explicit deny";
    case "not-allowed-here":
      return "granted to other windows or origins, not this one";
    case "plugin-not-found":
      return `${framework} knows no such plugin`;
    case "command-not-found":
      return "no permission of the plugin has the command";
    default:
      return "no capability grants it";
  }
}
