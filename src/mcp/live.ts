import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  JSONRPCMessage,
  Notification,
  Request,
  Result,
} from "@modelcontextprotocol/sdk/types.js";
import {
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  Protocol,
  JSONRPCMessageSchema,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  StreamableHTTPError,
  serializeMessage,
  z,
} from "./sdk.js";
import { createHash } from "node:crypto";
import { FatalError } from "../core/errors.js";
import { DUMP_FORMAT, isObject, MAX_TOOLS, type ProbeCall, type TransportName } from "./listing.js";
import { serviceFromServerName } from "./naming.js";
import { planProbe, truncateStrings, type ProbePlanTool } from "./probe.js";
import type { ServerProcess, StdioTarget } from "./server-process.js";
import type { Redactor } from "./redact.js";
import { escapeControls } from "./text.js";
import { plural } from "../core/wording.js";

/**
 * A server reached over HTTP: its URL, the headers every request carries (a client configuration's
 * `headers`; credentials written in the URL become a Basic Authorization header) and, when the
 * configuration says `"type": "sse"`, the legacy transport alone.
 */
export type HttpTarget = {
  kind: "http";
  url: URL;
  headers: Record<string, string>;
  legacySse?: boolean;
};
export type LiveTarget = StdioTarget | HttpTarget;
/** What a live run talks to: a stdio server caplint has already started, or a URL. */
export type LiveServer = ServerProcess | HttpTarget;

export interface LiveOptions {
  /** Per request, in milliseconds. */
  timeoutMs: number;
  /** `--probe`: the call budget and the service prefix given with `--service` (else taken from the server name). */
  probe?: { maxCalls: number; service?: string; progress?: (line: string) => void };
  clientVersion: string;
  /** How the server is named in messages (secrets redacted). */
  label: string;
  /** Hides the secrets of the target in whatever the run shows. */
  redactor: Redactor;
}

/**
 * Most bytes of one HTTP response body, or of one event of an event stream (a stream's events are
 * bounded one by one: legacy SSE answers every request on one endless stream). The same 10 MiB as
 * the stdio transport's limit on one message.
 */
export const HTTP_BODY_LIMIT = 10 * 1024 * 1024;
/** The stdio transport's limit (as the SDK's ReadBuffer): a line on stdout longer than this ends the session. */
export const STDIO_LINE_LIMIT = 10 * 1024 * 1024;

/** What `caplint mcp dump` writes and what a live run lints (see listing.ts for how it is read). */
export interface Dump {
  format: typeof DUMP_FORMAT;
  transport: TransportName;
  server: { command: string[] } | { url: string };
  initialize: unknown;
  pages: unknown[];
  stdoutNoise?: string[];
  probe?: { maxCalls: number; calls: ProbeCall[]; notProbed: string[] };
}

/**
 * Bounds of one listing (every `tools/list` page together), each an error naming it when reached: a
 * server whose cursors never end, pages that add up to more than a run can hold (60 pages of 9.5 MB
 * overflowed the longest string V8 makes), more tools than any real server lists (a million aborted
 * on the heap), and a server slow enough that paging would run for hours (each page within
 * --timeout, the whole listing within LISTING_TIMEOUTS times it).
 */
export const MAX_PAGES = 1000;
export const MAX_LISTING_BYTES = 64 * 1024 * 1024;
export const LISTING_TIMEOUTS = 4;

/** Every page of `tools/list`, following cursors within the bounds above. */
async function listAllTools(request: RawRequest, timeoutMs: number): Promise<unknown[]> {
  const pages: unknown[] = [];
  const cursors = new Set<string>();
  const started = Date.now();
  let bytes = 0;
  let tools = 0;
  let cursor: string | undefined;
  do {
    const page = await request("tools/list", cursor === undefined ? {} : { cursor });
    pages.push(page);
    bytes += JSON.stringify(page).length;
    if (Array.isArray(page.tools)) tools += page.tools.length;
    const listed = plural(pages.length, "page");
    if (bytes > MAX_LISTING_BYTES)
      throw new FatalError(
        `tools/list: the pages add up to more than ${MAX_LISTING_BYTES / 1024 / 1024} MiB after ${listed}; caplint reads at most that much of one listing`,
      );
    if (tools > MAX_TOOLS)
      throw new FatalError(
        `tools/list: more than ${MAX_TOOLS.toLocaleString("en")} tools after ${listed}; caplint lints at most that many tools of one server`,
      );
    const next = page.nextCursor;
    cursor = typeof next === "string" ? next : undefined;
    if (cursor === undefined) break;
    // Long cursors are remembered by their hash: a thousand 10 MB cursors are not kept.
    const key =
      cursor.length > 200 ? `#${createHash("sha256").update(cursor).digest("hex")}` : cursor;
    if (cursors.has(key) || pages.length >= MAX_PAGES) {
      throw new FatalError(
        `tools/list pagination does not end: cursor ${JSON.stringify(escapeControls(cursor.slice(0, 40)))} repeats or more than ${MAX_PAGES} pages`,
      );
    }
    cursors.add(key);
    const budget = LISTING_TIMEOUTS * timeoutMs;
    if (Date.now() - started > budget) {
      throw new FatalError(
        `tools/list: paging took more than ${budget / 1000} s (${listed}, the server offers more); caplint lists for at most ${LISTING_TIMEOUTS} × --timeout in total`,
      );
    }
  } while (cursor !== undefined);
  return pages;
}

