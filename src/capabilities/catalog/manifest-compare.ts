/**
 * A committed `gen/schemas/acl-manifests.json` is build output that a pull request can edit: it could make
 * `fs:allow-read-file` grant nothing and every answer would call the app safe. Its official plugins are
 * compared with the built-in catalog of the locked version, and wherever they differ the catalog uses
 * the union of both definitions, so an edited manifest can only make caplint stricter.
 *
 * Only certain differences are reported (the history cannot see every change between releases, such as
 * dialog 2.7 turning `allow-ask` into an alias of `message`): an identifier the locked version surely has
 * or surely lacks, set members of a version with evidence, and a generated `allow-x`/`deny-x` that no
 * longer names its own command nor the built-in one.
 */
import type { Manifest, PermissionDef, PermissionSetDef } from "./types.js";
import {
  compareVersions,
  historyCatalogOf,
  isCheckableVersion,
  manifestAt,
  type LockedCrate,
  type VersionHistory,
} from "./versions.js";

export interface ManifestDifference {
  /** Manifest key (`fs`, `core:window`). */
  key: string;
  /** The permission or set's name in that manifest (`allow-read-file`, `default`). */
  name: string;
  /** JSON path of the difference inside the manifest file. */
  path: Array<string | number>;
  message: string;
  /**
   * An identifier the manifest adds that the build cannot have: no release of the plugin defines it,
   * or the locked release surely lacks it. The build regenerates the manifest from the release, so
   * the identifier is left out of the catalog too (a capability naming it fails the build).
   */
  notInRelease?: true;
  /** The release that would have written this part of the manifest: an older build's output, not an edit. */
  explainedBy?: string;
  /**
   * A definition no release the history has verified writes, found by comparing with each of them (not
   * certain: a release after them may). The build writes the file again, so it changes no build; it
   * changes caplint's answers, which take the union of both definitions.
   */
  noRelease?: true;
}

export interface CompareContext {
  history: VersionHistory;
  /** The locked version of the key's crate, when the app has a Cargo.lock (or Cargo.toml). */
  locked?: LockedCrate;
}

const sameList = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const sortedStrings = (list: readonly string[]) => [...new Set(list)].sort();
const quoteAll = (list: readonly string[]) => list.map((item) => `"${item}"`).join(", ");

export function compareManifest(
  key: string,
  manifest: Manifest,
  reference: Manifest,
  context: CompareContext,
): ManifestDifference[] {
  const differences: ManifestDifference[] = [];
  const catalog = historyCatalogOf(key);
  const locked =
    context.locked && isCheckableVersion(context.locked.version) ? context.locked : undefined;
  const where = locked ? `${locked.crate} ${locked.version}` : "every release";
  const qualified = (name: string) => `${key}:${name}`;
  const existence = (name: string) =>
    locked ? context.history.exists(catalog, qualified(name), locked.version) : null;
  const membersKnown = !!locked && context.history.isVerified(catalog, locked.version);

  for (const [name, def] of Object.entries(reference.permissions)) {
    const own = ownEntry(manifest.permissions, name);
    if (!own) {
      if (existence(name) === true)
        differences.push({
          key,
          name,
          path: [key, "permissions"],
          message: `the manifest lacks "${qualified(name)}", which ${where} defines`,
        });
      continue;
    }
    const lost = lostCommands(name, own, def);
    for (const [side, commands] of [
      ["allow", lost.allow],
      ["deny", lost.deny],
    ] as const) {
      if (commands.length === 0) continue;
      differences.push({
        key,
        name,
        path: [key, "permissions", name, "commands", side],
        message: `"${qualified(name)}" in the manifest no longer ${side === "allow" ? "allows" : "denies"} ${quoteAll(commands)}, as ${where} does`,
      });
    }
  }
  for (const [field, names] of [
    ["permissions", Object.keys(manifest.permissions)],
    ["permission_sets", Object.keys(manifest.permission_sets)],
  ] as const) {
    for (const name of names) {
      if (ownEntry(reference.permissions, name) || ownEntry(reference.permission_sets, name))
        continue;
      // No record in the history and not in the built-in catalog: no release ever had it. Whatever the app
      // locks, or without a lock at all: the build writes the plugin's part of the file from a release.
      if (context.history.entry(catalog, qualified(name)) === undefined) {
        const crate = context.history.crateOf(catalog) ?? key;
        const through = membersKnown
          ? ""
          : ` through ${context.history.newest(catalog) ?? "the newest known"}`;
        differences.push({
          key,
          name,
          path: [key, field, name],
          message: `the manifest defines "${qualified(name)}", which no release of ${crate}${through} has`,
          notInRelease: true,
        });
        continue;
      }
      // Only against a locked release the history has verified: a newer release may add names it cannot know.
      if (!membersKnown) continue;
      if (existence(name) === false) {
        differences.push({
          key,
          name,
          path: [key, field, name],
          message: `the manifest defines "${qualified(name)}", which ${where} does not`,
          notInRelease: true,
        });
      }
    }
  }

  const sets = setPairs(key, manifest, reference, reference);
  for (const [name, own, expected, path] of sets) {
    if (!expected) continue;
    if (!own) {
      if (name !== "default" && existence(name) === true)
        differences.push({
          key,
          name,
          path: [key, "permission_sets"],
          message: `the manifest lacks the set "${qualified(name)}", which ${where} defines`,
        });
      else if (name === "default" && membersKnown)
        differences.push({
          key,
          name,
          path: [key, "default_permission"],
          message: `the manifest has no "${qualified("default")}", which ${where} defines`,
        });
      continue;
    }
    if (!membersKnown) continue;
    const mine = sortedStrings(own.permissions);
    const theirs = sortedStrings(expected.permissions);
    if (sameList(mine, theirs)) continue;
    const missing = theirs.filter((member) => !mine.includes(member));
    const extra = mine.filter((member) => !theirs.includes(member));
    const parts = [
      missing.length ? `lacks ${quoteAll(missing)}` : "",
      extra.length ? `adds ${quoteAll(extra)}` : "",
    ].filter(Boolean);
    differences.push({
      key,
      name,
      path,
      message: `"${qualified(name)}" in the manifest ${parts.join(" and ")}, unlike ${where}`,
    });
  }
  return differences;
}

