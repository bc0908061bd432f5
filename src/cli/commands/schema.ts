import type { Command } from "commander";
import { readFile } from "node:fs/promises";
import type { MainOptions } from "../io.js";
import type { SetExitCode } from "./index.js";

export function registerSchema(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  program
    .command("schema")
    .description("print the draft-07 JSON Schema of capability files (usable as $schema in an editor)")
    .action(async () => {
      io.stdout.write(await readFile(new URL("../../../schema/capability.schema.json", import.meta.url), "utf8"));
      setExitCode(0);
    });
}
