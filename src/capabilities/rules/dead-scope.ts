import { Catalog } from "../catalog/catalog.js";
import { APP_KEY } from "../catalog/types.js";
import {
  expandIdentifier,
  grantsWithin,
  type Context,
  type EntryProvenance,
  type GrantLeaves,
} from "../engine/index.js";
import { work } from "../work.js";
import { samePath, type JsonPath } from "../../core/location.js";
import { isPlainObject } from "../../core/json.js";
import type { Capability, PermissionEntry } from "../model/types.js";
import { entryAt } from "./support/engine-helpers.js";
import { scopedEntryIndexes } from "./support/entry-identifiers.js";
import { inlineValue, syntaxOf } from "../../core/source/syntax.js";
import { defineRule, type RuleContext } from "./types.js";

/**
 * Commands of official plugins that take no scope although their plugin has one: a scope on a
 * permission that only grants these is never read (`shell:allow-open` checks the `open` config option).
 */
const SCOPELESS_COMMANDS: Readonly<Record<string, readonly string[]>> = {
  shell: ["open", "kill", "stdin_write"],
  http: ["fetch_cancel", "fetch_send", "fetch_read_body", "fetch_cancel_body"],
};

/** Fields a plugin reads from scope entries, per plugin, from its scope schema. */
/** The fields a plugin's scope entries read, and the JSON types each may take (absent: any type). */
type ScopeFields =
  { fields: ReadonlySet<string>; types: ReadonlyMap<string, ReadonlySet<JsonType>> } | undefined;

type JsonType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/**
 * Commands of official plugins that refuse every call unless a scope allows it: the plugin checks the
 * call's path, URL or program against the allow entries, and an empty scope allows nothing. `fs` is not
 * here: paths the user picks in a dialog join its scope at run time, so an unscoped fs grant still works.
 */
interface ScopeRequired {
  plugin: string;
  commands: readonly string[];
  /** What the commands do with what a scope names, for one command and for several: "runs only programs". */
  does: readonly [one: string, several: string];
  /** The scope, with its article: "an http scope". */
  scope: string;
  /** The advice's first words, and a scope entry to show (per command where they differ). */
  add: string;
  example: Record<string, unknown> | Readonly<Record<string, Record<string, unknown>>>;
  /**
   * The field an allow entry must have to reach each command, where one plugin scope serves commands
   * that read different entries (opener: `url` entries for open_url, `path` entries for open_path).
   */
  reads?: Readonly<Record<string, string>>;
}
const SCOPE_REQUIRED: readonly ScopeRequired[] = [
  {
    plugin: "shell",
    commands: ["plugin:shell|execute", "plugin:shell|spawn"],
    does: ["runs only programs", "run only programs"],
    scope: "a shell scope",
    add: "add the program",
    example: { name: "git", cmd: "git", args: true },
  },
  {
    plugin: "http",
    commands: ["plugin:http|fetch"],
    does: ["fetches only URLs", "fetch only URLs"],
    scope: "an http scope",
    add: "add the URLs the app fetches",
    example: { url: "https://api.example.com/*" },
  },
  {
    // opener (every release since 2.0.0, commands.rs): `is_url_allowed` and `is_path_allowed` need an
    // allow entry that matches; opener:default brings `allow-default-urls` (mailto:, tel:, http(s):)
    // for open_url through the global scope, and nothing for open_path.
    plugin: "opener",
    commands: ["plugin:opener|open_url", "plugin:opener|open_path"],
    does: ["opens only what", "open only what"],
    scope: "an opener scope entry",
    add: "add what the app opens",
    example: {
      "plugin:opener|open_url": { url: "https://example.com/*" },
      "plugin:opener|open_path": { path: "$APPDATA/exports/*" },
    },
    reads: { "plugin:opener|open_url": "url", "plugin:opener|open_path": "path" },
  },
];

/** Whether a scope value reaches `command`: any value, or one with the field the command reads. */
function reaches(required: ScopeRequired, command: string, value: unknown): boolean {
  const field = required.reads?.[command];
  return field === undefined || (isPlainObject(value) && value[field] !== undefined);
}

function exampleFor(required: ScopeRequired, command: string): Record<string, unknown> {
  const examples = required.example as Readonly<Record<string, Record<string, unknown>>>;
  return required.reads ? examples[command]! : required.example;
}

