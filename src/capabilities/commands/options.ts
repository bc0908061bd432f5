import { Option, type Command } from "commander";
import { CAPABILITY_RULES_BY_ID } from "../rules/index.js";
import type { RuleSetting } from "../../core/diagnostics.js";
import type { LoadOptions } from "../load/project.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import { UsageError } from "../../core/errors.js";
import { normalizeSetting, parsePositiveInteger, RULE_SETTINGS } from "../../core/options.js";

export interface InputOptions {
  app?: string;
  manifest: string[];
  plugins: string[];
  permissions: string[];
  maxFileSize?: number;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The inputs every command shares: files and folders, an app folder, manifests and permission folders. */
export function addInputOptions(command: Command): Command {
  return command
    .option("--app <dir>", "app folder (holding src-tauri/, or src-tauri/ itself)")
    .option("--manifest <file>", "a generated acl-manifests.json (repeatable)", collect, [])
    .option("--plugins <dir>", "folder with one sub-folder of permission files per plugin (repeatable)", collect, [])
    .option("--permissions <dir>", "folder with the app's own permission files (repeatable)", collect, [])
    .addOption(new Option("--max-file-size <bytes>", "largest file read, in bytes (default 10 MiB)").argParser(parsePositiveInteger));
}

export function loadOptionsFrom(paths: string[], options: InputOptions, cwd: string): LoadOptions {
  const load: LoadOptions = { cwd, paths, manifests: options.manifest, plugins: options.plugins, permissions: options.permissions };
  if (options.app !== undefined) load.app = options.app;
  if (options.maxFileSize !== undefined) load.maxFileBytes = options.maxFileSize;
  return load;
}

/** Parses `--rule id=severity` values; unknown ids and severities are usage errors with a did-you-mean. */
export function parseRuleSettings(values: readonly string[]): Map<string, RuleSetting> {
  const settings = new Map<string, RuleSetting>();
  for (const value of values) {
    const [id, severity] = value.split("=", 2).map((s) => s.trim());
    checkRuleSetting(id ?? "", severity ?? "", `--rule ${value}`);
    settings.set(id!, normalizeSetting(severity!));
  }
  return settings;
}

export function checkRuleSetting(id: string, severity: string, where: string): void {
  const rule = CAPABILITY_RULES_BY_ID.get(id);
  if (!rule) {
    const close = nearest(id, CAPABILITY_RULES_BY_ID.keys(), 2);
    throw new UsageError(`${where}: unknown rule "${id}"${close.length ? `; did you mean ${quoteList(close)}?` : "; list rules with: caplint rules"}`);
  }
  if (!(RULE_SETTINGS as readonly string[]).includes(normalizeSetting(severity))) {
    throw new UsageError(`${where}: severity must be ${quoteList(RULE_SETTINGS)}, got "${severity}"`);
  }
  if ((rule.kind as string | undefined) === "pipeline" && normalizeSetting(severity) !== "error") {
    throw new UsageError(`${where}: "${id}" is always an error and cannot be changed`);
  }
}
