import { readFileSync } from "node:fs";
import type { Paint } from "../reporters/types.js";
import { NO_PAINT } from "../reporters/types.js";

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface MainOptions {
  argv: readonly string[];
  stdout: OutputStream;
  stderr: OutputStream;
  /** Defaults to process.cwd() in the bin. */
  cwd: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Ends long-running commands (`check --watch`); the bin aborts it on Ctrl-C. */
  signal?: AbortSignal;
}

let version: string | undefined;
export function toolVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
  return version;
}

export const HOMEPAGE = "https://github.com/caplint/caplint";

export function docsUrl(ruleId: string): string {
  return `${HOMEPAGE}/blob/v${toolVersion()}/docs/rules/${ruleId}.md`;
}

/**
 * Colour follows --color/--no-color, then NO_COLOR / FORCE_COLOR, then whether stdout is a terminal.
 * chalk loads only when colour is on.
 */
export async function makePaint(option: boolean | undefined, stream: OutputStream, env: Readonly<Record<string, string | undefined>>): Promise<Paint> {
  const enabled =
    option ?? (env.NO_COLOR !== undefined && env.NO_COLOR !== "" ? false : env.FORCE_COLOR !== undefined ? env.FORCE_COLOR !== "0" : stream.isTTY === true);
  if (!enabled) return NO_PAINT;
  const { Chalk } = await import("chalk");
  const chalk = new Chalk({ level: 1 });
  return {
    error: chalk.red,
    warning: chalk.yellow,
    dim: chalk.dim,
    bold: chalk.bold,
    underline: chalk.underline,
    accent: chalk.cyan,
  };
}
