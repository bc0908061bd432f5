import type { ResolvedCommand, ResolvedModel, ScopeLists } from "../engine/index.js";
import type { Capability } from "../model/types.js";
import { isPlainObject } from "../model/capability.js";
import { describeTargets, entryOf } from "./engine-helpers.js";
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
  impact: string;
}

const FS_WRITE = ["write_file", "write_text_file", "remove", "rename", "copy_file", "truncate", "ftruncate", "create", "mkdir", "open"].map((c) => `plugin:fs|${c}`);
const FS_READ = ["read_file", "read_text_file", "read_text_file_lines", "read_text_file_lines_next", "read_dir", "open"].map((c) => `plugin:fs|${c}`);

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
    impact: "send any local file to any server, or write downloads to any path (the upload plugin checks no file-system scope)",
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
  defaultSeverity: "warning",
  fixable: false,
  async check(context) {
    for (const model of await context.resolutions()) {
      for (const resolved of model.capabilities) {
        for (const danger of DANGERS) {
          const grants = danger.commands.flatMap((command) => (model.allowed.get(command) ?? []).filter((g) => g.capabilityIndex === resolved.index));
          const effective = grants.filter((g) => !(model.denied.get(g.command)?.length));
          if (effective.length === 0) continue;
          const first = effective[0]!;
          let reach = "";
          if (danger.broad) {
            const matches = new Set<string>();
            for (const grant of effective) for (const value of scopeValues(model, grant)) {
              const hit = danger.broad(value);
              if (hit !== undefined) matches.add(hit);
            }
            if (matches.size === 0) continue;
            reach = [...matches].map((m) => `"${m}"`).join(", ");
          }
          const source = entryOf(model, first);
          if (!source) continue;
          const exposure = exposureOf(resolved.capability);
          const commands = [...new Set(effective.map((g) => g.command))].join(", ");
          const impact = danger.broad && danger.id !== "shell" ? `${danger.impact} ${reach}` : danger.impact + (reach ? ` (${reach})` : "");
          context.report({
            at: source.capability.source,
            path: first.provenance.path,
            escalate: exposure !== undefined,
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

/** The command scope of the grant plus the plugin's global scope: what the command is handed. */
function scopeValues(model: ResolvedModel, grant: ResolvedCommand): unknown[] {
  const global: ScopeLists | undefined = model.globalScope.get(grant.key);
  return [...(grant.scope?.allow ?? []), ...(global?.allow ?? [])];
}

/** Why a grant is worse here: remote pages or every window; undefined for trusted local windows. */
function exposureOf(capability: Capability): string | undefined {
  const urls = capability.remote?.urls ?? [];
  if (urls.length) return `remote pages (${urls.map((u) => `"${u}"`).join(", ")})`;
  if (capability.windows.includes("*") || capability.webviews.includes("*")) return `every window ("*")`;
  return undefined;
}
