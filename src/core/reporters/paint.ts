import { NO_PAINT, type Paint } from "./types.js";

/**
 * Colour follows --color/--no-color, then NO_COLOR / FORCE_COLOR, then whether stdout is a terminal.
 * chalk loads only when colour is on.
 */
export async function makePaint(option: boolean | undefined, isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): Promise<Paint> {
  const enabled =
    option ?? (env.NO_COLOR !== undefined && env.NO_COLOR !== "" ? false : env.FORCE_COLOR !== undefined ? env.FORCE_COLOR !== "0" : isTTY === true);
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
