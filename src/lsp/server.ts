/**
 * `caplint lsp --stdio`: the language server. It speaks LSP over the given streams (the process's
 * stdin and stdout), checks what the editor has open in its app's full context, and answers
 * completion, hover, code actions and definitions from the same loaded model as the CLI's commands.
 * A failing request answers with an error and a failing check is logged: neither ends the server.
 */
import type { ClientCapabilities, Connection, InitializeResult } from "vscode-languageserver/node";
import { toolVersion } from "../core/tool.js";
import {
  createConnection,
  DidChangeWatchedFilesNotification,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocument,
  TextDocuments,
  TextDocumentSyncKind,
} from "./protocol.js";
import { readSettings } from "./settings.js";
import { filePathOf, Workspace } from "./workspace.js";

export interface ServerStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  env: Readonly<Record<string, string | undefined>>;
}

/** Runs the server until the client says `exit` (or closes the stream); resolves with the exit code. */
export function runLanguageServer(streams: ServerStreams): Promise<number> {
  const connection = createConnection(new StreamMessageReader(streams.input), new StreamMessageWriter(streams.output));
  const documents = new TextDocuments(TextDocument);
  const workspace = new Workspace(connection, documents, streams.env);
  let client: ClientCapabilities = {};
  let initializationSettings: unknown;
  let shutdown = false;

  connection.onInitialize((params): InitializeResult => {
    client = params.capabilities;
    const folders = params.workspaceFolders?.map((folder) => filePathOf(folder.uri)) ?? [params.rootUri ? filePathOf(params.rootUri) : undefined];
    workspace.folders = folders.filter((folder): folder is string => folder !== undefined);
    const options = params.initializationOptions as Record<string, unknown> | undefined;
    // Either the `caplint` section itself or an object holding it (as Neovim's `settings` table is often passed).
    initializationSettings = options && typeof options === "object" && "caplint" in options ? options.caplint : options;
    applySettings(initializationSettings);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: "caplint", version: toolVersion() },
    };
  });

  const applySettings = (section: unknown) => {
    const { settings, problems } = readSettings(section);
    for (const problem of problems) connection.console.warn(problem);
    workspace.settingsChanged(settings);
  };
  const pullSettings = async () => {
    if (!client.workspace?.configuration) return;
    const [section] = (await connection.workspace.getConfiguration([{ section: "caplint" }])) as unknown[];
    // A client without such a section answers null: the initialization options stay.
    if (section !== null && section !== undefined) applySettings(section);
  };

  connection.onInitialized(() => {
    workspace.guard(pullSettings());
    // The library refuses the handler unless the client said it sends these events.
    if (client.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        const removed = new Set(event.removed.map((folder) => filePathOf(folder.uri)));
        const added = event.added.map((folder) => filePathOf(folder.uri)).filter((folder): folder is string => folder !== undefined);
        workspace.folders = [...workspace.folders.filter((folder) => !removed.has(folder)), ...added];
      });
    }
    if (client.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      // Saved files that are not open (a Cargo.lock rewritten by cargo, a permission file from git) change verdicts too.
      workspace.guard(connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: "**/*.{json,toml,lock,rs,jsonl}" }] }));
    }
  });
  connection.onDidChangeConfiguration((change) => {
    const settings = (change.settings as Record<string, unknown> | null)?.caplint;
    if (client.workspace?.configuration) workspace.guard(pullSettings());
    else if (settings !== undefined) applySettings(settings);
  });
  connection.onDidChangeWatchedFiles((change) => workspace.filesChanged(change.changes.map((c) => c.uri)));
  documents.onDidOpen((event) => workspace.changed(event.document.uri));
  documents.onDidChangeContent((event) => workspace.changed(event.document.uri));
  documents.onDidClose((event) => workspace.closed(event.document.uri));
  documents.listen(connection);

  connection.onShutdown(() => {
    shutdown = true;
  });
  registerFeatures(connection, workspace);
  return new Promise((resolve) => {
    connection.onExit(() => resolve(shutdown ? 0 : 1));
    // The client went away without `exit`: end as the protocol asks (1 without a shutdown request).
    streams.input.on("end", () => resolve(shutdown ? 0 : 1));
    connection.listen();
  });
}

function registerFeatures(connection: Connection, workspace: Workspace): void {
  void connection;
  void workspace;
}
