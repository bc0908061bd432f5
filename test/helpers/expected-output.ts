/** A finding as `check --format json` prints it (the public JSON contract). */
export interface JsonFinding {
  file: string;
  ruleId: string;
  messageId?: string;
  severity: string;
  message: string;
  line: number;
  column: number;
  hint?: string;
  fixable: boolean;
}

/**
 * The expected-output (`.out`) form of findings: the compact line, then the hint as an indented
 * `help:` line (stylish prints the same `help:`), so a fixture pins what to do as well as what is wrong.
 */
export function expectedOutput(findings: readonly JsonFinding[]): string {
  return findings
    .map(
      (d) =>
        `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.message} [${d.ruleId}]\n${d.hint === undefined ? "" : `  help: ${d.hint}\n`}`,
    )
    .join("");
}
