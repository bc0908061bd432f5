/**
 * The editor's side of least privilege: in a frontend file (TS/JS/Vue/Svelte/HTML of the app), the
 * quick fix that grants a refused call its narrowest permission in the right capability file (a
 * workspace edit in that file's own syntax, JSON or TOML, its formatting kept), and the hover on a
 * call that says which windows may make it and which are refused, on which platforms. Both read the
 * same judgement as the `frontend-command-not-granted` rule (queries/frontend-access.ts).
 */
import { pathToFileURL } from "node:url";
import type { CodeAction, Range, TextEdit } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { resolveAll } from "../capabilities/engine/index.js";
import type { Project } from "../capabilities/load/project.js";
import { TARGETS, type Capability } from "../capabilities/model/types.js";
import {
  frontendAccess,
  hasFrontend,
  type CallJudgement,
  type FrontendAccess,
} from "../capabilities/queries/frontend-access.js";
import {
  callText,
  permissionEntryText,
  refusalReason,
} from "../capabilities/rules/support/frontend.js";
import type { SourceDocument } from "../core/source/document.js";
import { documentOf } from "./places.js";
import { CodeActionKind } from "./protocol.js";

const judged = new WeakMap<Project, FrontendAccess | undefined>();

/** The frontend's calls judged on every platform, once per analysis (a project is never changed after its load). */
export function judgedCalls(project: Project): FrontendAccess | undefined {
  if (judged.has(project)) return judged.get(project);
  const access = hasFrontend(project)
    ? frontendAccess(
        project,
        resolveAll({
          capabilities: project.activeCapabilities,
          catalog: project.catalog,
          platforms: TARGETS,
        }),
      )
    : undefined;
  judged.set(project, access);
  return access;
}

/** The judgements of the calls in `file` whose text overlaps offsets `from`..`to`. */
export function judgementsAt(
  project: Project,
  file: string,
  from: number,
  to: number,
): CallJudgement[] {
  return (judgedCalls(project)?.judgements ?? []).filter(
    ({ call }) => call.file === file && call.start <= to && from <= call.end,
  );
}

/** "Add … to capability …" for each refused call in the range that has a permission and a capability to add it to. */
export function grantActions(
  project: Project,
  file: string,
  buffer: TextDocument,
  range: Range,
): CodeAction[] {
  const actions: CodeAction[] = [];
  const seen = new Set<string>();
  for (const judgement of judgementsAt(
    project,
    file,
    buffer.offsetAt(range.start),
    buffer.offsetAt(range.end),
  )) {
    const { permission, capability } = judgement;
    if (
      !permission ||
      !capability ||
      judgement.refusals.length === 0 ||
      judgement.refusals.some((refusal) => refusal.verdict === "denied")
    )
      continue;
    // Granted there already (refused for another reason, such as the capability's platforms): adding it again fixes nothing.
    if (capability.permissions.some((granted) => granted.identifier === permission)) continue;
    const document = documentOf(project, capability.source.absolutePath);
    if (!document?.ok) continue;
    const entry = permissionEntryText(judgement, permission, document.format === "toml");
    const key = `${capability.source.absolutePath}\u0000${JSON.stringify(capability.source.path)}\u0000${entry}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const edit = addEntryEdit(document, capability, entry);
    if (!edit) continue;
    const windows = [...new Set(judgement.refusals.map((refusal) => refusal.window))].filter(
      (window) => window !== "*",
    );
    actions.push({
      title: `Grant ${permission} to capability "${capability.identifier}" (${capability.source.file})${windows.length ? ` for ${windows.map((w) => `"${w}"`).join(", ")}` : ""}`,
      kind: CodeActionKind.QuickFix,
      edit: { changes: { [pathToFileURL(capability.source.absolutePath).href]: [edit] } },
      ...(actions.length === 0 ? { isPreferred: true } : {}),
    });
  }
  return actions;
}

/**
 * The edit that appends an entry to a capability's `permissions` array, as the array is written: on a
 * line of its own with the last entry's indentation when entries stand on lines, after a comma and a
 * space when the array is on one line, and inside `[]` when it is empty; a trailing comma is kept.
 * The array's brackets are found in the text (strings and TOML comments skipped), so JSON and TOML
 * inline arrays are alike. TOML arrays of tables (`[[permissions]]`) get a new table at the end.
 */
export function addEntryEdit(
  document: SourceDocument,
  capability: Capability,
  entry: string,
): TextEdit | undefined {
  const base = capability.source.path;
  const located = document.locate([...base, "permissions"]);
  if (!located.exact) return undefined;
  const text = document.text;
  const insert = (offset: number, newText: string): TextEdit => {
    const position = document.lines.position(offset);
    const at = { line: position.line - 1, character: position.column - 1 };
    return { range: { start: at, end: at }, newText };
  };
  // JSON locates the array itself; TOML the key, whose `= [` follows (or a `[[permissions]]` header).
  let open = located.offset;
  if (document.format === "toml") {
    if (text.startsWith("[[", open - 2) || text[open - 1] === "[" || text[open - 2] === "[") {
      if (base.length > 0 || entry.startsWith("{")) return undefined;
      return insert(
        text.length,
        `${text.endsWith("\n") ? "" : "\n"}\n[[permissions]]\nidentifier = ${entry}\n`,
      );
    }
    const assigned = /^\s*=\s*/.exec(
      text.slice(open + located.length, open + located.length + 200),
    );
    if (!assigned) return undefined;
    open += located.length + assigned[0].length;
  }
  if (text[open] !== "[") return undefined;
  const close = closingBracket(text, open, document.format === "toml");
  if (close === undefined) return undefined;
  let last = close - 1;
  while (last > open && /\s/.test(text[last]!)) last--;
  if (last === open) return insert(open + 1, entry);
  const onLines = /^\s*\n/.test(text.slice(open + 1, close));
  const lineStart = text.lastIndexOf("\n", last) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, last))![0];
  const separator = onLines ? `\n${indent}` : " ";
  return text[last] === ","
    ? insert(last + 1, `${separator}${entry},`)
    : insert(last + 1, `,${separator}${entry}`);
}

/** The `]` that closes the array opened at `open`, past strings (and `#` comments in TOML). */
function closingBracket(text: string, open: number, toml: boolean): number | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' || (toml && char === "'")) {
      const triple = toml && text.startsWith(char.repeat(3), i);
      const quote = triple ? char.repeat(3) : char;
      let j = i + quote.length;
      while (j < text.length && !text.startsWith(quote, j))
        j += char === '"' && text[j] === "\\" ? 2 : 1;
      i = j + quote.length - 1;
    } else if (toml && char === "#") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (char === "[" || char === "{") depth++;
    else if (char === "]" || char === "}") {
      depth--;
      if (depth === 0) return char === "]" ? i : undefined;
    }
  }
  return undefined;
}

