import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyApp, startServer, uriOf, type TestClient } from "./client.js";

describe("caplint lsp: robustness", () => {
  let app: ReturnType<typeof copyApp>;
  let client: TestClient;
  const capability = () => path.join(app.dir, "dataans/src-tauri/capabilities/desktop.json");

  beforeAll(async () => {
    app = copyApp("real-world/build-truth/TheBestTvarynka__Dataans");
    client = await startServer(app.dir);
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
    app.remove();
  });

  it("advertises its features and names itself", () => {
    expect(client.initialized).toMatchObject({
      capabilities: {
        textDocumentSync: 2,
        hoverProvider: true,
        definitionProvider: true,
        completionProvider: { triggerCharacters: ['"', "'", ":"] },
        codeActionProvider: { codeActionKinds: ["quickfix"] },
        workspace: { textDocumentContent: { schemes: ["caplint"] } },
      },
      serverInfo: { name: "caplint" },
    });
  });

  it("answers a malformed request with an error and keeps serving", async () => {
    await expect(
      client.connection.sendRequest("textDocument/hover", { nonsense: true }),
    ).rejects.toThrow();
    await expect(client.connection.sendRequest("caplint/noSuchRequest", {})).rejects.toThrow(
      /Unhandled method/,
    );
    const uri = uriOf(capability());
    await client.open(
      uri,
      '{"identifier": "x", "windows": ["main"], "permissions": ["core:windw:default"]}',
    );
    const found = await client.diagnostics(uri, (list) => list.length > 0);
    expect(found[0]!.code).toMatch(/unknown-(plugin|permission)/);
  });

  it("survives an app that fails to load (a broken caplint.config.json) and recovers when it is fixed", async () => {
    const config = uriOf(path.join(app.dir, "dataans", "caplint.config.json"));
    writeFileSync(path.join(app.dir, "dataans", "caplint.config.json"), "{}");
    await client.open(config, '{"rules": {"no-such-rule": "error"}}');
    const uri = uriOf(capability());
    await client.change(
      uri,
      '{"identifier": "x", "windows": ["main"], "permissions": ["core:windw:defaul"]}',
    );
    await waitFor(() => client.messages.some((m) => m.includes('unknown rule "no-such-rule"')));
    expect(client.stderr()).toBe("");
    await client.change(config, '{"rules": {}}');
    const found = await client.diagnostics(uri, (list) =>
      list.some((d) => String(d.message).includes("core:windw:defaul")),
    );
    expect(found.length).toBeGreaterThan(0);
    await client.close(config);
  });

  it("ends with exit code 1 on exit without shutdown, as the protocol asks", async () => {
    const other = await startServer(app.dir);
    const exited = new Promise<number | null>((resolve) =>
      other.child.on("exit", (code) => resolve(code)),
    );
    await other.connection.sendNotification("exit");
    expect(await exited).toBe(1);
    other.connection.dispose();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
