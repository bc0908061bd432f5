import path from "node:path";
import {
  CapturedOutput,
  DEFAULT_MAX_FILE_BYTES,
  exitCodeFor,
  tooManyWarnings,
  EXIT_OK,
  FatalError,
  SourceDocument,
  loadReporter,
  reporterContext,
  loadSettings,
  readTextFile,
  summarize,
  toolVersion,
  writeOutputFile,
  type MainOptions,
  type RuleMeta,
} from "./core.js";
import type { McpCommandOptions } from "./options.js";
import { readListing, type Listing } from "./listing.js";
import { PARSE_META, PARSE_RULE_ID, lintMcp } from "./lint.js";
import { DOMAIN_VERBS } from "./naming.js";
import { MCP_RULES_BY_ID } from "./rules/index.js";
import type { McpSettings } from "./rules/types.js";
import { escapeControls } from "./text.js";
import type { LiveServer, LiveTarget } from "./live.js";

export async function runMcp(operands: string[], options: McpCommandOptions, io: MainOptions, allRules: ReadonlyMap<string, RuleMeta>): Promise<number> {
  const target = liveTarget(operands, options);
  const service = options.service === undefined ? undefined : checkService(options.service);
  // A stdio server starts before anything else loads, so its start-up and caplint's overlap.
  const server = await startLiveServer(target, options, io);
  try {
    return await lintMcpRun(operands, options, io, allRules, target, server, service);
  } finally {
    await stopServer(server);
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
): Promise<number> {
  // The same settings as every command: caplint.config.json (or --config), --rule, --only.
  const severities = await loadSettings({
    rules: allRules,
    domain: "mcp",
    cwd: io.cwd,
    ...(options.config === undefined ? {} : { config: options.config }),
    rule: options.rule,
    only: options.only,
  });
  const settings: McpSettings = {
    serverNameStyle: options.serverNameStyle,
    verbs: new Set([...DOMAIN_VERBS, ...options.verbs.map((verb) => verb.toLowerCase())]),
    ...(service !== undefined ? { service } : {}),
  };
  const listings: Listing[] = [];
  const texts = new Map<string, string>();
  if (target && server) {
    const listing = await liveListing(target, server, options, io);
    listings.push(listing);
    texts.set(listing.document.absolutePath, listing.document.text);
  } else {
    if (operands.length === 0) throw new FatalError("mcp: give tools/list dump files, --stdio -- CMD ARGS..., or --url URL (see caplint mcp --help)");
    for (const operand of operands) {
      const absolute = path.resolve(io.cwd, operand);
      const read = readTextFile(absolute, options.maxFileSize ?? DEFAULT_MAX_FILE_BYTES);
      if (!read.ok) throw new FatalError(`${operand}: ${read.message}`);
      const document = SourceDocument.parse(absolute, displayPath(io.cwd, absolute), read.text, "json");
      listings.push(readListing(document));
      texts.set(absolute, read.text);
    }
  }
  const diagnostics = await lintMcp(listings, {
    settings,
    severityFor: severities.severityFor,
    // A rule that is off for every listing is not started.
    only: new Set([...MCP_RULES_BY_ID.keys()].filter((id) => severities.runs(id))),
  });
  const shown = options.quiet ? diagnostics.filter((d) => d.severity === "error") : diagnostics;
  const summary = summarize(shown, listings.length);
  const reporter = await loadReporter(options.format);
  const output = options.output === undefined ? io.stdout : new CapturedOutput();
  const rules = new Map<string, RuleMeta>([[PARSE_RULE_ID, PARSE_META], ...MCP_RULES_BY_ID]);
  output.write(
    reporter(
      { diagnostics: shown, summary, config: severities.configLabel ?? null },
      await reporterContext({
        cwd: io.cwd,
        color: options.color,
        isTTY: output === io.stdout ? io.stdout.isTTY : false,
        env: io.env ?? {},
        rules,
        sourceText: (file) => texts.get(file),
      }),
    ),
  );
  if (output instanceof CapturedOutput) {
    // A report never replaces an input file; a live run has none.
    const inputs = target ? [] : listings.map((listing) => listing.document.absolutePath);
    await writeOutputFile("--output", { given: options.output!, cwd: io.cwd, stdout: io.stdout, inputs }, output.text);
  }
  const limits = { maxWarnings: options.maxWarnings };
  if (tooManyWarnings(summary, limits) && options.format === "stylish")
    io.stderr.write(`caplint: ${summary.warnings} warnings exceed --max-warnings ${options.maxWarnings}\n`);
  return exitCodeFor(summary, limits);
}

export async function runDump(operands: string[], options: McpCommandOptions, io: MainOptions): Promise<number> {
  const target = liveTarget(operands, options);
  if (!target) throw new FatalError("mcp dump: give --stdio -- CMD ARGS... or --url URL");
  if (options.service !== undefined) checkService(options.service);
  const server = (await startLiveServer(target, options, io))!;
  try {
    const { captureServer } = await import("./live.js");
    const dump = await captureServer(server, liveOptions(options));
    reportProbeBudget(dump.probe, options, io);
    const text = JSON.stringify(dump, null, 2) + "\n";
    if (options.output === undefined) io.stdout.write(text);
    else await writeOutputFile("--output", { given: options.output, cwd: io.cwd, stdout: io.stdout, inputs: [] }, text);
    return EXIT_OK;
  } finally {
    await stopServer(server);
  }
}

/** Spawns a --stdio server at once (the SDK loads while it starts); a --url target is only a URL. */
async function startLiveServer(target: LiveTarget | undefined, options: McpCommandOptions, io: MainOptions): Promise<LiveServer | undefined> {
  if (target?.kind !== "stdio") return target;
  const { startServer } = await import("./server-process.js");
  return startServer(target, { verbose: options.verbose === true, stderr: io.stderr });
}

/**
 * Whatever ended the run (its report written, a fatal error before the SDK was even loaded), the
 * server is stopped and reaped before caplint ends; a run that got its listing has asked the server
 * to exit already and linted meanwhile.
 */
async function stopServer(server: LiveServer | undefined): Promise<void> {
  if (server && !("kind" in server)) await server.stop();
}

async function liveListing(target: LiveTarget, server: LiveServer, options: McpCommandOptions, io: MainOptions): Promise<Listing> {
  const { captureServer } = await import("./live.js");
  const dump = await captureServer(server, liveOptions(options));
  reportProbeBudget(dump.probe, options, io);
  const label = target.kind === "stdio" ? `stdio:${escapeControls([target.command, ...target.args].join(" ")).slice(0, 200)}` : target.url.href;
  const document = SourceDocument.parse(label, label, JSON.stringify(dump, null, 2) + "\n", "json");
  const listing = readListing(document);
  if (options.verbose) {
    const calls = dump.probe ? `; probe: ${dump.probe.calls.length} calls` : "";
    io.stderr.write(
      `caplint: ${dump.transport}: ${listing.tools.length} tools in ${dump.pages.length} page(s)${calls}; findings point into the JSON that caplint mcp dump writes\n`,
    );
  }
  return listing;
}

function liveOptions(options: McpCommandOptions) {
  return {
    timeoutMs: Math.round(options.timeout * 1000),
    clientVersion: toolVersion(),
    ...(options.probe ? { probe: { maxCalls: options.maxCalls, ...(options.service !== undefined ? { service: checkService(options.service) } : {}) } } : {}),
  };
}

function reportProbeBudget(probe: { maxCalls: number; notProbed: string[] } | undefined, options: McpCommandOptions, io: MainOptions): void {
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
  if (options.stdio && options.url !== undefined) throw new FatalError("mcp: --stdio and --url exclude each other");
  if (options.stdio) {
    const [command, ...args] = operands;
    if (command === undefined || command === "")
      throw new FatalError("mcp --stdio: give the server command after --, e.g. caplint mcp --stdio -- node server.js");
    return { kind: "stdio", command, args, env: parseEnv(options.env) };
  }
  if (options.url !== undefined) {
    if (operands.length > 0) throw new FatalError(`mcp --url: unexpected arguments ${operands.map((o) => JSON.stringify(escapeControls(o))).join(" ")}`);
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new FatalError(`--url ${JSON.stringify(escapeControls(options.url))}: not a URL (expected http://HOST:PORT/PATH)`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new FatalError(`--url ${url.href}: only http: and https: URLs are supported`);
    return { kind: "http", url };
  }
  if (options.probe) throw new FatalError("--probe needs a live server: --stdio -- CMD ARGS... or --url URL");
  if (options.env.length > 0) throw new FatalError("--env applies to --stdio servers only");
  return undefined;
}

function parseEnv(values: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf("=");
    if (at <= 0) throw new FatalError(`--env ${JSON.stringify(escapeControls(value))}: expected KEY=VALUE`);
    env[value.slice(0, at)] = value.slice(at + 1);
  }
  return env;
}

function checkService(service: string): string {
  if (!/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(service))
    throw new FatalError(`--service ${JSON.stringify(escapeControls(service))}: expected a snake_case service name such as "slack"`);
  return service;
}

function displayPath(cwd: string, absolute: string): string {
  const relative = path.relative(cwd, absolute);
  return (relative.startsWith("..") && path.isAbsolute(absolute) ? absolute : relative).split(path.sep).join("/");
}