export default defineRule({
  id: "dead-scope",
  description:
    "Report scopes the plugin never reads or reads otherwise (a field outside its scope schema, a scope on a command that takes none, a float or an unsafe integer where it wants an integer), and grants of commands that refuse every call without a scope (shell execute/spawn without a program, http fetch without a URL, opener open_url/open_path without a URL or path).",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    unreadScope: 'the "{{list}}" scope on "{{identifier}}" is never read: {{why}}',
    unreadField:
      'scope field "{{field}}"{{count}} is not read by the {{plugin}} plugin: its scope entries read {{fields}}',
    wrongType:
      'scope field "{{field}}"{{count}} is {{written}}, but the {{plugin}} plugin reads {{expected}}: the entry fails to deserialize, so the command fails when it reads the scope',
    floatForInteger:
      "scope value {{written}} is written as a float where the {{plugin}} plugin reads an integer: the entry fails to deserialize at run time",
    unsafeInteger:
      "scope value {{written}} is above 2^53: JavaScript and the IPC layer round it (to {{rounded}}), so the plugin may compare another number",
    noScope:
      '"{{identifier}}" grants nothing: {{commands}} {{does}} {{scope}} names, and no entry gives {{them}} one',
    noScopeRemote:
      '"{{identifier}}" grants nothing: {{commands}} {{does}} {{scope}} names, and a remote page borrows none from the grants for the app\'s own pages',
  },
  async check(context) {
    // What an entry's identifier decides (its plugin, whether a command it grants reads a scope, the
    // fields the scope schema reads): judged once per distinct identifier and run, from the catalog
    // alone, however many entries (an app's copies of a capability) name it.
    const byIdentifier = new Map<string, IdentifierVerdict | null>();
    const schemas = new Map<string, SchemaFacts>();
    const schemaOf = (key: string, schema: unknown): SchemaFacts => {
      let facts = schemas.get(key);
      if (facts === undefined) {
        facts = {
          readsIntegers: isPlainObject(schema) && JSON.stringify(schema).includes('"integer"'),
          fields: scopeFields(schema),
        };
        schemas.set(key, facts);
      }
      return facts;
    };
    const verdictOf = (identifier: string): IdentifierVerdict | null => {
      let verdict = byIdentifier.get(identifier);
      if (verdict === undefined) {
        work.scopedIdentifiersJudged++;
        byIdentifier.set(identifier, (verdict = judgeIdentifier(context, identifier, schemaOf)));
      }
      return verdict;
    };
    const entries = context.entries();
    // Most entries have no scope lists: only those that have one are walked (a shared index).
    const scoped = scopedEntryIndexes(entries);
    for (let s = 0; s < scoped.length; s++) {
      const { capability, entry } = entries[scoped[s]!]!;
      if (!entry.allow && !entry.deny) continue;
      const lists = (["allow", "deny"] as const).filter(
        (list) => Array.isArray(entry[list]) && entry[list].length > 0,
      );
      if (lists.length === 0) continue;
      const verdict = verdictOf(entry.identifier);
      if (verdict === null) continue;
      const { key, manifest } = verdict;
      if (verdict.unread !== undefined) {
        const { why, hint } = verdict.unread;
        for (const list of lists) {
          context.report({
            at: capability.source,
            path: [...entry.path, list],
            target: "key",
            messageId: "unreadScope",
            data: { list, identifier: entry.identifier, why },
            hint,
          });
        }
        continue;
      }
      if (verdict.readsIntegers)
        reportNumbers(context, capability, entry, lists, manifest.global_scope_schema);
      const fields = verdict.fields;
      if (!fields) continue;
      for (const list of lists) {
        // One finding per field and list, at its first use: a field copied into every entry is one mistake.
        const uses = new Map<string, number[]>();
        const mistyped = new Map<
          string,
          { indexes: number[]; written: JsonType; expected: ReadonlySet<JsonType> }
        >();
        (entry[list] as unknown[]).forEach((value, index) => {
          if (!isPlainObject(value)) return;
          for (const [field, fieldValue] of Object.entries(value)) {
            if (!fields.fields.has(field)) {
              uses.set(field, [...(uses.get(field) ?? []), index]);
              continue;
            }
            const expected = fields.types.get(field);
            const written = jsonType(fieldValue);
            if (
              !expected ||
              expected.has(written) ||
              (written === "integer" && expected.has("number"))
            )
              continue;
            const seen = mistyped.get(field);
            if (seen) seen.indexes.push(index);
            else mistyped.set(field, { indexes: [index], written, expected });
          }
        });
        for (const [field, { indexes, written, expected }] of mistyped) {
          context.report({
            at: capability.source,
            path: [...entry.path, list, indexes[0]!, field],
            messageId: "wrongType",
            data: {
              field,
              count: indexes.length > 1 ? ` (in ${indexes.length} entries)` : "",
              written:
                written === "array" || written === "object" || written === "integer"
                  ? `an ${written}`
                  : `a ${written}`,
              plugin: key,
              expected: [...expected]
                .map((type) =>
                  type === "array" || type === "object" || type === "integer"
                    ? `an ${type}`
                    : `a ${type}`,
                )
                .join(" or "),
            },
            hint:
              written === "array"
                ? "write one entry per value, each with a single value for the field"
                : `write the value as ${[...expected][0]}`,
          });
        }
        for (const [field, indexes] of uses) {
          const count = indexes.length > 1 ? ` (in ${indexes.length} entries)` : "";
          context.report({
            at: capability.source,
            path: [...entry.path, list, indexes[0]!, field],
            target: "key",
            messageId: "unreadField",
            data: {
              field,
              count,
              plugin: key,
              fields: [...fields.fields].map((f) => `"${f}"`).join(", "),
            },
            hint:
              field === "requireLiteralLeadingDot"
                ? `remove it; it is an option of the plugin, set in tauri.conf.json under plugins.${key}.requireLiteralLeadingDot (or the asset protocol's scope)`
                : "remove the field, or check the plugin's documentation for the name it reads",
          });
        }
      }
    }
    for (const required of SCOPE_REQUIRED) await reportUnscopedGrants(context, required);
  },
});

