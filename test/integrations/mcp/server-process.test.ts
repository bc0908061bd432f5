import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { registerMcpCommands } from "../../../src/mcp/command.js";
import { REGISTRY } from "../../../src/registry.js";
import {
  EARLY_FLAGS,
  EARLY_VALUE_OPTIONS,
  earlyTarget,
  inheritedEnvironment,
  startEarly,
  startServer,
  stopUnadopted,
  type ServerProcess,
} from "../../../src/mcp/server-process.js";
import { isAlive } from "../../mcp/helpers.js";

/**
 * The stdio server that a live run starts before the MCP SDK is loaded (src/mcp/server-process.ts):
 * what it writes before anyone reads it is kept, and stopping it always reaps it. Real processes.
 */
const started: ServerProcess[] = [];
const quiet = { verbose: false, stderr: { write: () => true } };

function start(script: string): ServerProcess {
  const server = startServer(
    { kind: "stdio", command: process.execPath, args: ["-e", script], env: {} },
    quiet,
  );
  started.push(server);
  return server;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function read(server: ServerProcess): Promise<{ stdout: string; closed: boolean }> {
  return new Promise((resolve) => {
    let stdout = "";
    server.listen({
      data: (chunk) => (stdout += chunk.toString("utf8")),
      error: () => undefined,
      close: () => resolve({ stdout, closed: true }),
    });
  });
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

describe("ServerProcess", () => {
  it("passes the server the same inherited environment as the SDK's own stdio transport", () => {
    const saved = { SHELL: process.env.SHELL, TERM: process.env.TERM };
    try {
      // An exported shell function is never passed on; the others are.
      process.env.SHELL = "() { echo exported function; }";
      process.env.TERM = "xterm-test";
      expect(inheritedEnvironment()).toEqual(getDefaultEnvironment());
      expect(inheritedEnvironment()).toMatchObject({ TERM: "xterm-test" });
      expect(inheritedEnvironment()).not.toHaveProperty("SHELL");
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it(
    "keeps what the server writes on stdout before anyone reads it",
    { timeout: 30_000 },
    async () => {
      // The stderr line says the stdout line has been written; only then does the reader attach.
      const server = start(
        'process.stdout.write("first\\n"); process.stderr.write("written\\n"); process.stdin.on("data", (d) => process.stdout.write(d));',
      );
      await server.whenStarted();
      await until(() => server.stderrTail.includes("written"), "the server's stderr");
      let stdout = "";
      server.listen({
        data: (chunk) => (stdout += chunk.toString("utf8")),
        error: () => undefined,
        close: () => undefined,
      });
      await server.write("echo\n");
      await until(
        () => stdout === "first\necho\n",
        `stdout "first\\necho\\n" (got ${JSON.stringify(stdout)})`,
      );
      expect(stdout).toBe("first\necho\n");
    },
  );

  it(
    "delivers the last words of a server that exited before anyone read it, then closes",
    { timeout: 30_000 },
    async () => {
      const server = start(
        'process.stdout.write("bye\\n"); process.stderr.write("fatal: no token\\n"); process.exit(3);',
      );
      await until(() => server.exit !== undefined, "the exit");
      expect(await read(server)).toEqual({ stdout: "bye\n", closed: true });
      expect(server.exit).toEqual({ code: 3, signal: null });
      expect(server.stderrTail).toEqual(["fatal: no token"]);
      await expect(server.write("{}\n")).rejects.toThrow("Not connected");
    },
  );

  it("a command that does not exist: whenStarted rejects with ENOENT, stop returns at once", async () => {
    const server = startServer(
      { kind: "stdio", command: "caplint-no-such-server", args: [], env: {} },
      quiet,
    );
    await expect(server.whenStarted()).rejects.toMatchObject({ code: "ENOENT" });
    await server.stop();
    expect(server.pid).toBeUndefined();
  });

  it(
    "stop() reaps a server that ignores its closed stdin and SIGTERM, even one never read from",
    { timeout: 30_000 },
    async () => {
      const server = start(
        'process.on("SIGTERM", () => {}); process.stderr.write("ready\\n"); setInterval(() => process.stdout.write("x".repeat(100000)), 5);',
      );
      await until(() => server.stderrTail.includes("ready"), "the server's stderr");
      await server.stop();
      expect(server.exit).toEqual({ code: null, signal: "SIGKILL" });
      expect(isAlive(server.pid!)).toBe(false);
      // No SIGINT/SIGTERM handler of caplint's is left behind.
      expect(process.listenerCount("SIGINT")).toBe(0);
    },
  );

  it("Ctrl-C while a server runs stops the server first", { timeout: 30_000 }, async () => {
    const server = start(
      'process.on("SIGTERM", () => {}); process.stderr.write("ready\\n"); setInterval(() => {}, 1000);',
    );
    await until(() => server.stderrTail.includes("ready"), "the server's stderr");
    expect(process.listenerCount("SIGINT")).toBe(1);
    // With another SIGINT listener (here: the test's), caplint does not raise the signal again after
    // stopping the server; alone, it does (test/integrations/mcp/live.test.ts sends the bin a real SIGINT).
    const stand = () => undefined;
    process.on("SIGINT", stand);
    try {
      process.emit("SIGINT", "SIGINT");
      await until(() => server.exit !== undefined, "the server's end");
      // SIGTERM is ignored: SIGKILL after 1 s.
      expect(server.exit).toEqual({ code: null, signal: "SIGKILL" });
      expect(isAlive(server.pid!)).toBe(false);
      expect(process.listeners("SIGINT")).toEqual([stand]);
    } finally {
      process.removeListener("SIGINT", stand);
    }
  });
});

describe("earlyTarget: the bin starts the server before the CLI loads only when the arguments leave no doubt", () => {
  const server = ["--", "node", "server.js", "--port", "0"];
  const target = (env: Record<string, string> = {}) => ({
    kind: "stdio",
    command: "node",
    args: ["server.js", "--port", "0"],
    env,
  });

  it("reads mcp [dump] ... --stdio ... -- CMD ARGS", () => {
    expect(earlyTarget(["mcp", "--stdio", ...server])).toEqual(target());
    expect(earlyTarget(["mcp", "dump", "--probe", "--stdio", "-o", "out.json", ...server])).toEqual(
      target(),
    );
    expect(
      earlyTarget([
        "mcp",
        "-f",
        "json",
        "--env",
        "A=1",
        "--env=B=x=y",
        "--timeout",
        "5",
        "--stdio",
        "--verbose",
        ...server,
      ]),
    ).toEqual(target({ A: "1", B: "x=y" }));
    // An option value that looks like an option is still a value, as commander reads it.
    expect(earlyTarget(["mcp", "--service", "--stdio", ...server])).toBeUndefined();
    expect(earlyTarget(["mcp", "--service", "shop", "--stdio", ...server])).toEqual(target());
  });

  it("leaves anything else to commander (the run then starts the server itself)", () => {
    for (const argv of [
      ["mcp", ...server], // no --stdio
      ["mcp", "--stdio"], // no command
      ["mcp", "--stdio", "--"],
      ["mcp", "--stdio", "--", ""],
      ["check", "--stdio", ...server],
      ["--debug", "mcp", "--stdio", ...server],
      ["mcp", "--help", "--stdio", ...server],
      ["mcp", "--stdio", "-qf", "json", ...server], // bundled short flags
      ["mcp", "--stdio", "--unknown", ...server],
      ["mcp", "--stdio", "--url", "http://127.0.0.1:1/", ...server],
      ["mcp", "--stdio", "file.json", ...server],
      ["mcp", "--stdio", "--env", "NOVALUE", ...server],
      ["mcp", "--stdio", "--timeout", ...server], // the value would be "--"
    ])
      expect(earlyTarget(argv), argv.join(" ")).toBeUndefined();
  });

  it("knows every option of caplint mcp and whether it takes a value", () => {
    const program = new Command();
    registerMcpCommands(
      program,
      { argv: [], cwd: ".", env: {}, stdout: { write: () => true }, stderr: { write: () => true } },
      () => undefined,
      REGISTRY,
    );
    const mcp = program.commands.find((command) => command.name() === "mcp")!;
    const names = (option: { long?: string; short?: string }) =>
      [option.long, option.short].filter((name): name is string => name !== undefined);
    for (const option of mcp.options) {
      // --url makes it an HTTP run: never started early.
      if (option.long === "--url") continue;
      const table = option.required || option.optional ? EARLY_VALUE_OPTIONS : EARLY_FLAGS;
      for (const name of names(option))
        expect(
          table.has(name),
          `${name} in ${table === EARLY_FLAGS ? "EARLY_FLAGS" : "EARLY_VALUE_OPTIONS"}`,
        ).toBe(true);
    }
    const known = new Set(mcp.options.flatMap(names));
    for (const name of [...EARLY_FLAGS, ...EARLY_VALUE_OPTIONS])
      if (name !== "--debug") expect(known.has(name), name).toBe(true);
  });
});

describe("a server the bin started early", () => {
  const script = 'process.stderr.write("early stderr\\n"); setInterval(() => {}, 1000);';
  const argv = ["mcp", "--verbose", "--stdio", "--", process.execPath, "-e", script];
  const target = {
    kind: "stdio" as const,
    command: process.execPath,
    args: ["-e", script],
    env: {},
  };
  const early = () => {
    const server = startEarly(argv)!;
    started.push(server);
    return server;
  };

  it(
    "is adopted by the run when commander read the same command; its stderr so far is passed through then",
    { timeout: 30_000 },
    async () => {
      const server = early();
      await until(() => server.stderrTail.includes("early stderr"), "the server's stderr");
      let passed = "";
      expect(
        startServer(target, {
          verbose: true,
          stderr: { write: (text: string) => (passed += text) },
        }),
      ).toBe(server);
      expect(passed).toBe("early stderr\n");
      // Adopted once: another run starts its own.
      const other = startServer(target, quiet);
      started.push(other);
      expect(other).not.toBe(server);
    },
  );

  it(
    "is stopped and reaped when the run asks for another command, or when no run adopts it (a usage error)",
    { timeout: 30_000 },
    async () => {
      const unwanted = early();
      const other = startServer({ ...target, env: { EXTRA: "1" } }, quiet);
      started.push(other);
      expect(other).not.toBe(unwanted);
      const unadopted = early();
      await stopUnadopted();
      for (const server of [unwanted, unadopted]) {
        expect(server.exit).toBeDefined();
        expect(isAlive(server.pid!)).toBe(false);
      }
    },
  );
});
