import type { JsonPath } from "../../core/location.js";
import { childPath, entriesNotMade } from "./capability.js";
import type { Capability } from "./types.js";

/**
 * Per-value bounds, checked when a capability is built and before any expensive work (pattern
 * compilation, resolution against every command, did-you-mean searches). A repository from a stranger
 * can hold a 9.8 MB file of 800,000 permissions or 20,000 remote URLs; every stage after this one is
 * linear in the bounded lists. A value over a bound is an error finding at its place (the gate fails,
 * nothing is silently trusted), and the list is checked up to the bound. Real apps stay far below:
 * the largest capability in the real-world corpus lists a few hundred permissions.
 */
export const LIMITS = {
  /** Entries of `remote.urls` in one capability: each becomes a context every command is resolved for. */
  remoteUrls: 1_000,
  /** Entries of `windows` or of `webviews` in one capability. */
  labels: 1_000,
  /** Entries of `permissions` in one capability. */
  permissions: 5_000,
  /** Permissions and URLs of all capabilities of one file together: each costs a resolution and maybe a finding. */
  entriesPerFile: 30_000,
  /** Characters of one `remote.urls` pattern: each is compiled to a regular expression and tested against origins. */
  remoteUrlLength: 4_096,
  /**
   * Characters of all `remote.urls` patterns of one file: compiling costs about 20 µs a character
   * (the URLPattern parser, then caplint's own automaton), so three files of 1,000 patterns at the
   * length bound took 405 s. Real files list a few hundred characters of URLs.
   */
  remoteUrlCharactersPerFile: 65_536,
  /** Entries of one `app.security.capabilities` list: each reference is kept with where it is written. */
  configCapabilities: 10_000,
  /** Windows declared in tauri.conf.json (`app.windows`): each is matched against every label pattern. */
  configWindows: 1_000,
  /** Characters of a window label declared in tauri.conf.json (label patterns have their own bound in the glob matcher). */
  labelLength: 1_024,
} as const;

export const labelTooLong = (length: number) =>
  `the window label is ${countText(length)} characters long, over the limit of ${countText(LIMITS.labelLength)} caplint matches; it is not checked`;

/**
 * A count as en-US writes it (`30,000`), without `toLocaleString`: the first call of that loads ICU's
 * number formatting, 30-40 ms of a run (bench row 6 paid it for its one limit message). Integers are
 * grouped here; anything else still goes to ICU.
 */
export function countText(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString("en-US");
  return String(count).replace(/\B(?=(\d{3})+$)/g, ",");
}

export interface LimitProblem {
  path: JsonPath;
  message: string;
}

/** Tracks one file's entries; call {@link limitCapability} for each capability of the file in order. */
export class FileBudget {
  used = 0;
  exhausted = false;
  urlCharacters = 0;

  /** How many more entries the file may have checked: a capability made now needs no more permission entries. */
  get entriesLeft(): number {
    return Math.max(0, LIMITS.entriesPerFile - this.used);
  }
}

/** Truncates a capability's lists to the bounds and says where it did. */
export function limitCapability(capability: Capability, budget: FileBudget): LimitProblem[] {
  const problems: LimitProblem[] = [];
  const base = capability.source.path;
  // The list's path is made only for a problem: most capabilities are within every bound.
  const cap = <T>(
    list: T[],
    limit: number,
    steps: string[],
    what: string,
    budgeted = true,
    // Entries of the list as written that the model did not make (past the file's bound).
    notMade = 0,
  ): T[] => {
    let length = list.length + notMade;
    if (length > limit) {
      problems.push({
        path: childPath(base, ...steps),
        message: `${what} lists ${countText(length)} entries, over the limit of ${countText(limit)} caplint checks in one capability; the rest are not checked`,
      });
      if (list.length > limit) list = list.slice(0, limit);
      length = limit;
    }
    if (!budgeted) return list;
    const room = Math.max(0, LIMITS.entriesPerFile - budget.used);
    if (length > room) {
      if (!budget.exhausted) {
        problems.push({
          path: childPath(base, ...steps),
          message: `the file lists more than ${countText(LIMITS.entriesPerFile)} permissions and remote URLs in all; caplint checks that many, and not the rest`,
        });
        budget.exhausted = true;
      }
      // Cut only when made entries are past the bound: a capability of entries not made has none
      // (and keeps the model's shared empty list, not a copy of it).
      if (list.length > room) list = list.slice(0, room);
    }
    budget.used += list.length;
    return list;
  };
  if (capability.remote) {
    capability.remote.urls = cap(
      capability.remote.urls,
      LIMITS.remoteUrls,
      ["remote", "urls"],
      "remote.urls",
    );
    // The list is cut at an over-long pattern, as at a list bound.
    const urls = capability.remote.urls;
    const over = urls.findIndex((url) => url.value.length > LIMITS.remoteUrlLength);
    if (over >= 0) {
      problems.push({
        path: urls[over]!.path,
        message: `the remote URL pattern is ${countText(urls[over]!.value.length)} characters long, over the limit of ${countText(LIMITS.remoteUrlLength)} caplint compiles; ${over < urls.length - 1 ? "it and the URLs after it are" : "it is"} not checked`,
      });
      capability.remote.urls = urls.slice(0, over);
    }
    const kept = capability.remote.urls;
    const past = kept.findIndex(
      (url) => (budget.urlCharacters += url.value.length) > LIMITS.remoteUrlCharactersPerFile,
    );
    if (past >= 0) {
      // Said once, at the first URL over the bound; it covers the file's later capabilities too.
      if (budget.urlCharacters - kept[past]!.value.length <= LIMITS.remoteUrlCharactersPerFile)
        problems.push({
          path: kept[past]!.path,
          message: `the file's remote URL patterns reach ${countText(LIMITS.remoteUrlCharactersPerFile)} characters here, the limit caplint compiles in one file; this URL and the file's later ones are not checked`,
        });
      capability.remote.urls = kept.slice(0, past);
    }
  }
  capability.windows = cap(capability.windows, LIMITS.labels, ["windows"], "windows", false);
  capability.webviews = cap(capability.webviews, LIMITS.labels, ["webviews"], "webviews", false);
  capability.permissions = cap(
    capability.permissions,
    LIMITS.permissions,
    ["permissions"],
    "permissions",
    true,
    entriesNotMade(capability),
  );
  return problems;
}
