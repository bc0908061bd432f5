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

/**
 * One command, by name, with the module that registers it. A run imports only the module of the
 * command it runs (every module's top level, and all it imports, is start-up a one-file check would
 * pay for), and all of them when it lists the commands (`caplint --help`, a mistyped command).
 */
export interface CommandModule {
  readonly name: string;
  readonly load: () => Promise<RegisterCommands>;
}
