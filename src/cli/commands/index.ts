import type { Command } from "commander";
import type { MainOptions } from "../io.js";
import { registerCheck } from "./check.js";
import { registerSchema } from "./schema.js";
import { registerRules } from "./rules.js";
import { registerAccess } from "./access.js";
import { registerWhoCan } from "./who-can.js";
import { registerMatrix } from "./matrix.js";
import { registerResolve } from "./resolve.js";
import { registerDiff } from "./diff.js";
import { registerPermissions } from "./permissions.js";
import { registerReport } from "./report.js";
import { registerEvents } from "./events.js";

export type SetExitCode = (code: number) => void;

/** Each command file registers itself; its action loads what it needs lazily. */
export function registerCommands(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  registerCheck(program, io, setExitCode);
  registerSchema(program, io, setExitCode);
  registerRules(program, io, setExitCode);
  registerAccess(program, io, setExitCode);
  registerWhoCan(program, io, setExitCode);
  registerMatrix(program, io, setExitCode);
  registerResolve(program, io, setExitCode);
  registerDiff(program, io, setExitCode);
  registerPermissions(program, io, setExitCode);
  registerReport(program, io, setExitCode);
  registerEvents(program, io, setExitCode);
}
