import path from "node:path";
import { main } from "../../src/cli/main.js";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured streams. */
export async function run(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<RunResult> {
  let stdout = "";
  let stderr = "";
  const code = await main({
    argv,
    cwd: path.resolve(cwd),
    env: { NO_COLOR: "1", ...env },
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const FIXTURES = path.join(ROOT, "fixtures");
