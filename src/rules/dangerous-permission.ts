import type { ResolvedCommand, ResolvedModel } from "../engine/index.js";
import { sortMapKeys } from "../engine/normalize.js";
import type { Capability } from "../model/types.js";
import { isPlainObject } from "../model/capability.js";
import { describeTargets, entryOf, entryPath } from "./engine-helpers.js";
import { defineRule } from "./types.js";

/**
 * High-risk grants of the official plugins (user-needs-and-peers §4.1). A danger names the commands,
 * when it applies (most need a broad scope: a write permission whose scope is one app folder is
 * ordinary), and what a script running in a granted webview could then do.
 */
interface Danger {
  id: string;
  commands: readonly string[];
  /** The scope values (command scope and the plugin's global scope) that make it dangerous; undefined: always. */
  broad?: (value: unknown) => string | undefined;
  /** What a script could do; a function when it depends on which of the commands are granted. */
  impact: string | ((commands: ReadonlySet<string>) => string);
}

// Not `open` (read sets include it; writing through a handle takes `write`) nor `mkdir` (an empty folder).
const FS_WRITE = ["write_file", "write_text_file", "write", "remove", "rename", "copy_file", "truncate", "ftruncate", "create"].map((c) => `plugin:fs|${c}`);
// Not `open`: it only yields a file handle, and reading from one takes the `read` command as well.
const FS_READ = ["read_file", "read_text_file", "read_text_file_lines", "read_text_file_lines_next", "read_dir"].map((c) => `plugin:fs|${c}`);

const BROAD_PATHS = /^(\*\*?|\/|\/\*\*?(\/\*)?|\*\*\/\*|[a-z]:[\\/]?\*?\*?|\$HOME(\/\*\*?(\/\*)?)?|~(\/\*\*?)?|\$HOME\/\.\*\*?)$/i;
const pathOf = (value: unknown) => (typeof value === "string" ? value : isPlainObject(value) && typeof value.path === "string" ? value.path : undefined);
const urlOf = (value: unknown) => (typeof value === "string" ? value : isPlainObject(value) && typeof value.url === "string" ? value.url : undefined);
const broadPath = (value: unknown) => {
  const path = pathOf(value);
  return path !== undefined && BROAD_PATHS.test(path.trim()) ? path : undefined;
};
const broadUrl = (value: unknown) => {
  const url = urlOf(value);
  return url !== undefined && /^(\*|[a-z*]+):\/\/\*\*?(:\*)?(\/\*?)?$/i.test(url.trim()) ? url : undefined;
};

const DANGERS: readonly Danger[] = [
  {
    id: "shell",
    commands: ["plugin:shell|execute", "plugin:shell|spawn"],
    broad: (value) => (isPlainObject(value) && (typeof value.cmd === "string" || typeof value.name === "string") ? String(value.name ?? value.cmd) : undefined),
    impact: "run the allowed programs on the user's machine",
  },
  {
    id: "upload",
    commands: ["plugin:upload|upload", "plugin:upload|download"],
    impact: (commands) =>
      [commands.has("plugin:upload|upload") && "send any local file to any server", commands.has("plugin:upload|download") && "write downloads to any path"]
        .filter(Boolean)
        .join(", or ") + " (the upload plugin checks no file-system scope)",
  },
  { id: "fs-write", commands: FS_WRITE, broad: broadPath, impact: "create, overwrite or delete files across" },
  { id: "fs-read", commands: FS_READ, broad: broadPath, impact: "read secrets such as SSH keys and browser profiles across" },
  { id: "http", commands: ["plugin:http|fetch"], broad: broadUrl, impact: "send requests with the app's privileges to any server, including the local network, without CORS, to" },
  { id: "opener-path", commands: ["plugin:opener|open_path"], broad: broadPath, impact: "open, and so run, any file with its default program across" },
];