/**
 * A manifest written by an older build differs from the locked release without anyone editing it:
 * the build rewrites it. Each difference that the comparison with some other release the history has
 * verified does not show is marked with that release (the newest such release, preferring one that
 * explains the whole manifest); the others stay unexplained, as an edit would be.
 */
export function explainByReleases(
  key: string,
  manifest: Manifest,
  differences: ManifestDifference[],
  locked: LockedCrate,
  newest: Manifest | undefined,
  history: VersionHistory,
): void {
  const catalog = historyCatalogOf(key);
  if (!newest || !history.has(catalog)) return;
  const identity = (d: ManifestDifference) => JSON.stringify([d.name, d.path]);
  const candidates = history
    .versions(catalog)
    .filter((version) => version !== locked.version && history.isVerified(catalog, version))
    .sort((a, b) => compareVersions(b, a));
  const left = new Set(differences.map(identity));
  let whole: string | undefined;
  const partial = new Map<string, string>();
  for (const version of candidates) {
    const reference = manifestAt(key, newest, catalog, history, version);
    const shown = new Set(
      compareManifest(key, manifest, reference, { history, locked: { ...locked, version } }).map(
        identity,
      ),
    );
    if (shown.size === 0) {
      whole = version;
      break;
    }
    for (const id of left) if (!shown.has(id) && !partial.has(id)) partial.set(id, version);
  }
  for (const difference of differences) {
    const version = whole ?? partial.get(identity(difference));
    if (version !== undefined) difference.explainedBy = `${locked.crate} ${version}`;
  }
}

/**
 * Where a manifest's definition of an official plugin changes caplint's answers and no release explains
 * it. The build writes the file again from the release, and caplint answers with the union of both
 * definitions, so an answer differs from the build's where the union differs from the release: a command
 * a permission allows, or a member a set has, that the release's lacks, and a command the release's
 * permission denies that the manifest's does not (the union denies only what both deny). Reported: those
 * parts (not yet reported by {@link compareManifest}) that every release the history has verified lacks
 * (or denies); a part some release has is an older or newer build's output. A definition that only lacks
 * what the release has changes no answer (the union restores it). Costs nothing when the manifest matches.
 */
