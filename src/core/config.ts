import { createRequire } from "node:module";
import path from "node:path";
import { minimatch } from "minimatch";
import { readPackageJson } from "./package-files.js";
import type { RuleSetting } from "./diagnostics.js";
import { isPlainObject } from "./json.js";
import { pathKind, readTextFile } from "./source/read.js";
import { FatalError } from "./errors.js";
import { LineIndex } from "./source/line-index.js";

type JsoncParser = typeof import("jsonc-parser");
let jsoncParser: JsoncParser | undefined;
/** Loaded from its CommonJS build, as core/source/document.ts does. */
function loadJsonc(): JsoncParser {
  jsoncParser ??= createRequire(import.meta.url)("jsonc-parser") as JsoncParser;
  return jsoncParser;
}

export const CONFIG_FILE_NAME = "caplint.config.json";

export interface CaplintConfig {
  /** Absolute path of the config file; undefined for a config a library caller gave as an object. */
  file?: string;
  /** The folder its paths and override globs are relative to: the file's, else the working directory. */
  folder: string;
  rules: Map<string, RuleSetting>;
  overrides: Array<{ files: string[]; rules: Map<string, RuleSetting> }>;
  /** Absolute paths. */
  manifests: string[];
  app?: string;
}

export type RuleSettingCheck = (id: string, severity: string, where: string) => void;

/**
 * The nearest `caplint.config.json` from `start` (the app folder, else the working directory) up
 * to the repository root (the folder holding `.git`), or undefined. Outside a repository only the
 * start folder (and the app folder above a `src-tauri/` start) counts: a config lying in /tmp or
 * the home folder must never change the verdict on someone else's project.
 */
export async function findConfig(start: string): Promise<string | undefined> {
  for (const dir of await configFolders(path.resolve(start))) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if ((await pathKind(candidate)) === "file") return candidate;
  }
  return undefined;
}

async function configFolders(start: string): Promise<string[]> {
  const folders: string[] = [];
  for (let dir = start; ;) {
    folders.push(dir);
    if ((await pathKind(path.join(dir, ".git"))) !== "missing") return folders;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  // No repository above: the start folder, and the app root when starting inside its src-tauri/.
  return path.basename(start) === "src-tauri" ? [start, path.dirname(start)] : [start];
}

/** `--config FILE`, else the discovered config; undefined when there is none. */
export async function resolveConfigFile(explicit: string | undefined, cwd: string, start: string): Promise<string | undefined> {
  if (explicit === undefined) return findConfig(start);
  const file = path.resolve(cwd, explicit);
  if ((await pathKind(file)) !== "file") throw new FatalError(`--config ${explicit}: no such file`);
  return file;
}

/**
 * Reads and checks a config file. Any problem is fatal (exit 2): a typo in a rule id must not
 * silently leave the rule at its default.
 */
export async function loadConfig(file: string, checkSetting: RuleSettingCheck): Promise<CaplintConfig> {
  const read = readTextFile(file, 1024 * 1024);
  if (!read.ok) throw new FatalError(`${file}: ${read.message}`);
  // Comments and trailing commas are allowed (JSONC, as Biome and markdownlint-cli2 read their configs), and a BOM.
  const text = read.text.replace(/^\uFEFF/, "");
  const jsonc = loadJsonc();
  const errors: import("jsonc-parser").ParseError[] = [];
  const raw: unknown = jsonc.parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const lines = new LineIndex(text);
  const at = (offset: number) => {
    const { line, column } = lines.position(offset);
    return `${file}:${line}:${column}`;
  };
  if (errors.length) throw new FatalError(`${at(errors[0]!.offset)}: not valid JSON (${jsonc.printParseErrorCode(errors[0]!.error)})`);
  const appAt = () => at(jsonc.findNodeAtLocation(jsonc.parseTree(text)!, ["app"])?.offset ?? 0);
  return checkedConfig(raw, { file, folder: path.dirname(file), name: path.basename(file), appAt }, checkSetting);
}

/** A config given as a value (the library's `config: { rules: … }`): checked as a file is, paths relative to `cwd`. */
export async function configFromValue(raw: unknown, cwd: string, checkSetting: RuleSettingCheck): Promise<CaplintConfig> {
  return checkedConfig(raw, { folder: path.resolve(cwd), name: "config", appAt: () => "config" }, checkSetting);
}

interface ConfigOrigin {
  file?: string;
  folder: string;
  /** How messages name it: the file's name, or `config`. */
  name: string;
  /** Where the `app` field is, for its message. */
  appAt(): string;
}

async function checkedConfig(raw: unknown, origin: ConfigOrigin, checkSetting: RuleSettingCheck): Promise<CaplintConfig> {
  await checkAgainstSchema(raw, origin.file ?? origin.name);
  const config = raw as {
    rules?: Record<string, string>;
    overrides?: Array<{ files: string[]; rules: Record<string, string> }>;
    manifests?: string[];
    app?: string;
  };
  const { name, folder } = origin;
  const settings = (rules: Record<string, string> | undefined, where: string) => {
    const map = new Map<string, RuleSetting>();
    for (const [id, severity] of Object.entries(rules ?? {})) {
      checkSetting(id, severity, where);
      map.set(id, severity === "warn" ? "warning" : (severity as RuleSetting));
    }
    return map;
  };
  const result: CaplintConfig = {
    ...(origin.file === undefined ? {} : { file: origin.file }),
    folder,
    rules: settings(config.rules, `${name} rules`),
    overrides: (config.overrides ?? []).map((override, index) => ({
      files: override.files,
      rules: settings(override.rules, `${name} overrides[${index}]`),
    })),
    manifests: (config.manifests ?? []).map((m) => path.resolve(folder, m)),
  };
  if (config.app !== undefined) {
    result.app = path.resolve(folder, config.app);
    if ((await pathKind(result.app)) !== "directory") {
      throw new FatalError(`${origin.appAt()}: "app": ${config.app} is not a folder (relative to the config's folder)`);
    }
  }
  return result;
}

/** Per-file severity from the config's overrides (last match wins), relative to the config's folder. */
export function overrideSeverity(config: CaplintConfig, ruleId: string, absoluteFile: string): RuleSetting | undefined {
  const relative = path.relative(config.folder, absoluteFile).split(path.sep).join("/");
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
        ? `must be "off", "suggestion", "warning" or "error"`
        : (first.message ?? "is invalid");
  throw new FatalError(`${file}: ${where} ${detail}`);
}
