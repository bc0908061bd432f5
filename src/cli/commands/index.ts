import type { Command } from "commander";
import type { RegisterCommands, SetExitCode } from "../../core/command.js";
import type { MainOptions } from "../../core/io.js";
import { registerCapabilityCommands } from "../../capabilities/commands/index.js";
import { registerRules } from "./rules.js";

/** Every domain's commands, in the order `caplint --help` lists them. A new domain adds its line here. */
const DOMAIN_COMMANDS: readonly RegisterCommands[] = [registerCapabilityCommands];

export function registerCommands(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  for (const register of DOMAIN_COMMANDS) register(program, io, setExitCode);
  registerRules(program, io, setExitCode);
}