export function answersNoReleaseGives(
  key: string,
  manifest: Manifest,
  reference: Manifest,
  reported: readonly ManifestDifference[],
  newest: Manifest | undefined,
  history: VersionHistory,
): ManifestDifference[] {
  const catalog = historyCatalogOf(key);
  const said = new Set(reported.map((d) => d.name));
  let left = answerChanges(key, manifest, reference).filter((change) => !said.has(change.name));
  if (left.length === 0 || !newest || !history.has(catalog)) return [];
  const releases = history
    .versions(catalog)
    .filter((version) => history.isVerified(catalog, version));
  for (const version of releases) {
    const then = new Map(
      answerChanges(key, manifest, manifestAt(key, newest, catalog, history, version)).map(
        (change) => [change.id, change.items],
      ),
    );
    left = left
      .map((change) => ({
        ...change,
        items: change.items.filter((item) => then.get(change.id)?.includes(item)),
      }))
      .filter((change) => change.items.length > 0);
    if (left.length === 0) return [];
  }
  const crate = history.crateOf(catalog) ?? key;
  const through = releases.length ? ` through ${releases[releases.length - 1]}` : "";
  return left.map((change) => ({
    key,
    name: change.name,
    path: change.path,
    message: `"${key}:${change.name}" in the manifest ${change.verb} ${quoteAll(change.items)}, unlike every release of ${crate}${through}`,
    noRelease: true as const,
  }));
}

interface AnswerChange {
  /** The name and side (`allow-x allow`, `default members`). */
  id: string;
  name: string;
  path: Array<string | number>;
  items: string[];
  verb: string;
}

/** The parts of the manifest's definitions that make the union answer other than `reference` (see {@link answersNoReleaseGives}). */
function answerChanges(key: string, manifest: Manifest, reference: Manifest): AnswerChange[] {
  const changes: AnswerChange[] = [];
  const add = (change: Omit<AnswerChange, "id">, side: string) => {
    if (change.items.length)
      changes.push({
        ...change,
        id: `${change.name}\u0000${side}`,
        items: sortedStrings(change.items),
      });
  };
  for (const [name, own] of Object.entries(manifest.permissions)) {
    const expected = ownEntry(reference.permissions, name);
    if (!expected) continue;
    const path = [key, "permissions", name, "commands"];
    add(
      {
        name,
        path: [...path, "allow"],
        items: own.commands.allow.filter((c) => !expected.commands.allow.includes(c)),
        verb: "also allows",
      },
      "allow",
    );
    add(
      {
        name,
        path: [...path, "deny"],
        items: expected.commands.deny.filter((c) => !own.commands.deny.includes(c)),
        verb: "no longer denies",
      },
      "deny",
    );
  }
  const sets = setPairs(key, manifest, reference, manifest);
  for (const [name, own, expected, path] of sets)
    if (own && expected)
      add(
        {
          name,
          path,
          items: own.permissions.filter((member) => !expected.permissions.includes(member)),
          verb: "adds",
        },
        "members",
      );
  return changes;
}

/** The manifest without some permissions and sets (names only the committed file defines). */
export function withoutNames(manifest: Manifest, names: readonly string[]): Manifest {
  if (names.length === 0) return manifest;
  const drop = new Set(names);
  const keep = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).filter(([name]) => !drop.has(name)));
  return {
    ...manifest,
    permissions: keep(manifest.permissions),
    permission_sets: keep(manifest.permission_sets),
  };
}

/**
 * Commands the built-in definition allows (or denies) that the manifest's does not, when the manifest's
 * cannot be another release's: a generated `allow-x` must still name `x` or the built-in commands.
 */
function lostCommands(
  name: string,
  own: PermissionDef,
  expected: PermissionDef,
): { allow: string[]; deny: string[] } {
  const generated = /^(allow|deny)-(.+)$/.exec(name);
  const ownCommand = generated ? generated[2]!.replace(/-/g, "_") : undefined;
  const lost = (mine: readonly string[], theirs: readonly string[]) => {
    const missing = theirs.filter((command) => !mine.includes(command));
    if (missing.length === 0) return [];
    // Another release may name the command differently (an alias) or add one (read-meta gained size):
    // only a list that keeps neither its own command nor any built-in one is surely edited.
    if (ownCommand !== undefined && mine.includes(ownCommand)) return [];
    if (mine.some((command) => theirs.includes(command))) return [];
    return missing;
  };
  return {
    allow: lost(own.commands.allow, expected.commands.allow),
    deny: lost(own.commands.deny, expected.commands.deny),
  };
}

/** Whether two definitions of one permission differ in what they grant. */
function sameGrant(a: PermissionDef, b: PermissionDef): boolean {
  return (
    sameList(sortedStrings(a.commands.allow), sortedStrings(b.commands.allow)) &&
    sameList(sortedStrings(a.commands.deny), sortedStrings(b.commands.deny)) &&
    JSON.stringify(a.scope ?? null) === JSON.stringify(b.scope ?? null) &&
    JSON.stringify(a.platforms ?? null) === JSON.stringify(b.platforms ?? null)
  );
}