/** What a plugin's scope schema tells dead-scope: worked out once per plugin and run. */
interface SchemaFacts {
  /** Whether the schema asks for an integer anywhere: only then can a number be misread. */
  readsIntegers: boolean;
  /** The fields the plugin's scope entries read, and their types (undefined: any field may be read). */
  fields: ScopeFields;
}

/** What dead-scope decides of an entry's identifier alone: the same for every entry that names it. */
interface IdentifierVerdict extends SchemaFacts {
  /** The plugin (catalog key) and its manifest. */
  key: string;
  manifest: NonNullable<ReturnType<Catalog["get"]>>;
  /** Set when no command the identifier grants reads a scope: every list on the entry is unread. */
  unread?: { why: string; hint: string };
}

/**
 * An identifier's verdict from the catalog (null: no plugin of the catalog, or the app's own, whose
 * scopes are not judged). Scope schemas are read once per plugin and run (`schemaOf`).
 */
function judgeIdentifier(
  context: RuleContext,
  identifier: string,
  schemaOf: (key: string, schema: unknown) => SchemaFacts,
): IdentifierVerdict | null {
  const key = Catalog.keyOf(identifier)?.key;
  if (key === undefined || key === APP_KEY || !context.catalog.has(key)) return null;
  const manifest = context.catalog.get(key)!;
  const official =
    key === "core" ||
    key.startsWith("core:") ||
    context.catalog.provenanceOf(key)?.origin === "builtin";
  const reader = scopeReader(context, identifier);
  if (reader === "none" && (official || manifest.global_scope_schema)) {
    const why =
      manifest.global_scope_schema === null || manifest.global_scope_schema === undefined
        ? `the ${key} plugin reads no scope`
        : `${describeCommands(context, identifier)} ${key} takes no scope`;
    const hint =
      key === "shell" && identifier === "shell:allow-open"
        ? 'remove it; shell:allow-open is limited by the "open" option of the shell plugin in tauri.conf.json'
        : "remove it, or put the scope on a permission whose command reads it";
    return { key, manifest, unread: { why, hint }, readsIntegers: false, fields: undefined };
  }
  return { key, manifest, ...schemaOf(key, manifest.global_scope_schema) };
}

/**
 * Numbers where the scope schema wants an integer, read as written in the file: plugins deserialize
 * scope values with Rust's number types, so `1.0` fails to deserialize as an integer, and an integer
 * above 2^53 is one JavaScript (and the IPC layer) would round. Both are accepted by the build and go
 * wrong at run time.
 */
