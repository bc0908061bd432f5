import type { Command } from "commander";
import type { CommandModule, SetExitCode } from "../../core/command.js";
import type { MainOptions } from "../../core/io.js";
import { CAPABILITY_COMMANDS } from "../../capabilities/commands/index.js";
import { REGISTRY } from "../../registry.js";

/**
 * Every command, in the order `caplint --help` lists them. A new domain adds its commands here; the
 * commands about every domain at once (`schema`, `rules`, `lsp`) come last.
 */
const COMMANDS: readonly CommandModule[] = [
  ...CAPABILITY_COMMANDS,
  {
    name: "events",
    load: async () => (await import("../../events/command.js")).registerEventCommands,
  },
  { name: "mcp", load: async () => (await import("../../mcp/command.js")).registerMcpCommands },
  {
    name: "schema",
    load: async () => {
      const { registerSchema } = await import("./schema.js");
      return (program, io, setExitCode, registry) =>
        registerSchema(program, io, setExitCode, registry.byId);
    },
  },
  { name: "rules", load: async () => (await import("./rules.js")).registerRules },
  { name: "lsp", load: async () => (await import("../../lsp/command.js")).registerLsp },
];

/** The commands' names, in `--help`'s order (without loading any of them). */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((command) => command.name);

/** Flags the program itself answers when no command is named first (its help lists every command). */
const PROGRAM_FLAGS = new Set(["-h", "--help", "-v", "--version"]);

/**
 * Registers the command the run names first, or `check` (the default command) when none is named
 * anywhere; every command when the line may need the program's own listing or is not that plain
 * (`caplint --help`, `caplint help check`, a command named after an option) or reads the others
 * (`rules ID` shows the options of the command that runs a rule); every command when asked
 * (`everyCommand`: main() words an unknown option with the other commands' options). Commander
 * parses the same line the same way either way: only commands it could not dispatch to are left out.
 */
export async function registerCommands(
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  everyCommand = false,
): Promise<void> {
  const commands = everyCommand ? COMMANDS : commandsFor(io.argv);
  const registers = await Promise.all(commands.map((command) => command.load()));
  for (const register of registers) register(program, io, setExitCode, REGISTRY);
}

function commandsFor(argv: readonly string[]): readonly CommandModule[] {
  const named = COMMANDS.find((command) => command.name === argv[0]);
  // `rules ID` shows the options of the command that runs the rule.
  if (named?.name === "rules") return COMMANDS;
  if (named) return [named];
  const listing = argv.some(
    (arg) => arg === "help" || PROGRAM_FLAGS.has(arg) || COMMAND_NAMES.includes(arg),
  );
  return listing ? COMMANDS : COMMANDS.filter((command) => command.name === "check");
}
