import { InvalidArgumentError, Option, type Command } from "commander";
import type { ReporterName } from "./reporters/index.js";

/** Option values every command parses the same way (rule settings: settings.ts). */

/** What every command that lints (check, events, mcp) is given: the report, the gate and the rule settings. */
export interface LintCommandOptions {
  config?: string;
  format: ReporterName;
  output?: string;
  maxWarnings?: number;
  rule: string[];
  only: string[];
  quiet?: boolean;
  color?: boolean;
}

/** A repeatable option whose values may also be comma-separated: `--only a,b --only c` gives a, b, c. */
export function collectCommaList(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  ];
}

/** `--only IDS` on every command that lints: the rules of its domain to run, the others off (settings.ts). */
export function onlyOption(note = ""): Option {
  return new Option("--only <ids>", `run only these rules (comma-separated, repeatable)${note}`)
    .argParser(collectCommaList)
    .default([]);
}

/** An option's whole number; commander names the flag and the value in the message (cli/usage-errors.ts). */
export function parsePositiveInteger(value: string): number {
  const parsed = value.trim() === "" ? Number.NaN : Number(value);
  if (!Number.isInteger(parsed) || parsed < 0)
    throw new InvalidArgumentError("expected a whole number (0 or more)");
  return parsed;
}

/**
 * `--color` / `--no-color` for a command that prints text for people. Without either, colour is on
 * for a terminal, off with NO_COLOR, forced with FORCE_COLOR (reporters/paint.ts); JSON, SARIF and
 * files written with -o are never coloured.
 */
export function addColorOptions(command: Command): Command {
  return command.addOption(colorOption()).addOption(noColorOption());
}

export function colorOption(): Option {
  return new Option(
    "--color",
    "force colour (default: on for a terminal; NO_COLOR turns it off, FORCE_COLOR on)",
  );
}

export function noColorOption(): Option {
  return new Option("--no-color", "disable colour");
}
