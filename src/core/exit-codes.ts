/** Exit codes are a public contract (README "Exit codes"). */
export const EXIT_OK = 0;
/** Error-level findings, a `--max-warnings` overrun, or "not allowed" / "new access" answers. */
export const EXIT_FINDINGS = 1;
/** Usage error, unreadable input, bad configuration or an internal error. */
export const EXIT_FATAL = 2;

export interface ExitCodeOptions {
  /** More warnings than this is a failure too (`--max-warnings`). */
  maxWarnings?: number;
}

/** What a command found: a lint run's counts, or a query's answer (`failed`: not allowed, new access). */
export type Outcome = { errors: number; warnings: number } | { failed: boolean };

/**
 * The exit code of a command that ran to the end, the one rule every command of every domain follows
 * (usage and fatal errors exit 2 from main()). Pure: data in, code out.
 */
export function exitCodeFor(outcome: Outcome, options: ExitCodeOptions = {}): number {
  if ("failed" in outcome) return outcome.failed ? EXIT_FINDINGS : EXIT_OK;
  return outcome.errors > 0 || tooManyWarnings(outcome, options) ? EXIT_FINDINGS : EXIT_OK;
}

export function tooManyWarnings(summary: { warnings: number }, options: ExitCodeOptions): boolean {
  return options.maxWarnings !== undefined && summary.warnings > options.maxWarnings;
}
