import { Option, type Command } from "commander";
import { parsePositiveInteger } from "../../core/options.js";

const collect = (value: string, previous: string[]) => [...previous, value];

/** The inputs every command shares (`InputOptions`): files and folders, an app folder, manifests and permission folders. */
export function addInputOptions(command: Command): Command {
  return command
    .option(
      "--app <dir>",
      "app folder (holding src-tauri/, or src-tauri/ itself), or a folder above one, searched as the Tauri CLI does",
    )
    .option("--manifest <file>", "a generated acl-manifests.json (repeatable)", collect, [])
    .option(
      "--plugins <dir>",
      "folder with one sub-folder of permission files per plugin (repeatable)",
      collect,
      [],
    )
    .option(
      "--permissions <dir>",
      "folder with the app's own permission files (repeatable)",
      collect,
      [],
    )
    .addOption(
      new Option(
        "--max-file-size <bytes>",
        "largest file read, in bytes (default 10 MiB)",
      ).argParser(parsePositiveInteger),
    )
    .option(
      "--no-cargo-registry",
      "never read plugins' permissions from Cargo's home folder ($CARGO_HOME/registry/src, $CARGO_HOME/git/checkouts)",
    );
}

/** `-c, --config FILE`: the same option on every command that reads the config. */
export function configOption(): Option {
  return new Option(
    "-c, --config <file>",
    "configuration file (default: caplint.config.json, searched upward from the app folder to the repository root)",
  );
}
