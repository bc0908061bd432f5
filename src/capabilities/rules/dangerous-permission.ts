import {
  anyCommandLine,
  broadValues,
  dangerousGrantsOnEveryPlatform,
  SHELLS,
  type DangerousGrant,
} from "../dangers/index.js";
import {
  argumentsPinned,
  capabilityPlatforms,
  dotFilePlatforms,
  fsReachNote,
  programPlatforms,
  windowsOnlyProgram,
} from "../dangers/platform-reach.js";
import { wordList } from "../../core/did-you-mean.js";
import { isPlainObject } from "../../core/json.js";
import type { Project } from "../load/project.js";
import type { ResolvedModel } from "../engine/index.js";
import { TARGETS, type Capability } from "../model/types.js";
import { describeTargets } from "./support/engine-helpers.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "dangerous-permission",
  description:
    "Report high-risk grants (shell, upload, broad file-system write or read, HTTP to any hostname, opening any URL); an error when remote pages get them.",
  category: "security",
  security: { severity: 8.8, cwe: [250, 269] },
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    dangerousGrant:
      'dangerous grant "{{permission}}" ({{commandList}}){{scopedBy}}: a script in {{where}} could {{impact}}',
  },
  async check(context) {
    // One pass over every platform: each capability's danger is judged once per set of its platforms
    // on which it resolves alike (dangerousGrantsOnEveryPlatform), not once per platform model.
    const resolution = await context.resolution();
    const fsLeadingDot = fsOption(context.project);
    // A capability's findings come one after another: its platforms are worked out once for them.
    let platformsOf: Capability | undefined;
    let platforms: readonly string[] = [];
    for (const { found, model } of await dangerousGrantsOnEveryPlatform(resolution)) {
      const { danger, grant, scopeEntry, reach } = found;
      // A few names, so the message stays one readable line (fs:write-all alone grants ten commands).
      const listed =
        found.commands.length > 3
          ? `${found.commands.slice(0, 2).join(", ")} and ${found.commands.length - 2} more`
          : found.commands.join(", ");
      // Where it holds among the capability's platforms, whichever this run checks: the finding is the same one.
      if (found.capability !== platformsOf) {
        platformsOf = found.capability;
        platforms = capabilityPlatforms(found.capability.platforms, TARGETS);
      }
      const where = platformWording(model, found, platforms, fsLeadingDot);
      const said =
        where.said ??
        (typeof danger.impact === "string"
          ? danger.impact
          : danger.impact(new Set(found.commands)));
      const impact =
        (danger.broad && danger.id !== "shell"
          ? `${said} ${reach}`
          : said + (reach ? ` (${reach})` : "")) + where.note;
      // Name (and point at) the entry that brings the broad scope: `fs:scope`, not the `fs:default` beside it.
      const scopedBy = scopeEntry ? ` with the scope of "${scopeEntry.chain[0]}"` : "";
      context.report({
        at: found.capability.source,
        path: found.at,
        // Remote pages are the exposure; `windows: ["*"]` reaches only the app's own local pages, so it stays a warning.
        escalate: found.exposure?.kind === "remote",
        // Which danger, so a program can tie the finding back to its grant (several can point at one `fs:scope` entry).
        messageId: "dangerousGrant",
        data: {
          danger: danger.id,
          permission: grant.provenance.chain[0]!,
          commandList: listed,
          scopedBy,
          where: exposureText(found),
          impact,
        },
        hint: hintFor(found.exposure),
      });
    }
  },
});

function hintFor(exposure: DangerousGrant["exposure"]): string {
  if (exposure?.kind === "remote")
    return "move this permission to a capability for trusted local windows only, with a narrow scope";
  if (exposure?.kind === "every-window")
    return 'grant it to the windows that use it by name instead of "*", with a narrow scope';
  return "narrow the scope to the folders, hosts or programs the app needs, and grant it only to the windows that use it";
}

function exposureText({ exposure, capability }: DangerousGrant): string {
  if (exposure?.kind === "remote")
    return `remote pages (${exposure.urls.map((url) => `"${url}"`).join(", ")})`;
  if (exposure?.kind === "every-window") return `every window ("*")`;
  return describeTargets(capability);
}

