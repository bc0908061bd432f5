import type { RegisterCommands } from "../../core/command.js";
import { registerAccess } from "./access.js";
import { registerCheck } from "./check.js";
import { registerDiff } from "./diff.js";
import { registerExplain } from "./explain.js";
import { registerLeastPrivilege } from "./least-privilege.js";
import { registerMatrix } from "./matrix.js";
import { registerPermissions } from "./permissions.js";
import { registerReport } from "./report.js";
import { registerResolve } from "./resolve.js";
import { registerWhoCan } from "./who-can.js";

/** The capability commands: `check` (the default command) and the access queries. */
export const registerCapabilityCommands: RegisterCommands = (
  program,
  io,
  setExitCode,
  registry,
) => {
  registerCheck(program, io, setExitCode, registry.byId);
  registerAccess(program, io, setExitCode, registry.byId);
  registerWhoCan(program, io, setExitCode, registry.byId);
  registerMatrix(program, io, setExitCode, registry.byId);
  registerResolve(program, io, setExitCode, registry.byId);
  registerDiff(program, io, setExitCode, registry.byId);
  registerExplain(program, io, setExitCode, registry.byId);
  registerPermissions(program, io, setExitCode, registry.byId);
  registerLeastPrivilege(program, io, setExitCode, registry.byId);
  registerReport(program, io, setExitCode, registry.byId);
};
