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

/** The exit code of a lint run, from its summary: the one rule every lint command of every domain follows. */
export function exitCodeFor(summary: { errors: number; warnings: number }, options: ExitCodeOptions = {}): number {
  return summary.errors > 0 || tooManyWarnings(summary, options) ? EXIT_FINDINGS : EXIT_OK;
}

export function tooManyWarnings(summary: { warnings: number }, options: ExitCodeOptions): boolean {
  return options.maxWarnings !== undefined && summary.warnings > options.maxWarnings;
}
