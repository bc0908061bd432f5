import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../src/lsp/settings.js";
import { ROOT } from "../helpers/run.js";

/**
 * editors/vscode as far as it can be checked without VS Code: its manifest (what VS Code reads to
 * activate it and show its settings) against the server it starts, and the choice of server command
 * (server-command.js, which imports nothing of VS Code). test/shipped/package.test.ts runs that command
 * in a project with the npm tarball installed and completes the initialize handshake.
 */
const FOLDER = path.join(ROOT, "editors/vscode");
const manifest = JSON.parse(readFileSync(path.join(FOLDER, "package.json"), "utf8"));
const lock = JSON.parse(readFileSync(path.join(FOLDER, "package-lock.json"), "utf8"));
const extensionSource = readFileSync(path.join(FOLDER, manifest.main), "utf8");
const { serverCommand, DOCUMENT_SELECTOR } = createRequire(import.meta.url)(
  path.join(FOLDER, "server-command.js"),
);

describe("editors/vscode: the manifest", () => {
  it("has what VS Code requires of an extension, and stays off npm", () => {
    expect(manifest.name).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(manifest.publisher).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.private).toBe(true);
    expect(manifest.main).toBe("./extension.js");
    // vscode-languageclient refuses to run in an older VS Code than its own engines field says.
    const client = lock.packages["node_modules/vscode-languageclient"];
    expect(manifest.dependencies["vscode-languageclient"]).toBe(`^${client.version}`);
    expect(manifest.engines.vscode).toBe(client.engines.vscode);
    expect(lock.packages[""].dependencies).toEqual(manifest.dependencies);
  });

  it("activates for Tauri apps, capability files, recordings and client configurations", () => {
    for (const event of manifest.activationEvents) expect(event).toMatch(/^workspaceContains:\S+$/);
    const globs = manifest.activationEvents.map((event: string) =>
      event.slice("workspaceContains:".length),
    );
    expect(globs).toEqual(
      expect.arrayContaining([
        "**/tauri.conf.json",
        "**/tauri.*.conf.json",
        "**/capabilities/*.json",
        "**/capabilities/*.toml",
      ]),
    );
    // The server's default recording globs activate it too.
    for (const glob of [...DEFAULT_SETTINGS.eventsInclude, ...DEFAULT_SETTINGS.eventsClientInclude])
      expect(globs).toContain(glob);
    const languages = manifest.contributes.languages.map(
      (language: { id: string; extensions: string[] }) => [language.id, language.extensions],
    );
    expect(languages).toEqual([
      ["toml", [".toml"]],
      ["jsonl", [".jsonl"]],
    ]);
    expect(DOCUMENT_SELECTOR.map((selector: { language: string }) => selector.language)).toEqual([
      "json",
      "jsonc",
      "toml",
      "jsonl",
      "rust",
    ]);
  });

  it("declares the server's settings with the server's defaults, as docs/lsp.md lists them", () => {
    const properties = manifest.contributes.configuration.properties;
    const documented = [
      ...readFileSync(path.join(ROOT, "docs/lsp.md"), "utf8").matchAll(
        /^\| `(caplint\.[\w.]+)` \|/gm,
      ),
    ].map((m) => m[1]);
    const extensionOwn = ["caplint.server.path", "caplint.server.node", "caplint.trace.server"];
    expect(Object.keys(properties).sort()).toEqual([...documented, ...extensionOwn].sort());
    expect(properties["caplint.rules"].default).toEqual(DEFAULT_SETTINGS.rules);
    expect(properties["caplint.events.include"].default).toEqual(DEFAULT_SETTINGS.eventsInclude);
    expect(properties["caplint.events.clientInclude"].default).toEqual(
      DEFAULT_SETTINGS.eventsClientInclude,
    );
    expect(properties["caplint.debounceMs"].default).toBe(DEFAULT_SETTINGS.debounceMs);
    expect(properties["caplint.cargoRegistry"].default).toBe(DEFAULT_SETTINGS.cargoRegistry);
    expect(properties["caplint.rules"].additionalProperties.enum).toEqual([
      "off",
      "suggestion",
      "warning",
      "error",
    ]);
  });

  it("extension.js loads only what the manifest provides and registers the commands it contributes", () => {
    const required = [...extensionSource.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(required.sort()).toEqual([
      "./server-command.js",
      "vscode",
      "vscode-languageclient/node",
    ]);
    const registered = [...extensionSource.matchAll(/registerCommand\("([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(registered).toEqual(
      manifest.contributes.commands.map((command: { command: string }) => command.command),
    );
  });
});

describe("editors/vscode: which caplint it starts", () => {
  const installed = (...dirs: string[]) =>
    new Set(dirs.map((dir) => path.join(dir, "node_modules/caplint/bin/caplint.js")));
  const exists = (files: Set<string>) => (file: string) => files.has(file);

  it("the workspace folder's node_modules, or the nearest folder above it that has caplint", () => {
    expect(
      serverCommand({ folders: ["/work/app"], exists: exists(installed("/work/app")) }),
    ).toEqual({
      command: "node",
      args: ["/work/app/node_modules/caplint/bin/caplint.js", "lsp", "--stdio"],
      from: "/work/app",
    });
    expect(
      serverCommand({
        folders: ["/repo/apps/desktop"],
        node: "/opt/node22/bin/node",
        exists: exists(installed("/repo")),
      }),
    ).toEqual({
      command: "/opt/node22/bin/node",
      args: ["/repo/node_modules/caplint/bin/caplint.js", "lsp", "--stdio"],
      from: "/repo",
    });
    // The second folder has it, the first does not.
    expect(serverCommand({ folders: ["/a", "/b"], exists: exists(installed("/b")) }).from).toBe(
      "/b",
    );
  });

  it("the caplint.server.path setting wins: a script runs with node, anything else is the executable", () => {
    const nothing = exists(new Set());
    expect(
      serverCommand({
        folders: ["/work/app"],
        configuredPath: "tools/caplint/bin/caplint.js",
        exists: nothing,
      }),
    ).toEqual({
      command: "node",
      args: ["/work/app/tools/caplint/bin/caplint.js", "lsp", "--stdio"],
      from: "caplint.server.path",
    });
    expect(
      serverCommand({
        folders: ["/work/app"],
        configuredPath: "/usr/local/bin/caplint",
        exists: nothing,
      }),
    ).toEqual({
      command: "/usr/local/bin/caplint",
      args: ["lsp", "--stdio"],
      from: "caplint.server.path",
    });
  });

  it("none when caplint is nowhere to be found (the extension then says how to install it)", () => {
    expect(serverCommand({ folders: ["/work/app"], exists: exists(new Set()) })).toBeUndefined();
    expect(serverCommand({ folders: [], exists: exists(new Set()) })).toBeUndefined();
    expect(extensionSource).toContain("npm install --save-dev caplint");
  });
});
