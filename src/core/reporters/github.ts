import type { Diagnostic, Severity } from "../diagnostics.js";
import type { Reporter } from "./types.js";

/**
 * GitHub Actions workflow commands: `::error file=…,line=…::message`, one per finding, which the
 * runner turns into annotations on the pull request. File names are relative to the working
 * directory, so run caplint from the repository root (GitHub resolves them against it).
 */
const github: Reporter = ({ diagnostics }) => diagnostics.map((d) => `${annotation(d)}\n`).join("");

/** The annotation level of each severity: a suggestion is a notice. */
const COMMANDS: Readonly<Record<Severity, string>> = { error: "error", warning: "warning", suggestion: "notice" };

function annotation(d: Diagnostic): string {
  const message = d.hint ? `${d.message}\nhelp: ${d.hint}` : d.message;
  // A live server has no file: an annotation without one (GitHub shows it on the run), the server in the message.
  if (d.liveServer !== undefined) return `::${COMMANDS[d.severity]} title=${escapeProperty(d.ruleId)}::${escapeData(`${d.liveServer}: ${message}`)}`;
  const { start, end } = d.range;
  const properties: Array<[string, string | number]> = [
    ["file", d.file],
    ["line", start.line],
    ["endLine", end.line],
  ];
  // GitHub rejects columns on an annotation that spans lines, and an end before the start.
  if (start.line === end.line) {
    properties.push(["col", start.column], ["endColumn", Math.max(end.column, start.column)]);
  }
  properties.push(["title", d.ruleId]);
  return `::${COMMANDS[d.severity]} ${properties.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(",")}::${escapeData(message)}`;
}

/** As `escapeData` in @actions/core (packages/core/src/command.ts). */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** As `escapeProperty` in @actions/core: data escaping plus the property separators `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

export default github;
