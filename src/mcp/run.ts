import path from "node:path";
import { DEFAULT_MAX_FILE_BYTES, readTextFile } from "../core/source/read.js";
import { EXIT_OK } from "../core/exit-codes.js";
import { FatalError } from "../core/errors.js";
import { SourceDocument } from "../core/source/document.js";
import { toolVersion } from "../core/tool.js";
import { writeOutputFile } from "../core/output.js";
import type { Diagnostic } from "../core/diagnostics.js";
import type { MainOptions } from "../core/io.js";
import type { RuleMeta } from "../core/lint/rule.js";
import { commandSettings, reportLintRun } from "../core/lint/lint-command.js";
import { configSectionOf } from "../core/config.js";
import { displayFile } from "../core/file-names.js";
import type { Settings } from "../core/settings.js";
import type { McpCommandOptions } from "./options.js";
import { MCP_CONFIG, withCommandLine, type McpConfig } from "./config-section.js";
import { readListing, type Listing } from "./listing.js";
import { lintMcp } from "./lint.js";
import { MCP } from "./domain.js";
import { MCP_RULES_BY_ID } from "./rules/index.js";
import { MCP_DOMAIN, type McpSettings } from "./rules/types.js";
import { Redactor } from "./redact.js";
import { TOOL_SERVER_WORDING } from "./wording.js";
import { escapeControls } from "./text.js";
import type { LiveServer, LiveTarget } from "./live.js";
import { plural } from "../core/wording.js";

export async function runMcp(
  operands: string[],
  options: McpCommandOptions,
  io: MainOptions,
  allRules: ReadonlyMap<string, RuleMeta>,
): Promise<number> {
  // One redactor for the run: every secret it is shown is hidden from everything the run writes.
  const redactor = new Redactor();
  try {
    const target = liveTarget(operands, options);
    const service = options.service === undefined ? undefined : checkService(options.service);
    // A stdio server starts before anything else loads, so its start-up and caplint's overlap.
    const server = await startLiveServer(target, options, io, redactor);
    try {
      return await lintMcpRun(operands, options, io, allRules, target, server, service, redactor);
    } finally {
      await stopServer(server);
    }
  } catch (error) {
    throw redacted(error, redactor);
  }
}

async function lintMcpRun(
  operands: string[],
  options: McpCommandOptions,
  io: MainOptions,
  allRules: ReadonlyMap<string, RuleMeta>,
  target: LiveTarget | undefined,
  server: LiveServer | undefined,
  service: string | undefined,
  redactor: Redactor,
): Promise<number> {
  const severities = await mcpSettings(options, io, allRules);
  const listings: Listing[] = [];
  const texts = new Map<string, string>();
  let label: string | undefined;
  if (target && server) {
    label = targetLabel(target, redactor);
    const listing = await liveListing(server, options, io, redactor, label);
    listings.push(listing);
    texts.set(listing.document.absolutePath, listing.document.text);
  } else {
    if (operands.length === 0)
      throw new FatalError(
        "mcp: give tools/list dump files, --stdio -- CMD ARGS..., --url URL or --servers CONFIG (see caplint mcp --help)",
      );
    for (const operand of operands) {
      const absolute = path.resolve(io.cwd, operand);
      const read = readTextFile(absolute, options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES);
      if (!read.ok) throw new FatalError(`${operand}: ${read.message}`);
      // Bytes that are not UTF-8 are a parse finding at the first of them, not a name with U+FFFD in it.
      const document = SourceDocument.parse(
        absolute,
        displayFile(io.cwd, absolute),
        read.text,
        "json",
        undefined,
        read.invalidUtf8At,
        TOOL_SERVER_WORDING,
      );
      listings.push(readListing(document));
      texts.set(absolute, read.text);
    }
  }
  const diagnostics = await lintListings(listings, options, severities, service);
  // A live server has no file: its findings name it instead (SARIF and annotations give no location).
  const located =
    label === undefined ? diagnostics : diagnostics.map((d) => ({ ...d, liveServer: label }));
  // A report never replaces an input file; a live run has none.
  const inputs = target ? [] : listings.map((listing) => listing.document.absolutePath);
  return writeReport(
    located,
    { count: listings.length, texts, inputs, notes: [] },
    options,
    io,
    severities,
    redactor,
  );
}

export type McpSeverities = Settings;

/** What a report of `caplint mcp` may name: the domain's rules and pipeline steps, as SARIF lists them. */
const MCP_RULES_REPORTED: ReadonlyMap<string, RuleMeta> = new Map(
  MCP.rules.map((rule) => [rule.id, rule]),
);

/** No config file: no verbs or pins beyond the command line's. */
const NOTHING_CONFIGURED: McpConfig = { verbs: [], listTools: new Map() };

