/**
 * File-system scope globs, matched the way the host's `fs::Scope::is_allowed` does: the Rust `glob`
 * crate (0.3.x) `Pattern::matches_path_with` with `require_literal_separator: true` (a `*` stays in
 * one folder, GHSA-6mv3-wm7j-h4w5) and `require_literal_leading_dot` as the scope says (the host's
 * default is true on Unix and false on Windows: dot-files are not reached by wildcards on Unix).
 * The fs plugin, the opener plugin's path scope and the asset protocol all match through it.
 *
 * Matching is component by component (a `**` component takes any number of whole components) and,
 * inside a component, a table over pattern × text: both are short, and the cost is bounded by
 * MAX_PATH_GLOB_LENGTH, so no input makes it slow.
 */

export interface PathGlobOptions {
  /** Wildcards do not match a `.` that starts a file or folder name. */
  literalLeadingDot: boolean;
  /** A `*` stays in one folder (the host's setting); false asks how the pattern would read without it. */
  literalSeparator?: boolean;
}

/** Longer patterns or paths are not matched (the answer is "no match"): real ones are far shorter. */
export const MAX_PATH_GLOB_LENGTH = 4_096;

type ComponentToken =
  | { kind: "char"; char: string }
  | { kind: "any-char" }
  | { kind: "class"; negated: boolean; ranges: Array<[string, string]> }
  | { kind: "star" };

/** Splits a path into its components on `/` (and `\` for a Windows path). */
export function pathComponents(path: string, windows: boolean): string[] {
  return (windows ? path.replace(/\\/g, "/") : path).split("/");
}

/** Whether `path` is matched by the scope glob `pattern` (both already free of `$VARIABLES`). */
export function pathGlobMatches(
  pattern: string,
  path: string,
  options: PathGlobOptions & { windows?: boolean },
): boolean {
  if (pattern.length > MAX_PATH_GLOB_LENGTH || path.length > MAX_PATH_GLOB_LENGTH) return false;
  const windows = options.windows ?? false;
  if (options.literalSeparator === false)
    return componentMatches(
      tokenize(pattern.replace(/\*\*/g, "*")),
      path.replace(/\\/g, "/"),
      options.literalLeadingDot,
      true,
    );
  const patternParts = pathComponents(pattern, windows);
  const pathParts = pathComponents(path, windows);
  if (patternParts.some((part) => part.includes("**") && part !== "**")) return false; // the crate refuses such a pattern
  const compiled = patternParts.map((part) => (part === "**" ? "recursive" : tokenize(part)));
  // reachable[j]: the pattern parts so far can end exactly before path part j.
  let reachable = new Array<boolean>(pathParts.length + 1).fill(false);
  reachable[0] = true;
  for (const part of compiled) {
    const next = new Array<boolean>(pathParts.length + 1).fill(false);
    if (part === "recursive") {
      let open = false;
      for (let j = 0; j <= pathParts.length; j++) {
        if (reachable[j]) open = true;
        if (open) next[j] = true;
        // A `**` does not walk into a dot-folder when leading dots must be literal.
        if (
          open &&
          j < pathParts.length &&
          options.literalLeadingDot &&
          pathParts[j]!.startsWith(".")
        )
          open = false;
      }
    } else {
      for (let j = 0; j < pathParts.length; j++)
        if (reachable[j] && componentMatches(part, pathParts[j]!, options.literalLeadingDot, false))
          next[j + 1] = true;
    }
    reachable = next;
  }
  // The crate's trailing `**` also takes the folder itself with a trailing separator (`a/**` matches `a/`).
  return (
    reachable[pathParts.length]! ||
    (pathParts[pathParts.length - 1] === "" &&
      reachable[pathParts.length - 1]! &&
      compiled[compiled.length - 1] === "recursive")
  );
}

function tokenize(part: string): ComponentToken[] {
  const chars = Array.from(part);
  const tokens: ComponentToken[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === "*") {
      if (tokens[tokens.length - 1]?.kind !== "star") tokens.push({ kind: "star" });
    } else if (c === "?") tokens.push({ kind: "any-char" });
    else if (c === "[") {
      const negated = chars[i + 1] === "!";
      const start = i + (negated ? 2 : 1);
      // A `]` right after `[` or `[!` belongs to the class.
      let close = -1;
      for (let k = start + 1; k < chars.length; k++)
        if (chars[k] === "]") {
          close = k;
          break;
        }
      if (close < 0) {
        tokens.push({ kind: "char", char: c });
        continue;
      }
      const body = chars.slice(start, close);
      const ranges: Array<[string, string]> = [];
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === "-" && k + 2 < body.length) {
          ranges.push([body[k]!, body[k + 2]!]);
          k += 2;
        } else ranges.push([body[k]!, body[k]!]);
      }
      tokens.push({ kind: "class", negated, ranges });
      i = close;
    } else tokens.push({ kind: "char", char: c });
  }
  return tokens;
}

/** One component (or, without literal separators, the whole path) against its tokens. */
function componentMatches(
  tokens: ComponentToken[],
  text: string,
  literalLeadingDot: boolean,
  slashIsText: boolean,
): boolean {
  const chars = Array.from(text);
  const leadingDotAt = (index: number) =>
    literalLeadingDot &&
    chars[index] === "." &&
    (index === 0 || (slashIsText && chars[index - 1] === "/"));
  // matched[j]: the tokens so far match chars[0..j).
  let matched = new Array<boolean>(chars.length + 1).fill(false);
  matched[0] = true;
  for (const token of tokens) {
    const next = new Array<boolean>(chars.length + 1).fill(false);
    if (token.kind === "star") {
      let open = false;
      for (let j = 0; j <= chars.length; j++) {
        if (matched[j]) open = true;
        if (open) next[j] = true;
        if (open && j < chars.length && leadingDotAt(j)) open = false;
      }
    } else {
      for (let j = 0; j < chars.length; j++) {
        if (!matched[j]) continue;
        const c = chars[j]!;
        const accepts =
          token.kind === "char"
            ? token.char === c
            : !leadingDotAt(j) &&
              (token.kind === "any-char" ||
                token.ranges.some(([from, to]) => c >= from && c <= to) !== token.negated);
        if (accepts) next[j + 1] = true;
      }
    }
    matched = next;
  }
  return matched[chars.length]!;
}

/** A literal path as a glob that matches only it: the crate's metacharacters in brackets. */
export function escapePathGlob(path: string): string {
  return path.replace(/[*?[\]]/g, (c) => `[${c}]`);
}