/** Only what `connect`, `request` and `notification` need: no capability checks, no result parsing. */
class RawSession extends Protocol<Request, Notification, Result> {
  protected assertCapabilityForMethod(): void {}
  protected assertNotificationCapability(): void {}
  protected assertRequestHandlerCapability(): void {}
  protected assertTaskCapability(): void {}
  protected assertTaskHandlerCapability(): void {}
}

/** Any JSON object passes: the results are validated against the specification's schema by mcp-schema. */
const ANY_RESULT = z.looseObject({});

/**
 * The SDK's stdio client transport (client/stdio.js) for a server caplint has already started
 * (server-process.ts), with its stdout tapped: lines that are not JSON-RPC messages are kept
 * (mcp-stdout-pollution). Messages are parsed and validated as the SDK's StdioClientTransport does,
 * but each line is parsed once and a long line costs its length (the SDK's ReadBuffer concatenates
 * its whole buffer on every chunk: an 11 MiB line took seconds); the process itself (its exit
 * status, stderr, and stopping it) is ServerProcess's.
 */
class TappedStdioTransport implements Transport {
  readonly noise: string[] = [];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set when the server wrote a line longer than the read buffer holds: the session ended because of caplint's limit. */
  overflowed = false;
  /** The line not yet ended: its chunks and their length. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private started = false;

  constructor(readonly server: ServerProcess) {}

  async start(): Promise<void> {
    if (this.started) throw new Error("TappedStdioTransport already started");
    this.started = true;
    await this.server.whenStarted();
    this.server.listen({
      data: (chunk) => this.read(chunk),
      error: (error) => this.onerror?.(error),
      close: () => this.onclose?.(),
    });
  }

  private read(chunk: Buffer): void {
    // Past the limit the session is over: the rest is drained unread while the server stops.
    if (this.overflowed) return;
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const part = chunk.subarray(start, end);
      const line = this.pending.length === 0 ? part : Buffer.concat([...this.pending, part]);
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
      this.handle(line.toString("utf8").replace(/\r$/, ""));
    }
    if (start === chunk.length) return;
    this.pending.push(chunk.subarray(start));
    this.pendingBytes += chunk.length - start;
    if (this.pendingBytes > STDIO_LINE_LIMIT) {
      // caplint's limit on one message: the session ends, and the failure says so.
      this.pending = [];
      this.pendingBytes = 0;
      this.overflowed = true;
      this.onerror?.(new Error(`a line on stdout over ${STDIO_LINE_LIMIT} bytes`));
      this.close().catch(() => undefined);
    }
  }

  /** One line: a JSON-RPC message for the session, else noise (kept for mcp-stdout-pollution). */
  private handle(line: string): void {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return this.keepNoise(line);
    }
    if (!isObject(value) || value.jsonrpc !== "2.0") return this.keepNoise(line);
    const message = JSONRPCMessageSchema.safeParse(value);
    if (message.success) this.onmessage?.(message.data);
    else this.onerror?.(new Error(`not a JSON-RPC message: ${message.error.message}`));
  }

  private keepNoise(line: string): void {
    if (this.noise.length < 100)
      this.noise.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.server.write(serializeMessage(message));
  }

  /**
   * Begins stopping the server and returns: the run lints and reports while the server exits, and
   * waits for it (`ServerProcess.stop()`, one promise) before it ends.
   */
  async close(): Promise<void> {
    this.server.stop().catch(() => undefined);
    this.pending = [];
    this.onclose?.();
  }
}

