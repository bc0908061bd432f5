/**
 * `caplint lsp --stdio`: the language server. It speaks LSP over the given streams (the process's
 * stdin and stdout), checks what the editor has open in its app's full context, and answers
 * completion, hover, code actions and definitions from the same loaded model as the CLI's commands.
 * A failing request answers with an error and a failing check is logged: neither ends the server.
 */
import type {
  ClientCapabilities,
  Connection,
  Hover,
  InitializeResult,
  Position,
} from "vscode-languageserver/node";
import { withOpenBuffers } from "../core/source/read.js";
import { codeActions } from "./code-actions.js";
import { completionItems, markdown, slotAt } from "./completion.js";
import { toLspRange } from "./convert.js";
import { definitionOf, VirtualDocuments, VIRTUAL_SCHEME } from "./definition.js";
import { hoverText } from "./hover.js";
import { callHover, grantActions } from "./frontend.js";
import { BoundedMessageReader, ClientGate, DEFAULT_MAX_MESSAGE_BYTES } from "./framing.js";
import { documentOf, placeAt } from "./places.js";
import { toolVersion } from "../core/tool.js";
import {
  CodeActionKind,
  createConnection,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  ResponseError,
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
  /** Where a broken connection is said (standard error): the client's pipe may be what broke. */
  errors: NodeJS.WritableStream;
  env: Readonly<Record<string, string | undefined>>;
  /** The largest message read from the client (default 64 MiB). */
  maxMessageBytes?: number;
}

/** How long a queued `exit` may take to be handled after the client closed its stream. */
const QUEUED_EXIT_GRACE_MS = 2_000;

/**
 * Runs the server until the client says `exit`, closes its stream or breaks the framing; resolves
 * with the exit code: 0 after `shutdown`, 1 without it, 2 when the client's bytes broke the protocol.
 */
export function runLanguageServer(streams: ServerStreams): Promise<number> {
  let finish: (code: number) => void = () => {};
  const ended = new Promise<number>((resolve) => (finish = resolve));
  const gate = new ClientGate(new StreamMessageWriter(streams.output));
  const reader = new BoundedMessageReader(
    streams.input,
    streams.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    (reason) => {
      streams.errors.write(`caplint lsp: ${reason}; closing the connection\n`);
      end(2);
    },
    gate,
  );
  const connection = createConnection(reader, gate.clientWriter());
  const documents = new TextDocuments(TextDocument);
  const workspace = new Workspace(connection, documents, streams.env);
  let done = false;
  /** Once: pending checks publish nothing more, the connection lets go of the streams. */
  const end = (code: number) => {
    if (done) return;
    done = true;
    workspace.dispose();
    connection.dispose();
    finish(code);
  };
  let client: ClientCapabilities = {};
  let initializationSettings: unknown;
  let shutdown = false;

  connection.onInitialize((params): InitializeResult => {
    client = params.capabilities;
    const folders = params.workspaceFolders?.map((folder) => filePathOf(folder.uri)) ?? [
      params.rootUri ? filePathOf(params.rootUri) : undefined,
    ];
    workspace.folders = folders.filter((folder): folder is string => folder !== undefined);
    const options = params.initializationOptions as Record<string, unknown> | undefined;
    // Either the `caplint` section itself or an object holding it (as Neovim's `settings` table is often passed).
    initializationSettings =
      options && typeof options === "object" && "caplint" in options ? options.caplint : options;
    applySettings(initializationSettings);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: ['"', "'", ":"] },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        definitionProvider: true,
        workspace: {
          workspaceFolders: { supported: true, changeNotifications: true },
          textDocumentContent: { schemes: [VIRTUAL_SCHEME] },
        },
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
    const [section] = (await connection.workspace.getConfiguration([
      { section: "caplint" },
    ])) as unknown[];
    // A client without such a section answers null: the initialization options stay.
    if (section !== null && section !== undefined) applySettings(section);
  };

  connection.onInitialized(() => {
    workspace.guard(pullSettings());
    // The library refuses the handler unless the client said it sends these events.
    if (client.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        const removed = new Set(event.removed.map((folder) => filePathOf(folder.uri)));
        const added = event.added
          .map((folder) => filePathOf(folder.uri))
          .filter((folder): folder is string => folder !== undefined);
        workspace.folders = [
          ...workspace.folders.filter((folder) => !removed.has(folder)),
          ...added,
        ];
      });
    }
    if (client.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      // Saved files that are not open (a Cargo.lock rewritten by cargo, a permission file from git) change verdicts too.
      workspace.guard(
        connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: [
            {
              globPattern:
                "**/*.{json,toml,lock,rs,jsonl,ts,tsx,mts,cts,js,jsx,mjs,cjs,vue,svelte,html,htm}",
            },
          ],
        }),
      );
    }
  });
  connection.onDidChangeConfiguration((change) => {
    const settings = (change.settings as Record<string, unknown> | null)?.caplint;
    if (client.workspace?.configuration) workspace.guard(pullSettings());
    else if (settings !== undefined) applySettings(settings);
  });
  connection.onDidChangeWatchedFiles((change) =>
    workspace.filesChanged(change.changes.map((c) => c.uri)),
  );
  documents.onDidOpen((event) => workspace.opened(event.document.uri));
  documents.onDidChangeContent((event) => workspace.changed(event.document.uri));
  documents.onDidClose((event) => workspace.closed(event.document.uri));
  documents.listen(connection);

  connection.onShutdown(() => {
    shutdown = true;
  });
  registerFeatures(connection, workspace);
  connection.onExit(() => end(shutdown ? 0 : 1));
  // The client closed its stream. Messages it wrote just before (initialize, shutdown and exit in one
  // write) may still wait in the connection's queue, which handles one per tick: a queued `exit` ends
  // the run itself, with its answers written. Without one, end as the protocol asks (1 without a
  // shutdown request), also mid-check; the timer only guards a queue that never reaches its `exit`.
  reader.onClose(() => {
    if (gate.exitSent) setTimeout(() => end(gate.shutdownSent ? 0 : 1), QUEUED_EXIT_GRACE_MS);
    else end(gate.shutdownSent ? 0 : 1);
  });
  connection.listen();
  return ended;
}