/** `plugins.fs.requireLiteralLeadingDot` in the app config, when set. */
function fsOption(project: Project): boolean | undefined {
  const value = project.config?.document.ok ? project.config.document.value : undefined;
  const plugins = isPlainObject(value) ? value.plugins : undefined;
  const fs = isPlainObject(plugins) ? plugins.fs : undefined;
  return isPlainObject(fs) && typeof fs.requireLiteralLeadingDot === "boolean"
    ? fs.requireLiteralLeadingDot
    : undefined;
}

const MOBILE = ["android", "iOS"];

/**
 * The danger as it holds on the capability's platforms: `said` replaces the worst-case impact, `note`
 * follows the scope.
 */
function platformWording(
  model: ResolvedModel,
  found: DangerousGrant,
  platforms: readonly string[],
  fsLeadingDot: boolean | undefined,
): Wording {
  const id = found.danger.id;
  if (id !== "shell" && id !== "fs-read" && id !== "fs-write" && id !== "opener-path")
    return { note: "" };
  // Findings lent the same values (most: one list per model and danger) share their wording.
  const values = broadValues(model, found);
  const listed = found.capability.platforms !== undefined;
  const key = `${id}\u0000${platforms.join(",")}\u0000${listed}\u0000${fsLeadingDot}`;
  let byKey = wordings.get(values);
  if (!byKey) wordings.set(values, (byKey = new Map<string, Wording>()));
  let wording = byKey.get(key);
  if (!wording) byKey.set(key, (wording = wordingOf(id, values, platforms, listed, fsLeadingDot)));
  return wording;
}

type Wording = { said?: string; note: string };

const wordings = new WeakMap<readonly unknown[], Map<string, Wording>>();

/** What `platformWording` says of a danger's broad values on these platforms. */
function wordingOf(
  id: string,
  values: readonly unknown[],
  platforms: readonly string[],
  listed: boolean,
  fsLeadingDot: boolean | undefined,
): Wording {
  if (id === "shell") {
    // findDangers leaves out a grant none of whose programs runs on these platforms.
    const runnable = values.filter((value) => programPlatforms(value, platforms).length > 0);
    // A capability for every platform is named for the desktop ones: most such apps build no mobile app.
    const named = listed ? platforms : platforms.filter((platform) => !MOBILE.includes(platform));
    const runsOn = named.filter((platform) =>
      runnable.some((value) => programPlatforms(value, [platform]).length > 0),
    );
    const reasons: string[] = [];
    if (named.some((platform) => MOBILE.includes(platform)))
      reasons.push("the shell plugin runs no program on Android or iOS");
    if (
      values.some(windowsOnlyProgram) &&
      named.some((platform) => platform !== "windows" && !MOBILE.includes(platform))
    )
      reasons.push("cmd and powershell exist only on Windows");
    const note =
      runsOn.length < named.length ? `, on ${wordList(runsOn)} only (${reasons.join("; ")})` : "";
    if (runnable.some(anyCommandLine))
      return { said: "run any command line on the user's machine", note };
    const pinned = runnable.every(
      (value) =>
        argumentsPinned(value) &&
        !(
          isPlainObject(value) &&
          SHELLS.test(
            String(value.cmd ?? value.name ?? "")
              .split(/[\\/]/)
              .pop() ?? "",
          )
        ),
    );
    return pinned
      ? {
          said: "run the allowed programs on the user's machine, with the arguments their scope pins",
          note,
        }
      : { note };
  }
  const paths = values.flatMap((value) => {
    const path =
      typeof value === "string"
        ? value
        : isPlainObject(value) && typeof value.path === "string"
          ? value.path
          : undefined;
    return path === undefined ? [] : [path];
  });
  // The opener plugin passes no option: its path scope always has the host's default.
  const option = id === "opener-path" ? undefined : fsLeadingDot;
  if (id === "fs-read") {
    const everywhere = dotFilePlatforms(paths, platforms, option).length === platforms.length;
    return everywhere
      ? { note: fsReachNote(paths, platforms, option, "dot-files") }
      : {
          said: "read the user's files across",
          note: fsReachNote(paths, platforms, option, "dot-files such as SSH keys"),
        };
  }
  return {
    note: fsReachNote(
      paths,
      platforms,
      option,
      id === "fs-write" ? "dot-files such as shell profiles" : "dot-files",
    ),
  };
}
