/**
 * A language client for the tests: the built bin (`caplint lsp --stdio`) as a child process, spoken to
 * through the LSP library's own client side (vscode-languageserver-protocol over the child's stdio).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Diagnostic,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { FIXTURES, ROOT } from "../../helpers/run.js";

export interface TestClient {
  connection: ProtocolConnection;
  child: ChildProcessWithoutNullStreams;
  initialized: InitializeResult;
  /** Every diagnostics notification so far, newest last. */
  published: PublishDiagnosticsParams[];
  stderr: () => string;
  /** window/showMessage and window/logMessage texts, in order. */
  messages: string[];
  /** Resolves with the next diagnostics for `uri` that satisfy `until` (the latest already received counts). */
  diagnostics(
    uri: string,
    until?: (diagnostics: Diagnostic[]) => boolean,
    timeoutMs?: number,
  ): Promise<Diagnostic[]>;
  open(uri: string, text: string, languageId?: string): Promise<void>;
  /** Replaces the whole text (version + 1). */
  change(uri: string, text: string): Promise<void>;
  /** One incremental change. */
  edit(
    uri: string,
    range: { start: { line: number; character: number }; end: { line: number; character: number } },
    text: string,
  ): Promise<void>;
  close(uri: string): Promise<void>;
  /** shutdown, then exit; resolves with the server's exit code. */
  stop(): Promise<number | null>;
}

export const uriOf = (file: string) => pathToFileURL(file).href;

/** A copy of an app from fixtures/ in a temporary folder, removed by the returned function. */
export function copyApp(fixture: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-lsp-"));
  cpSync(path.join(FIXTURES, fixture), dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startServer(
  workspace: string,
  options: {
    initializationOptions?: unknown;
    capabilities?: Record<string, unknown>;
    env?: Record<string, string>;
  } = {},
): Promise<TestClient> {
  const child = spawn(process.execPath, [path.join(ROOT, "bin/caplint.js"), "lsp", "--stdio"], {
    cwd: workspace,
    // No registry plugins from the machine's ~/.cargo: the verdicts depend on the fixture only.
    env: { ...process.env, CAPLINT_CARGO_REGISTRY: "off", ...options.env },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const published: PublishDiagnosticsParams[] = [];
  const waiters = new Set<() => void>();
  connection.onNotification(
    "textDocument/publishDiagnostics",
    (params: PublishDiagnosticsParams) => {
      published.push(params);
      for (const wake of waiters) wake();
    },
  );
  // The server asks for settings and registrations; a real client answers.
  connection.onRequest("workspace/configuration", (params: { items: unknown[] }) =>
    params.items.map(() => null),
  );
  connection.onRequest("client/registerCapability", () => null);
  connection.onRequest("window/showMessageRequest", () => null);
  const messages: string[] = [];
  connection.onNotification(
    "window/showMessage",
    (params: { message: string }) => void messages.push(params.message),
  );
  connection.onNotification(
    "window/logMessage",
    (params: { message: string }) => void messages.push(params.message),
  );
  connection.listen();
  const initialized = await connection.sendRequest<InitializeResult>("initialize", {
    processId: process.pid,
    rootUri: uriOf(workspace),
    workspaceFolders: [{ uri: uriOf(workspace), name: path.basename(workspace) }],
    capabilities: options.capabilities ?? {},
    initializationOptions: options.initializationOptions,
  });
  await connection.sendNotification("initialized", {});
  const versions = new Map<string, number>();
  const latest = (uri: string) => [...published].reverse().find((p) => p.uri === uri);
  return {
    connection,
    child,
    initialized,
    published,
    stderr: () => stderr,
    messages,
    async diagnostics(uri, until = () => true, timeoutMs = 20_000) {
      const start = Date.now();
      for (;;) {
        const last = latest(uri);
        if (last && until(last.diagnostics)) return last.diagnostics;
        if (Date.now() - start > timeoutMs) {
          throw new Error(
            `no matching diagnostics for ${uri}; last: ${JSON.stringify(last?.diagnostics ?? null)}; stderr: ${stderr}`,
          );
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 200);
        });
      }
    },
    async open(
      uri,
      text,
      languageId = uri.endsWith(".toml") ? "toml" : uri.endsWith(".jsonl") ? "jsonl" : "json",
    ) {
      versions.set(uri, 1);
      await connection.sendNotification("textDocument/didOpen", {
        textDocument: { uri, languageId, version: 1, text },
      });
    },
    async change(uri, text) {
      const version = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, version);
      await connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    },
    async edit(uri, range, text) {
      const version = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, version);
      await connection.sendNotification("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ range, text }],
      });
    },
    async close(uri) {
      versions.delete(uri);
      await connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    },
    async stop() {
      const exited = new Promise<number | null>((resolve) =>
        child.on("exit", (code) => resolve(code)),
      );
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
}
