/**
 * `caplint least-privilege`: what each window's frontend calls, which grants those calls use, and the
 * smallest change to the capability files that gives the app exactly that — unused grants removed,
 * a default set (or any set) narrowed to the members the calls use, a refused call's permission
 * added. The change is computed as text edits on the files as written (JSON or TOML, comments and
 * layout kept); the command prints it as a diff and writes it only when asked.
 */
import type { FileChanges } from "../../core/fix/fix-passes.js";
import type { SourceDocument } from "../../core/source/document.js";
import type { TextEdit } from "../../core/location.js";
import { plural } from "../../core/wording.js";
import { Catalog } from "../catalog/catalog.js";
import { APP_KEY } from "../catalog/types.js";
import { expandIdentifier } from "../engine/expand.js";
import { commandName } from "../engine/model.js";
import type { Resolution } from "../engine/resolve.js";
import { labelMatches } from "../engine/match/glob.js";
import type { FrontendCall, FrontendScan } from "../frontend/scan.js";
import { configDocuments } from "../load/app-config.js";
import type { Project } from "../load/project.js";
import { TARGETS, valuesOf, type Capability, type PermissionEntry } from "../model/types.js";
import { wordList } from "../../core/did-you-mean.js";
import { addPermissionHint, pluginOfSpecifier, unusedEntries } from "../rules/support/frontend.js";
import { frontendAccess, type CallJudgement, type FrontendAccess } from "./frontend-access.js";

/** A grant of a capability that covers the window, and which of its commands the window's calls use. */
export interface WindowGrant {
  capability: Capability;
  entry: PermissionEntry;
  /** Commands of the grant this window's calls use. */
  used: string[];
  /** Every command the grant gives. */
  granted: string[];
}

export interface WindowPrivilege {
  window: string;
  /** Local capabilities that cover the window. */
  capabilities: Capability[];
  calls: CallJudgement[];
  grants: WindowGrant[];
}

/** One change to a capability's `permissions`. */
export interface ProposedChange {
  capability: Capability;
  kind: "remove" | "narrow" | "add";
  /** The entry removed or narrowed, or the permission added, as the file writes it. */
  identifier: string;
  /** `remove`, `narrow`: the entry. */
  entry?: PermissionEntry;
  /** `narrow`: the entries that replace it. */
  replacement?: string[];
  /** `add`: the calls refused without it. */
  calls?: FrontendCall[];
  /** `remove`: why, when not "no call uses it". */
  reason?: string;
}

/** A change caplint shows but does not make: an entry that needs a scope only the developer knows, a file it cannot edit. */
export interface ByHand {
  text: string;
  call?: FrontendCall;
}

export interface LeastPrivilegePlan {
  access: FrontendAccess;
  windows: WindowPrivilege[];
  changes: ProposedChange[];
  byHand: ByHand[];
  /** The edited files: absolute path → the text read and the text proposed. */
  files: FileChanges;
  /** Capabilities left as they are, and why (remote pages, a layout caplint does not rewrite). */
  untouched: string[];
  /** How far the answer can be trusted, in one line. */
  confidence: string;
}

