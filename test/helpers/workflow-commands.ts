/**
 * The lines of `text` the GitHub Actions runner reads as workflow commands (actions/runner,
 * `ActionCommand.TryParseV2`: `::` after C#'s `TrimStart()`; `TryParse`: `##[` anywhere in the line).
 */
export function workflowCommandLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .filter(
      (line) =>
        /^[\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*::/.test(line) ||
        line.includes("##["),
    );
}
