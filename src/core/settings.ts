import {
  configFromValue,
  loadConfig,
  overrideSeverity,
  resolveConfigFile,
  type CaplintConfig,
  type ConfigSection,
} from "./config.js";
import type { RuleSetting } from "./diagnostics.js";
import { nearest, quoteList } from "./did-you-mean.js";
import { UsageError } from "./errors.js";
import { displayFile } from "./file-names.js";
import type { RuleMeta } from "./lint/rule.js";

/**
 * The one place where a run's rule settings come from, for every command and the library:
 * `caplint.config.json` (found upward from the app folder, else the working directory, never above
 * the repository root; or `--config FILE`), its per-file `overrides`, `--rule ID=SEVERITY` and
 * `--only IDS`. Everything that reports findings asks {@link Settings.severityFor}; a rule for which
 * {@link Settings.runs} is false is off for every file and is not started at all.
 *
 * Precedence: `--rule`, then `--only` (rules it leaves out are off), then the last matching
 * override, then the config's `rules`, then the rule's default.
 */

export const RULE_SETTINGS: readonly RuleSetting[] = ["off", "suggestion", "warning", "error"];

/** `warn` is accepted for `warning`, as ESLint users write it. */
export function normalizeSetting(value: string): RuleSetting {
  return value === "warn" ? "warning" : (value as RuleSetting);
}

export interface SettingsRequest {
  /**
   * Every rule of every domain (the registry): a shared config may name any of them. Passed in, so
   * that no domain imports another.
   */
  rules: RuleIndex;
  /** The domain the command checks: `--rule` and `--only` take its rules only. */
  domain: string;
  cwd: string;
  /** Where the config search starts: the app folder, else the working directory. */
  start?: string;
  /** The folders searched when `start` is in no repository (default: `start` alone). */
  outsideRepository?: readonly string[];
  /** `--config FILE` (relative to `cwd`), or a config given in-process by a library caller. */
  config?: string | object;
  /** No config unless `config` names one (the library's default: nothing outside the call changes its verdict). */
  noDiscovery?: boolean;
  /** `--rule` values, `ID=SEVERITY`. */
  rule?: readonly string[];
  /** `--only` values: rule ids. */
  only?: readonly string[];
}

export interface Settings {
  /** The config in force, or undefined when there is none. */
  readonly config: CaplintConfig | undefined;
  /** The config file as the reader should see it (relative to the working directory), or undefined. */
  readonly configLabel: string | undefined;
  /** The configured severity of a rule for a file (absolute path); undefined means the rule's default. */
  severityFor(ruleId: string, absoluteFile: string): RuleSetting | undefined;
  /** False when the rule is off for every file: it need not run at all. */
  runs(ruleId: string): boolean;
}

/** Builds the settings of a run; any bad id, severity or config is a usage error (exit 2). */
export async function loadSettings(request: SettingsRequest): Promise<Settings> {
  const { rules, domain, cwd } = request;
  const cli = new Map<string, RuleSetting>();
  for (const value of request.rule ?? []) {
    const at = value.indexOf("=");
    const id = (at < 0 ? value : value.slice(0, at)).trim();
    const severity = at < 0 ? "" : value.slice(at + 1).trim();
    if (at < 0)
      throw new UsageError(
        `--rule ${value}: expected ID=SEVERITY, e.g. --rule ${id || "RULE-ID"}=off`,
      );
    checkRuleId(id, `--rule ${value}`, rules, domain);
    checkSeverity(id, severity, `--rule ${value}`, rules);
    cli.set(id, normalizeSetting(severity));
  }
  const only = request.only?.length ? new Set(request.only) : undefined;
  for (const id of only ?? []) checkRuleId(id, `--only ${id}`, rules, domain);

  const config = await findAndLoad(request);
  const label = config?.file === undefined ? undefined : displayFile(cwd, config.file);
  const configured = (
    ruleId: string,
    absoluteFile: string | undefined,
  ): RuleSetting | undefined => {
    const fromCli = cli.get(ruleId);
    if (fromCli !== undefined) return fromCli;
    if (rules.get(ruleId)?.kind === "pipeline") return undefined;
    if (only && !only.has(ruleId)) return "off";
    if (!config) return undefined;
    return (
      (absoluteFile === undefined ? undefined : overrideSeverity(config, ruleId, absoluteFile)) ??
      config.rules.get(ruleId)
    );
  };
  return {
    config,
    configLabel: label,
    severityFor: (ruleId, absoluteFile) => configured(ruleId, absoluteFile),
    runs(ruleId) {
      const rule = rules.get(ruleId);
      if (rule?.kind === "pipeline") return true;
      const base = configured(ruleId, undefined) ?? rule?.defaultSeverity;
      if (base !== "off") return true;
      // Off by --rule or --only is off everywhere; off in the config's rules can be turned on by an override.
      if (cli.has(ruleId) || (only && !only.has(ruleId))) return false;
      return (
        config?.overrides.some((override) => {
          const setting = override.rules.get(ruleId);
          return setting !== undefined && setting !== "off";
        }) === true
      );
    },
  };
}

async function findAndLoad(request: SettingsRequest): Promise<CaplintConfig | undefined> {
  const check = (id: string, severity: string, where: string) => {
    checkRuleId(id, where, request.rules, undefined);
    checkSeverity(id, severity, where, request.rules);
  };
  const sections = request.rules.configSections ?? [];
  if (request.config !== undefined && typeof request.config === "object")
    return configFromValue(request.config, request.cwd, check, sections);
  if (request.config === undefined && request.noDiscovery) return undefined;
  const file = await resolveConfigFile(
    request.config,
    request.cwd,
    request.start ?? request.cwd,
    request.outsideRepository,
  );
  return file === undefined ? undefined : loadConfig(file, check, sections);
}

/** A rule id known to the registry, and (for the command line) one of the command's own domain. */
function checkRuleId(
  id: string,
  where: string,
  rules: RuleIndex,
  domain: string | undefined,
): void {
  const rule = rules.get(id);
  if (rule && (domain === undefined || rule.domain === domain)) return;
  if (rule)
    throw new UsageError(
      `${where}: "${id}" is a rule for ${rule.domain}${lintCommand(rules, rule.domain)}, not for ${domain}; set it in caplint.config.json or on that command`,
    );
  const candidates = [...rules.values()]
    .filter((r) => domain === undefined || r.domain === domain)
    .map((r) => r.id);
  const close = nearest(id, candidates, 2);
  throw new UsageError(
    `${where}: unknown rule "${id}"${close.length ? `; did you mean ${quoteList(close)}?` : "; list rules with: caplint rules"}`,
  );
}

/** Every rule of every domain by id; the registry's map also says which command lints each domain and which config keys each owns. */
type RuleIndex = ReadonlyMap<string, RuleMeta> & {
  lintCommandOf?(domain: string): string | undefined;
  readonly configSections?: readonly ConfigSection[];
};

function lintCommand(rules: RuleIndex, domain: string): string {
  const command = rules.lintCommandOf?.(domain);
  return command === undefined ? "" : ` (caplint ${command})`;
}

function checkSeverity(
  id: string,
  severity: string,
  where: string,
  rules: ReadonlyMap<string, RuleMeta>,
): void {
  if (!(RULE_SETTINGS as readonly string[]).includes(normalizeSetting(severity))) {
    throw new UsageError(
      `${where}: severity must be ${quoteList(RULE_SETTINGS)}, got "${severity}"`,
    );
  }
  if (rules.get(id)?.kind === "pipeline" && normalizeSetting(severity) !== "error") {
    throw new UsageError(`${where}: "${id}" is always an error and cannot be changed`);
  }
}
