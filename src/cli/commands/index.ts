import type { Command } from "commander";
import type { MainOptions } from "../io.js";
import { registerCheck } from "./check.js";
import { registerSchema } from "./schema.js";
import { registerRules } from "./rules.js";

export type SetExitCode = (code: number) => void;

/** Each command file registers itself; its action loads what it needs lazily. */
export function registerCommands(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  registerCheck(program, io, setExitCode);
  registerSchema(program, io, setExitCode);
  registerRules(program, io, setExitCode);
}
