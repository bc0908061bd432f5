import path from "node:path";
import { minimatch } from "minimatch";
import { readPackageJson } from "./package-files.js";
import type { RuleSetting } from "./diagnostics.js";
import { isPlainObject } from "./json.js";
import { pathKind, readTextFile } from "./source/read.js";
import { FatalError } from "./errors.js";

export const CONFIG_FILE_NAME = "caplint.config.json";

export interface RuleSettingsSource {
  settings: Map<string, RuleSetting>;
  /** Where each setting was written, for messages. */
  where: string;
}

export interface CaplintConfig {
  /** Absolute path of the config file. */
  file: string;
  rules: Map<string, RuleSetting>;
  overrides: Array<{ files: string[]; rules: Map<string, RuleSetting> }>;
  /** Absolute paths. */
  manifests: string[];
  app?: string;
}

export type RuleSettingCheck = (id: string, severity: string, where: string) => void;

/** The nearest `caplint.config.json` from `cwd` upward, or undefined. */
export async function findConfig(cwd: string): Promise<string | undefined> {
  let dir = cwd;
  for (;;) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if ((await pathKind(candidate)) === "file") return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Reads and checks a config file. Any problem is fatal (exit 2): a typo in a rule id must not
 * silently leave the rule at its default.
 */
export async function loadConfig(file: string, checkSetting: RuleSettingCheck): Promise<CaplintConfig> {
  const name = path.basename(file);
  const read = readTextFile(file, 1024 * 1024);
  if (!read.ok) throw new FatalError(`${file}: ${read.message}`);
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch (error) {
    throw new FatalError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  await checkAgainstSchema(raw, file);
  const config = raw as { rules?: Record<string, string>; overrides?: Array<{ files: string[]; rules: Record<string, string> }>; manifests?: string[]; app?: string };
  const dir = path.dirname(file);
  const settings = (rules: Record<string, string> | undefined, where: string) => {
    const map = new Map<string, RuleSetting>();
    for (const [id, severity] of Object.entries(rules ?? {})) {
      checkSetting(id, severity, where);
      map.set(id, severity === "warn" ? "warning" : (severity as RuleSetting));
    }
    return map;
  };
  const result: CaplintConfig = {
    file,
    rules: settings(config.rules, `${name} rules`),
    overrides: (config.overrides ?? []).map((override, index) => ({
      files: override.files,
      rules: settings(override.rules, `${name} overrides[${index}]`),
    })),
    manifests: (config.manifests ?? []).map((m) => path.resolve(dir, m)),
  };
  if (config.app !== undefined) result.app = path.resolve(dir, config.app);
  return result;
}

/** Per-file severity from the config's overrides (last match wins), relative to the config's folder. */
export function overrideSeverity(config: CaplintConfig, ruleId: string, absoluteFile: string): RuleSetting | undefined {
  const relative = path.relative(path.dirname(config.file), absoluteFile).split(path.sep).join("/");
  let setting: RuleSetting | undefined;
  for (const override of config.overrides) {
    if (!override.rules.has(ruleId)) continue;
    if (override.files.some((glob) => minimatch(relative, glob, { dot: true, matchBase: !glob.includes("/") }))) setting = override.rules.get(ruleId);
  }
  return setting;
}

async function checkAgainstSchema(raw: unknown, file: string): Promise<void> {
  if (!isPlainObject(raw)) throw new FatalError(`${file}: expected a JSON object`);
  const [{ default: Ajv }, schema] = await Promise.all([import("ajv"), readPackageJson<object>("schema", "caplint.config.schema.json")]);
  const ajv = new (Ajv as unknown as typeof import("ajv").default)({ allErrors: true, strict: false });
  const validate = ajv.compile(schema);
  if (validate(raw)) return;
  const first = validate.errors![0]!;
  const where = first.instancePath ? first.instancePath.slice(1).replace(/\//g, ".") : "(top level)";
  const detail =
    first.keyword === "additionalProperties"
      ? `unknown field "${(first.params as { additionalProperty: string }).additionalProperty}" (known: rules, overrides, manifests, app)`
      : first.keyword === "enum"
        ? `must be "off", "warning" or "error"`
        : (first.message ?? "is invalid");
  throw new FatalError(`${file}: ${where} ${detail}`);
}
