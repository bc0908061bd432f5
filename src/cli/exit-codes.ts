/** Exit codes are a public contract (README "Exit codes"). */
export const EXIT_OK = 0;
/** Error-level findings, a `--max-warnings` overrun, or "not allowed" / "new access" answers. */
export const EXIT_FINDINGS = 1;
/** Usage error, unreadable input, bad configuration or an internal error. */
export const EXIT_FATAL = 2;
