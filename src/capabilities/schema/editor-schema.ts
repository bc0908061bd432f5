import { readFile } from "node:fs/promises";
import { packageFile } from "../../core/package-files.js";
import type { Catalog } from "../catalog/catalog.js";
import { APP_KEY, type Manifest, type PermissionSetDef } from "../catalog/types.js";
import { otherSpellingName } from "../catalog/brand.js";

/** A JSON Schema node, as far as this module reads or writes one. */
type SchemaNode = { [key: string]: unknown };

export interface CapabilitySchema extends SchemaNode {
  definitions: Record<string, SchemaNode>;
}

/** The capability schema as shipped (schema/capability.schema.json): identifiers are plain strings. */
export async function baseCapabilitySchema(): Promise<CapabilitySchema> {
  return JSON.parse(await readFile(packageFile("schema", "capability.schema.json"), "utf8")) as CapabilitySchema;
}

/**
 * The schema an editor completes capability files with, as the host's build generates it
 * (host-acl-semantics §1.6): `Identifier` lists every permission the catalog knows as a
 * `{const, description, markdownDescription}`, ordered by plugin key, then default, sets, permissions;
 * and an object entry's `allow`/`deny` follow the plugin's scope schema where the plugin has one.
 *
 * Unlike the host's schema (built from every plugin the app uses), the catalog may miss a plugin, so
 * an identifier of a plugin the catalog does not know stays accepted: the editor marks a typo in
 * `fs:allow-reed-file`, not a community plugin caplint has no manifest for (check reports those).
 */
export function editorSchema(base: CapabilitySchema, catalog: Catalog): CapabilitySchema {
  const schema = structuredClone(base);
  const known: SchemaNode[] = [];
  for (const key of catalog.keys()) for (const item of identifierEntries(key, catalog.get(key)!)) known.push(item);
  const plainIdentifier = schema.definitions.Identifier ?? {};
  const strictPrefixes = catalog.keys().filter((key) => key !== APP_KEY && key !== "core" && !key.startsWith("core:"));
  const strictAlternatives = ["core", ...strictPrefixes].map(escapeRegExp);
  // Identifiers with a known plugin prefix (and unprefixed ones once the app's permissions are known) must be listed.
  const strictPattern = `^(?:(?:${strictAlternatives.join("|")}):${catalog.has(APP_KEY) ? "|[^:]*$" : ""})`;
  schema.definitions.Identifier = {
    description: plainIdentifier.description,
    anyOf: [
      { oneOf: known },
      {
        description: "A permission of a plugin this schema has no manifest for (give caplint schema the app's --manifest or --app to list it).",
        type: "string",
        not: { pattern: strictPattern },
      },
    ],
  };
  addScopeSchemas(schema, catalog);
  return schema;
}

/** A plugin's identifiers in the host's order: default, sets, then permissions (a set wins a shared name, as in lookup). */
function identifierEntries(key: string, manifest: Manifest): SchemaNode[] {
  const prefix = key === APP_KEY ? "" : `${key}:`;
  const entries = new Map<string, SchemaNode>();
  const setEntry = (name: string, set: PermissionSetDef, kind: string) => {
    const members = set.permissions;
    const summary = plain(set.description) || (name === "default" ? "Default plugin permissions." : "");
    entries.set(name, {
      description: `${summary} This ${kind} includes: ${members.join(", ") || "nothing"}.`.trim(),
      type: "string",
      const: prefix + name,
      markdownDescription: `${set.description.trim() || summary}\n#### This ${kind} includes:\n\n${members.map((m) => `- \`${m}\``).join("\n")}`,
    });
  };
  if (manifest.default_permission) setEntry("default", manifest.default_permission, "default permission set");
  for (const [name, set] of Object.entries(manifest.permission_sets)) if (!entries.has(name)) setEntry(name, set, "permission set");
  for (const [name, permission] of Object.entries(manifest.permissions)) {
    if (entries.has(name)) continue;
    const description = plain(permission.description ?? "");
    entries.set(name, { description, type: "string", const: prefix + name, markdownDescription: permission.description?.trim() || description });
  }
  // The brand word's other spelling (`allow-tauri-version` beside the spec's `allow-host-version`) names
  // the same permission for the host: an editor must accept and complete both.
  for (const [name, entry] of [...entries]) {
    const other = otherSpellingName(key, name);
    if (other === undefined || entries.has(other)) continue;
    const same = ` The same permission as "${prefix}${name}" (Tauri accepts both spellings of its brand word, \`tauri\` and the spec's \`host\`).`;
    entries.set(other, {
      ...entry,
      const: prefix + other,
      description: `${String(entry.description)}${same}`.trim(),
      markdownDescription: `${String(entry.markdownDescription)}\n\n${same.trim()}`,
    });
  }
  return [...entries.values()];
}

/** Markdown and the `<h4>` convention of permission descriptions, flattened to one plain line. */
function plain(text: string): string {
  return text
    .replace(/<\/?h4>|^#+ /gm, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The host's `allOf` of `if`/`then` per plugin with a global scope schema: an object entry naming one of
 * the plugin's permissions gets `allow`/`deny` items typed by it. Each scope schema's own definitions
 * move to the root under a plugin prefix, so its `$ref`s keep resolving.
 */
function addScopeSchemas(schema: CapabilitySchema, catalog: Catalog): void {
  const branches: SchemaNode[] = [];
  for (const key of catalog.keys()) {
    const scope = catalog.get(key)!.global_scope_schema;
    if (!isObject(scope)) continue;
    const prefix = `${key}-scope`;
    const { definitions, $schema: _ignored, ...entry } = rewriteRefs(scope, prefix) as SchemaNode & { definitions?: Record<string, SchemaNode> };
    for (const [name, definition] of Object.entries(definitions ?? {})) schema.definitions[`${prefix}.${name}`] = definition;
    schema.definitions[prefix] = entry;
    const items = { $ref: `#/definitions/${prefix}` };
    branches.push({
      if: { properties: { identifier: { enum: catalog.identifiersOf(key) } }, required: ["identifier"] },
      then: {
        properties: {
          allow: { type: ["array", "null"], items, description: "Scope values this entry adds (the plugin's scope format)." },
          deny: { type: ["array", "null"], items, description: "Scope values this entry denies; deny wins (the plugin's scope format)." },
        },
      },
    });
  }
  if (branches.length === 0) return;
  const entry = schema.definitions.PermissionEntry;
  const alternatives = Array.isArray(entry?.anyOf) ? (entry.anyOf as SchemaNode[]) : [];
  const objectForm = alternatives.find((alternative) => alternative.type === "object");
  if (objectForm) objectForm.allOf = branches;
}

function rewriteRefs(node: unknown, prefix: string): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, prefix));
  if (!isObject(node)) return node;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === "$ref" && typeof value === "string" && value.startsWith("#/definitions/")
        ? `#/definitions/${prefix}.${value.slice("#/definitions/".length)}`
        : rewriteRefs(value, prefix);
  }
  return out;
}

function isObject(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
