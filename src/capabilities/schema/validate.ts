import { generatedFile, readPackageJson } from "../../core/package-files.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { JsonPath } from "../../core/location.js";
import { shownValue } from "../../core/messages.js";
import { valueAt } from "../../core/source/document.js";
import { fileForm } from "../model/capability.js";
import { addCapabilitySchemas, VALIDATOR_OPTIONS } from "./validator-setup.js";
import { field, fieldKey, type Syntax } from "../../core/source/syntax.js";

export interface SchemaProblem {
  path: JsonPath;
  target: "key" | "value";
  message: string;
  hint?: string;
}

type Validators = Record<"single" | "list" | "wrapped", ValidateFunction>;
let validators: Promise<Validators> | undefined;
let schemaRoot: SchemaNode | undefined;

/**
 * The validators come precompiled from the build (scripts/build-validator.mjs writes
 * dist/generated/capability-validators.cjs); running from sources (tests) compiles them with Ajv once.
 * Either way nothing loads until a file is validated, and the thousands of files of one check that ask
 * at once share one load (the promise is what is kept).
 */
function getValidators(): Promise<Validators> {
  validators ??= (async () => {
    const schema = readPackageJson<SchemaNode & { $id: string }>("schema", "capability.schema.json");
    schemaRoot = schema;
    return (await loadGenerated()) ?? (await compileAtRuntime(schema));
  })();
  return validators;
}

async function loadGenerated(): Promise<Validators | undefined> {
  const generated = generatedFile("capability-validators.cjs");
  if (generated === undefined) return undefined;
  const { createRequire } = await import("node:module");
  try {
    return createRequire(import.meta.url)(generated) as Validators;
  } catch {
    return undefined;
  }
}

async function compileAtRuntime(schema: SchemaNode & { $id: string }): Promise<Validators> {
  const [{ default: Ajv }, { default: addFormats }] = await Promise.all([import("ajv"), import("ajv-formats")]);
  const ajv = new (Ajv as unknown as typeof import("ajv").default)(VALIDATOR_OPTIONS);
  (addFormats as unknown as (a: unknown) => void)(ajv);
  const ids = addCapabilitySchemas(ajv, schema);
  const compiled = (id: string) => ajv.getSchema(id)!;
  return { single: compiled(ids.single), list: compiled(ids.list), wrapped: compiled(ids.wrapped) };
}

const FORM_NAMES = {
  single: "a single capability object",
  list: "an array of capabilities",
  wrapped: 'an object with a "capabilities" array',
} as const;

/**
 * Validates a parsed capability file against the schema. The form is decided the way the host
 * decides it (array, object with `capabilities`, other object), so the three-way `anyOf` of the
 * schema never produces noise: only the chosen form's errors are reported.
 * Errors owned by dedicated rules (platform values, duplicate entries) are left to those rules.
 */
/** `written` gives a value's text as the file writes it, for messages (`1e400`, not Infinity). */
export async function validateCapabilityFile(value: unknown, written?: Written, syntax: Syntax = "json"): Promise<SchemaProblem[]> {
  const form = fileForm(value);
  if (!form) {
    return [
      {
        path: [],
        target: "value",
        message: `expected a capability file (${FORM_NAMES.single}, ${FORM_NAMES.list}, or ${FORM_NAMES.wrapped}), found ${typeName(value)}`,
      },
    ];
  }
  const validate = (await getValidators())[form];
  if (validate(value)) return [];
  return ajvErrorsToProblems(validate.errors ?? [], value, form, written, syntax);
}

type Written = (path: JsonPath) => string | undefined;

export function ajvErrorsToProblems(
  errors: readonly ErrorObject[],
  root: unknown,
  form: keyof typeof FORM_NAMES,
  written?: Written,
  syntax: Syntax = "json",
): SchemaProblem[] {
  const kept = pickAnyOfBranches(errors, root, schemaRoot!);
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of kept) {
    const problem = toProblem(error, root, form, written, syntax);
    if (!problem) continue;
    const key = JSON.stringify([problem.path, problem.message]);
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

/**
 * Collapses `anyOf` failures. The value's JSON type selects the branch the author meant: when exactly
 * one branch accepts that type, the other branches' type complaints are dropped and the chosen
 * branch's own errors stay; when no branch accepts it, one message lists what was expected.
 */
function pickAnyOfBranches(errors: readonly ErrorObject[], root: unknown, schema: SchemaNode): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  for (const anyOf of errors.filter((e) => e.keyword === "anyOf")) {
    const value = valueAt(root, instancePathToPath(anyOf.instancePath));
    const branches = Array.isArray(anyOf.schema) ? (anyOf.schema as SchemaNode[]) : [];
    const accepting = branches.filter((branch) => acceptsType(resolveRef(branch, schema), value));
    const atValue = (e: ErrorObject) => e.instancePath === anyOf.instancePath;
    const below = (e: ErrorObject) => e.instancePath.startsWith(`${anyOf.instancePath}/`);
    if (accepting.length === 1) {
      dropped.add(anyOf);
      for (const e of errors) if (atValue(e) && (e.keyword === "type" || e.keyword === "anyOf")) dropped.add(e);
    } else {
      for (const e of errors) if (e !== anyOf && (atValue(e) || below(e))) dropped.add(e);
    }
  }
  return errors.filter((e) => !dropped.has(e));
}

