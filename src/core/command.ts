import type { Command } from "commander";
import type { MainOptions } from "./io.js";
import type { RuleRegistry } from "./rule-registry.js";

/** A command's action reports its exit code here (0 clean, 1 findings, 2 fatal; see exit-codes.ts). */
export type SetExitCode = (code: number) => void;

/**
 * How a domain adds its commands (`caplint check`, `caplint events`, …) to the program. The CLI calls
 * each domain's function once, with the streams and working directory of the run, and the rules of
 * every domain (a shared caplint.config.json names them all); nothing in a command imports src/cli/.
 */
export type RegisterCommands = (
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  registry: RuleRegistry,
) => void;
