import type { Command } from "commander";
import { resolveAccess } from "../engine/index.js";
import { SourceLines } from "../queries/project-model.js";
import { renderAccessJson, renderAccessText } from "../render/access.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import { EXIT_FINDINGS, EXIT_OK } from "../../core/exit-codes.js";
import type { MainOptions } from "../../core/io.js";
import { UsageError } from "../../core/errors.js";
import { addQueryOptions, loadModel, originOf, type QueryOptions } from "./query-options.js";
import type { SetExitCode } from "../../core/command.js";

interface AccessOptions extends QueryOptions {
  window: string;
  webview?: string;
  url?: string;
  command?: string;
}

export function registerAccess(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("access")
    .description("what a window (or webview) may call from an origin, and why; with --command, one yes/no answer (exit 0/1)")
    .requiredOption("-w, --window <label>", "window label")
    .option("--webview <label>", "webview label (default: the window's label)")
    .option("-u, --url <url>", "origin of the calling page (default: the app's own local pages)")
    .option("-C, --command <name>", "one command, as invoked: plugin:window|close, plugin:fs|read_file, my_command");
  addQueryOptions(command, ["text", "json"]).action(async (paths: string[], options: AccessOptions) => {
    const { project, model } = await loadModel(paths, options, io);
    const origin = originOf(options.url, project);
    if (options.command !== undefined) {
      const known = new Set([...model.allowed.keys(), ...model.denied.keys()]);
      if (!known.has(options.command) && !options.command.includes("|") && !/^[a-z0-9_]+$/i.test(options.command)) {
        const close = nearest(options.command, known, 3);
        throw new UsageError(`--command ${options.command}: write the command as invoked, e.g. plugin:window|close${close.length ? `; did you mean ${quoteList(close)}?` : ""}`);
      }
    }
    const result = resolveAccess(model, { window: options.window, webview: options.webview, origin, command: options.command });
    const lines = new SourceLines(project);
    const render = options.format === "json" ? renderAccessJson : renderAccessText;
    io.stdout.write(render({ result, origin, webview: options.webview ?? options.window, platform: model.platform, lines }));
    const verdict = result.explanation?.verdict;
    // The host lets an unchecked call through, so it is not a "no".
    setExitCode(verdict === undefined || verdict === "allowed" || verdict === "unchecked" ? EXIT_OK : EXIT_FINDINGS);
  });
}
