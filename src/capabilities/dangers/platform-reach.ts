/**
 * What a dangerous scope really reaches on the platforms a capability runs on, so a finding says
 * where it holds instead of the worst case everywhere:
 * - fs paths (and the opener's path scope, the asset protocol): the host's glob skips names that
 *   start with a dot unless the pattern writes the dot (`requireLiteralLeadingDot`, true on every
 *   platform but Windows by default, `plugins.fs.requireLiteralLeadingDot` in tauri.conf.json for fs);
 *   a `*` stays in one folder, only `**` goes down;
 * - shell programs: `cmd` and `powershell` exist only on Windows, and the shell plugin runs no
 *   program on Android or iOS (its mobile side only opens URLs); arguments pinned by fixed strings and
 *   narrow validators are not an arbitrary command.
 */
import { isPlainObject } from "../../core/json.js";
import { wordList } from "../../core/did-you-mean.js";

/** The platforms a capability is active on among those checked. */
export function capabilityPlatforms(
  listed: readonly { value: string }[] | undefined,
  checked: readonly string[],
): string[] {
  if (!listed) return [...checked];
  const names = new Set(listed.map((item) => item.value.toLowerCase()));
  return checked.filter((platform) => names.has(platform.toLowerCase()));
}

/** Whether wildcards skip dot-files there: the option when set, else the host's default (all but Windows). */
export function literalLeadingDot(platform: string, configured: boolean | undefined): boolean {
  return configured ?? platform !== "windows";
}

const DOT_COMPONENT = /(^|[\\/])\.[^\\/.]/;

/** Where the scope's wildcards (or a literal dot in it) reach names that start with a dot. */
export function dotFilePlatforms(
  paths: readonly string[],
  platforms: readonly string[],
  configured: boolean | undefined,
): string[] {
  if (paths.some((path) => DOT_COMPONENT.test(path))) return [...platforms];
  return platforms.filter((platform) => !literalLeadingDot(platform, configured));
}

/** Every value stays in one folder: a last component `*` (or none) and no `**`. */
export function oneFolderOnly(paths: readonly string[]): boolean {
  return paths.every((path) => !path.includes("**"));
}

/**
 * The words after a broad fs scope: where dot-files (SSH keys, shell profiles) are reached and where
 * not, and the depth when no value goes down into sub-folders. Empty when there is nothing to qualify.
 */
export function fsReachNote(
  paths: readonly string[],
  platforms: readonly string[],
  configured: boolean | undefined,
  dotFiles: string,
): string {
  const notes: string[] = [];
  if (oneFolderOnly(paths)) notes.push("the files directly in it, not its sub-folders");
  const reached = dotFilePlatforms(paths, platforms, configured);
  const skipped = platforms.filter((platform) => !reached.includes(platform));
  if (skipped.length && reached.length)
    notes.push(
      `${dotFiles} on ${wordList(reached)} only: on ${wordList(skipped)} the scope's wildcards skip names that start with a dot`,
    );
  else if (skipped.length)
    notes.push(
      `not ${dotFiles}: on ${wordList(skipped)} the scope's wildcards skip names that start with a dot`,
    );
  return notes.length ? ` (${notes.join("; ")})` : "";
}

/** Programs that exist on one platform family only. */
const WINDOWS_ONLY = /^(cmd|powershell)(\.exe)?$/i;
const DESKTOP = new Set(["linux", "macOS", "windows"]);

function programOf(value: unknown): string {
  if (!isPlainObject(value)) return "";
  return (
    String(value.cmd ?? value.name ?? "")
      .split(/[\\/]/)
      .pop() ?? ""
  );
}

/** The platforms among `platforms` where the shell plugin can run the entry's program. */
export function windowsOnlyProgram(value: unknown): boolean {
  return WINDOWS_ONLY.test(programOf(value));
}

export function programPlatforms(value: unknown, platforms: readonly string[]): string[] {
  const desktop = platforms.filter((platform) => DESKTOP.has(platform));
  return WINDOWS_ONLY.test(programOf(value))
    ? desktop.filter((platform) => platform === "windows")
    : desktop;
}

/** Arguments a caller could use to turn a program into something else: options, paths, shell syntax. */
const ARGUMENT_PROBES = [
  "--output=/tmp/x",
  "../../etc/passwd",
  "/etc/passwd",
  "a b",
  "x;id",
  "$(id)",
  "C:\\Windows\\x",
];

/**
 * The entry's arguments are pinned: none (`args` absent or false), or each a fixed string or a
 * validator that accepts none of the probes (`^[A-Za-z0-9_-]+$` for a printer name).
 */
export function argumentsPinned(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const args = value.args;
  if (args === undefined || args === false) return true;
  if (!Array.isArray(args)) return false;
  return args.every((arg) => {
    if (typeof arg === "string") return true;
    if (!isPlainObject(arg) || typeof arg.validator !== "string") return false;
    try {
      const pattern = new RegExp(`^(?:${arg.validator})$`, "u");
      return !ARGUMENT_PROBES.some((probe) => pattern.test(probe));
    } catch {
      return false;
    }
  });
}