/**
 * What either definition grants: allowed commands and scope `allow` values of both, denied commands and
 * scope `deny` values of both only (a deny the manifest adds could hide a grant), set members of both,
 * platforms of both. Returns the manifest itself when nothing differs.
 */
export function unionManifest(manifest: Manifest, reference: Manifest): Manifest {
  let changed = false;
  const permissions: Record<string, PermissionDef> = { ...manifest.permissions };
  for (const [name, expected] of Object.entries(reference.permissions)) {
    const own = ownEntry(manifest.permissions, name);
    if (!own) {
      permissions[name] = expected;
      changed = true;
    } else if (!sameGrant(own, expected)) {
      permissions[name] = unionPermission(own, expected);
      changed = true;
    }
  }
  const unionSet = (
    own: PermissionSetDef | null | undefined,
    expected: PermissionSetDef | null | undefined,
  ): PermissionSetDef | null => {
    if (!own) return expected ?? null;
    if (!expected) return own;
    const members = [
      ...own.permissions,
      ...expected.permissions.filter((member) => !own.permissions.includes(member)),
    ];
    return members.length === own.permissions.length ? own : { ...own, permissions: members };
  };
  const sets: Record<string, PermissionSetDef> = { ...manifest.permission_sets };
  for (const [name, expected] of Object.entries(reference.permission_sets)) {
    const merged = unionSet(ownEntry(manifest.permission_sets, name), expected)!;
    if (merged !== ownEntry(manifest.permission_sets, name)) changed = true;
    sets[name] = merged;
  }
  const defaultPermission = unionSet(manifest.default_permission, reference.default_permission);
  if (defaultPermission !== manifest.default_permission) changed = true;
  if (!changed) return manifest;
  return { ...manifest, default_permission: defaultPermission, permissions, permission_sets: sets };
}

function unionPermission(own: PermissionDef, expected: PermissionDef): PermissionDef {
  const union = (a: readonly string[], b: readonly string[]) => [
    ...a,
    ...b.filter((x) => !a.includes(x)),
  ];
  const both = (a: readonly string[], b: readonly string[]) => a.filter((x) => b.includes(x));
  // Scope values compare by their JSON text, each written once (not once per pair).
  const key = (value: unknown) => JSON.stringify(value);
  const ownAllow = new Set((own.scope?.allow ?? []).map(key));
  const expectedDeny = new Set((expected.scope?.deny ?? []).map(key));
  const scopeAllow = [
    ...(own.scope?.allow ?? []),
    ...(expected.scope?.allow ?? []).filter((v) => !ownAllow.has(key(v))),
  ];
  const scopeDeny = (own.scope?.deny ?? []).filter((v) => expectedDeny.has(key(v)));
  const merged: PermissionDef = {
    ...own,
    commands: {
      allow: union(own.commands.allow, expected.commands.allow),
      deny: both(own.commands.deny, expected.commands.deny),
    },
  };
  if (scopeAllow.length || scopeDeny.length || own.scope || expected.scope) {
    merged.scope = {};
    if (own.scope?.allow || expected.scope?.allow) merged.scope.allow = scopeAllow;
    if (scopeDeny.length) merged.scope.deny = scopeDeny;
  }
  // A permission limited to some platforms in one definition only is active on every platform.
  if (!own.platforms || !expected.platforms) delete merged.platforms;
  else merged.platforms = union(own.platforms, expected.platforms);
  return merged;
}

type SetPair = [
  name: string,
  own: PermissionSetDef | null | undefined,
  expected: PermissionSetDef | null | undefined,
  path: Array<string | number>,
];
/** The default set and each set `listed` names, with the manifest's and the reference's definition of it. */
function setPairs(
  key: string,
  manifest: Manifest,
  reference: Manifest,
  listed: Manifest,
): SetPair[] {
  return [
    [
      "default",
      manifest.default_permission,
      reference.default_permission,
      [key, "default_permission", "permissions"],
    ],
    ...Object.keys(listed.permission_sets).map((name): SetPair => [
      name,
      ownEntry(manifest.permission_sets, name),
      ownEntry(reference.permission_sets, name),
      [key, "permission_sets", name, "permissions"],
    ]),
  ];
}

function ownEntry<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
