import { cpSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/run.js";
import { copyApp, startServer, uriOf, type TestClient } from "./client.js";

describe("caplint lsp: recordings and client configurations", () => {
  let workspace: ReturnType<typeof copyApp>;
  let client: TestClient;
  const session = () => readFileSync(path.join(ROOT, "examples/events/session.jsonl"), "utf8");

  beforeAll(async () => {
    workspace = copyApp("events/event-field/invalid");
    mkdirSync(path.join(workspace.dir, "traffic"));
    cpSync(
      path.join(ROOT, "examples/events/session.jsonl"),
      path.join(workspace.dir, "traffic/session.jsonl"),
    );
    client = await startServer(workspace.dir, {
      initializationOptions: {
        events: { include: ["traffic/*.jsonl"], clientInclude: ["*client*.jsonl"] },
      },
    });
  });
  afterAll(async () => {
    expect(await client.stop()).toBe(0);
    workspace.remove();
  });

  it("checks a recording under caplint.events.include as caplint events does, as typed", async () => {
    const uri = uriOf(path.join(workspace.dir, "traffic/session.jsonl"));
    await client.open(uri, session());
    const found = await client.diagnostics(uri);
    expect(found.map((d) => [d.code, d.range.start.line + 1, d.range.start.character + 1])).toEqual(
      [
        ["approval-lifecycle", 7, 36],
        ["tool-lifecycle", 10, 9],
        ["event-field", 10, 116],
      ],
    );
    // The turn's last line dropped: the call is still running at the end of the recording instead.
    const lines = session().split("\n");
    await client.change(
      uri,
      lines.filter((line) => !line.includes('"output_tokens":-1')).join("\n"),
    );
    const edited = await client.diagnostics(
      uri,
      (list) => !list.some((d) => d.code === "event-field"),
    );
    expect(edited.some((d) => d.code === "tool-lifecycle")).toBe(true);
  });

  it("checks client traffic under caplint.events.clientInclude as --client does", async () => {
    const file = path.join(workspace.dir, "client-fields.jsonl");
    await client.open(uriOf(file), readFileSync(file, "utf8"));
    const found = await client.diagnostics(uriOf(file));
    expect(found[0]).toMatchObject({
      code: "event-field",
      message: 'ClientMessage is missing required field "content"\nhelp: add "content": a string',
      severity: 1,
    });
  });

  it("leaves .jsonl files outside the globs alone", async () => {
    const uri = uriOf(path.join(workspace.dir, "notes.jsonl"));
    await client.open(uri, "not json\n");
    const other = uriOf(path.join(workspace.dir, "traffic/session.jsonl"));
    await client.change(other, session());
    await client.diagnostics(other, (list) => list.length === 3);
    expect(client.published.some((p) => p.uri === uri)).toBe(false);
  });

  it("checks a client configuration offline: the entries that cannot run, never starting a server", async () => {
    const uri = uriOf(path.join(workspace.dir, ".mcp.json"));
    const marker = path.join(workspace.dir, "started");
    const text = JSON.stringify(
      {
        mcpServers: {
          // Would create the marker file if it were started.
          fine: {
            command: process.execPath,
            args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`],
          },
          broken: { command: "node", args: ["${CAPLINT_TEST_UNSET_VARIABLE}"] },
        },
      },
      null,
      2,
    );
    await client.open(uri, text);
    const found = await client.diagnostics(uri);
    const line = text.split("\n").findIndex((l) => l.includes('"broken"'));
    expect(found.map((d) => [d.code, d.range.start.line])).toEqual([["mcp-server-start", line]]);
    expect(found[0]!.message).toMatch(/CAPLINT_TEST_UNSET_VARIABLE/);
    await client.change(uri, '{"mcpServers": ');
    const broken = await client.diagnostics(uri, (list) => list[0]?.code === "parse");
    expect(broken[0]!.message).toMatch(/not a client configuration/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(() => readFileSync(marker)).toThrow();
  });
});
