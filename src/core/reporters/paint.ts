import { MARKER_PAINT, NO_PAINT, type Paint } from "../terminal-text.js";

/**
 * Colour follows --color/--no-color, then NO_COLOR / FORCE_COLOR, then whether stdout is a terminal.
 * The colours are markers that the terminal-safe output layer renders after escaping the
 * repository's own control characters (core/terminal-text.ts).
 */
export async function makePaint(
  option: boolean | undefined,
  isTTY: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<Paint> {
  const enabled =
    option ??
    (env.NO_COLOR !== undefined && env.NO_COLOR !== ""
      ? false
      : env.FORCE_COLOR !== undefined
        ? env.FORCE_COLOR !== "0"
        : isTTY === true);
  return enabled ? MARKER_PAINT : NO_PAINT;
}
