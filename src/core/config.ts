import { createRequire } from "node:module";
import path from "node:path";
import { minimatch } from "minimatch";
import type { RuleSetting } from "./diagnostics.js";
import { isPlainObject } from "./json.js";
import { foldersToRepositoryRoot, pathKind, readTextFile } from "./source/read.js";
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
  /** What each domain's section says (`configSectionOf`), defaults included. */
  sections: ReadonlyMap<ConfigSection, unknown>;
}

/**
 * The keys of caplint.config.json one domain owns (its `Domain.config`), at the top level of the file
 * beside `rules` and `overrides`: their JSON Schema, from which the config's schema is built, and how
 * their values become the domain's settings. The core reads the file and names no domain's key.
 */
export interface ConfigSection<Value = unknown> {
  /** Each top-level key it owns, with its JSON Schema (draft-07). */
  readonly properties: Readonly<Record<string, object>>;
  /** The domain's settings from its keys as written (valid against `properties`; an absent key is absent): defaults filled in, paths resolved. */
  read(values: Readonly<Record<string, unknown>>, place: ConfigPlace): Promise<Value>;
}

/** Where a config is, for a section's paths and messages. */
export interface ConfigPlace {
  /** The folder its paths are relative to. */
  folder: string;
  /** `file:line:col` of a key's value (the config's name for a config given as a value), to start a message. */
  at(key: string): string;
}

/** What the config says for one domain's section. */
export function configSectionOf<Value>(
  config: CaplintConfig,
  section: ConfigSection<Value>,
): Value {
  if (!config.sections.has(section))
    throw new Error("this config section is not registered (src/registry.ts DOMAINS)");
  return config.sections.get(section) as Value;
}

/** The keys every config has, whatever the domains: severities, per-file overrides, and an editor's `$schema`. */
const SHARED_PROPERTIES: Readonly<Record<string, object>> = {
  $schema: { type: "string" },
  rules: { $ref: "#/definitions/RuleSettings" },
  overrides: {
    description:
      "Rule settings for files matching globs (minimatch, relative to this file); later overrides win.",
    type: "array",
    items: {
      type: "object",
      additionalProperties: false,
      required: ["files", "rules"],
      properties: {
        files: { type: "array", minItems: 1, items: { type: "string", minLength: 1 } },
        rules: { $ref: "#/definitions/RuleSettings" },
      },
    },
  },
};

/** The JSON Schema of caplint.config.json: the shared keys and every domain's section (schema/caplint.config.schema.json is this, checked by a test). */
export function configSchema(sections: readonly ConfigSection[]): object {
  const properties: Record<string, object> = { ...SHARED_PROPERTIES };
  for (const section of sections) {
    for (const [key, schema] of Object.entries(section.properties)) {
      if (Object.hasOwn(properties, key)) throw new Error(`config key "${key}" is claimed twice`);
      properties[key] = schema;
    }
  }
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: "https://github.com/caplint/caplint/schema/caplint.config.schema.json",
    title: "caplint configuration",
    description:
      "caplint.config.json: rule severities, per-file overrides and inputs. Paths are relative to this file.",
    type: "object",
    additionalProperties: false,
    properties,
    definitions: {
      RuleSettings: {
        description: "Severity per rule id.",
        type: "object",
        additionalProperties: { enum: ["off", "suggestion", "warning", "warn", "error"] },
      },
    },
  };
}

export type RuleSettingCheck = (id: string, severity: string, where: string) => void;

/**
 * The nearest `caplint.config.json` from `start` (the app folder, else the working directory) up
 * to the repository root (the folder holding `.git`), or undefined. Outside a repository only the
 * folders `outside` names count (default: the start folder; a domain may add its app's own): a
 * config lying in /tmp or the home folder must never change the verdict on someone else's project.
 */
export async function findConfig(
  start: string,
  outside?: readonly string[],
): Promise<string | undefined> {
  const resolved = path.resolve(start);
  for (const dir of await foldersToRepositoryRoot(resolved, outside ?? [resolved])) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if ((await pathKind(candidate)) === "file") return candidate;
  }
  return undefined;
}

/** `--config FILE`, else the discovered config; undefined when there is none. */
export async function resolveConfigFile(
  explicit: string | undefined,
  cwd: string,
  start: string,
  outside?: readonly string[],
): Promise<string | undefined> {
  if (explicit === undefined) return findConfig(start, outside);
  const file = path.resolve(cwd, explicit);
  const kind = await pathKind(file);
  if (kind === "directory")
    throw new FatalError(
      `--config ${explicit}: is a folder; give the configuration file itself (such as ${path.join(explicit, "caplint.config.json")})`,
    );
  if (kind === "other")
    throw new FatalError(
      `--config ${explicit}: is not a regular file; give a JSON configuration file`,
    );
  if (kind !== "file") throw new FatalError(`--config ${explicit}: no such file`);
  return file;
}

/**
 * Reads and checks a config file. Any problem is fatal (exit 2): a typo in a rule id must not
 * silently leave the rule at its default.
 */
