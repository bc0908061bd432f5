/**
 * Completion in capability files: permission identifiers of the plugins this app has (at the releases
 * it locks, its own and in-repo plugins included), window and webview labels, platform names, and the
 * fields of a capability, its `remote` and a permission entry. Where the cursor is comes from the
 * buffer's text (jsonc-parser for JSON, which reads half-typed text; the line structure for TOML), so
 * completion works while the file does not parse.
 */
import { createRequire } from "node:module";
import type { CompletionItem, MarkupContent, Range } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { Catalog } from "../capabilities/catalog/catalog.js";
import { APP_KEY } from "../capabilities/catalog/types.js";
import type { Project } from "../capabilities/load/project.js";
import {
  CAPABILITY_FIELDS,
  PERMISSION_ENTRY_FIELDS,
  REMOTE_FIELDS,
} from "../capabilities/model/capability.js";
import { TARGETS } from "../capabilities/model/types.js";
import { expandPermission } from "../capabilities/queries/permissions.js";
import { CompletionItemKind, MarkupKind } from "./protocol.js";
import { appHasPlugin, appLabels } from "./places.js";
import {
  fieldKey,
  inlineValue,
  quoteString,
  syntaxOf,
  type Syntax,
} from "../core/source/syntax.js";
import { grantCounts } from "../capabilities/queries/permissions.js";

type JsoncParser = typeof import("jsonc-parser");

export type Slot =
  | {
      kind: "permission" | "window" | "webview" | "platform";
      replace: { offset: number; length: number };
      quoted: boolean;
    }
  | {
      kind: "field";
      object: "capability" | "remote" | "entry";
      replace: { offset: number; length: number };
      quoted: boolean;
      present: string[];
    };

/** What the cursor at `offset` is writing, or undefined where caplint has nothing to offer. */
export function slotAt(document: TextDocument, offset: number): Slot | undefined {
  const text = document.getText();
  return document.uri.endsWith(".toml") ? tomlSlot(text, offset) : jsonSlot(text, offset);
}

/** The capability-relative path: a wrapped file's `capabilities` and the app config's inline capabilities are stripped. */
function capabilityPath(path: ReadonlyArray<string | number>): Array<string | number> | undefined {
  if (path[0] === "capabilities") return path.length >= 2 ? path.slice(2) : undefined;
  if (path[0] === "app" && path[1] === "security" && path[2] === "capabilities")
    return path.length >= 4 ? path.slice(4) : undefined;
  return [...path];
}

function jsonSlot(text: string, offset: number): Slot | undefined {
  const jsonc = createRequire(import.meta.url)("jsonc-parser") as JsoncParser;
  const location = jsonc.getLocation(text, offset);
  const path = capabilityPath(location.path);
  if (!path) return undefined;
  const node = location.previousNode;
  const inString =
    node?.type === "string" && offset > node.offset && offset <= node.offset + node.length;
  const closed = inString && node.length > 1 && text[node.offset + node.length - 1] === '"';
  const replace = inString
    ? { offset: node.offset + 1, length: Math.max(0, node.length - 1 - (closed ? 1 : 0)) }
    : { offset, length: 0 };
  if (location.isAtPropertyKey) {
    const parent = path.slice(0, -1);
    const object =
      parent.length === 0
        ? "capability"
        : parent.length === 1 && parent[0] === "remote"
          ? "remote"
          : parent.length === 2 && parent[0] === "permissions"
            ? "entry"
            : undefined;
    if (!object) return undefined;
    const tree = jsonc.parseTree(text);
    const container = tree && jsonc.findNodeAtLocation(tree, location.path.slice(0, -1));
    const present =
      container?.type === "object"
        ? (container.children ?? []).map((member) => String(member.children?.[0]?.value))
        : [];
    return { kind: "field", object, replace, quoted: inString, present };
  }
  return valueSlot(path, replace, inString);
}