function reportNumbers(
  context: RuleContext,
  capability: Capability,
  entry: PermissionEntry,
  lists: ReadonlyArray<"allow" | "deny">,
  schema: unknown,
): void {
  if (!isPlainObject(schema)) return;
  const document = context.document(capability.source);
  if (!document) return;
  const definitions = isPlainObject(schema.definitions) ? schema.definitions : {};
  const walk = (value: unknown, node: unknown, path: JsonPath, depth: number): void => {
    if (depth > 16) return;
    const variants = expandSchema(node, definitions);
    if (typeof value === "number") {
      if (!variants.some((v) => v.type === "integer") || variants.some((v) => v.type === "number"))
        return;
      const located = document.locate(path);
      if (!located.exact) return;
      const written = document.text.slice(located.offset, located.offset + located.length).trim();
      const integralFloat =
        /^-?\d+\.\d*$|^-?\d+(\.\d*)?[eE][+-]?\d+$/.test(written) && Number.isInteger(value);
      const unsafe = /^-?\d+$/.test(written) && !Number.isSafeInteger(Number(written));
      if (!integralFloat && !unsafe) return;
      context.report({
        at: capability.source,
        path,
        ...(integralFloat
          ? {
              messageId: "floatForInteger",
              data: { written, plugin: String(Catalog.keyOf(entry.identifier)?.key) },
            }
          : { messageId: "unsafeInteger", data: { written, rounded: String(value) } }),
        hint: integralFloat
          ? `write ${String(Math.trunc(value))}`
          : "keep integer scope values within ±9007199254740991, or use a string if the plugin accepts one",
      });
      return;
    }
    if (Array.isArray(value)) {
      const items = variants.map((v) => v.items).filter((i) => i !== undefined);
      value.forEach((item, index) =>
        items.forEach((schemaItem) => walk(item, schemaItem, [...path, index], depth + 1)),
      );
    } else if (isPlainObject(value)) {
      for (const [field, inner] of Object.entries(value)) {
        for (const variant of variants)
          if (isPlainObject(variant.properties) && field in variant.properties)
            walk(inner, variant.properties[field], [...path, field], depth + 1);
      }
    }
  };
  for (const list of lists)
    (entry[list] as unknown[]).forEach((value, index) =>
      walk(value, schema, [...entry.path, list, index], 0),
    );
}

/** A schema node's alternatives, following `$ref`, `anyOf`, `oneOf` and `allOf` (bounded). */
function expandSchema(
  node: unknown,
  definitions: Record<string, unknown>,
  depth = 0,
): Array<Record<string, unknown>> {
  if (!isPlainObject(node) || depth > 8) return [];
  if (typeof node.$ref === "string") {
    const name = /^#\/definitions\/(.+)$/.exec(node.$ref)?.[1];
    return name === undefined ? [] : expandSchema(definitions[name], definitions, depth + 1);
  }
  const out: Array<Record<string, unknown>> = [node];
  for (const combinator of ["anyOf", "oneOf", "allOf"] as const) {
    const variants = node[combinator];
    if (Array.isArray(variants))
      for (const variant of variants) out.push(...expandSchema(variant, definitions, depth + 1));
  }
  return out;
}

/**
 * Whether an entry's scope reaches a command that reads it: a leaf with a scope-reading command, or a
 * command-less leaf (its scope goes to the plugin's global scope). "none" when every leaf grants only
 * commands that take no scope; "unknown" when the identifier does not expand.
 */
function scopeReader(context: RuleContext, identifier: string): "some" | "none" | "unknown" {
  const { leaves } = expandIdentifier(context.catalog, identifier);
  if (leaves.length === 0) return "unknown";
  for (const leaf of leaves) {
    const commands = [...leaf.permission.commands.allow, ...leaf.permission.commands.deny];
    if (commands.length === 0) return "some";
    const official =
      leaf.key === "core" ||
      leaf.key.startsWith("core:") ||
      context.catalog.provenanceOf(leaf.key)?.origin === "builtin";
    const schema = context.catalog.get(leaf.key)?.global_scope_schema;
    if (schema === null || schema === undefined) {
      // A plugin without a scope schema: official ones read no scope; others may still read one.
      if (!official) return "some";
      continue;
    }
    const scopeless = SCOPELESS_COMMANDS[leaf.key] ?? [];
    if (commands.some((command) => !scopeless.includes(command))) return "some";
  }
  return "none";
}

function describeCommands(context: RuleContext, identifier: string): string {
  const commands = [
    ...new Set(
      expandIdentifier(context.catalog, identifier).leaves.flatMap((leaf) => [
        ...leaf.permission.commands.allow,
        ...leaf.permission.commands.deny,
      ]),
    ),
  ];
  return commands.length === 1
    ? `the ${commands[0]} command of`
    : `the commands ${commands.join(", ")} of`;
}