/** The hover of a call: the command it invokes, the windows that may make it and those refused, per platform. */
export function callHover(
  project: Project,
  file: string,
  offset: number,
): { text: string; start: number; end: number } | undefined {
  const judgements = judgementsAt(project, file, offset, offset);
  if (judgements.length === 0) return undefined;
  const access = judgedCalls(project)!;
  const call = judgements[0]!.call;
  const out = [`**\`${callText(call)}\`**`];
  for (const judgement of judgements.filter((j) => j.call === call)) {
    out.push(
      `Invokes \`${judgement.command}\`${judgement.permission ? ` (narrowest permission: \`${judgement.permission}\`)` : ""}`,
    );
    const platforms = access.platforms;
    const refusedOn = new Map<string, Map<string, string[]>>();
    for (const refusal of judgement.refusals) {
      const reasons = refusedOn.get(refusal.window) ?? new Map<string, string[]>();
      reasons.set(refusal.verdict, [...(reasons.get(refusal.verdict) ?? []), ...refusal.platforms]);
      refusedOn.set(refusal.window, reasons);
    }
    const windows = judgement.windows.length ? judgement.windows : ["*"];
    const allowed: string[] = [];
    const refused: string[] = [];
    for (const window of windows) {
      const name = window === "*" ? "every window" : `window \`${window}\``;
      const reasons = refusedOn.get(window);
      const refusedPlatforms = new Set([...(reasons?.values() ?? [])].flat());
      const allowedPlatforms = platforms.filter((platform) => !refusedPlatforms.has(platform));
      if (allowedPlatforms.length)
        allowed.push(`${name}${onPlatforms(allowedPlatforms, platforms)}`);
      for (const [verdict, on] of reasons ?? [])
        refused.push(`${name}${onPlatforms(on, platforms)}: ${refusalReason(verdict)}`);
    }
    out.push(`**May call:** ${allowed.length ? allowed.join("; ") : "no window"}`);
    if (refused.length) out.push(`**Refused:** ${refused.join("; ")}`);
    if (
      !judgement.byPage &&
      windows.some((window) => window !== "*" && !judgement.ownPageWindows.includes(window))
    )
      out.push(
        "_Judged for every window that loads local pages: which window loads this file is not known._",
      );
  }
  return { text: out.join("\n\n"), start: call.start, end: call.end };
}

/** ` on linux, windows`, or ` (every platform)` when all of them. */
function onPlatforms(on: readonly string[], all: readonly string[]): string {
  const unique = TARGETS.filter((platform) => on.includes(platform));
  return all.every((platform) => on.includes(platform))
    ? " (every platform)"
    : ` on ${unique.join(", ")}`;
}
