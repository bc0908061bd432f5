import type { ResolvedCommand, ResolvedModel } from "../engine/index.js";
import { sortMapKeys } from "../engine/normalize.js";
import { work } from "../engine/work.js";
import type { Capability } from "../model/types.js";
import { isPlainObject } from "../../core/json.js";
import { describeTargets, entryOf, entryPath } from "./support/engine-helpers.js";
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
      const globalHits: GlobalHitCache = new Map();
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
            // Hits in the order the host hands them to a command: each grant's own scope, then the
            // plugin's global scope (one shared set per plugin, so this stays linear in the number of grants).
            const matches: Array<Iterable<string>> = [];
            const lenders: Array<ReadonlySet<string>> = [];
            let hitGrant: ResolvedCommand | undefined;
            for (const grant of effective) {
              const { own, global } = broadScope(model, danger, grant, globalHits);
              if (own.length === 0 && global.matches.size === 0) continue;
              hitGrant ??= grant;
              matches.push(own, global.matches);
              lenders.push(global.lenders);
            }
            if (!hitGrant) continue;
            first = hitGrant;
            reach = quotedUnion(matches);
            const lent = quotedUnion(lenders, resolved.capability.identifier);
            if (lent) reach += ` (through the plugin's global scope, which capability ${lent} sets for every window)`;
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

/** The broad values of a plugin's global scope and the capabilities that set them. */
interface GlobalHits {
  matches: ReadonlySet<string>;
  lenders: ReadonlySet<string>;
}

/** Global hits per danger and plugin, computed once per resolution: every grant of the plugin shares them. */
type GlobalHitCache = Map<string, GlobalHits>;

/**
 * The broad values a grant's command is handed: its command scope plus the plugin's global scope.
 * Global scope values say which capability set them: the host shares them with every window. A value
 * that the command scope or the global scope also denies grants nothing (deny wins).
 */
function broadScope(model: ResolvedModel, danger: Danger, grant: ResolvedCommand, cache: GlobalHitCache): { own: string[]; global: GlobalHits } {
  const broad = danger.broad!;
  const scope = model.globalScope.get(grant.key);
  const globalDeny = scope?.deny ?? [];
  const ownDeny = grant.scope?.deny ?? [];
  const denied = globalDeny.length || ownDeny.length ? new Set([...globalDeny, ...ownDeny].map(canonical)) : undefined;
  const allowed = (value: unknown) => !denied?.has(canonical(value));
  const own: string[] = [];
  for (const value of grant.scope?.allow ?? []) {
    work.scopeValues++;
    const hit = broad(value);
    if (hit !== undefined && allowed(value)) own.push(hit);
  }
  // A grant's own deny list filters the global values for that grant only: computed apart, and rare.
  const cacheKey = `${danger.id}\u0000${grant.key}`;
  let global = ownDeny.length ? undefined : cache.get(cacheKey);
  if (!global) {
    const matches = new Set<string>();
    const lenders = new Set<string>();
    for (const contribution of scope?.contributions ?? []) {
      for (const value of contribution.scope.allow) {
        work.scopeValues++;
        const hit = broad(value);
        if (hit === undefined || !allowed(value)) continue;
        matches.add(hit);
        if (contribution.provenance.capability !== undefined) lenders.add(contribution.provenance.capability);
      }
    }
    global = { matches, lenders };
    if (!ownDeny.length) cache.set(cacheKey, global);
  }
  return { own, global };
}

/** JSON with sorted keys, so equal scope values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(sortMapKeys(value as Parameters<typeof sortMapKeys>[0]));
}

/**
 * The distinct names of several collections, in order, quoted: the first few and how many more, so a
 * message stays one line and costs the same however many capabilities share a global scope.
 */
function quotedUnion(collections: ReadonlyArray<Iterable<string>>, except?: string, shown = 5): string {
  const distinct = [...new Set(collections)];
  // Counted exactly without copying the largest collection (the shared global scope): the others are a grant's few values.
  const largest = distinct.reduce<ReadonlySet<string>>((a, b) => (b instanceof Set && b.size > a.size ? b : a), new Set());
  let total = largest.size - (except !== undefined && largest.has(except) ? 1 : 0);
  const extra = new Set<string>();
  for (const collection of distinct) {
    if (collection === largest) continue;
    for (const name of collection) if (name !== except && !largest.has(name) && !extra.has(name)) extra.add(name);
  }
  total += extra.size;
  const names: string[] = [];
  walk: for (const collection of distinct) {
    for (const name of collection) {
      if (names.length === shown) break walk;
      if (name !== except && !names.includes(name)) names.push(name);
    }
  }
  const quoted = names.map((n) => `"${n}"`).join(", ");
  return total > shown ? `${quoted} and ${total - shown} more` : quoted;
}

/** Why a grant is worse here: remote pages or every window; undefined for trusted local windows. */
function exposureOf(capability: Capability): string | undefined {
  const urls = capability.remote?.urls ?? [];
  if (urls.length) return `remote pages (${urls.map((u) => `"${u}"`).join(", ")})`;
  if (capability.windows.includes("*") || capability.webviews.includes("*")) return `every window ("*")`;
  return undefined;
}