export async function loadConfig(
  file: string,
  checkSetting: RuleSettingCheck,
  sections: readonly ConfigSection[],
): Promise<CaplintConfig> {
  const read = readTextFile(file, 1024 * 1024);
  if (!read.ok) throw new FatalError(`${file}: ${read.message}`);
  // Comments and trailing commas are allowed (JSONC, as Biome and markdownlint-cli2 read their configs), and a BOM.
  const text = read.text.replace(/^\uFEFF/, "");
  const jsonc = loadJsonc();
  const errors: import("jsonc-parser").ParseError[] = [];
  const raw: unknown = jsonc.parse(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
  });
  const lines = new LineIndex(text);
  const at = (offset: number) => {
    const { line, column } = lines.position(offset);
    return `${file}:${line}:${column}`;
  };
  if (errors.length)
    throw new FatalError(
      `${at(errors[0]!.offset)}: not valid JSON (${jsonc.printParseErrorCode(errors[0]!.error)})`,
    );
  const keyAt = (key: string) =>
    at(jsonc.findNodeAtLocation(jsonc.parseTree(text)!, [key])?.offset ?? 0);
  return checkedConfig(
    raw,
    { file, folder: path.dirname(file), name: path.basename(file), at: keyAt },
    checkSetting,
    sections,
  );
}

/** A config given as a value (the library's `config: { rules: … }`): checked as a file is, paths relative to `cwd`. */
export async function configFromValue(
  raw: unknown,
  cwd: string,
  checkSetting: RuleSettingCheck,
  sections: readonly ConfigSection[],
): Promise<CaplintConfig> {
  return checkedConfig(
    raw,
    { folder: path.resolve(cwd), name: "config", at: () => "config" },
    checkSetting,
    sections,
  );
}

interface ConfigOrigin extends ConfigPlace {
  file?: string;
  /** How messages name it: the file's name, or `config`. */
  name: string;
}

async function checkedConfig(
  raw: unknown,
  origin: ConfigOrigin,
  checkSetting: RuleSettingCheck,
  sections: readonly ConfigSection[],
): Promise<CaplintConfig> {
  await checkAgainstSchema(raw, origin.file ?? origin.name, sections);
  const config = raw as {
    rules?: Record<string, string>;
    overrides?: Array<{ files: string[]; rules: Record<string, string> }>;
  } & Record<string, unknown>;
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
    sections: new Map(),
  };
  for (const section of sections) {
    const values = Object.fromEntries(
      Object.keys(section.properties).flatMap((key) =>
        Object.hasOwn(config, key) ? [[key, config[key]]] : [],
      ),
    );
    (result.sections as Map<ConfigSection, unknown>).set(
      section,
      await section.read(values, origin),
    );
  }
  return result;
}

/** Per-file severity from the config's overrides (last match wins), relative to the config's folder. */
export function overrideSeverity(
  config: CaplintConfig,
  ruleId: string,
  absoluteFile: string,
): RuleSetting | undefined {
  const relative = path.relative(config.folder, absoluteFile).split(path.sep).join("/");
  let setting: RuleSetting | undefined;
  for (const override of config.overrides) {
    if (!override.rules.has(ruleId)) continue;
    if (
      override.files.some((glob) =>
        minimatch(relative, glob, { dot: true, matchBase: !glob.includes("/") }),
      )
    )
      setting = override.rules.get(ruleId);
  }
  return setting;
}

/** The fields an object schema names (a section's own keys, for an unknown field inside it). */
function knownFields(objectSchema: unknown): Record<string, object> | undefined {
  return isPlainObject(objectSchema) && isPlainObject(objectSchema.properties)
    ? (objectSchema.properties as Record<string, object>)
    : undefined;
}

async function checkAgainstSchema(
  raw: unknown,
  file: string,
  sections: readonly ConfigSection[],
): Promise<void> {
  if (!isPlainObject(raw)) throw new FatalError(`${file}: expected a JSON object`);
  const { default: Ajv } = await import("ajv");
  const ajv = new (Ajv as unknown as typeof import("ajv").default)({
    allErrors: true,
    strict: false,
    verbose: true,
  });
  const schema = configSchema(sections) as { properties: Record<string, object> };
  const validate = ajv.compile(schema);
  if (validate(raw)) return;
  const first = validate.errors![0]!;
  const where = first.instancePath
    ? first.instancePath.slice(1).replace(/\//g, ".")
    : "(top level)";
  const detail =
    first.keyword === "additionalProperties"
      ? `unknown field "${(first.params as { additionalProperty: string }).additionalProperty}" (known: ${Object.keys(
          knownFields(first.parentSchema) ?? schema.properties,
        )
          .filter((key) => key !== "$schema")
          .join(", ")})`
      : first.keyword === "enum"
        ? `must be "off", "suggestion", "warning" or "error"`
        : (first.message ?? "is invalid");
  throw new FatalError(`${file}: ${where} ${detail}`);
}
