import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parse as parseToml } from "smol-toml";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editorProject, readmeBlock, type EditorProject } from "./editor-project.js";

/**
 * The README's set-up snippets for editors this machine does not have (Neovim's run in
 * neovim.test.ts): each is parsed as the editor parses it, and the command it names runs in a project
 * with caplint installed, as the editor would start it there. Helix's: the server answers initialize
 * and publishes the diagnostic of a typo in an opened capability file. Zed's task: the check runs.
 */
let project: EditorProject;
beforeAll(() => {
  project = editorProject();
});
afterAll(() => project.remove());

/** Starts `command args` in the project as an editor would, opens the capability file with a typo, and returns what the server published for it. */
async function diagnosticsOfTypo(
  command: string,
  args: string[],
): Promise<{ serverName: string; published: PublishDiagnosticsParams }> {
  const child = spawn(command, args, {
    cwd: project.root,
    env: { ...process.env, CAPLINT_CARGO_REGISTRY: "off", npm_config_yes: "false" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const uri = pathToFileURL(project.capability).href;
  const published = new Promise<PublishDiagnosticsParams>((resolve) =>
    connection.onNotification(
      "textDocument/publishDiagnostics",
      (params: PublishDiagnosticsParams) => {
        if (params.uri === uri && params.diagnostics.length > 0) resolve(params);
      },
    ),
  );
  connection.listen();
  try {
    const initialized = await connection.sendRequest<{ serverInfo: { name: string } }>(
      "initialize",
      {
        processId: process.pid,
        rootUri: pathToFileURL(project.root).href,
        workspaceFolders: [{ uri: pathToFileURL(project.root).href, name: "project" }],
        capabilities: {},
      },
    );
    await connection.sendNotification("initialized", {});
    const text = readFileSync(project.capability, "utf8").replace(
      '"shell:allow-open"',
      '"shell:allow-opne"',
    );
    await connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "json", version: 1, text },
    });
    const diagnostics = await published;
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    return { serverName: initialized.serverInfo.name, published: diagnostics };
  } catch (error) {
    throw new Error(`${command} ${args.join(" ")}: ${String(error)}\n${stderr}`);
  } finally {
    connection.dispose();
    child.kill();
  }
}

describe("README: Helix's languages.toml", { timeout: 120_000 }, () => {
  const config = parseToml(readmeBlock("toml", "[language-server.caplint]")) as {
    "language-server": Record<string, { command: string; args: string[] }>;
    language: Array<{ name: string; "language-servers": string[] }>;
  };

  it("adds caplint to Helix's JSON and TOML languages, keeping their default servers", () => {
    // Helix's own languages.toml: json → vscode-json-language-server, toml → taplo.
    expect(
      config.language.map((language) => [language.name, language["language-servers"]]),
    ).toEqual([
      ["json", ["vscode-json-language-server", "caplint"]],
      ["toml", ["taplo", "caplint"]],
    ]);
  });

  it("its command starts the project's caplint, which reports a typo in the opened capability file", async () => {
    const { command, args } = config["language-server"].caplint!;
    const { serverName, published } = await diagnosticsOfTypo(command, args);
    expect(serverName).toBe("caplint");
    expect(published.diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([
      ["unknown-permission", 9],
    ]);
  });
});

describe("README: Zed's task", () => {
  it("runs caplint check in the project", () => {
    const [task] = JSON.parse(readmeBlock("json", '"label": "caplint"')) as Array<{
      label: string;
      command: string;
      args: string[];
    }>;
    writeFileSync(
      project.capability,
      readFileSync(project.capability, "utf8").replace('"shell:allow-open"', '"shell:allow-opne"'),
    );
    const result = spawnSync(task!.command, task!.args, {
      cwd: project.root,
      encoding: "utf8",
      env: {
        ...process.env,
        CAPLINT_CARGO_REGISTRY: "off",
        NO_COLOR: "1",
        npm_config_yes: "false",
      },
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(
      /src-tauri\/capabilities\/default\.json\n {2}10:5 {2}error {2}unknown permission "shell:allow-opne"/,
    );
  });
});