export default defineRule({
  id: "dangerous-permission",
  description: "Report high-risk grants (shell, upload, broad file-system write or read, any-host HTTP); an error when remote pages or every window get them.",
  category: "security",
  security: { severity: 8.8, cwe: [250, 269] },
  defaultSeverity: "warning",
  fixable: false,
  async check(context) {
    for (const model of await context.resolutions()) {
      // Grants of dangerous commands by capability, gathered once: only capabilities that have some are visited.
      const byCapability = new Map<number, Map<string, ResolvedCommand[]>>();
      for (const danger of DANGERS) {
        for (const grant of danger.commands.flatMap((command) => model.allowed.get(command) ?? [])) {
          let dangers = byCapability.get(grant.capabilityIndex);
          if (!dangers) byCapability.set(grant.capabilityIndex, (dangers = new Map()));
          dangers.set(danger.id, [...(dangers.get(danger.id) ?? []), grant]);
        }
      }
      for (const [capabilityIndex, dangers] of byCapability) {
        const resolved = model.capabilities[capabilityIndex]!;
        for (const danger of DANGERS) {
          const grants = dangers.get(danger.id) ?? [];
          const effective = grants.filter((g) => !(model.denied.get(g.command)?.length));
          if (effective.length === 0) continue;
          let first = effective[0]!;
          let reach = "";
          if (danger.broad) {
            const matches = new Set<string>();
            // Capabilities other than this one whose global scope entries make the grant broad.
            const lenders = new Set<string>();
            let hitGrant: ResolvedCommand | undefined;
            for (const grant of effective) for (const { value, from } of scopeValues(model, grant)) {
              const hit = danger.broad(value);
              if (hit === undefined) continue;
              matches.add(hit);
              hitGrant ??= grant;
              if (from !== undefined && from !== resolved.capability.identifier) lenders.add(from);
            }
            if (!hitGrant) continue;
            first = hitGrant;
            reach = [...matches].map((m) => `"${m}"`).join(", ");
            if (lenders.size) {
              reach += ` (through the plugin's global scope, which capability ${[...lenders].map((c) => `"${c}"`).join(", ")} sets for every window)`;
            }
          }
          const source = entryOf(model, first);
          if (!source) continue;
          const exposure = exposureOf(resolved.capability);
          const granted = new Set(effective.map((g) => g.command));
          // A few names, so the message stays one readable line (fs:write-all alone grants ten commands).
          const listed = [...granted];
          const commands = listed.length > 3 ? `${listed.slice(0, 2).join(", ")} and ${listed.length - 2} more` : listed.join(", ");
          const said = typeof danger.impact === "string" ? danger.impact : danger.impact(granted);
          const impact = danger.broad && danger.id !== "shell" ? `${said} ${reach}` : said + (reach ? ` (${reach})` : "");
          context.report({
            at: source.capability.source,
            path: entryPath(source.capability, first.provenance.path),
            escalate: exposure !== undefined,
            data: { commands: listed },
            message: `dangerous grant "${first.provenance.chain[0]}" (${commands}): a script in ${exposure ?? describeTargets(resolved.capability)} could ${impact}`,
            hint: exposure
              ? "move this permission to a capability for trusted local windows only, with a narrow scope"
              : "narrow the scope to the folders, hosts or programs the app needs, and grant it only to the windows that use it",
          });
        }
      }
    }
  },
});

/**
 * The command scope of the grant plus the plugin's global scope: what the command is handed. Global
 * scope values say which capability set them: the host shares them with every window.
 */
function scopeValues(model: ResolvedModel, grant: ResolvedCommand): Array<{ value: unknown; from?: string }> {
  const global = model.globalScope.get(grant.key);
  // A value the command scope or the global scope also denies grants nothing (deny wins).
  const denied = new Set([...(grant.scope?.deny ?? []), ...(global?.deny ?? [])].map(canonical));
  const values: Array<{ value: unknown; from?: string }> = (grant.scope?.allow ?? []).map((value) => ({ value }));
  for (const contribution of global?.contributions ?? []) {
    for (const value of contribution.scope.allow) values.push({ value, from: contribution.provenance.capability });
  }
  return values.filter(({ value }) => !denied.has(canonical(value)));
}

/** JSON with sorted keys, so equal scope values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(sortMapKeys(value as Parameters<typeof sortMapKeys>[0]));
}

/** Why a grant is worse here: remote pages or every window; undefined for trusted local windows. */
function exposureOf(capability: Capability): string | undefined {
  const urls = capability.remote?.urls ?? [];
  if (urls.length) return `remote pages (${urls.map((u) => `"${u}"`).join(", ")})`;
  if (capability.windows.includes("*") || capability.webviews.includes("*")) return `every window ("*")`;
  return undefined;
}
