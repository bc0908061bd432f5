/**
 * The server's side of the wire, hardened against a client that is broken or hostile (docs/security.md):
 * messages are read with bounded headers and bodies and exactly one `Content-Length`, and a violation
 * ends the connection with one line on standard error instead of buffering without end; nothing is
 * answered before `initialize`, a second `initialize` is refused; every `file:` URI a client sends is
 * read in one canonical spelling (`a/../b` and `a/%2e%2e/b` are `b`), and diagnostics go back under the
 * spelling the client opened the document with, so a document never has findings under two URIs.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import type { DataCallback, Disposable, Message, MessageWriter } from "vscode-languageserver/node";
import { AbstractMessageReader } from "./protocol.js";

/** A client's message may be this large by default (`caplint lsp --max-message-size`). */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** The headers of one message together: two short lines in practice. */
const MAX_HEADER_BYTES = 64 * 1024;
const HEADER_END = Buffer.from("\r\n\r\n");

/** JSON-RPC's and LSP's error codes used here. */
const SERVER_NOT_INITIALIZED = -32002;
const INVALID_REQUEST = -32600;

export type Violation = (reason: string) => void;

/**
 * Reads framed messages (`Content-Length: N\r\n\r\n` then N bytes of JSON) from a stream. Memory is
 * bounded by the message limit plus one chunk: a header block longer than 64 KiB, a length over the
 * limit, a missing or repeated `Content-Length` or a body that is not JSON stops reading and reports
 * the violation; the stream is then out of step and nothing after it can be trusted.
 */
export class BoundedMessageReader extends AbstractMessageReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The body length once a message's headers are read. */
  private expected: number | undefined;
  private stopped = false;
  private detach: () => void = () => {};

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly maxMessageBytes: number,
    private readonly violation: Violation,
    private readonly gate?: ClientGate,
  ) {
    super();
  }

  listen(given: DataCallback): Disposable {
    const callback = this.gate ? this.gate.filter(given) : given;
    const data = (chunk: Buffer | string) =>
      this.take(typeof chunk === "string" ? Buffer.from(chunk) : chunk, callback);
    const close = () => this.fireClose();
    const error = (cause: unknown) => this.fireError(cause);
    this.input.on("data", data);
    this.input.on("end", close);
    this.input.on("close", close);
    this.input.on("error", error);
    this.detach = () => {
      this.input.off("data", data);
      this.input.off("end", close);
      this.input.off("close", close);
      this.input.off("error", error);
    };
    return { dispose: () => this.detach() };
  }

  private take(chunk: Buffer, callback: DataCallback): void {
    if (this.stopped) return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (!this.stopped) {
      if (this.expected === undefined) {
        // Only the first 64 KiB (and the end marker) can hold the headers: the search never grows with the input.
        const head = this.peek(MAX_HEADER_BYTES + HEADER_END.length);
        const end = head.indexOf(HEADER_END);
        if (end < 0) {
          if (this.buffered > MAX_HEADER_BYTES)
            this.stop(`a message's headers are longer than ${MAX_HEADER_BYTES} bytes`);
          return;
        }
        const length = this.contentLength(head.subarray(0, end).toString("latin1"));
        if (length === undefined) return;
        this.skip(end + HEADER_END.length);
        this.expected = length;
      }
      if (this.buffered < this.expected) return;
      const body = this.peek(this.expected);
      this.skip(this.expected);
      this.expected = undefined;
      let message: Message;
      try {
        message = JSON.parse(body.toString("utf8")) as Message;
      } catch {
        this.stop(`a message's body is not JSON`);
        return;
      }
      if (typeof message !== "object" || message === null || Array.isArray(message)) {
        this.stop("a message is not a JSON-RPC object");
        return;
      }
      callback(message);
    }
  }

  /** The one `Content-Length` of a header block, or undefined after reporting what is wrong with it. */
  private contentLength(headers: string): number | undefined {
    const lengths: string[] = [];
    for (const line of headers.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) return void this.stop(`a message header is not "Name: value"`);
      if (line.slice(0, colon).trim().toLowerCase() === "content-length")
        lengths.push(line.slice(colon + 1).trim());
    }
    if (lengths.length !== 1)
      return void this.stop(
        `a message has ${lengths.length === 0 ? "no" : lengths.length} Content-Length headers (one is required)`,
      );
    const value = lengths[0]!;
    if (!/^\d{1,16}$/.test(value))
      return void this.stop("a message's Content-Length is not a number of bytes");
    const length = Number(value);
    if (length > this.maxMessageBytes)
      return void this.stop(
        `a message of ${length} bytes is over the limit of ${this.maxMessageBytes} bytes (raise it with --max-message-size)`,
      );
    return length;
  }

  /** The first `count` buffered bytes (fewer when fewer are buffered), joined once. */
  private peek(count: number): Buffer {
    if (this.chunks[0] && this.chunks[0].length >= count) return this.chunks[0].subarray(0, count);
    const joined = Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined.subarray(0, count);
  }

  private skip(count: number): void {
    const first = this.peek(this.buffered);
    const rest = first.subarray(count);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
  }

  private stop(reason: string): void {
    this.stopped = true;
    this.chunks = [];
    this.buffered = 0;
    this.detach();
    this.violation(reason);
  }
}

