// Which caplint the extension starts, kept apart from extension.js (no `vscode` import) so that tests
// can run it outside VS Code. The project's own caplint wins: the version its lockfile pins, with the
// rules its config names, as `npx caplint` would run it from the workspace folder.
"use strict";
const { existsSync } = require("node:fs");
const path = require("node:path");

/** The documents caplint checks: capability files, configs, Cargo files, permission files, recordings, client configurations. */
const DOCUMENT_SELECTOR = [
  { scheme: "file", language: "json" },
  { scheme: "file", language: "jsonc" },
  { scheme: "file", language: "toml" },
  { scheme: "file", language: "jsonl" },
  // build.rs lists the commands of plugins it inlines; the app's Rust code creates windows.
  { scheme: "file", language: "rust" },
];

/** The package's bin inside a folder's node_modules, as `npm install --save-dev caplint` leaves it. */
const INSTALLED_BIN = path.join("node_modules", "caplint", "bin", "caplint.js");

/**
 * The command that starts `caplint lsp --stdio`:
 * - `caplint.server.path`, when set: a caplint.js (run with `node`) or an executable; a relative path is
 *   taken from the first workspace folder;
 * - else the first workspace folder whose node_modules holds caplint (looking upward, as npx does);
 * - else undefined: caplint is not installed where the extension can find it.
 * `node` is the `caplint.server.node` setting (default "node" from PATH): caplint needs Node 20.19 or
 * newer, which VS Code's own runtime is not always.
 */
function serverCommand({ folders, configuredPath, node, exists = existsSync }) {
  const nodeCommand = node || "node";
  const args = ["lsp", "--stdio"];
  if (configuredPath) {
    const resolved = path.resolve(folders[0] ?? process.cwd(), configuredPath);
    return /\.[cm]?js$/.test(resolved)
      ? { command: nodeCommand, args: [resolved, ...args], from: "caplint.server.path" }
      : { command: resolved, args, from: "caplint.server.path" };
  }
  for (const folder of folders) {
    for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
      const bin = path.join(dir, INSTALLED_BIN);
      if (exists(bin)) return { command: nodeCommand, args: [bin, ...args], from: dir };
      if (path.dirname(dir) === dir) break;
    }
  }
  return undefined;
}

module.exports = { DOCUMENT_SELECTOR, INSTALLED_BIN, serverCommand };