/**
 * The fields of the object forms of a scope schema (the union over its `anyOf` variants, following
 * `$ref`s into `definitions`). Undefined when the schema is missing or has a free-form object form,
 * which could read any field.
 */
export function scopeFields(schema: unknown): ScopeFields {
  if (!isPlainObject(schema)) return undefined;
  const definitions = isPlainObject(schema.definitions) ? schema.definitions : {};
  const fields = new Set<string>();
  const types = new Map<string, Set<JsonType> | null>();
  let freeForm = false;
  let sawObject = false;
  const seen = new Set<unknown>();
  const visit = (node: unknown) => {
    if (!isPlainObject(node) || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === "string") {
      const name = /^#\/definitions\/(.+)$/.exec(node.$ref)?.[1];
      if (name !== undefined) visit(definitions[name]);
      return;
    }
    for (const combinator of ["anyOf", "oneOf", "allOf"] as const) {
      const variants = node[combinator];
      if (Array.isArray(variants)) variants.forEach(visit);
    }
    const isObject = node.type === "object" || isPlainObject(node.properties);
    if (!isObject) return;
    sawObject = true;
    if (isPlainObject(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        fields.add(name);
        // A field two object shapes type differently takes either; one without a known type takes anything.
        const known = propertyTypes(property, definitions);
        const before = types.get(name);
        types.set(
          name,
          before === null || known === null ? null : new Set([...(before ?? []), ...known]),
        );
      }
    } else freeForm = true;
  };
  visit(schema);
  const typed = new Map<string, ReadonlySet<JsonType>>();
  for (const [name, set] of types) if (set) typed.set(name, set);
  return sawObject && !freeForm && fields.size > 0 ? { fields, types: typed } : undefined;
}

const JSON_TYPES = new Set<string>([
  "string",
  "number",
  "integer",
  "boolean",
  "array",
  "object",
  "null",
]);

/** The JSON types a property's schema admits, through $ref and anyOf/oneOf; null when any type may do. */
function propertyTypes(
  node: unknown,
  definitions: Record<string, unknown>,
  depth = 0,
): Set<JsonType> | null {
  if (!isPlainObject(node) || depth > 16) return null;
  if (typeof node.$ref === "string") {
    const name = /^#\/definitions\/(.+)$/.exec(node.$ref)?.[1];
    return name === undefined ? null : propertyTypes(definitions[name], definitions, depth + 1);
  }
  const declared =
    typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : undefined;
  if (declared)
    return declared.every((type) => typeof type === "string" && JSON_TYPES.has(type))
      ? new Set(declared as JsonType[])
      : null;
  for (const combinator of ["anyOf", "oneOf"] as const) {
    const variants = node[combinator];
    if (!Array.isArray(variants)) continue;
    const union = new Set<JsonType>();
    for (const variant of variants) {
      const types = propertyTypes(variant, definitions, depth + 1);
      if (types === null) return null;
      for (const type of types) union.add(type);
    }
    return union;
  }
  return null;
}

