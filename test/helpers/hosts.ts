import { spawn } from "node:child_process";
import path from "node:path";
import { main } from "../../src/cli/main.js";
import { ROOT } from "./run.js";

export interface HostResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HostRun {
  argv: readonly string[];
  cwd: string;
  stdin?: string;
  env?: Record<string, string>;
}

/** A way to run caplint: in-process `main()` (what most tests use) or the shipped bin in a process. */
export interface Host {
  name: string;
  run(options: HostRun): Promise<HostResult>;
}

const BASE_ENV = { NO_COLOR: "1" };

export const inProcess: Host = {
  name: "main() in-process",
  async run({ argv, cwd, stdin, env }) {
    let stdout = "";
    let stderr = "";
    const code = await main({
      argv,
      cwd: path.resolve(cwd),
      env: { ...BASE_ENV, ...env },
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      ...(stdin === undefined ? {} : { stdin: stdinOf(stdin) }),
    });
    return { code, stdout, stderr };
  },
};

function stdinOf(text: string): AsyncIterable<Buffer> {
  return (async function* () {
    yield Buffer.from(text, "utf8");
  })();
}

/** `node <bin> ...` as a child process; the bin path decides what is under test (checkout or installed tarball). */
export function binHost(bin: string, name = "bin/caplint.js spawned"): Host {
  return {
    name,
    run: ({ argv, cwd, stdin, env }) => spawnNode([bin, ...argv], cwd, stdin, env),
  };
}

export const checkoutBin = binHost(path.join(ROOT, "bin", "caplint.js"));

export function spawnNode(
  args: readonly string[],
  cwd: string,
  stdin?: string,
  env: Record<string, string> = {},
  command = process.execPath,
): Promise<HostResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...BASE_ENV, FORCE_COLOR: undefined, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr }),
    );
    child.stdin.on("error", () => {});
    child.stdin.end(stdin ?? "");
  });
}