/** The plan for a project whose frontend was scanned. `isOfficial`: whether a plugin is an official one (its JS package is mapped). */
export function leastPrivilege(
  project: Project & { frontend: FrontendScan },
  resolution: Resolution,
  isOfficial: (plugin: string) => boolean,
): LeastPrivilegePlan {
  const access = frontendAccess(project, resolution);
  const catalog = project.catalog;
  const windows = windowPrivileges(project, access);
  const unused = new Set(unusedEntries(access, isOfficial).map((use) => use.entry));
  const narrowable = narrowingAllowed(access);
  const untouched: string[] = [];
  for (const capability of project.activeCapabilities)
    if (capability.remote)
      untouched.push(
        `capability "${capability.identifier}" serves remote pages: never narrowed (their code is not in the app)`,
      );

  const changes: ProposedChange[] = [];
  for (const use of access.entries) {
    if (unused.has(use.entry)) {
      changes.push({
        capability: use.capability,
        kind: "remove",
        identifier: use.entry.identifier,
        entry: use.entry,
      });
      continue;
    }
    if (use.used.length === 0 || use.entry.extended || !narrowable(use)) continue;
    const replacement = narrowSet(catalog, use.entry.identifier, new Set(use.used));
    if (replacement)
      changes.push({
        capability: use.capability,
        kind: "narrow",
        identifier: use.entry.identifier,
        entry: use.entry,
        replacement,
      });
  }

  const byHand: ByHand[] = [];
  const added = new Map<string, ProposedChange>();
  const inactive = new Map<
    string,
    { capability: Capability; platforms: string[]; commands: Set<string> }
  >();
  for (const judgement of access.judgements) {
    const refusable = judgement.refusals.filter((refusal) => refusal.verdict !== "denied");
    if (refusable.length === 0 || !judgement.permission) continue;
    const capability = judgement.capability;
    const grantedElsewhere = access.entries.some(
      (use) =>
        capability !== undefined &&
        use.capability === capability &&
        use.granted.includes(judgement.command),
    );
    if (grantedElsewhere) {
      // The capability grants it, but not on the platforms where the call is refused: its platforms are what to change.
      const platforms = TARGETS.filter((target) =>
        refusable.some((refusal) => refusal.platforms.includes(target)),
      );
      const key = `${capability!.identifier}\u0000${capability!.source.file}\u0000${platforms.join()}`;
      const group = inactive.get(key) ?? {
        capability: capability!,
        platforms,
        commands: new Set<string>(),
      };
      group.commands.add(judgement.command);
      inactive.set(key, group);
      continue;
    }
    if (!capability || judgement.scoped) {
      // A scope is the developer's to choose: caplint shows the entry and leaves the placeholder unwritten.
      const document = capability ? documentOf(project, capability) : undefined;
      byHand.push({
        text: addPermissionHint(judgement, judgement.permission, document, capability),
        call: judgement.call,
      });
      continue;
    }
    const key = `${capability.source.absolutePath}\u0000${JSON.stringify(capability.source.path)}\u0000${judgement.permission}`;
    const change = added.get(key);
    if (change) {
      if (!change.calls!.includes(judgement.call)) change.calls!.push(judgement.call);
      continue;
    }
    const addition: ProposedChange = {
      capability,
      kind: "add",
      identifier: judgement.permission,
      calls: [judgement.call],
    };
    added.set(key, addition);
    changes.push(addition);
  }
  for (const { capability, platforms, commands } of inactive.values()) {
    const listed = [...commands].map((command) => `"${command}"`);
    byHand.unshift({
      text: `capability "${capability.identifier}" in ${capability.source.file} grants ${wordList(listed)} but does not apply on ${wordList(platforms)}, where the calls are refused: check its "platforms"`,
    });
  }

  const files: FileChanges = new Map();
  const editsByDocument = new Map<SourceDocument, TextEdit[]>();
  // Additions a narrowed set's members already make.
  const redundant = new Set<ProposedChange>();
  for (const [capability, own] of groupBy(changes, (change) => change.capability)) {
    const document = documentOf(project, capability);
    const edits = document && permissionEdits(document, capability, own, redundant);
    if (!document || edits === undefined) {
      untouched.push(
        `capability "${capability.identifier}" in ${capability.source.file}: its permissions are not one array caplint can edit in place; apply the changes by hand`,
      );
      for (const change of own) byHand.push({ text: describeChange(change) });
      changes.splice(0, changes.length, ...changes.filter((change) => !own.includes(change)));
      continue;
    }
    editsByDocument.set(document, [...(editsByDocument.get(document) ?? []), ...edits]);
  }
  changes.splice(0, changes.length, ...changes.filter((change) => !redundant.has(change)));
  for (const [document, edits] of editsByDocument) {
    let fixed = document.text;
    // From the end of the file back, so each edit's offsets still hold; the edits of one file never overlap.
    for (const edit of edits.sort((a, b) => b.offset - a.offset || b.length - a.length))
      fixed = fixed.slice(0, edit.offset) + edit.content + fixed.slice(edit.offset + edit.length);
    if (fixed !== document.text)
      files.set(document.absolutePath, { file: document.file, original: document.text, fixed });
  }
  return {
    access,
    windows,
    changes,
    byHand,
    files,
    untouched,
    confidence: confidenceOf(access, narrowable === NEVER),
  };
}

