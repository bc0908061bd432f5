import type { Command } from "commander";
import type { RegisterCommands, SetExitCode } from "../../core/command.js";
import type { MainOptions } from "../../core/io.js";
import { registerCapabilityCommands } from "../../capabilities/commands/index.js";
import { registerEventCommands } from "../../events/command.js";
import { REGISTRY } from "../../registry.js";
import { registerRules } from "./rules.js";
import { registerSchema } from "./schema.js";
import { registerMcpCommands } from "../../mcp/command.js";
import { registerLsp } from "../../lsp/command.js";

/** Every domain's commands, in the order `caplint --help` lists them. A new domain adds its line here. */
const DOMAIN_COMMANDS: readonly RegisterCommands[] = [
  registerCapabilityCommands,
  registerEventCommands,
  registerMcpCommands,
];

export function registerCommands(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
): void {
  for (const register of DOMAIN_COMMANDS) register(program, io, setExitCode, REGISTRY);
  // Commands about every domain at once.
  registerSchema(program, io, setExitCode, REGISTRY.byId);
  registerRules(program, io, setExitCode);
  registerLsp(program, io, setExitCode);
}
