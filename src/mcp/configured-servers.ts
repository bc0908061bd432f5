import { homedir } from "node:os";
import path from "node:path";
import { DEFAULT_MAX_FILE_BYTES, readTextFile } from "../core/source/read.js";
import { FatalError } from "../core/errors.js";
import { LineIndex } from "../core/source/line-index.js";
import type { Diagnostic } from "../core/diagnostics.js";
import type { MainOptions } from "../core/io.js";
import type { RuleMeta } from "../core/lint/rule.js";
import { createDiagnostic, type Place } from "../core/lint/run-rules.js";
import { displayFile } from "../core/file-names.js";
import { readClientConfig, type ConfigContext, type ConfiguredServer } from "./client-config.js";
import SERVER_START_META from "./rules/mcp-server-start.js";
import type { McpCommandOptions } from "./options.js";
import { Redactor } from "./redact.js";
import {
  checkService,
  lintListings,
  liveListing,
  mcpSettings,
  redacted,
  startLiveServer,
  stopServer,
  targetLabel,
  writeReport,
} from "./run.js";
import { quote } from "./text.js";

/**
 * `caplint mcp --servers FILE [--server NAME...]`: every server the client configuration declares
 * (or the ones named), linted one after another, live. Each server's findings are reported at its
 * entry in FILE, so that SARIF and annotations land in the repository; a server that cannot be
 * started is a finding there too, and the others still run.
 */
export async function runConfiguredServers(
  given: string,
  operands: string[],
  options: McpCommandOptions,
  io: MainOptions,
  allRules: ReadonlyMap<string, RuleMeta>,
): Promise<number> {
  // One redactor for the run: every secret it is shown is hidden from everything the run writes.
  const redactor = new Redactor();
  try {
    return await lintConfiguredServers(given, operands, options, io, allRules, redactor);
  } catch (error) {
    throw redacted(error, redactor);
  }
}

async function lintConfiguredServers(
  given: string,
  operands: string[],
  options: McpCommandOptions,
  io: MainOptions,
  allRules: ReadonlyMap<string, RuleMeta>,
  redactor: Redactor,
): Promise<number> {
  if (operands.length > 0 || options.stdio || options.url !== undefined)
    throw new FatalError(
      "--servers lints the servers of a configuration: give no files, --stdio or --url with it",
    );
  if (options.env.length > 0)
    throw new FatalError(
      '--env applies to --stdio servers; write a configured server\'s variables in its "env"',
    );
  const service = options.service === undefined ? undefined : checkService(options.service);
  const absolute = path.resolve(io.cwd, given);
  const file = displayFile(io.cwd, absolute);
  const read = readTextFile(absolute, options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES);
  if (!read.ok) throw new FatalError(`${given}: ${read.message}`);
  const declared = readClientConfig(
    absolute,
    file,
    read.text,
    { env: io.env ?? {}, home: io.env?.HOME ?? homedir() },
    read.invalidUtf8At,
  );
  const selected = select(declared, options.server, file);
  const severities = await mcpSettings(options, io, allRules);
  const placeOf = entryPlacer(read.text, file, absolute);
  const diagnostics: Diagnostic[] = [];
  const notes: string[] = [];
  const failure = (
    server: ConfiguredServer,
    messageId: keyof typeof SERVER_START_META.messages,
    data: Record<string, string>,
    hint?: string,
  ) => diagnostics.push(serverStartFinding(server, placeOf(server), messageId, data, hint));

  let linted = 0;
  for (const server of selected) {
    if (server.disabled && options.server.length === 0) {
      notes.push(
        `server ${quote(server.name)} is disabled in ${file}: not linted (name it with --server to lint it)`,
      );
      continue;
    }
    linted++;
    if (server.problem) {
      failure(
        server,
        server.problem.messageId,
        server.problem.data,
        PROBLEM_HINTS[server.problem.messageId],
      );
      continue;
    }
    const target = server.target!;
    const label = targetLabel(target, redactor);
    let live: Awaited<ReturnType<typeof startLiveServer>>;
    try {
      live = await startLiveServer(target, options, io, redactor);
      const listing = await liveListing(live!, options, io, redactor, label);
      const found = await lintListings([listing], options, severities, service);
      // A live server's findings have no place in the file: they are shown at its entry.
      for (const d of found) diagnostics.push({ ...d, ...placeOf(server), path: server.path });
    } catch (error) {
      if (!(error instanceof FatalError)) throw error;
      failure(
        server,
        "failed",
        { server: quote(server.name), problem: redactor.text(error.message) },
        "run the server by hand (caplint mcp --stdio -- CMD ARGS..., or --url) to see it fail; --verbose shows its stderr",
      );
    } finally {
      await stopServer(live);
    }
  }
  return writeReport(
    diagnostics,
    { count: linted, texts: new Map([[absolute, read.text]]), inputs: [absolute], notes },
    options,
    io,
    severities,
    redactor,
  );
}

/**
 * What can be said of a client configuration without starting any server (the language server's
 * check as you type): the entries that could not be run, at each entry. Not a configuration at all:
 * a FatalError, as for `--servers`.
 */
export function configuredServerProblems(
  text: string,
  absolutePath: string,
  file: string,
  context: ConfigContext,
): Diagnostic[] {
  const placeOf = entryPlacer(text, file, absolutePath);
  return readClientConfig(absolutePath, file, text, context)
    .filter((server) => server.problem !== undefined && !server.disabled)
    .map((server) =>
      serverStartFinding(
        server,
        placeOf(server),
        server.problem!.messageId,
        server.problem!.data,
        PROBLEM_HINTS[server.problem!.messageId],
      ),
    );
}

/** Where a server's entry (its name) is in the configuration. */
function entryPlacer(
  text: string,
  file: string,
  absolutePath: string,
): (server: ConfiguredServer) => Place {
  const lines = new LineIndex(text);
  return (server) => ({
    file,
    absolutePath,
    range: {
      start: lines.position(server.offset),
      end: lines.position(server.offset + server.length),
    },
    offset: server.offset,
    length: server.length,
  });
}

function serverStartFinding(
  server: ConfiguredServer,
  place: Place,
  messageId: keyof typeof SERVER_START_META.messages,
  data: Record<string, string>,
  hint: string | undefined,
): Diagnostic {
  return createDiagnostic(
    SERVER_START_META,
    "error",
    { path: server.path, messageId, data, hint },
    place,
  );
}

const PROBLEM_HINTS: Record<string, string> = {
  unresolvedInput:
    'give the value through the environment instead (VS Code: "${env:NAME}"), or leave the server out with --server',
  unsetVariable:
    "set the variable in the environment caplint runs in (a CI secret), give a default with ${NAME:-default}, or leave the server out with --server",
  invalidEntry:
    'a stdio server needs "command" (and "args", "env", "cwd"); an HTTP server needs "url" (and "headers")',
};

/** The servers named with --server, in the file's order; a name the file does not declare is a usage error. */
function select(
  declared: ConfiguredServer[],
  names: readonly string[],
  file: string,
): ConfiguredServer[] {
  if (names.length === 0) return declared;
  const known = new Set(declared.map((server) => server.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const listed = declared.map((server) => quote(server.name)).join(", ");
    throw new FatalError(
      `--server ${unknown.map((name) => quote(name)).join(", ")}: not declared in ${file} (it declares ${listed || "none"})`,
    );
  }
  const wanted = new Set(names);
  return declared.filter((server) => wanted.has(server.name));
}