/** Connects, fetches `initialize` and every `tools/list` page raw, optionally probes, and always closes. */
export async function captureServer(server: LiveServer, options: LiveOptions): Promise<Dump> {
  const connection =
    "kind" in server ? await connectHttp(server, options) : await connectStdio(server, options);
  const { session, transport, initialize, describeFailure } = connection;
  try {
    const raw: RawRequest = (method, params) =>
      session.request({ method, params }, ANY_RESULT, { timeout: options.timeoutMs });
    const request: RawRequest = async (method, params) => {
      try {
        return await raw(method, params);
      } catch (error) {
        throw describeFailure(error, method);
      }
    };
    const pages = await listAllTools(request, options.timeoutMs);

    const dump: Dump = {
      format: DUMP_FORMAT,
      transport: connection.transportName,
      // What replaying needs, nothing secret: the command or URL as the messages show it.
      server:
        "kind" in server
          ? { url: options.redactor.url(server.url) }
          : { command: options.redactor.args([server.target.command, ...server.target.args]) },
      initialize,
      pages,
    };
    if (options.probe) {
      const name =
        isObject(initialize.serverInfo) && typeof initialize.serverInfo.name === "string"
          ? initialize.serverInfo.name
          : undefined;
      const service =
        options.probe.service ?? (name === undefined ? undefined : serviceFromServerName(name));
      dump.probe = await probe(pages, options.probe, service, raw, describeFailure);
    }
    if (transport instanceof TappedStdioTransport) dump.stdoutNoise = [...transport.noise];
    return dump;
  } finally {
    await session.close().catch(() => undefined);
  }
}

interface Connection {
  session: RawSession;
  transport: Transport;
  transportName: TransportName;
  initialize: Record<string, unknown>;
  describeFailure(error: unknown, method: string): Error;
}

/**
 * zod compiles a schema on its first parse (~5 ms for the SDK's JSON-RPC message schemas): done while
 * the server starts up and caplint would wait anyway, not after its first answer arrives.
 */
function compileAnswerSchemas(): void {
  JSONRPCMessageSchema.safeParse({ jsonrpc: "2.0", id: 0, result: {} });
  ANY_RESULT.safeParse({});
}

async function handshake(
  session: RawSession,
  transport: Transport,
  options: LiveOptions,
): Promise<Record<string, unknown>> {
  // A legacy SSE server that opens its stream but never names its endpoint would keep connect() waiting forever.
  await withTimeout(session.connect(transport), options.timeoutMs, "connect");
  const answer = session.request(
    {
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "caplint", version: options.clientVersion },
      },
    },
    ANY_RESULT,
    { timeout: options.timeoutMs },
  );
  compileAnswerSchemas();
  const initialize = await answer;
  const version = initialize.protocolVersion;
  if (typeof version === "string")
    (transport as { setProtocolVersion?: (v: string) => void }).setProtocolVersion?.(version);
  await session.notification({ method: "notifications/initialized" });
  return initialize;
}