/** Completion, hover, code actions, definitions and the virtual documents of built-in catalogs. */
function registerFeatures(connection: Connection, workspace: Workspace): void {
  const documents = workspace.documents;
  const virtual = new VirtualDocuments();
  /** The app's fresh analysis and the parsed document of this file in it, for a request about a place in it. */
  const analysed = async (uri: string) => {
    const file = filePathOf(uri);
    const app = file === undefined ? undefined : await workspace.freshApp(uri);
    const project = app?.analysis?.project;
    if (!project || file === undefined) return undefined;
    return { app, project, file, document: documentOf(project, file), buffer: documents.get(uri) };
  };
  const placeOf = async (uri: string, position: Position) => {
    const found = await analysed(uri);
    if (!found?.document) return undefined;
    const offset = found.buffer
      ? found.buffer.offsetAt(position)
      : found.document.lines.offset({ line: position.line + 1, column: position.character + 1 });
    const place = placeAt(found.project, found.document, offset);
    return place && { ...found, place };
  };

  connection.onCompletion(async ({ textDocument, position }) => {
    const buffer = documents.get(textDocument.uri);
    if (!buffer) return [];
    const slot = slotAt(buffer, buffer.offsetAt(position));
    if (!slot) return [];
    const needsApp =
      slot.kind === "permission" || slot.kind === "window" || slot.kind === "webview";
    const project = needsApp
      ? (await workspace.freshApp(textDocument.uri))?.analysis?.project
      : undefined;
    return completionItems(slot, buffer, project);
  });

  connection.onHover(async ({ textDocument, position }): Promise<Hover | null> => {
    const frontend = await analysed(textDocument.uri);
    if (frontend && !frontend.document && frontend.buffer) {
      // A frontend file: the call under the cursor, judged for the windows that load it.
      const buffer = frontend.buffer;
      const hover = callHover(frontend.project, frontend.file, buffer.offsetAt(position));
      return hover
        ? {
            contents: markdown(hover.text),
            range: { start: buffer.positionAt(hover.start), end: buffer.positionAt(hover.end) },
          }
        : null;
    }
    const found = await placeOf(textDocument.uri, position);
    if (!found) return null;
    const { place, document } = found;
    const range = toLspRange({
      start: document!.lines.position(place.offset),
      end: document!.lines.position(place.offset + place.length),
    });
    return { contents: markdown(hoverText(found.project, place)), range };
  });

  connection.onCodeAction(async ({ textDocument, range }) => {
    const found = await analysed(textDocument.uri);
    if (!found?.buffer) return [];
    const findings = found.app.analysis!.result.diagnostics.filter(
      (d) => d.absolutePath === found.file,
    );
    return [
      ...codeActions({
        uri: textDocument.uri,
        buffer: found.buffer,
        document: found.document,
        project: found.project,
        findings,
        range,
      }),
      ...(found.document ? [] : grantActions(found.project, found.file, found.buffer, range)),
    ];
  });

  connection.onDefinition(async ({ textDocument, position }) => {
    const found = await placeOf(textDocument.uri, position);
    const place = found?.place;
    if (!found || place?.kind !== "permission") return null;
    const texts = new Map(
      documents
        .all()
        .flatMap((d) =>
          filePathOf(d.uri) === undefined ? [] : [[filePathOf(d.uri)!, d.getText()] as const],
        ),
    );
    return (
      (await withOpenBuffers(texts, () =>
        definitionOf(found.project, place.entry.identifier, virtual),
      )) ?? null
    );
  });

  const content = (uri: string) => {
    const text = virtual.get(uri);
    if (text === undefined)
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `${uri}: no such caplint document (ask for the definition again)`,
      );
    return { text };
  };
  connection.workspace.textDocumentContent.on(({ uri }) => content(uri));
  // For clients before LSP 3.18 (Neovim 0.10, Helix): the same answer under caplint's own name.
  connection.onRequest("caplint/textDocumentContent", (params: { uri?: unknown }) =>
    content(String(params?.uri)),
  );
}
