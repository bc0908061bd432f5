import type { RegisterCommands } from "../../core/command.js";
import { registerAccess } from "./access.js";
import { registerCheck } from "./check.js";
import { registerDiff } from "./diff.js";
import { registerExplain } from "./explain.js";
import { registerMatrix } from "./matrix.js";
import { registerPermissions } from "./permissions.js";
import { registerReport } from "./report.js";
import { registerResolve } from "./resolve.js";
import { registerWhoCan } from "./who-can.js";

/** The capability commands: `check` (the default command) and the access queries. */
export const registerCapabilityCommands: RegisterCommands = (program, io, setExitCode) => {
  registerCheck(program, io, setExitCode);
  registerAccess(program, io, setExitCode);
  registerWhoCan(program, io, setExitCode);
  registerMatrix(program, io, setExitCode);
  registerResolve(program, io, setExitCode);
  registerDiff(program, io, setExitCode);
  registerExplain(program, io, setExitCode);
  registerPermissions(program, io, setExitCode);
  registerReport(program, io, setExitCode);
};
