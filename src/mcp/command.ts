import { InvalidArgumentError, Option, type Command } from "commander";
import { collectCommaList, parsePositiveInteger } from "../core/options.js";
import type { MainOptions } from "../core/io.js";
import type { RegisterCommands, SetExitCode } from "../core/command.js";
import { addLintOptions } from "../core/lint/lint-command.js";
import type { McpCommandOptions } from "./options.js";

const collect = (value: string, previous: string[]) => [...previous, value];

function seconds(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 3600)
    throw new InvalidArgumentError("expected seconds, more than 0 and at most 3600");
  return parsed;
}

/** Options shared by `mcp` and `mcp dump`: how to reach a live server. */
function addLiveOptions(command: Command): Command {
  return command
    .option(
      "--stdio",
      "run the server: the command and its arguments follow -- (caplint mcp --stdio -- node server.js)",
    )
    .option(
      "--url <url>",
      "connect to a streamable HTTP server (http://HOST:PORT/PATH); legacy SSE is tried when it is not there",
    )
    .addOption(new Option("--timeout <seconds>", "per request").argParser(seconds).default(30))
    .option(
      "--env <KEY=VALUE>",
      "environment variable for the --stdio server (repeatable; it otherwise gets only HOME, PATH, SHELL, TERM, USER, LOGNAME)",
      collect,
      [],
    )
    .option(
      "--probe",
      "also call tools to check what a listing cannot show; ONLY tools with readOnlyHint: true are called",
    )
    .addOption(
      new Option("--max-calls <n>", "most tool calls --probe makes")
        .argParser(parsePositiveInteger)
        .default(20),
    )
    .option(
      "--service <name>",
      "the service prefix of tool names, for mcp-tool-prefix (default: taken from serverInfo.name)",
    )
    .option("--verbose", "pass the server's stderr through and say what was fetched")
    .option(
      "--servers <file>",
      "lint every server a client configuration declares, live: .vscode/mcp.json, claude_desktop_config.json, .cursor/mcp.json, .mcp.json (findings at each server's entry)",
    )
    .option("--server <name>", "with --servers: lint only this server (repeatable)", collect, []);
}

/**
 * `caplint mcp`: lints tool servers against the spec's conventions, from files (offline, the CI
 * default) or live. Everything heavy (the rules, Ajv, the MCP SDK) loads inside the action, and the
 * SDK only for live runs, so other commands do not pay for it.
 */
export const registerMcpCommands: RegisterCommands = (
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  registry,
): void => {
  // `dump` is the first operand rather than a commander subcommand: commander hands options written
  // after a subcommand to the parent when both know them (--stdio, --url), unless every ancestor
  // enables positional options, which would change how `check` parses.
  const mcp = program
    .command("mcp")
    .usage(
      "[options] FILE...  |  --stdio -- CMD ARGS...  |  --url URL  |  --servers CONFIG [--server NAME...]  |  dump (--stdio -- CMD ARGS... | --url URL) [-o FILE]",
    )
    .description(
      "lint MCP tool servers against the spec's tool-server conventions: tools/list results or dumps (offline), or a live server (--stdio, --url).\n" +
        "`caplint mcp dump ...` writes a live server's initialize result and every tools/list page as JSON instead, for offline linting.",
    )
    .argument(
      "[files...]",
      "tools/list results or caplint mcp dump files; with --stdio, the server command after --",
    );
  addLiveOptions(mcp)
    .addOption(
      new Option(
        "--server-name-style <style>",
        "server name convention of mcp-server-name: python ({service}_mcp), node ({service}-mcp-server) or any (either)",
      )
        .choices(["any", "python", "node"])
        .default("any"),
    )
    .option(
      "--verbs <list>",
      "more action verbs accepted by mcp-tool-verb (comma-separated, repeatable)",
      collectCommaList,
      [],
    )
    .option(
      "--list-tools <list>",
      "tools that are list tools for mcp-pagination-params, mcp-pagination-result and mcp-pagination-contract, whatever the heuristics say; !name for one that is not (comma-separated, repeatable)",
      collectCommaList,
      [],
    )
    .addOption(
      new Option(
        "--max-file-size <bytes>",
        "largest file read, in bytes (default 10 MiB)",
      ).argParser(parsePositiveInteger),
    );
  addLintOptions(mcp, {
    output:
      "write the report (with dump: the dump) to this file, atomically, instead of standard output",
  }).action(async (files: string[], options: McpCommandOptions) => {
    if (files[0] === "dump")
      setExitCode(await (await import("./run.js")).runDump(files.slice(1), options, io));
    else if (options.servers !== undefined) {
      const { runConfiguredServers } = await import("./configured-servers.js");
      setExitCode(await runConfiguredServers(options.servers, files, options, io, registry.byId));
    } else setExitCode(await (await import("./run.js")).runMcp(files, options, io, registry.byId));
  });
};