/**
 * What comes between the reader and the connection: the lifecycle (nothing but `initialize` and `exit`
 * before `initialize`, no second `initialize`) and the canonical spelling of document URIs. Returns
 * the callback to give the connection's reader, and a writer that speaks the client's spelling again.
 */
export class ClientGate {
  private initialized = false;
  /** What the client sent, before the connection's queue has handled it: the reader may close first. */
  shutdownSent = false;
  exitSent = false;
  /** Canonical URI → the spelling the client opened the document with. */
  private readonly spelled = new Map<string, string>();

  constructor(private readonly writer: MessageWriter) {}

  /** Passes a client message on, corrected, or answers it here and drops it. */
  filter(forward: DataCallback): DataCallback {
    return (message) => {
      const request = message as { id?: unknown; method?: unknown; params?: unknown };
      const method = typeof request.method === "string" ? request.method : undefined;
      const isRequest =
        method !== undefined && (typeof request.id === "number" || typeof request.id === "string");
      if (method === "initialize" && this.initialized) {
        if (isRequest)
          this.refuse(
            request.id as number | string,
            INVALID_REQUEST,
            "initialize: the server is already initialized",
          );
        return;
      }
      if (
        !this.initialized &&
        method !== undefined &&
        method !== "initialize" &&
        method !== "exit"
      ) {
        if (isRequest)
          this.refuse(
            request.id as number | string,
            SERVER_NOT_INITIALIZED,
            `${method}: the server is not initialized (send initialize first)`,
          );
        return;
      }
      if (method === "initialize") this.initialized = true;
      if (method === "shutdown") this.shutdownSent = true;
      if (method === "exit") this.exitSent = true;
      if (method !== undefined) this.canonicalize(method, request.params);
      forward(message);
    };
  }

  /** The writer the connection uses: published diagnostics go to the URI the client opened. */
  clientWriter(): MessageWriter {
    const writer = this.writer;
    return {
      onError: writer.onError,
      onClose: writer.onClose,
      end: () => writer.end(),
      dispose: () => writer.dispose(),
      write: (message) => {
        const notification = message as { method?: string; params?: { uri?: unknown } };
        const uri = notification.params?.uri;
        if (
          notification.method === "textDocument/publishDiagnostics" &&
          typeof uri === "string" &&
          this.spelled.has(uri)
        )
          return writer.write({
            ...notification,
            params: { ...notification.params, uri: this.spelled.get(uri) },
          } as unknown as Message);
        return writer.write(message);
      },
    };
  }

  private canonicalize(method: string, params: unknown): void {
    const document = (params as { textDocument?: { uri?: unknown } } | undefined)?.textDocument;
    if (!document || typeof document.uri !== "string") return;
    const given = document.uri;
    const canonical = canonicalUri(given);
    if (method === "textDocument/didOpen" && !this.spelled.has(canonical))
      this.spelled.set(canonical, given);
    if (method === "textDocument/didClose") this.spelled.delete(canonical);
    document.uri = canonical;
  }

  private refuse(id: number | string, code: number, message: string): void {
    void this.writer
      .write({ jsonrpc: "2.0", id, error: { code, message } } as Message)
      .catch(() => {});
  }
}

/** `file:///w/a/../b.json` and `file:///w/a/%2e%2e/b.json` → `file:///w/b.json`; other schemes as given. */
export function canonicalUri(uri: string): string {
  if (!uri.startsWith("file:")) return uri;
  try {
    return pathToFileURL(fileURLToPath(uri)).href;
  } catch {
    return uri;
  }
}
