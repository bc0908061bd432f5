import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/run.js";
import { caplint, isAlive, startHttpFixture } from "../../mcp/helpers.js";

/**
 * Issue 25, processes and live transports: a live run always ends, in bounded time, leaves no
 * process of the server behind, and reads a bounded amount from any server, saying which limit
 * it reached. The servers misbehave on purpose (fixtures/mcp/hostile-*.mjs, loopback only).
 */
const LIVE = { timeout: 60_000 };
const hostile = path.join(ROOT, "fixtures/mcp/hostile-stdio-server.mjs");

describe("the server's process tree", () => {
  it(
    "grandchildren that inherit stdout or leave the process group neither keep caplint running nor survive it",
    LIVE,
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-tree-"));
      const pidFile = path.join(dir, "pids");
      // Without the group kill the inheriting grandchild held stdout open and caplint never ended: the time-out fails it.
      const result = await caplint([
        "mcp",
        "-f",
        "compact",
        "--stdio",
        "--",
        "node",
        hostile,
        "grandchildren",
        pidFile,
      ]);
      expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
      const pids = readFileSync(pidFile, "utf8").trim().split(" ").map(Number);
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(isRunning(pid), `grandchild ${pid}`).toBe(false);
    },
  );

  it("the same for every server of --servers, one after another", LIVE, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-tree-"));
    const servers = Object.fromEntries(
      ["one", "two"].map((name) => [
        name,
        { command: "node", args: [hostile, "grandchildren", path.join(dir, name)] },
      ]),
    );
    writeFileSync(path.join(dir, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
    const result = await caplint(["mcp", "--servers", ".mcp.json"], { cwd: dir });
    expect(result).toMatchObject({ code: 0, stderr: "", stdout: "2 files checked, no problems\n" });
    const pids = [...readPids(path.join(dir, "one")), ...readPids(path.join(dir, "two"))];
    expect(pids).toHaveLength(4);
    for (const pid of pids) expect(isRunning(pid), `grandchild ${pid}`).toBe(false);
  });
});

describe("limits on what a server sends, named when reached", () => {
  it(
    "stdio: a line over 10 MiB ends the run with the limit, not 'closed the connection'",
    LIVE,
    async () => {
      const result = await caplint(["mcp", "--stdio", "--", "node", hostile, "long-line"]);
      expect(result).toMatchObject({
        code: 2,
        stdout: "",
        stderr: `caplint: the server (node ${hostile} long-line) wrote a line over 10 MiB on stdout before answering tools/list: caplint reads at most 10 MiB per stdio message\n`,
      });
    },
  );

  let server: { url: string; stop(): Promise<void> } | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  for (const [mode, what] of [
    ["endless", "a body that never ends"],
    ["huge", "a 200 MB body"],
  ] as const) {
    it(`HTTP: ${what} stops at 10 MiB with an error naming the limit`, LIVE, async () => {
      server = await startHttpFixture("hostile-http-server.mjs", [mode]);
      // Stopped at the limit, not at --timeout: the message names the limit (--timeout would name itself).
      const result = await caplint(["mcp", "--timeout", "30", "--url", server.url]);
      expect(result).toMatchObject({
        code: 2,
        stdout: "",
        stderr: `caplint: the server at ${server.url} sent a response body over 10 MiB before answering initialize: caplint reads at most 10 MiB per HTTP body or event\n`,
      });
    });
  }

  it("legacy SSE: a stream that never names its endpoint ends at --timeout", LIVE, async () => {
    server = await startHttpFixture("hostile-http-server.mjs", ["sse-silent"]);
    const result = await caplint(["mcp", "--timeout", "2", "--url", server.url]);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr: `caplint: the server at ${server.url} opened no session within 2 s (--timeout): a legacy SSE stream that never named its endpoint\n`,
    });
  });
});

function readPids(file: string): number[] {
  try {
    return readFileSync(file, "utf8").trim().split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Alive and not a zombie (a reaped-late zombie is dead: it runs nothing). */
function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
  } catch {
    return false;
  }
}