function valueSlot(
  path: Array<string | number>,
  replace: { offset: number; length: number },
  quoted: boolean,
): Slot | undefined {
  const [field, index, inner] = path;
  const item = typeof index === "number" && path.length === 2;
  if (
    field === "permissions" &&
    (item || (typeof index === "number" && inner === "identifier" && path.length === 3))
  )
    return { kind: "permission", replace, quoted };
  if (field === "windows" && item) return { kind: "window", replace, quoted };
  if (field === "webviews" && item) return { kind: "webview", replace, quoted };
  if (field === "platforms" && item) return { kind: "platform", replace, quoted };
  return undefined;
}

/**
 * TOML by its lines: the table the cursor is in (`[[permissions]]`, `[remote]`), the key of the
 * assignment or of the array still open before the cursor, and the string being typed.
 */
function tomlSlot(text: string, offset: number): Slot | undefined {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  const line = before.slice(lineStart);
  const headers = [...before.matchAll(/^\s*\[\[?\s*([\w.-]+)\s*\]\]?\s*(#.*)?$/gm)];
  const table = headers.at(-1)?.[1];
  const quote = openQuote(line);
  const replace =
    quote === undefined
      ? { offset, length: 0 }
      : { offset: lineStart + quote + 1, length: line.length - quote - 1 };
  const keyTyped = /^\s*([A-Za-z_-]*)$/.exec(line);
  if (keyTyped) {
    const object =
      table === undefined
        ? "capability"
        : table === "remote"
          ? "remote"
          : table === "permissions"
            ? "entry"
            : undefined;
    if (!object) return undefined;
    const scope = text.slice(headers.at(-1)?.index ?? 0);
    const present = [...scope.matchAll(/^\s*([A-Za-z_-]+)\s*=/gm)].map((m) => m[1]!);
    return {
      kind: "field",
      object,
      replace: {
        offset: lineStart + line.length - keyTyped[1]!.length,
        length: keyTyped[1]!.length,
      },
      quoted: false,
      present,
    };
  }
  const key = assignmentKey(before);
  if (key === undefined) return undefined;
  const quoted = quote !== undefined;
  if (table === "permissions" && key === "identifier")
    return { kind: "permission", replace, quoted };
  if (table !== undefined && table !== "remote") return undefined;
  return valueSlot([key, 0], replace, quoted);
}

/** The column of the quote opening a string the line ends inside, or undefined. */
function openQuote(line: string): number | undefined {
  let open: number | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (open === undefined && ch === "#") return undefined;
    if (ch === '"' || ch === "'") {
      if (open === undefined) open = i;
      else if (line[open] === ch && line[i - 1] !== "\\") open = undefined;
    }
  }
  return open;
}

/** The key whose value the text ends inside: the innermost `key = [` still open, or `key =` on the last line. */
function assignmentKey(before: string): string | undefined {
  let depth = 0;
  for (let i = before.length - 1; i >= 0; i--) {
    const ch = before[i];
    if (ch === "]") depth++;
    else if (ch === "[") {
      if (depth === 0) {
        const key = /([A-Za-z_-]+)\s*=\s*$/.exec(
          before.slice(before.lastIndexOf("\n", i - 1) + 1, i),
        );
        return key?.[1];
      }
      depth--;
    } else if (ch === "\n" && depth === 0) {
      const line = before.slice(i + 1);
      if (/^\s*\[/.test(line)) return undefined;
    }
  }
  return /^\s*([A-Za-z_-]+)\s*=/.exec(before.slice(before.lastIndexOf("\n") + 1))?.[1];
}

const FIELD_DOCS: Record<string, string> = {
  identifier: "The capability's unique name.",
  description: "What the capability is for.",
  remote: "Remote pages that get this capability: `{{example}}` (URLPattern syntax).",
  local: "Whether the app's own pages get it (default true).",
  windows: "Window labels (globs) the capability applies to.",
  webviews: "Webview labels (globs) the capability applies to.",
  permissions: "Permission identifiers or `{ identifier, allow, deny }` entries.",
  platforms: "The platforms it applies to (linux, macOS, windows, android, iOS); absent: all.",
  urls: "URLPattern strings of the remote pages.",
  allow: "Scope values allowed to the permission's commands.",
  deny: "Scope values denied to the permission's commands.",
};

/** A field's documentation, its example in the file's own syntax. */
function fieldDoc(field: string, syntax: Syntax): string {
  return (FIELD_DOCS[field] ?? "").replace(
    "{{example}}",
    inlineValue({ urls: ["https://*.example.com"] }, syntax),
  );
}

export function completionItems(
  slot: Slot,
  document: TextDocument,
  project: Project | undefined,
): CompletionItem[] {
  const range: Range = {
    start: document.positionAt(slot.replace.offset),
    end: document.positionAt(slot.replace.offset + slot.replace.length),
  };
  const syntax = syntaxOf(document.uri);
  // Typed outside quotes, the item brings its own: a TOML key is written bare when it can be.
  const written = (label: string) =>
    slot.quoted
      ? label
      : slot.kind === "field"
        ? fieldKey(label, syntax)
        : quoteString(label, syntax);
  const item = (
    label: string,
    kind: CompletionItemKind,
    extra: Partial<CompletionItem> = {},
  ): CompletionItem => ({
    label,
    kind,
    textEdit: { range, newText: written(label) },
    filterText: written(label),
    ...extra,
  });
  switch (slot.kind) {
    case "field": {
      const fields =
        slot.object === "capability"
          ? CAPABILITY_FIELDS
          : slot.object === "remote"
            ? REMOTE_FIELDS
            : PERMISSION_ENTRY_FIELDS;
      return fields
        .filter((field) => !slot.present.includes(field))
        .map((field) =>
          item(field, CompletionItemKind.Field, {
            documentation: markdown(fieldDoc(field, syntax)),
          }),
        );
    }
    case "platform":
      return TARGETS.map((platform) => item(platform, CompletionItemKind.EnumMember));
    case "window":
    case "webview":
      return project
        ? appLabels(project).map((label) =>
            item(label, CompletionItemKind.Value, { detail: `${slot.kind} label` }),
          )
        : [];
    case "permission":
      return project
        ? permissionItems(project).map(({ identifier, detail, documentation }) =>
            item(identifier, CompletionItemKind.Value, { detail, documentation }),
          )
        : [];
  }
}

interface PermissionItem {
  identifier: string;
  detail: string;
  documentation: MarkupContent;
}

const permissionItemCache = new WeakMap<Project, PermissionItem[]>();

/** Every identifier of the plugins the app has, with its description and what it allows; once per analysis. */
function permissionItems(project: Project): PermissionItem[] {
  const cached = permissionItemCache.get(project);
  if (cached) return cached;
  const catalog = project.catalog;
  const items: PermissionItem[] = [];
  for (const identifier of catalog.allIdentifiers()) {
    const parts = Catalog.keyOf(identifier);
    if (!parts || !appHasPlugin(project, parts.key)) continue;
    const found = catalog.lookupTopLevel(parts.key, parts.base);
    if (!found) continue;
    const description =
      found.kind === "permission"
        ? (found.permission.description ?? "")
        : (found.set?.description ?? "");
    const { allows, denies } = expandPermission(catalog, "linux", identifier);
    const locked = parts.key === APP_KEY ? undefined : catalog.lockedVersionOf(parts.key);
    const what =
      found.kind === "permission" ? "permission" : found.kind === "set" ? "set" : "default set";
    const lines = [
      description,
      allows.length ? `**Allows:** ${commandList(allows)}` : "",
      denies.length ? `**Denies:** ${commandList(denies)}` : "",
      found.kind !== "permission" && found.set
        ? `**Expands to:** ${found.set.permissions.map((p) => `\`${p}\``).join(", ")}`
        : "",
    ].filter(Boolean);
    items.push({
      identifier,
      detail: `${what}${locked ? ` · ${locked.crate} ${locked.version}` : ""} · ${grantCounts(allows, denies)}`,
      documentation: markdown(lines.join("\n\n")),
    });
  }
  permissionItemCache.set(project, items);
  return items;
}

export function commandList(commands: readonly string[], max = 12): string {
  const shown = commands.slice(0, max).map((command) => `\`${command}\``);
  return commands.length > max
    ? `${shown.join(", ")} and ${commands.length - max} more`
    : shown.join(", ");
}

export function markdown(value: string): MarkupContent {
  return { kind: MarkupKind.Markdown, value };
}