type SchemaNode = { $ref?: string; type?: string | string[]; anyOf?: SchemaNode[]; [key: string]: unknown };

function resolveRef(node: SchemaNode, root: SchemaNode): SchemaNode {
  let current = node;
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    const pointer = current.$ref.slice(current.$ref.indexOf("#") + 1);
    current = valueAt(root, pointer.split("/").filter(Boolean)) as SchemaNode;
  }
  return current;
}

function acceptsType(branch: SchemaNode, value: unknown): boolean {
  if (branch.anyOf) return true;
  if (branch.type === undefined) return true;
  const types = Array.isArray(branch.type) ? branch.type : [branch.type];
  const actual =
    value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}

function toProblem(error: ErrorObject, root: unknown, form: keyof typeof FORM_NAMES, written: Written | undefined, syntax: Syntax): SchemaProblem | undefined {
  const path = instancePathToPath(error.instancePath);
  const field = fieldName(path);
  const value = valueAt(root, path);
  const found = () => typeName(value, typeof value === "number" ? written?.(path) : undefined);
  switch (error.keyword) {
    case "required": {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const where = path.length === 0 && form === "single" ? "capability" : describeContainer(path);
      return {
        path,
        target: "value",
        message: `${where} is missing required field "${missing}"`,
        hint: REQUIRED_HINTS[missing]?.(syntax),
      };
    }
    case "type": {
      const expected = (error.params as { type: string | string[] }).type;
      const list = Array.isArray(expected) ? expected : String(expected).split(",");
      return {
        path,
        target: "value",
        message: `${field} must be ${list.map(article).join(" or ")}, found ${found()}`,
        // Keyed by the bare field name (`field` is quoted for the message).
        hint: TYPE_HINTS[String(path[path.length - 1])]?.(syntax),
      };
    }
    case "anyOf": {
      return { path, target: "value", message: `${field} must be ${ANYOF_EXPECTATIONS[anyOfKind(path)] ?? "a valid value"}, found ${found()}` };
    }
    case "enum":
    case "uniqueItems":
      // Owned by invalid-platform and duplicate-permission, which say more.
      return undefined;
    default:
      return { path, target: "value", message: `${field} ${error.message ?? "is invalid"}` };
  }
}

/** What to add, in the file's own syntax: `"identifier": …` in JSON, `identifier = …` in TOML. */
const required = (key: string, what: string) => (syntax: Syntax) => `add ${fieldKey(key, syntax)}${syntax === "toml" ? " =" : ":"} ${what}`;

const REQUIRED_HINTS: Record<string, (syntax: Syntax) => string> = {
  identifier: required("identifier", "a name unique across all capability files"),
  permissions: required("permissions", 'a list such as ["core:default"]'),
  urls: required("urls", 'a list of URL patterns such as ["https://example.com"]'),
  capabilities: (syntax) => (syntax === "toml" ? "add [[capabilities]] tables, one per capability" : 'add "capabilities": a list of capability objects'),
};

const asList = (what: string, key: string, example: string[]) => (syntax: Syntax) => `write ${what} as a list, e.g. ${field(key, example, syntax)}`;

const TYPE_HINTS: Record<string, (syntax: Syntax) => string> = {
  windows: asList("window labels", "windows", ["main"]),
  webviews: asList("webview labels", "webviews", ["main"]),
  permissions: asList("permissions", "permissions", ["core:default"]),
  platforms: asList("platforms", "platforms", ["linux", "macOS", "windows"]),
  local: () => "use true or false without quotes",
  urls: asList("URL patterns", "urls", ["https://example.com"]),
};

const ANYOF_EXPECTATIONS: Record<string, string> = {
  PermissionEntry: 'a permission identifier string or an object {"identifier", "allow"?, "deny"?}',
  remote: 'an object {"urls": [...]} or null',
};

function anyOfKind(path: JsonPath): string {
  if (path[path.length - 2] === "permissions") return "PermissionEntry";
  return String(path[path.length - 1]);
}

function describeContainer(path: JsonPath): string {
  const last = path[path.length - 1];
  if (typeof last === "number") {
    const parent = path[path.length - 2];
    if (parent === "permissions") return `permission entry ${last}`;
    return `capability ${last}`;
  }
  if (last === undefined) return "the file";
  return `"${last}"`;
}

function fieldName(path: JsonPath): string {
  const last = path[path.length - 1];
  if (last === undefined) return "the file";
  if (typeof last === "number") {
    const parent = path[path.length - 2];
    if (parent === "permissions") return `permission entry ${last}`;
    if (parent === undefined || parent === "capabilities") return `capability ${last}`;
    return `"${String(parent)}[${last}]"`;
  }
  return `"${last}"`;
}

function article(type: string): string {
  switch (type) {
    case "array":
      return "an array";
    case "object":
      return "an object";
    case "integer":
      return "an integer";
    case "null":
      return "null";
    default:
      return `a ${type}`;
  }
}

export function typeName(value: unknown, written?: string): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `a string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value)}`;
    case "number":
      return `a number (${shownValue(value, written)})`;
    case "boolean":
      return `a boolean (${value})`;
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

function instancePathToPath(pointer: string): JsonPath {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}