/** The same settings as every command: caplint.config.json (or --config), --rule, --only. */
export function mcpSettings(
  options: McpCommandOptions,
  io: MainOptions,
  allRules: ReadonlyMap<string, RuleMeta>,
): Promise<McpSeverities> {
  return commandSettings(options, io, allRules, MCP_DOMAIN);
}

export function lintListings(
  listings: readonly Listing[],
  options: McpCommandOptions,
  severities: McpSeverities,
  service: string | undefined,
) {
  const configured = severities.config
    ? configSectionOf(severities.config, MCP_CONFIG)
    : NOTHING_CONFIGURED;
  const { verbs, listTools } = withCommandLine(configured, options);
  const settings: McpSettings = {
    serverNameStyle: options.serverNameStyle,
    verbs: new Set(verbs),
    listTools,
    ...(service !== undefined ? { service } : {}),
  };
  return lintMcp(listings, {
    settings,
    severityFor: severities.severityFor,
    // A rule that is off for every listing is not started.
    only: new Set([...MCP_RULES_BY_ID.keys()].filter((id) => severities.runs(id))),
  });
}

/** Writes the report in the chosen format (secrets the run was given scrubbed) and returns the exit code. */
export async function writeReport(
  diagnostics: readonly Diagnostic[],
  run: { count: number; texts: ReadonlyMap<string, string>; inputs: string[]; notes: string[] },
  options: McpCommandOptions,
  io: MainOptions,
  severities: McpSeverities,
  redactor: Redactor,
): Promise<number> {
  return reportLintRun(
    { diagnostics, files: run.count, notes: run.notes, config: severities.configLabel ?? null },
    options,
    io,
    {
      rules: MCP_RULES_REPORTED,
      sourceText: (file) => run.texts.get(file),
      inputs: run.inputs,
      scrub: (text) => redactor.known(text),
    },
  );
}

export async function runDump(
  operands: string[],
  options: McpCommandOptions,
  io: MainOptions,
): Promise<number> {
  const target = liveTarget(operands, options);
  const redactor = new Redactor();
  try {
    if (options.servers !== undefined)
      throw new FatalError(
        "mcp dump: --servers lints every server of a configuration; dump one with --stdio -- CMD ARGS... or --url URL",
      );
    if (!target) throw new FatalError("mcp dump: give --stdio -- CMD ARGS... or --url URL");
    if (options.service !== undefined) checkService(options.service);
    const server = (await startLiveServer(target, options, io, redactor))!;
    try {
      const { captureServer } = await import("./live.js");
      const dump = await captureServer(
        server,
        liveOptions(options, redactor, targetLabel(target, redactor), progressTo(options, io)),
      );
      reportProbeBudget(dump.probe, options, io);
      // What replaying needs (the listing, how it was reached) and nothing secret.
      const text = redactor.known(JSON.stringify(dump, null, 2) + "\n");
      if (options.output === undefined) io.stdout.write(text);
      else
        await writeOutputFile(
          "--output",
          { given: options.output, cwd: io.cwd, stdout: io.stdout, inputs: [] },
          text,
        );
      return EXIT_OK;
    } finally {
      await stopServer(server);
    }
  } catch (error) {
    throw redacted(error, redactor);
  }
}

/** The label of a live server in messages and reports, secrets hidden: `stdio:CMD ARGS` or the URL. */
export function targetLabel(target: LiveTarget, redactor: Redactor): string {
  if (target.kind === "http") {
    redactor.headers(target.headers);
    return escapeControls(redactor.url(target.url));
  }
  redactor.env(target.env);
  return `stdio:${escapeControls(redactor.args([target.command, ...target.args]).join(" ")).slice(0, 200)}`;
}

/** An error on its way out, with the run's secrets hidden from its message (and stack, for --debug). */
export function redacted(error: unknown, redactor: Redactor): unknown {
  if (error instanceof Error) {
    error.message = redactor.text(error.message);
    if (error.stack) error.stack = redactor.text(error.stack);
  }
  return error;
}

/**
 * Spawns a --stdio server at once (the SDK loads while it starts); a --url target is only a URL.
 * The one place that loads server-process.js: the bundle makes it a chunk of its own (scripts/bundle.mjs).
 */
export async function startLiveServer(
  target: LiveTarget | undefined,
  options: McpCommandOptions,
  io: MainOptions,
  redactor: Redactor,
): Promise<LiveServer | undefined> {
  if (target?.kind !== "stdio") return target;
  const { startServer } = await import("./server-process.js");
  return startServer(target, {
    verbose: options.verbose === true,
    stderr: io.stderr,
    redact: (text) => redactor.text(text),
  });
}