/** In words, for a change caplint could not make itself. */
export function describeChange(change: ProposedChange): string {
  const where = `capability "${change.capability.identifier}" in ${change.capability.source.file}`;
  switch (change.kind) {
    case "remove":
      return `remove "${change.identifier}" from ${where}`;
    case "narrow":
      return `replace "${change.identifier}" with ${change.replacement!.map((id) => `"${id}"`).join(", ")} in ${where}`;
    case "add":
      return `add "${change.identifier}" to ${where}`;
  }
}

/** The file a capability is written in: its own file, or the app config (or platform config) that inlines it. */
function documentOf(project: Project, capability: Capability): SourceDocument | undefined {
  return [...project.documents, ...configDocuments(project.config)].find(
    (document) => document.absolutePath === capability.source.absolutePath,
  );
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key) ?? [];
    list.push(item);
    groups.set(key, list);
  }
  return groups;
}

/** Per window that loads local pages: its calls and the grants of the capabilities that cover it. */
function windowPrivileges(project: Project, access: FrontendAccess): WindowPrivilege[] {
  const labels = access.localWindows.length ? access.localWindows : ["*"];
  return labels.map((window) => {
    const calls = access.judgements.filter(
      (judgement) =>
        window === "*" || judgement.windows.length === 0 || judgement.windows.includes(window),
    );
    const called = new Set(calls.map((judgement) => judgement.command));
    const capabilities = project.activeCapabilities.filter(
      (capability) =>
        !capability.remote &&
        (window === "*" ||
          valuesOf(capability.windows).some((pattern) => labelMatches(pattern, window))),
    );
    const grants = access.entries
      .filter((use) => capabilities.includes(use.capability) && use.granted.length > 0)
      .map((use) => ({ ...use, used: use.granted.filter((command) => called.has(command)) }));
    return { window, capabilities, calls, grants };
  });
}

const NEVER = (): boolean => false;

/**
 * Whether the grants of an entry can be narrowed to what the calls use: not when a command is named at
 * run time (it could be any) or a third-party plugin's JS was not read, nor for a plugin some call of
 * which was not resolved — the same conditions under which unused-permission stays silent.
 */
function narrowingAllowed(
  access: FrontendAccess,
): (use: FrontendAccess["entries"][number]) => boolean {
  const scan = access.scan;
  if (
    scan.thirdPartyPlugins.length > 0 ||
    scan.unresolved.some(
      (call) => call.member === "invoke" || pluginOfSpecifier(call.specifier) === undefined,
    )
  )
    return NEVER;
  const unresolvedPlugins = new Set(
    scan.unresolved.map((call) => pluginOfSpecifier(call.specifier)),
  );
  return ({ entry }) => {
    const parts = Catalog.keyOf(entry.identifier);
    if (!parts) return false;
    const plugin = parts.key.startsWith("core") ? "core" : parts.key;
    return !unresolvedPlugins.has(plugin);
  };
}

/**
 * The members of the set `identifier` names that grant what `used` holds: a member granting only
 * scopes or denies is kept (it shapes what the used commands may reach), a member none of whose
 * commands is used is dropped, a set member used in part is narrowed in turn. Undefined when the
 * identifier is a single permission or nothing would be dropped.
 */
