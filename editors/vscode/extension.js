// Starts caplint's language server (`caplint lsp --stdio`, from the workspace's node_modules or the
// `caplint.server.path` setting) for the files it checks, through vscode-languageclient. Everything
// else (diagnostics, completion, hover, code actions, definitions, settings) is the server's.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");
const { DOCUMENT_SELECTOR, serverCommand } = require("./server-command.js");

let client;

async function start() {
  const settings = vscode.workspace.getConfiguration("caplint");
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
  const server = serverCommand({
    folders,
    configuredPath: settings.get("server.path"),
    node: settings.get("server.node"),
  });
  if (!server) {
    void vscode.window.showWarningMessage(
      "caplint is not installed in this workspace: run `npm install --save-dev caplint`, or set caplint.server.path.",
    );
    return;
  }
  const executable = { command: server.command, args: server.args, options: { cwd: folders[0] } };
  client = new LanguageClient(
    "caplint",
    "caplint",
    { run: executable, debug: executable },
    // The server asks for the `caplint` section itself (workspace/configuration) and registers its own file watchers.
    { documentSelector: DOCUMENT_SELECTOR },
  );
  await client.start();
}

async function stop() {
  const running = client;
  client = undefined;
  if (running) await running.stop();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("caplint.restartServer", async () => {
      await stop();
      await start();
    }),
    // Where caplint is found is read at start: a change of it restarts the server.
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("caplint.server")) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