/**
 * Whatever ended the run (its report written, a fatal error before the SDK was even loaded), the
 * server is stopped and reaped before caplint ends; a run that got its listing has asked the server
 * to exit already and linted meanwhile.
 */
export async function stopServer(server: LiveServer | undefined): Promise<void> {
  if (server && !("kind" in server)) await server.stop();
}

/** Captures a live server and reads its dump as a listing; findings point into the JSON that `caplint mcp dump` writes. */
export async function liveListing(
  server: LiveServer,
  options: McpCommandOptions,
  io: MainOptions,
  redactor: Redactor,
  label: string,
): Promise<Listing> {
  const { captureServer } = await import("./live.js");
  const dump = await captureServer(
    server,
    liveOptions(options, redactor, label, progressTo(options, io)),
  );
  reportProbeBudget(dump.probe, options, io);
  const document = SourceDocument.parse(
    label,
    label,
    JSON.stringify(dump, null, 2) + "\n",
    "json",
    undefined,
    undefined,
    TOOL_SERVER_WORDING,
  );
  const listing = readListing(document);
  if (options.verbose) {
    const calls = dump.probe ? `; probe: ${plural(dump.probe.calls.length, "call")}` : "";
    io.stderr.write(
      `caplint: ${dump.transport}: ${plural(listing.tools.length, "tool")} in ${plural(dump.pages.length, "page")}${calls} from ${label}\n`,
    );
  }
  return listing;
}

/** `--probe` tells each call as it starts on stderr, and the count at the end; `--quiet` silences it. */
function progressTo(
  options: McpCommandOptions,
  io: MainOptions,
): ((line: string) => void) | undefined {
  return options.quiet ? undefined : (line) => io.stderr.write(line);
}

function liveOptions(
  options: McpCommandOptions,
  redactor: Redactor,
  label: string,
  progress: ((line: string) => void) | undefined,
) {
  return {
    timeoutMs: Math.round(options.timeout * 1000),
    clientVersion: toolVersion(),
    redactor,
    label,
    ...(options.probe
      ? {
          probe: {
            maxCalls: options.maxCalls,
            ...(progress ? { progress } : {}),
            ...(options.service !== undefined ? { service: checkService(options.service) } : {}),
          },
        }
      : {}),
  };
}

function reportProbeBudget(
  probe: { maxCalls: number; notProbed: string[] } | undefined,
  options: McpCommandOptions,
  io: MainOptions,
): void {
  if (!probe || probe.notProbed.length === 0) return;
  const names = probe.notProbed
    .slice(0, 5)
    .map((name) => JSON.stringify(escapeControls(name)))
    .join(", ");
  io.stderr.write(
    `caplint: --max-calls ${options.maxCalls} reached; read-only tools not probed: ${names}${probe.notProbed.length > 5 ? ` and ${probe.notProbed.length - 5} more` : ""}\n`,
  );
}

function liveTarget(operands: string[], options: McpCommandOptions): LiveTarget | undefined {
  if (options.stdio && options.url !== undefined)
    throw new FatalError("mcp: --stdio and --url exclude each other");
  if (options.stdio) {
    const [command, ...args] = operands;
    if (command === undefined || command === "")
      throw new FatalError(
        "mcp --stdio: give the server command after --, e.g. caplint mcp --stdio -- node server.js",
      );
    return { kind: "stdio", command, args, env: parseEnv(options.env) };
  }
  if (options.url !== undefined) {
    if (operands.length > 0)
      throw new FatalError(
        `mcp --url: unexpected arguments ${operands.map((o) => JSON.stringify(escapeControls(o))).join(" ")}`,
      );
    // The URL itself is never repeated: it may carry credentials or a ?token= (a valid one is shown redacted).
    if (!URL.canParse(options.url))
      throw new FatalError("--url: not a URL (expected http://HOST:PORT/PATH)");
    const url = new URL(options.url);
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new FatalError(
        `--url ${new Redactor().url(url)}: only http: and https: URLs are supported`,
      );
    return { kind: "http", url, headers: {} };
  }
  if (options.probe)
    throw new FatalError("--probe needs a live server: --stdio -- CMD ARGS... or --url URL");
  if (options.env.length > 0) throw new FatalError("--env applies to --stdio servers only");
  return undefined;
}

function parseEnv(values: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    // The value is not repeated: a KEY=VALUE missing its "=" may be the secret alone.
    if (at <= 0) throw new FatalError(`--env expects KEY=VALUE; one value has no KEY= before it`);
    env[value.slice(0, at)] = value.slice(at + 1);
  }
  return env;
}

export function checkService(service: string): string {
  if (!/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(service))
    throw new FatalError(
      `--service ${JSON.stringify(escapeControls(service))}: expected a snake_case service name such as "slack"`,
    );
  return service;
}
