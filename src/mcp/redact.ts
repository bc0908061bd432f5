/**
 * Secrets a live run is given (a server's arguments, --env values, headers, URL credentials and
 * query parameters) never reach an output: CI logs and uploaded SARIF are public in many projects,
 * and real servers take their keys as arguments (`--api-key`, `--figma-api-key`). Everything a run
 * shows about how a server was started goes through one Redactor, which also remembers the secret
 * values it saw so that free text (the server's stderr, error messages, the report) is scrubbed too.
 */
export const REDACTED = "***";

/** Option and variable names whose value is a secret: api-key, access_token, client-secret, password, auth, credentials, PAT. */
const SECRET_NAME =
  /key|token|secret|passw|pwd|auth|credential|bearer|cookie|session|signature|(?:^|[^a-z])pat(?:$|[^a-z])/i;
/** Known token shapes: OpenAI/Anthropic (sk-), GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), Slack (xox?-), AWS access keys, JWTs. */
const TOKEN_SHAPES =
  /\b(?:sk-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|xox[abeoprs]-[A-Za-z0-9-]{8,}|(?:AKIA|ASIA)[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)/g;
/** `scheme://user:password@` and `scheme://token@` in free text. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@"']+@/gi;
/** `?token=…` and `&api_key=…` in free text (a URL or a query string). */
const SECRET_QUERY =
  /([?&;][^=&#\s"']*(?:key|token|secret|passw|pwd|auth|credential|signature|sig|code)[^=&#\s"']*=)[^&#\s"']+/gi;
/** `NAME=value` as one argument (a shell-style assignment, `env KEY=value node server.js`). */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_.-]*)=(.*)$/s;
/** Free-text values shorter than this are not searched for (an --env value "1" or "true" is not scrubbed from every number or JSON boolean). */
const MIN_SCRUBBED = 6;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export class Redactor {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  /** Remembers a value to scrub from any text shown later. */
  remember(value: string): void {
    const trimmed = value.trim();
    if (trimmed.length < MIN_SCRUBBED || this.secrets.has(trimmed)) return;
    this.secrets.add(trimmed);
    // JSON output escapes quotes and backslashes: the escaped form is scrubbed too.
    const escaped = JSON.stringify(trimmed).slice(1, -1);
    if (escaped !== trimmed) this.secrets.add(escaped);
    this.pattern = undefined;
  }

  /** A server's command line, every secret value as `***`. */
  args(args: readonly string[]): string[] {
    const shown: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      const option = /^(--?[A-Za-z0-9][\w.-]*)=(.*)$/s.exec(arg);
      if (option) {
        shown.push(
          isSecretName(option[1]!)
            ? `${option[1]}=${this.hide(option[2]!)}`
            : `${option[1]}=${this.inText(option[2]!)}`,
        );
        continue;
      }
      const assignment = arg.startsWith("-") ? null : ASSIGNMENT.exec(arg);
      if (assignment) {
        shown.push(`${assignment[1]}=${this.hide(assignment[2]!)}`);
        continue;
      }
      shown.push(this.inText(arg));
      const next = args[i + 1];
      if (next === undefined || !/^--?[A-Za-z]/.test(arg) || next.startsWith("-")) continue;
      if (/^(?:-H|--header|--headers)$/i.test(arg)) {
        const colon = next.indexOf(":");
        shown.push(
          colon > 0
            ? `${next.slice(0, colon)}: ${this.hide(next.slice(colon + 1))}`
            : this.hide(next),
        );
        i++;
      } else if (isSecretName(arg)) {
        shown.push(this.hide(next));
        i++;
      }
    }
    return shown;
  }

  /** Environment variables: names kept, every value hidden (a value under a secret-looking name is also scrubbed from text). */
  env(env: Readonly<Record<string, string>>): Record<string, string> {
    const shown: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) {
      // Under another name, a value is scrubbed from text when it looks like a secret rather than a word or a path.
      if (
        isSecretName(name) ||
        (value.length >= 8 && !/^[a-z]+$/i.test(value) && !/[/\\]/.test(value))
      )
        this.remember(value);
      shown[name] = REDACTED;
    }
    return shown;
  }

  /** HTTP headers: names kept, every value hidden and scrubbed from text (Authorization, X-Api-Key, cookies). */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const shown: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      this.remember(value);
      // "Bearer abc": the token alone may be echoed back by a server.
      const token = /^\s*\S+\s+(\S{4,})\s*$/.exec(value)?.[1];
      if (token) this.remember(token);
      shown[name] = REDACTED;
    }
    return shown;
  }

  /** A URL with its user name, password and secret-looking query parameters hidden. */
  url(url: URL): string {
    const shown = new URL(url.href);
    if (shown.username || shown.password) {
      if (shown.password) this.remember(decodeURIComponent(shown.password));
      // A token given as the user name alone (https://TOKEN@host) is as secret as a password.
      if (!shown.password || isSecretName(shown.username))
        this.remember(decodeURIComponent(shown.username));
      // Written as "***@": the user name too, as free text is (URL_CREDENTIALS).
      shown.username = REDACTED;
      shown.password = "";
    }
    for (const [name, value] of url.searchParams) {
      if (!isSecretName(name) && !/^(?:sig|code)$/i.test(name)) continue;
      this.remember(value);
      shown.searchParams.set(name, REDACTED);
    }
    // URLSearchParams encodes "*"; the placeholder reads as itself.
    return shown.href.replaceAll("%2A%2A%2A", REDACTED);
  }

  /**
   * Free text (an error message, a stderr line, a report): remembered secrets, URL credentials,
   * secret query parameters and known token shapes become `***`.
   */
  text(text: string): string {
    return this.known(text)
      .replace(URL_CREDENTIALS, `$1${REDACTED}@`)
      .replace(SECRET_QUERY, `$1${REDACTED}`)
      .replace(TOKEN_SHAPES, REDACTED);
  }

  /**
   * Only the remembered secrets: for what a server answered (a listing, a probe result), where a
   * string shaped like a token may be an example in a description, not one of ours.
   */
  known(text: string): string {
    if (this.secrets.size === 0) return text;
    this.pattern ??= new RegExp(
      [...this.secrets]
        .sort((a, b) => b.length - a.length)
        .map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("|"),
      "g",
    );
    return text.replace(this.pattern, REDACTED);
  }

  private hide(value: string): string {
    this.remember(value);
    return value === "" ? "" : REDACTED;
  }

  /** An argument that is not a secret by its position: a URL loses its credentials, a token shape is hidden and remembered. */
  private inText(value: string): string {
    for (const match of value.matchAll(TOKEN_SHAPES)) this.remember(match[0]);
    if (/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value) && URL.canParse(value))
      return this.url(new URL(value));
    return this.text(value);
  }
}