async function connectStdio(server: ServerProcess, options: LiveOptions): Promise<Connection> {
  const { target, stderrTail: tail } = server;
  const { redactor } = options;
  const transport = new TappedStdioTransport(server);
  const session = new RawSession();
  // Parse errors of stdout noise arrive here; the tap has recorded the lines themselves.
  session.onerror = () => undefined;
  const shown = options.label.replace(/^stdio:/, "").slice(0, 160);
  const describeFailure = (error: unknown, method: string): Error => {
    if (error instanceof FatalError) return error;
    const lastWords = tail.length
      ? `; its last stderr line: ${escapeControls(redactor.text(tail[tail.length - 1]!)).slice(0, 200)}`
      : "";
    const noise = transport.noise.length
      ? `; it wrote ${transport.noise.length} non-protocol line(s) on stdout, first: ${JSON.stringify(escapeControls(transport.noise[0]!).slice(0, 80))}`
      : "";
    if ((error as NodeJS.ErrnoException)?.code === "ENOENT")
      return new FatalError(
        `cannot run ${JSON.stringify(escapeControls(redactor.text(target.command)))}: command not found`,
      );
    if (transport.overflowed) {
      return new FatalError(
        `the server (${shown}) wrote a line over ${STDIO_LINE_LIMIT / 1024 / 1024} MiB on stdout before answering ${method}: caplint reads at most ${STDIO_LINE_LIMIT / 1024 / 1024} MiB per stdio message`,
      );
    }
    if (server.exit) {
      const how = server.exit.signal
        ? `was killed by ${server.exit.signal}`
        : `exited with code ${server.exit.code}`;
      return new FatalError(
        `the server (${shown}) ${how} before answering ${method}${lastWords}${noise}`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new FatalError(
        `the server (${shown}) did not answer ${method} within ${options.timeoutMs / 1000} s (--timeout)${noise}${lastWords}`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new FatalError(
        `the server (${shown}) closed the connection before answering ${method}${lastWords}${noise}`,
      );
    }
    return new FatalError(
      `the server (${shown}) failed ${method}: ${escapeControls(redactor.text(error instanceof Error ? error.message : String(error))).slice(0, 300)}${lastWords}`,
    );
  };
  try {
    const initialize = await handshake(session, transport, options);
    return { session, transport, transportName: "stdio", initialize, describeFailure };
  } catch (error) {
    const failure = describeFailure(error, "initialize");
    await session.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw failure;
  }
}

async function connectHttp(target: HttpTarget, options: LiveOptions): Promise<Connection> {
  const { redactor } = options;
  const shown = options.label;
  if (target.url.protocol !== "http:" && target.url.protocol !== "https:")
    throw new FatalError(`--url ${shown}: only http: and https: URLs are supported`);
  const { url, headers } = withoutUserinfo(target.url, target.headers);
  const limits = new BodyLimits();
  const transportOptions = { requestInit: { headers }, fetch: limits.fetch };
  const describeFailure = (error: unknown, method: string): Error => {
    if (error instanceof FatalError) return error;
    if (limits.exceeded) {
      return new FatalError(
        `the server at ${shown} sent ${limits.exceeded} over ${HTTP_BODY_LIMIT / 1024 / 1024} MiB before answering ${method}: caplint reads at most ${HTTP_BODY_LIMIT / 1024 / 1024} MiB per HTTP body or event`,
      );
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return new FatalError(
        `the server at ${shown} did not answer ${method} within ${options.timeoutMs / 1000} s (--timeout)`,
      );
    }
    if (error instanceof ConnectTimeout) {
      return new FatalError(
        `the server at ${shown} opened no session within ${options.timeoutMs / 1000} s (--timeout): a legacy SSE stream that never named its endpoint`,
      );
    }
    return new FatalError(
      `the server at ${shown} failed ${method}: ${redactor.text(describeNetworkError(error))}`,
    );
  };
  let firstFailure: unknown;
  if (!target.legacySse) {
    const streamable = new StreamableHTTPClientTransport(url, transportOptions);
    const session = new RawSession();
    session.onerror = () => undefined;
    try {
      const initialize = await handshake(session, streamable, options);
      return {
        session,
        transport: streamable,
        transportName: "streamable-http",
        initialize,
        describeFailure,
      };
    } catch (error) {
      firstFailure = error;
      await session.close().catch(() => undefined);
    }
    // Only an HTTP answer that says "not here" is worth the legacy attempt; a refused connection, a timeout or a body over the limit is not.
    if (
      limits.exceeded ||
      !(firstFailure instanceof StreamableHTTPError) ||
      firstFailure.code === undefined ||
      firstFailure.code >= 500
    ) {
      throw describeFailure(firstFailure, "initialize");
    }
  }
  const legacy = new SSEClientTransport(url, transportOptions);
  const legacySession = new RawSession();
  legacySession.onerror = () => undefined;
  try {
    const initialize = await handshake(legacySession, legacy, options);
    return {
      session: legacySession,
      transport: legacy,
      transportName: "sse",
      initialize,
      describeFailure,
    };
  } catch (error) {
    await legacySession.close().catch(() => undefined);
    await legacy.close().catch(() => undefined);
    if (target.legacySse || limits.exceeded || error instanceof ConnectTimeout)
      throw describeFailure(error, "initialize");
    throw new FatalError(
      `no MCP server answers at ${shown}: streamable HTTP got ${redactor.text(describeNetworkError(firstFailure))}, and the legacy SSE transport did not answer either`,
    );
  }
}

/** fetch refuses a URL with credentials: they travel as a Basic Authorization header instead (unless one is given). */
function withoutUserinfo(
  given: URL,
  headers: Record<string, string>,
): { url: URL; headers: Record<string, string> } {
  if (!given.username && !given.password) return { url: given, headers };
  const url = new URL(given.href);
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = "";
  url.password = "";
  const hasAuthorization = Object.keys(headers).some(
    (name) => name.toLowerCase() === "authorization",
  );
  return {
    url,
    headers: hasAuthorization
      ? headers
      : { ...headers, Authorization: `Basic ${Buffer.from(credentials).toString("base64")}` },
  };
}

class ConnectTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectTimeout(`${what} timed out`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch for the SDK's HTTP transports that stops reading a body at HTTP_BODY_LIMIT: a JSON body
 * as a whole, an event stream event by event (a stream that never ends with events of bounded size
 * is a server's right; one event that never ends, or a body of 200 MB, is not). Reading stops with
 * an error the transport passes on, and `exceeded` says what was too long for the message.
 */
class BodyLimits {
  exceeded: string | undefined;

  readonly fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (response.body === null || NULL_BODY_STATUSES.has(response.status)) return response;
    const eventStream =
      response.headers.get("content-type")?.toLowerCase().includes("text/event-stream") === true;
    const bounded = response.body.pipeThrough(this.limiter(eventStream));
    return new Response(bounded, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  private limiter(eventStream: boolean): TransformStream<Uint8Array, Uint8Array> {
    let bytes = 0;
    let lineLength = 0;
    return new TransformStream({
      transform: (chunk, controller) => {
        if (eventStream) {
          // Bytes since the last blank line (the end of an event): LF LF, or CR LF CR LF.
          for (const byte of chunk) {
            if (byte === 0x0a) {
              if (lineLength === 0) bytes = 0;
              lineLength = 0;
            } else if (byte !== 0x0d) {
              lineLength++;
              bytes++;
            }
          }
        } else {
          bytes += chunk.length;
        }
        if (bytes > HTTP_BODY_LIMIT) {
          this.exceeded = eventStream ? "an event" : "a response body";
          controller.error(
            new Error(`the server sent ${this.exceeded} over ${HTTP_BODY_LIMIT} bytes`),
          );
          return;
        }
        controller.enqueue(chunk);
      },
    });
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code === "ECONNREFUSED") return "connection refused";
  if (error instanceof Error && cause?.message)
    return escapeControls(`${error.message}: ${cause.message}`).slice(0, 300);
  if (error instanceof StreamableHTTPError && error.code !== undefined) return `HTTP ${error.code}`;
  return escapeControls(error instanceof Error ? error.message : String(error)).slice(0, 300);
}

type RawRequest = (
  method: string,
  params: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/**
 * Makes the planned calls (probe.ts picks them: only tools declaring readOnlyHint: true, within the
 * budget). A JSON-RPC error answer or a timed-out call is recorded as the call's outcome; a server
 * that goes away ends the run like any other failure.
 */
async function probe(
  pages: unknown[],
  { maxCalls, progress }: NonNullable<LiveOptions["probe"]>,
  service: string | undefined,
  raw: RawRequest,
  describeFailure: (error: unknown, method: string) => Error,
) {
  const tools: ProbePlanTool[] = [];
  for (const page of pages)
    if (isObject(page) && Array.isArray(page.tools))
      for (const tool of page.tools) if (isObject(tool)) tools.push(tool);
  const plan = planProbe(tools, maxCalls, service);
  const calls: ProbeCall[] = [];
  const total = plan.calls.length;
  // One line per call as it starts, so a slow tool shows which it is.
  for (const planned of plan.calls) {
    progress?.(
      `caplint: probe ${calls.length + 1}/${total}: ${escapeControls(planned.tool).slice(0, 128)} (${planned.purpose})\n`,
    );
    const call: ProbeCall = { ...planned };
    try {
      call.result = truncateStrings(
        await raw("tools/call", { name: planned.tool, arguments: planned.arguments }),
      );
    } catch (error) {
      if (!(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed)
        throw describeFailure(error, `tools/call ${planned.tool}`);
      call.error = { code: error.code, message: escapeControls(error.message).slice(0, 500) };
    }
    calls.push(call);
  }
  const failed = calls.filter((call) => call.error !== undefined).length;
  const probed = new Set(calls.map((call) => call.tool)).size;
  progress?.(
    `caplint: probe done: ${plural(total, "call")} to ${plural(probed, "read-only tool")}${failed > 0 ? `, ${failed} answered with an error` : ""}\n`,
  );
  return { maxCalls, calls, notProbed: plan.notProbed };
}
