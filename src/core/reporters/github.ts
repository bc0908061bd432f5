import path from "node:path";
import type { Diagnostic, Severity } from "../diagnostics.js";
import { nameText } from "../source/read.js";
import { workflowCommand } from "../terminal-text.js";
import { repositoryPath, sourceRoot, STDIN_NAME } from "./repository-paths.js";
import type { Reporter } from "./types.js";

/**
 * GitHub Actions workflow commands: `::error file=…,line=…::message`, one per finding, which the
 * runner turns into annotations on the pull request. `file=` is relative to the repository root
 * (the nearest folder above the working directory with `.git`, as in SARIF), since the runner
 * resolves a relative path from the checkout's root whatever folder caplint ran in. Each starts with
 * {@link workflowCommand}: every other line start `::` is neutralised on the way out.
 */
const github: Reporter = ({ diagnostics }, context) => {
  const root = sourceRoot(context.cwd);
  return diagnostics.map((d) => `${annotation(d, root)}\n`).join("");
};

/** The annotation level of each severity: a suggestion is a notice. */
const COMMANDS: Readonly<Record<Severity, string>> = {
  error: "error",
  warning: "warning",
  suggestion: "notice",
};

function annotation(d: Diagnostic, root: string): string {
  const message = d.hint ? `${d.message}\nhelp: ${d.hint}` : d.message;
  const { start, end } = d.range;
  // A finding with no file in the repository gets an annotation without `file=` (GitHub shows it on the
  // run's summary), and says in its message where it is: a live server; standard input without a name;
  // a file outside the repository (by its absolute path: the runner would pass it on as given, and no
  // file of the pull request matches it); the repository's root folder itself.
  const place =
    d.liveServer === undefined && d.file !== STDIN_NAME
      ? repositoryPath(d.absolutePath, root)
      : undefined;
  if (place?.fromRoot === undefined || place.fromRoot.length === 0) {
    const outside = place !== undefined && place.fromRoot === undefined;
    const where =
      d.liveServer ??
      `${outside ? nameText(place.bytes).text : d.file}:${start.line}:${start.column}`;
    return `${workflowCommand()}${COMMANDS[d.severity]} title=${escapeProperty(d.ruleId)}::${escapeData(`${where}: ${message}`)}`;
  }
  const properties: Array<[string, string | number]> = [
    // GitHub takes the path as text: a name that is not UTF-8 is shown as the other formats show it (`a\xff.json`).
    ["file", nameText(place.fromRoot).text.split(path.sep).join("/")],
    ["line", start.line],
    ["endLine", end.line],
  ];
  // GitHub rejects columns on an annotation that spans lines, and an end before the start.
  if (start.line === end.line) {
    properties.push(["col", start.column], ["endColumn", Math.max(end.column, start.column)]);
  }
  properties.push(["title", d.ruleId]);
  return `${workflowCommand()}${COMMANDS[d.severity]} ${properties.map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(",")}::${escapeData(message)}`;
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