function jsonType(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

/** The callers' origin a grant reaches, as a key: two grants reach the same callers when their keys are equal. */
function reachKey(context: Context): string {
  return context.kind === "local" ? "local" : `remote\u0000${context.url}`;
}

/**
 * Grants of commands that refuse every call without a scope (`shell:allow-execute`, `http:default`),
 * given no scope anywhere that reaches their callers (the entry's own, another grant's for the same
 * origin, or the plugin's global scope): every call is refused at run time. Indexed by origin and by
 * entry: comparing every grant with every other was quadratic in the grants of a command. A command
 * whose grants and global scope an earlier platform model resolves alike gave its findings there
 * (`modelsToJudge`): its entries are not made again on the later model.
 *
 * The grants are read from the resolution's sites of each command (grant, leaf), as the dangers module
 * does, not from the model's entries: an entry is one per grant, leaf and context, and every context of
 * a grant's leaf has the same scope and provenance, so the sites tell the same with no object made
 * (9,504 entries made on bench row 5 before).
 */
async function reportUnscopedGrants(context: RuleContext, required: ScopeRequired): Promise<void> {
  if (!context.catalog.has(required.plugin)) return;
  const reported = new Set<string>();
  const handled = new Set<EntryProvenance>();
  const resolution = await context.resolution();
  for (const { model, settled } of resolution.modelsToJudge()) {
    const globalAllow = model.globalScope.get(required.plugin)?.allow ?? [];
    const deadCommands = required.commands.filter(
      (command) => !globalAllow.some((value) => reaches(required, command, value)),
    );
    const toJudge = deadCommands.filter((command) => !settled([command], [required.plugin]));
    if (toJudge.length === 0) continue;
    const bit = resolution.platforms.indexOf(model.platform);
    const sitesByCommand = new Map<string, GrantLeaves>();
    const sitesOf = (command: string): GrantLeaves => {
      let found = sitesByCommand.get(command);
      if (!found)
        sitesByCommand.set(command, (found = resolution.grantsOfCommand("allow", command, bit)));
      return found;
    };
    /** Every dead command that grant `grantIndex`'s entry (at `path`) also grants, for the message, in the table's order. */
    const deadOf = (grantIndex: number, path: JsonPath): string[] => {
      const range = resolution.grantRange(resolution.capabilityOfGrant(grantIndex));
      return deadCommands.filter((command) => {
        const found = sitesOf(command);
        // Only the capability's own grants: a walk of all the command's grants for each finding grew
        // with the product of the two (an app of thousands of unscoped shell grants).
        const [from, to] = grantsWithin(found, range);
        for (let i = from; i < to; i++) {
          work.ruleSteps++;
          const shared = resolution.sharedOf(found.grants[i]!, found.leaves[i]!);
          if (samePath(shared.provenance.path, path)) return true;
        }
        return false;
      });
    };
    for (const command of toJudge) {
      const { grants, leaves } = sitesOf(command);
      const contextsOf = (grantIndex: number): readonly Context[] =>
        resolution.capabilities[resolution.capabilityOfGrant(grantIndex)]!.resolved.contexts;
      // The host hands a command the scopes of the grants that match the caller: a remote page's call
      // borrows nothing from a grant for local pages, nor a local call from a remote-only one.
      const scopedReaches = new Set<string>();
      for (let i = 0; i < grants.length; i++) {
        const { scope } = resolution.sharedOf(grants[i]!, leaves[i]!);
        if ((scope?.allow ?? []).some((value) => reaches(required, command, value)))
          for (const reached of contextsOf(grants[i]!)) scopedReaches.add(reachKey(reached));
      }
      // An entry (a grant: one permission entry of a capability) works when one of its leaves' contexts
      // reaches callers that some scoped grant reaches; nothing works when nothing is scoped.
      const workingGrants = new Set<number>();
      if (scopedReaches.size > 0)
        for (let i = 0; i < grants.length; i++) {
          work.ruleSteps++;
          if (contextsOf(grants[i]!).some((reached) => scopedReaches.has(reachKey(reached))))
            workingGrants.add(grants[i]!);
        }
      for (let i = 0; i < grants.length; i++) {
        const grantIndex = grants[i]!;
        work.ruleSteps++;
        if (workingGrants.has(grantIndex)) continue;
        const contexts = contextsOf(grantIndex);
        if (contexts.length === 0) continue;
        // A leaf's grants (one per context, and the same on every model) share one provenance: the
        // entry behind it was looked up, and reported or not, the first time.
        const { provenance } = resolution.sharedOf(grantIndex, leaves[i]!);
        if (handled.has(provenance)) continue;
        handled.add(provenance);
        const capability =
          resolution.capabilities[resolution.capabilityOfGrant(grantIndex)]!.resolved.capability;
        const entry = entryAt(capability, provenance.path);
        if (!entry) continue;
        const key = `${capability.source.absolutePath}\u0000${JSON.stringify(entry.path)}`;
        if (reported.has(key)) continue;
        reported.add(key);
        const dead = deadOf(grantIndex, provenance.path);
        const syntax = syntaxOf(capability.source);
        // The scope goes on the entry as written; a set such as http:default takes it as well as a single permission.
        const scoped = inlineValue(
          { identifier: entry.identifier, allow: [exampleFor(required, dead[0]!)] },
          syntax,
        );
        context.report({
          at: capability.source,
          path: entry.extended ? [...entry.path, "identifier"] : entry.path,
          // Scoped grants exist, but none reaches this grant's callers: say why it still works for nobody.
          messageId:
            scopedReaches.size > 0 && contexts[0]!.kind === "remote" ? "noScopeRemote" : "noScope",
          data: {
            identifier: entry.identifier,
            commands: dead.join(" and "),
            does: required.does[dead.length > 1 ? 1 : 0],
            scope: required.scope,
            them: dead.length > 1 ? "them" : "it",
          },
          hint: `${required.add}, e.g. ${scoped}, or remove the permission`,
        });
      }
    }
  }
}