function narrowSet(
  catalog: Catalog,
  identifier: string,
  used: ReadonlySet<string>,
  depth = 0,
): string[] | undefined {
  const parts = Catalog.keyOf(catalog.spellIdentifier(identifier));
  if (!parts || depth > 8) return undefined;
  const lookup = catalog.lookupTopLevel(parts.key, parts.base);
  if (!lookup || lookup.kind === "permission" || !lookup.set) return undefined;
  const kept: string[] = [];
  let dropped = false;
  for (const member of lookup.set.permissions) {
    const qualified = qualifyMember(catalog, parts.key, member);
    const leaves = expandIdentifier(catalog, qualified).leaves;
    const commands = leaves.flatMap((leaf) =>
      leaf.permission.commands.allow.map((command) => commandName(leaf.key, command)),
    );
    if (commands.length === 0) {
      kept.push(qualified);
      continue;
    }
    const usedHere = commands.filter((command) => used.has(command));
    if (usedHere.length === 0) {
      dropped = true;
      continue;
    }
    const narrower =
      usedHere.length < new Set(commands).size
        ? narrowSet(catalog, qualified, used, depth + 1)
        : undefined;
    if (narrower) {
      dropped = true;
      kept.push(...narrower);
    } else kept.push(qualified);
  }
  return dropped ? [...new Set(kept)].map((id) => catalog.spellIdentifier(id)) : undefined;
}

/** A set member as a capability would write it: prefixed members of another manifest as they are, others under the set's plugin. */
function qualifyMember(catalog: Catalog, key: string, member: string): string {
  const parts = Catalog.keyOf(member);
  if (parts && parts.key !== APP_KEY && catalog.has(parts.key)) return member;
  return key === APP_KEY ? member : `${key}:${member}`;
}

/**
 * The edits that make the changes in the capability's `permissions` array, on the file as written:
 * removed items go with one separating comma (and a comment on their line), a narrowed item is
 * replaced by its members, added entries follow the last item (one a line when the array is written
 * one a line). Undefined when the array is not one caplint can edit in place (a TOML array of tables,
 * an empty TOML array).
 */
