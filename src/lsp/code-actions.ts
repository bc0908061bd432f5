/**
 * Code actions: every fix caplint has as a quick fix, the did-you-mean replacements of a finding's
 * hint, "limit to desktop platforms" for a desktop-only plugin in a capability that also applies to
 * mobile, and "explain" for the runtime's refusal text pasted in a comment.
 */
import type {
  CodeAction,
  Diagnostic as LspDiagnostic,
  Range,
  TextEdit,
} from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { Catalog } from "../capabilities/catalog/catalog.js";
import { explainRefusal } from "../capabilities/commands/explain.js";
import type { Project } from "../capabilities/load/project.js";
import { TARGETS, valuesOf, type Capability } from "../capabilities/model/types.js";
import { parseRefusal } from "../capabilities/queries/explain.js";
import { resolvePlatformGroups } from "../capabilities/queries/platforms.js";
import type { Diagnostic } from "../core/diagnostics.js";
import type { SourceDocument } from "../core/source/document.js";
import { NO_PAINT } from "../core/terminal-text.js";
import { toLspDiagnostic, toLspRange } from "./convert.js";
import { capabilitiesIn } from "./places.js";
import { CodeActionKind } from "./protocol.js";

/**
 * Official plugins that build for desktop only (the plugins-workspace platform table; `tauri add`
 * puts them in a desktop capability): a capability granting one on android or iOS fails that build.
 */
const DESKTOP_ONLY = new Set([
  "autostart",
  "cli",
  "global-shortcut",
  "positioner",
  "single-instance",
  "updater",
  "window-state",
]);
const DESKTOP: readonly string[] = ["linux", "macOS", "windows"];

export interface ActionInput {
  uri: string;
  /** The buffer, whose text the analysis read (the caller made sure it is fresh). */
  buffer: TextDocument;
  document: SourceDocument | undefined;
  project: Project;
  /** The analysis's findings in this file. */
  findings: readonly Diagnostic[];
  range: Range;
}

export function codeActions(input: ActionInput): CodeAction[] {
  const { uri, buffer, document, range } = input;
  const actions: CodeAction[] = [];
  const at = (offset: number, length: number): Range => ({
    start: buffer.positionAt(offset),
    end: buffer.positionAt(offset + length),
  });
  const edit = (
    title: string,
    edits: TextEdit[],
    diagnostic?: LspDiagnostic,
    preferred = false,
  ): CodeAction => ({
    title,
    kind: CodeActionKind.QuickFix,
    edit: { changes: { [uri]: edits } },
    ...(diagnostic ? { diagnostics: [diagnostic] } : {}),
    ...(preferred ? { isPreferred: true } : {}),
  });
  for (const finding of input.findings) {
    if (!overlaps(toLspRange(finding.range), range)) continue;
    const diagnostic = toLspDiagnostic(finding);
    if (finding.fix) {
      const edits = finding.fix.edits.map((e) => ({
        range: at(e.offset, e.length),
        newText: e.content,
      }));
      actions.push(edit(`Fix: ${finding.fix.description}`, edits, diagnostic, true));
    }
    for (const suggestion of suggestionsOf(finding.hint)) {
      // The finding's own text is what the suggestion replaces: a quoted value or key keeps its quotes in the file's syntax.
      const written = buffer.getText().slice(finding.offset, finding.offset + finding.length);
      const quoted = written.startsWith('"') || written.startsWith("'");
      const newText = quoted
        ? (document?.quoteString(suggestion) ?? JSON.stringify(suggestion))
        : suggestion;
      actions.push(
        edit(
          `Replace with "${suggestion}"`,
          [{ range: at(finding.offset, finding.length), newText }],
          diagnostic,
          !finding.fix,
        ),
      );
    }
  }
  if (document?.ok) actions.push(...desktopActions(input, at, edit));
  const explain = explainAction(input);
  if (explain) actions.push(explain);
  return actions;
}

/** `did you mean "a", "b" or "c"?` and `write "x"` in a hint. */
function suggestionsOf(hint: string | undefined): string[] {
  if (!hint) return [];
  const asked = /did you mean (.+?)\?/.exec(hint)?.[1] ?? /^write ("[^"]+")$/.exec(hint)?.[1];
  return asked ? [...asked.matchAll(/"([^"]+)"/g)].map((m) => m[1]!) : [];
}

