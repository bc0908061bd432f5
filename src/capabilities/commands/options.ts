import { Option, type Command } from "commander";
import path from "node:path";
import type { RuleMeta } from "../../core/lint/rule.js";
import { configSectionOf } from "../../core/config.js";
import { loadSettings, type Settings } from "../../core/settings.js";
import { CAPABILITY_CONFIG } from "../config-section.js";
import type { LoadOptions } from "../load/project.js";
import { parsePositiveInteger } from "../../core/options.js";

export interface InputOptions {
  app?: string;
  manifest: string[];
  plugins: string[];
  permissions: string[];
  maxFileSize?: number;
  /** `--no-cargo-registry` sets it false. */
  cargoRegistry?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The inputs every command shares: files and folders, an app folder, manifests and permission folders. */
export function addInputOptions(command: Command): Command {
  return command
    .option("--app <dir>", "app folder (holding src-tauri/, or src-tauri/ itself)")
    .option("--manifest <file>", "a generated acl-manifests.json (repeatable)", collect, [])
    .option("--plugins <dir>", "folder with one sub-folder of permission files per plugin (repeatable)", collect, [])
    .option("--permissions <dir>", "folder with the app's own permission files (repeatable)", collect, [])
    .addOption(new Option("--max-file-size <bytes>", "largest file read, in bytes (default 10 MiB)").argParser(parsePositiveInteger))
    .option("--no-cargo-registry", "never read third-party plugins' permissions from the Cargo registry ($CARGO_HOME/registry/src)");
}

/**
 * Where Cargo unpacks registry crates: `$CARGO_HOME`, else `~/.cargo` (from the environment given, so a
 * test or an embedding decides), unless `--no-cargo-registry` or `CAPLINT_CARGO_REGISTRY=off`.
 */
export function cargoHomeOf(options: InputOptions, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (options.cargoRegistry === false || /^(off|0|false|no)$/i.test(env.CAPLINT_CARGO_REGISTRY ?? "")) return undefined;
  if (env.CARGO_HOME) return path.resolve(env.CARGO_HOME);
  return env.HOME ? path.join(env.HOME, ".cargo") : env.USERPROFILE ? path.join(env.USERPROFILE, ".cargo") : undefined;
}

export function loadOptionsFrom(paths: string[], options: InputOptions, cwd: string, env: Readonly<Record<string, string | undefined>> = {}): LoadOptions {
  const load: LoadOptions = { cwd, paths, manifests: options.manifest, plugins: options.plugins, permissions: options.permissions };
  const cargoHome = cargoHomeOf(options, env);
  if (cargoHome !== undefined) load.cargoHome = cargoHome;
  if (options.app !== undefined) load.app = options.app;
  if (options.maxFileSize !== undefined) load.maxFileBytes = options.maxFileSize;
  return load;
}

export interface SettingsOptions {
  app?: string;
  config?: string;
  rule?: string[];
  only?: string[];
}

/**
 * The run's settings (core/settings.ts) for a capability command: the config found upward from the
 * app folder (`--app`, else the working directory) or `--config`, then `--rule` and `--only`.
 */
export function capabilitySettings(options: SettingsOptions, cwd: string, rules: ReadonlyMap<string, RuleMeta>): Promise<Settings> {
  return loadSettings({
    rules,
    domain: "capabilities",
    cwd,
    start: options.app === undefined ? cwd : path.resolve(cwd, options.app),
    ...(options.config === undefined ? {} : { config: options.config }),
    rule: options.rule ?? [],
    only: options.only ?? [],
  });
}

/** The config's `manifests` are read too, and its `app` is the app when the command line names none. */
export function applyConfig(load: LoadOptions, settings: Settings): LoadOptions {
  if (!settings.config) return load;
  const { manifests, app, frontend } = configSectionOf(settings.config, CAPABILITY_CONFIG);
  const applied: LoadOptions = { ...load, manifests: [...manifests, ...(load.manifests ?? [])] };
  if (frontend !== undefined && load.frontend !== false) applied.frontend = frontend;
  if (app !== undefined && (load.paths ?? []).length === 0 && load.app === undefined) applied.app = app;
  return applied;
}

/** The lint options that carry the settings: rules off for every file are left out, so they never start. */
export function lintSettings(settings: Settings, rules: Iterable<{ id: string }>): { severityFor: Settings["severityFor"]; only: Set<string> } {
  return { severityFor: settings.severityFor, only: new Set([...rules].map((rule) => rule.id).filter((id) => settings.runs(id))) };
}

/** The rules that judge the frontend's calls: a run that starts one of them scans the frontend. */
const FRONTEND_RULES = ["frontend-command-not-granted", "frontend-calls-unregistered-plugin", "unused-permission", "unused-dangerous-permission"];

/** Asks the load to scan the frontend (with the config's `frontend` section, when it has one) when a rule that judges it runs. */
export function withFrontendScan(load: LoadOptions, only: ReadonlySet<string>): LoadOptions {
  if (load.frontend || !FRONTEND_RULES.some((id) => only.has(id))) return load;
  return { ...load, frontend: true };
}

/** `-c, --config FILE`: the same option on every command that reads the config. */
export function configOption(): Option {
  return new Option("-c, --config <file>", "configuration file (default: caplint.config.json, searched upward from the app folder to the repository root)");
}