function permissionEdits(
  document: SourceDocument,
  capability: Capability,
  changes: readonly ProposedChange[],
  redundant: Set<ProposedChange>,
): TextEdit[] | undefined {
  const arrayPath = [...capability.source.path, "permissions"];
  const items = document.arrayItemSpans(arrayPath);
  if (!items) return undefined;
  const text = document.text;
  const removed = new Set<number>();
  const replaced = new Map<number, string[]>();
  const additions: string[] = [];
  for (const change of changes) {
    const index = change.kind === "remove" ? itemIndex(change.entry!) : -1;
    if (index >= 0) removed.add(index);
  }
  // What the array grants by name once the removals are made: a member or an addition already there is not written twice.
  const written = new Set(
    capability.permissions
      .filter((entry) => !entry.extended && !removed.has(itemIndex(entry)))
      .map((entry) => entry.identifier),
  );
  for (const change of changes) {
    if (change.kind === "narrow") {
      const index = itemIndex(change.entry!);
      if (index < 0) continue;
      // Another entry of the same name (listed twice) still grants it.
      if (
        !capability.permissions.some(
          (entry) =>
            entry !== change.entry &&
            entry.identifier === change.identifier &&
            !entry.extended &&
            !removed.has(itemIndex(entry)),
        )
      )
        written.delete(change.identifier);
      const members = change.replacement!.filter((id) => !written.has(id));
      for (const id of members) written.add(id);
      // The plan says what the edit does: the members other entries already grant are not written again.
      change.replacement = members;
      if (members.length === 0) {
        removed.add(index);
        Object.assign(change, {
          kind: "remove",
          reason: "what the calls use of it, other entries grant",
        });
      } else replaced.set(index, members);
    } else if (change.kind === "add") {
      if (written.has(change.identifier)) {
        redundant.add(change);
        continue;
      }
      written.add(change.identifier);
      additions.push(change.identifier);
    }
  }
  const first = items[0];
  const last = items[items.length - 1];
  const multiline =
    first !== undefined && last !== undefined && text.slice(first.offset, last.end).includes("\n");
  const indent = first
    ? text.slice(text.lastIndexOf("\n", first.offset - 1) + 1, first.offset)
    : "";
  const separator = multiline && /^[ \t]*$/.test(indent) ? `,\n${indent}` : ", ";
  const quote = (id: string) => document.quoteString(id);
  const tail = additions.map(quote).join(separator);
  if (!first || !last) {
    if (!tail) return [];
    // An empty JSON array: the additions go inside it.
    const span = document.format === "json" ? document.valueSpan(arrayPath) : undefined;
    return span ? [{ offset: span.offset, length: span.length, content: `[${tail}]` }] : undefined;
  }
  const kept = items.map((_, index) => index).filter((index) => !removed.has(index));
  const lastKept = kept[kept.length - 1];
  if (lastKept === undefined) {
    if (tail) return [{ offset: first.offset, length: last.end - first.offset, content: tail }];
    // Nothing is left: the layout the items stood on goes with them (a blank line, TOML's trailing
    // comma), so the array is written `[]`, not `[\n    \n  ]` or `[,]`, which TOML rejects.
    let start = first.offset;
    while (start > 0 && isLayout(text[start - 1]!)) start--;
    let end = last.end;
    while (end < text.length && isLayout(text[end]!)) end++;
    if (text[end] === ",") for (end++; end < text.length && isLayout(text[end]!);) end++;
    return [{ offset: start, length: end - start, content: "" }];
  }
  const edits: TextEdit[] = [];
  for (const index of removed) {
    if (index < lastKept)
      edits.push({
        offset: items[index]!.offset,
        length: items[index + 1]!.offset - items[index]!.offset,
        content: "",
      });
  }
  let end = tail ? separator + tail : "";
  if (lastKept < items.length - 1) {
    // The items after the last kept one go from its end, with the comma before them; the additions take their place.
    edits.push({
      offset: items[lastKept]!.end,
      length: last.end - items[lastKept]!.end,
      content: end,
    });
    end = "";
  }
  for (const [index, members] of replaced) {
    const content = members.map(quote).join(separator) + (index === lastKept ? end : "");
    if (index === lastKept) end = "";
    edits.push({
      offset: items[index]!.offset,
      length: items[index]!.end - items[index]!.offset,
      content,
    });
  }
  if (end) edits.push({ offset: items[lastKept]!.end, length: 0, content: end });
  return edits;
}

function isLayout(char: string): boolean {
  return char === " " || char === "\t" || char === "\n" || char === "\r";
}

function itemIndex(entry: PermissionEntry): number {
  const last = entry.path[entry.path.length - 1];
  return typeof last === "number" ? last : -1;
}

/** "2 dynamic calls not resolved; 1 third-party plugin not analysed", and what that held back. */
function confidenceOf(access: FrontendAccess, heldBack: boolean): string {
  const parts: string[] = [];
  const unresolved = access.scan.unresolved.length;
  const thirdParty = access.scan.thirdPartyPlugins.length;
  if (unresolved) parts.push(`${plural(unresolved, "dynamic call")} not resolved`);
  if (thirdParty) parts.push(`${plural(thirdParty, "third-party plugin")} not analysed`);
  const guessed =
    access.localWindows.length > 1 && access.judgements.some((judgement) => !judgement.byPage);
  if (guessed)
    parts.push("some files are loaded by a page no window names: judged for every local window");
  if (parts.length === 0)
    return `every call resolved (${plural(access.judgements.length, "command")} in ${plural(access.scan.files.length, "file")}); no third-party plugin`;
  return (
    parts.join("; ") +
    (heldBack ? ": no grant is removed or narrowed (any command could be called)" : "")
  );
}
