import type { CommandModule, RegisterCommands, SetExitCode } from "../../core/command.js";
import type { MainOptions } from "../../core/io.js";
import type { RuleMeta } from "../../core/lint/rule.js";
import type { Command } from "commander";

/** How each capability command registers: with the rules of every domain, by id. */
type RegisterWithRules = (
  program: Command,
  io: MainOptions,
  setExitCode: SetExitCode,
  allRules: ReadonlyMap<string, RuleMeta>,
) => void;

const withRules =
  (register: RegisterWithRules): RegisterCommands =>
  (program, io, setExitCode, registry) =>
    register(program, io, setExitCode, registry.byId);

/** The capability commands: `check` (the default command) and the access queries, in `--help`'s order. */
export const CAPABILITY_COMMANDS: readonly CommandModule[] = [
  { name: "check", load: async () => withRules((await import("./check.js")).registerCheck) },
  { name: "access", load: async () => withRules((await import("./access.js")).registerAccess) },
  { name: "who-can", load: async () => withRules((await import("./who-can.js")).registerWhoCan) },
  { name: "matrix", load: async () => withRules((await import("./matrix.js")).registerMatrix) },
  { name: "resolve", load: async () => withRules((await import("./resolve.js")).registerResolve) },
  { name: "diff", load: async () => withRules((await import("./diff.js")).registerDiff) },
  { name: "explain", load: async () => withRules((await import("./explain.js")).registerExplain) },
  {
    name: "permissions",
    load: async () => withRules((await import("./permissions.js")).registerPermissions),
  },
  {
    name: "least-privilege",
    load: async () => withRules((await import("./least-privilege.js")).registerLeastPrivilege),
  },
  { name: "report", load: async () => withRules((await import("./report.js")).registerReport) },
];
