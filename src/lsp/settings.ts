import { RULES_BY_ID } from "../registry.js";
import type { DomainName } from "../registry.js";

/**
 * The workspace settings of the `caplint` section (initializationOptions, `workspace/configuration` or
 * `workspace/didChangeConfiguration`), documented in docs/lsp.md. A value of the wrong type is ignored
 * with a message in the client's log, never a failure: the editor keeps working with the default.
 */
export interface ServerSettings {
  /** `--config`: a caplint.config.json (relative to the workspace folder); default: found upward from each app, as the CLI does. */
  config?: string;
  /** `--rule ID=SEVERITY` for every run, e.g. `{ "unknown-field": "off" }`. */
  rules: Record<string, string>;
  /** Recordings checked as server events (`caplint events`): globs relative to the workspace folder. */
  eventsInclude: string[];
  /** Recordings of client-to-server traffic (`caplint events --client`). */
  eventsClientInclude: string[];
  /** Milliseconds after the last change of a document before it is checked again. */
  debounceMs: number;
  /** `--no-cargo-registry` when false: plugins' permissions are not read from $CARGO_HOME (registry, git checkouts). */
  cargoRegistry: boolean;
}

export const DEFAULT_SETTINGS: ServerSettings = Object.freeze({
  rules: {},
  eventsInclude: ["**/*.events.jsonl", "**/recordings/**/*.jsonl"],
  eventsClientInclude: ["**/*.client.jsonl"],
  debounceMs: 50,
  cargoRegistry: true,
});

/** Reads the `caplint` section leniently: each wrong value is named in `problems` and left at its default. */
export function readSettings(section: unknown): { settings: ServerSettings; problems: string[] } {
  const problems: string[] = [];
  const settings: ServerSettings = { ...DEFAULT_SETTINGS, rules: {} };
  if (section === undefined || section === null) return { settings, problems };
  if (typeof section !== "object" || Array.isArray(section))
    return { settings, problems: ["caplint settings: expected an object"] };
  const given = section as Record<string, unknown>;
  if (typeof given.config === "string" && given.config !== "") settings.config = given.config;
  else if (given.config !== undefined && given.config !== null && given.config !== "")
    problems.push("caplint.config: expected a file path");
  if (isRecord(given.rules)) {
    for (const [id, severity] of Object.entries(given.rules)) {
      if (typeof severity === "string" && RULES_BY_ID.has(id)) settings.rules[id] = severity;
      else
        problems.push(
          `caplint.rules.${id}: expected a rule id and a severity (off, suggestion, warning, error)`,
        );
    }
  } else if (given.rules !== undefined)
    problems.push("caplint.rules: expected an object of rule ids and severities");
  const events = isRecord(given.events) ? given.events : {};
  const include = globList(events.include, "caplint.events.include", problems);
  if (include) settings.eventsInclude = include;
  const client = globList(events.clientInclude, "caplint.events.clientInclude", problems);
  if (client) settings.eventsClientInclude = client;
  if (
    typeof given.debounceMs === "number" &&
    Number.isFinite(given.debounceMs) &&
    given.debounceMs >= 0 &&
    given.debounceMs <= 10_000
  )
    settings.debounceMs = given.debounceMs;
  else if (given.debounceMs !== undefined)
    problems.push("caplint.debounceMs: expected milliseconds from 0 to 10000");
  if (typeof given.cargoRegistry === "boolean") settings.cargoRegistry = given.cargoRegistry;
  else if (given.cargoRegistry !== undefined)
    problems.push("caplint.cargoRegistry: expected true or false");
  return { settings, problems };
}

/** The `rules` setting as `--rule` values for one domain (a shared setting names rules of every domain). */
export function ruleArguments(settings: ServerSettings, domain: DomainName): string[] {
  return Object.entries(settings.rules)
    .filter(([id]) => RULES_BY_ID.get(id)?.domain === domain)
    .map(([id, severity]) => `${id}=${severity}`);
}

function globList(value: unknown, name: string, problems: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  problems.push(`${name}: expected a list of globs`);
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