function desktopActions(
  input: ActionInput,
  at: (offset: number, length: number) => Range,
  edit: (title: string, edits: TextEdit[]) => CodeAction,
): CodeAction[] {
  const { project, document, range } = input;
  const actions: CodeAction[] = [];
  for (const capability of capabilitiesIn(project, document!.absolutePath)) {
    const platforms =
      capability.platforms === undefined ? [...TARGETS] : valuesOf(capability.platforms);
    if (!platforms.some((platform) => platform === "android" || platform === "iOS")) continue;
    const desktopOnly = capability.permissions.find((entry) => {
      const located = document!.locate(entry.path);
      if (
        !overlaps(
          {
            start: input.buffer.positionAt(located.offset),
            end: input.buffer.positionAt(located.offset + located.length),
          },
          range,
        )
      )
        return false;
      const key = Catalog.keyOf(entry.identifier)?.key;
      return key !== undefined && isDesktopOnly(project, key);
    });
    if (!desktopOnly) continue;
    const kept = platforms.filter((platform) => DESKTOP.includes(platform));
    const value = `[${(kept.length ? kept : DESKTOP).map((p) => JSON.stringify(p)).join(", ")}]`;
    const change = platformsEdit(document!, capability, value);
    if (change)
      actions.push(
        edit(
          `Limit capability "${capability.identifier}" to desktop platforms (${Catalog.keyOf(desktopOnly.identifier)!.key} is desktop-only)`,
          [{ range: at(change.offset, change.length), newText: change.content }],
        ),
      );
  }
  return actions;
}

/** A plugin the app has on desktop only: an official desktop-only plugin, or one its Cargo.toml declares for desktop targets only. */
function isDesktopOnly(project: Project, key: string): boolean {
  const plugin = project.build?.plugins.get(key);
  if (plugin)
    return (
      plugin.presence.android === "no" &&
      plugin.presence.iOS === "no" &&
      plugin.presence.linux !== "no"
    );
  return DESKTOP_ONLY.has(key);
}

/** The edit that sets a capability's `platforms`: its value replaced, or the field added as the object's first. */
function platformsEdit(
  document: SourceDocument,
  capability: Capability,
  value: string,
): { offset: number; length: number; content: string } | undefined {
  const base = capability.source.path;
  if (capability.platforms !== undefined || document.locate([...base, "platforms"]).exact) {
    const located = document.locate([...base, "platforms"]);
    return { offset: located.offset, length: located.length, content: value };
  }
  if (document.format === "toml") {
    // Top-level keys come before any table: the file's first line is always one of them.
    return base.length === 0
      ? { offset: 0, length: 0, content: `platforms = ${value}\n` }
      : undefined;
  }
  const object = document.locate(base);
  if (!object.exact || document.text[object.offset] !== "{") return undefined;
  const after = document.text.slice(object.offset + 1);
  const indent = /^\s*?\n([ \t]*)\S/.exec(after)?.[1];
  return indent === undefined
    ? { offset: object.offset + 1, length: 0, content: ` "platforms": ${value},` }
    : { offset: object.offset + 1, length: 0, content: `\n${indent}"platforms": ${value},` };
}

/**
 * The host's "not allowed" error pasted in a comment line (`#` in TOML, `//` in a buffer being
 * written): `caplint explain`'s answer, inserted as comment lines below it.
 */
function explainAction(input: ActionInput): CodeAction | undefined {
  const { buffer, project, range, uri } = input;
  const line = buffer
    .getText({
      start: { line: range.start.line, character: 0 },
      end: { line: range.start.line + 1, character: 0 },
    })
    .replace(/\r?\n$/, "");
  const comment = /^(\s*)(#|\/\/)\s?(.*)$/.exec(line);
  if (!comment) return undefined;
  const refusal = parseRefusal(comment[3]!);
  if (!refusal) return undefined;
  let answer: string;
  try {
    answer = explainRefusal(
      project,
      refusal,
      { groups: resolvePlatformGroups(project, TARGETS), asked: [...TARGETS] },
      NO_PAINT,
    );
  } catch (error) {
    answer = error instanceof Error ? error.message : String(error);
  }
  const prefix = `${comment[1]}${comment[2]} `;
  const text = answer
    .trimEnd()
    .split("\n")
    .map((l) => `${prefix}${l}`.trimEnd())
    .join("\n");
  return {
    title: "Explain this refusal (caplint explain)",
    kind: CodeActionKind.QuickFix,
    edit: {
      changes: {
        [uri]: [
          {
            range: {
              start: { line: range.start.line + 1, character: 0 },
              end: { line: range.start.line + 1, character: 0 },
            },
            newText: `${text}\n`,
          },
        ],
      },
    },
  };
}

function overlaps(a: Range, b: Range): boolean {
  const before = (x: Range["start"], y: Range["start"]) =>
    x.line < y.line || (x.line === y.line && x.character <= y.character);
  return before(a.start, b.end) && before(b.start, a.end);
}
