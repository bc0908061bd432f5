import type { RuleMeta } from "../lint/rule.js";
import { docsUrl, toolVersion } from "../tool.js";
import { makePaint } from "./paint.js";
import type { ReporterContext } from "./types.js";

/**
 * The context a reporter gets, assembled the same way by every command and by the library: colour
 * from the option, the terminal and the environment (NO_COLOR, FORCE_COLOR); the tool's version and
 * docs links.
 */
export async function reporterContext(given: {
  cwd: string;
  color: boolean | undefined;
  /** Whether the output is a terminal; false when it goes to a file. */
  isTTY: boolean | undefined;
  env: Readonly<Record<string, string | undefined>>;
  rules: ReadonlyMap<string, RuleMeta>;
  sourceText(absolutePath: string): string | undefined;
}): Promise<ReporterContext> {
  return {
    cwd: given.cwd,
    paint: await makePaint(given.color, given.isTTY, given.env),
    rules: given.rules,
    toolVersion: toolVersion(),
    docsUrl,
    sourceText: given.sourceText,
  };
}
