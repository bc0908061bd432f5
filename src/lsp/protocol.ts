// The LSP library, in one module: the CLI bundle builds this file into a chunk of its own,
// dist/cli-bundle/lsp-protocol.cjs (scripts/bundle.mjs), so that the library's 440 KB are read and
// compiled only by `caplint lsp`, never by a `caplint check` in a pre-commit hook.
export {
  AbstractMessageReader,
  CodeActionKind,
  CompletionItemKind,
  createConnection,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  MarkupKind,
  ResponseError,
  StreamMessageWriter,
  TextDocuments,
  TextDocumentSyncKind,
} from "vscode-languageserver/node";
export { TextDocument } from "vscode-languageserver-textdocument";
