import type { Command } from "commander";
import { commandIndexFor, commandOfRefusal, explainCall, parseRefusal, type Refusal } from "../queries/explain.js";
import { knownWindowLabels, originDisplay, SourceLines } from "../queries/project-model.js";
import { describePlatforms, type PlatformGroup } from "../queries/platforms.js";
import { quoteList } from "../../core/did-you-mean.js";
import { EXIT_OK } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { UsageError } from "../../core/errors.js";
import { addQueryOptions, answerPaint, loadGroups, originOf, type QueryOptions } from "./query-options.js";
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
}

const EXAMPLE = `caplint explain 'fs.read_text_file not allowed on window "main", webview "main", URL: local'`;

export function registerExplain(program: Command, io: MainOptions, setExitCode: SetExitCode, allRules: ReadonlyMap<string, RuleMeta>): void {
  const command = program
    .command("explain")
    .description('paste the host\'s "not allowed" error: why the call was refused, and the smallest capability entry that allows it')
    .argument("<message>", "the error text as the runtime printed it (- reads it from standard input)")
    .option("-w, --window <label>", "the calling window, when the message does not name it (release builds)")
    .option("--webview <label>", "the calling webview, when the message does not name it")
    .option("-u, --url <url>", "the calling page's URL, when the message does not name it (default: local)");
  addQueryOptions(command, ["text", "json"]).action(async (message: string, paths: string[], options: ExplainOptions) => {
    // Through io.stdin as check - reads it: bounded, injectable into main(), and a non-blocking pipe waits instead of failing with EAGAIN.
    const text = message === "-" ? await readStandardInput(io.stdin, options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES) : message;
    const refusal = parseRefusal(text);
    if (!refusal) {
      throw new UsageError(`explain: no "not allowed" message of the host found in the text; paste the error as printed, e.g. ${EXAMPLE}`);
    }
    const { project, asked, groups } = await loadGroups(paths, options, io, await capabilitySettings(options, io.cwd, allRules));
    const answer = explainRefusal(project, refusal, { groups, asked, ...options }, options.format === "json" ? undefined : await answerPaint(options, io));
    io.stdout.write(answer);
    setExitCode(EXIT_OK);
  });
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
export function explainRefusal(project: Project, refusal: Refusal, question: RefusalQuestion, paint?: Paint): string {
  const { groups, asked } = question;
  const index = commandIndexFor(project.catalog, groups);
  const lookup = commandOfRefusal(refusal, index);
  if (!lookup.ok) throw new UsageError(`explain: ${lookup.message}${lookup.suggestions.length ? `; did you mean ${quoteList(lookup.suggestions)}?` : ""}`);

  const notes: string[] = [];
  let window = question.window ?? refusal.window;
  if (window === undefined) {
    const labels = knownWindowLabels(project);
    window = labels.length === 1 ? labels[0]! : labels.includes("main") ? "main" : (labels[0] ?? "main");
    notes.push(`the message does not name the window (a release build, or a check before the window check); assuming "${window}" (pass --window)`);
  }
  const webview = question.webview ?? refusal.webview ?? window;
  const origin = originOf(question.url ?? refusal.url, project);
  const lines = new SourceLines(project);
  const call = explainCall(project, groups, { command: lookup.command, known: lookup.known, suggestions: lookup.suggestions, window, webview, origin }, (at) =>
    lines.line(at.file, at.path),
  );

  if (!paint) return JSON.stringify({ refusal, platforms: asked, notes, ...callJson(call, lines) }, null, 2) + "\n";
  const out = [
    `the host refused ${lookup.command} for window "${window}", webview "${webview}", origin ${originDisplay(origin)} ${paint.dim(`(${describeKind(refusal.kind)})`)}`,
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

function describeKind(kind: string): string {
  switch (kind) {
    case "release":
      return "release-build message: it names no window or URL";
    case "denied":
      return "an explicit deny";
    case "not-allowed-here":
      return "granted to other windows or origins, not this one";
    case "plugin-not-found":
      return "the host knows no such plugin";
    case "command-not-found":
      return "no permission of the plugin has the command";
    default:
      return "no capability grants it";
  }
}
