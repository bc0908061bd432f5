/**
 * The `$VARIABLES` of file-system scopes (`$APPDATA/**`, `$HOME/.config/app`), as the host's path
 * resolver (`PathResolver::parse`, the `dirs` crate underneath) places them on each desktop
 * platform, so a path from a refusal can be read back as the scope entry that names it. Mobile
 * sandboxes are left out: their folders depend on the device, and a literal path is the answer there.
 */

export type DesktopPlatform = "linux" | "macOS" | "windows";

/** Folders relative to the user's home, per platform; `{id}` is the app's identifier (tauri.conf.json). */
const HOME_RELATIVE: Record<DesktopPlatform, Record<string, string>> = {
  linux: {
    $APPDATA: ".local/share/{id}",
    $APPLOCALDATA: ".local/share/{id}",
    $APPCONFIG: ".config/{id}",
    $APPCACHE: ".cache/{id}",
    $APPLOG: ".local/share/{id}/logs",
    $DATA: ".local/share",
    $LOCALDATA: ".local/share",
    $CONFIG: ".config",
    $CACHE: ".cache",
    $DESKTOP: "Desktop",
    $DOCUMENT: "Documents",
    $DOWNLOAD: "Downloads",
    $PICTURE: "Pictures",
    $VIDEO: "Videos",
    $AUDIO: "Music",
    $PUBLIC: "Public",
    $TEMPLATE: "Templates",
    $HOME: "",
  },
  macOS: {
    $APPDATA: "Library/Application Support/{id}",
    $APPLOCALDATA: "Library/Application Support/{id}",
    $APPCONFIG: "Library/Application Support/{id}",
    $APPCACHE: "Library/Caches/{id}",
    $APPLOG: "Library/Logs/{id}",
    $DATA: "Library/Application Support",
    $LOCALDATA: "Library/Application Support",
    $CONFIG: "Library/Application Support",
    $CACHE: "Library/Caches",
    $DESKTOP: "Desktop",
    $DOCUMENT: "Documents",
    $DOWNLOAD: "Downloads",
    $PICTURE: "Pictures",
    $VIDEO: "Movies",
    $AUDIO: "Music",
    $PUBLIC: "Public",
    $HOME: "",
  },
  windows: {
    $APPDATA: "AppData/Roaming/{id}",
    $APPLOCALDATA: "AppData/Local/{id}",
    $APPCONFIG: "AppData/Roaming/{id}",
    $APPCACHE: "AppData/Local/{id}",
    $APPLOG: "AppData/Local/{id}/logs",
    $DATA: "AppData/Roaming",
    $LOCALDATA: "AppData/Local",
    $CONFIG: "AppData/Roaming",
    $CACHE: "AppData/Local",
    $TEMP: "AppData/Local/Temp",
    $DESKTOP: "Desktop",
    $DOCUMENT: "Documents",
    $DOWNLOAD: "Downloads",
    $PICTURE: "Pictures",
    $VIDEO: "Videos",
    $AUDIO: "Music",
    $PUBLIC: "Public",
    $HOME: "",
  },
};

/** Where a path from a refusal lives: its platform and the user's home, read from its shape. */
export interface PathHome {
  platform: DesktopPlatform;
  /** With `/` separators, no trailing one: `/home/alice`, `C:/Users/alice`. */
  home: string;
}

/** `/home/alice/…` (or `/root/…`) is Linux, `/Users/alice/…` macOS, `C:\Users\alice\…` Windows. */
export function homeOfPath(path: string): PathHome | undefined {
  const slashed = path.replace(/\\/g, "/");
  let match = /^([A-Za-z]:\/Users\/[^/]+)(?:\/|$)/i.exec(slashed);
  if (match) return { platform: "windows", home: match[1]! };
  match = /^(\/Users\/[^/]+)(?:\/|$)/.exec(slashed);
  if (match) return { platform: "macOS", home: match[1]! };
  match = /^(\/home\/[^/]+|\/root)(?:\/|$)/.exec(slashed);
  if (match) return { platform: "linux", home: match[1]! };
  return undefined;
}

export function isWindowsPath(path: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\");
}

/**
 * A scope path with its leading variable replaced by the folder it names on that platform and home;
 * undefined when the variable is one this platform or caplint cannot place (the entry is then shown
 * as checked but not judged).
 */
export function expandScopePath(
  pattern: string,
  where: PathHome,
  identifier: string | undefined,
): string | undefined {
  const slashed = pattern.replace(/\\/g, "/");
  const match = /^(\$[A-Z]+|~)(?=\/|$)/.exec(slashed);
  if (!match) return slashed;
  const variable = match[1] === "~" ? "$HOME" : match[1]!;
  const relative = HOME_RELATIVE[where.platform][variable];
  if (relative === undefined)
    return variable === "$TEMP" && where.platform !== "windows"
      ? `/tmp${slashed.slice(match[0].length)}`
      : undefined;
  if (relative.includes("{id}") && identifier === undefined) return undefined;
  const folder = relative
    ? `${where.home}/${relative.replace("{id}", identifier ?? "")}`
    : where.home;
  return folder + slashed.slice(match[0].length);
}

/**
 * The path written the way a scope entry names it: the most specific variable whose folder holds it
 * (`$APPDATA/notes/today.md` rather than `$HOME/.local/share/com.example/notes/today.md`), else the
 * literal path. The result is still a literal: glob characters in the rest are not escaped here.
 */
export function pathWithVariable(path: string, identifier: string | undefined): string {
  const where = homeOfPath(path);
  const slashed = path.replace(/\\/g, "/");
  if (!where) return slashed.startsWith("/tmp/") ? `$TEMP${slashed.slice(4)}` : path;
  let best: { variable: string; length: number } | undefined;
  for (const variable of Object.keys(HOME_RELATIVE[where.platform])) {
    const folder = expandScopePath(variable, where, identifier);
    if (folder === undefined) continue;
    const inside =
      where.platform === "windows"
        ? slashed.toLowerCase().startsWith(`${folder.toLowerCase()}/`)
        : slashed.startsWith(`${folder}/`);
    if ((inside || slashed === folder) && (!best || folder.length > best.length))
      best = { variable, length: folder.length };
  }
  return best ? best.variable + slashed.slice(best.length) : path;
}
