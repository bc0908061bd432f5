// Derives data/acl-versions.json (shipped) from data/acl-history.json (the source, kept in the repository
// but not packed): per catalog, only what differs from "present in every release, members as in the
// built-in catalog". The built-in catalogs are the newest content, so an identifier missing here exists
// in every version, and a set missing here has its built-in members in every version.
//
//   node scripts/build-acl-versions.mjs           rewrite data/acl-versions.json
//   node scripts/build-acl-versions.mjs --check   exit 1 when the file is not what the source gives
//
// Identifiers are written as capabilities write them (`fs:allow-size`, `core:app:allow-identifier`,
// `core:default`), in the spec's `host` spelling of the brand word like the built-in catalogs.
import { readFile, writeFile } from "node:fs/promises";

const data = (name) => new URL(`../data/${name}`, import.meta.url);
const history = JSON.parse(await readFile(data("acl-history.json"), "utf8"));
const builtin = {
  ...JSON.parse(await readFile(data("core-acl-manifest.json"), "utf8")),
  ...JSON.parse(await readFile(data("plugins-acl-manifest.json"), "utf8")),
};
const toHost = (id) => id.replace(/^(allow|deny)-tauri-version$/, "$1-host-version");

/** `window:allow-close` → `core:window:allow-close`; `default` → `core:default`; plugin ids get their key. */
function qualify(catalog, id) {
  if (catalog !== "core") return `${catalog}:${id}`;
  if (id === "default") return "core:default";
  const [area, name] = id.split(":");
  return `core:${area}:${toHost(name)}`;
}

/** The built-in manifest key and name of a qualified id. */
function split(id) {
  const colon = id.lastIndexOf(":");
  return { key: id.slice(0, colon), name: id.slice(colon + 1) };
}

function builtinIds(key) {
  const manifest = builtin[key];
  if (!manifest) return undefined;
  return {
    permissions: new Set(Object.keys(manifest.permissions ?? {})),
    sets: new Map([
      ...Object.entries(manifest.permission_sets ?? {}).map(([name, set]) => [
        name,
        set.permissions,
      ]),
      ...(manifest.default_permission
        ? [["default", manifest.default_permission.permissions]]
        : []),
    ]),
  };
}

const sameMembers = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);
const problems = [];
const catalogs = {};
for (const [catalog, source] of [...Object.entries(history.plugins), ["core", history.core]]) {
  const out = {
    crate: source.crate,
    versions: source.versions,
    verifiedThrough: source.verifiedThrough,
    unknownVersions: source.unknownVersions ?? [],
    ids: {},
    /** Sets not in the built-in catalog (removed ones): their members rebuild them. */
    sets: [],
    members: {},
    /** Permissions whose commands changed between releases: id → {first version with that content: [allow, deny]}. */
    commands: {},
  };
  for (const [rawId, lists] of Object.entries(source.commands ?? {})) {
    const id = qualify(catalog, rawId);
    const { key, name } = split(id);
    const newest = Object.values(lists).at(-1);
    const current = builtin[key]?.permissions?.[name]?.commands;
    if (
      !current ||
      !sameMembers(newest.allow, current.allow ?? []) ||
      !sameMembers(newest.deny, current.deny ?? [])
    ) {
      problems.push(`${id}: the newest commands differ from the built-in catalog`);
    }
    out.commands[id] = Object.fromEntries(
      Object.entries(lists).map(([version, content]) => [
        version,
        content.description
          ? [content.allow, content.deny, content.description]
          : [content.allow, content.deny],
      ]),
    );
  }
  const seen = new Set();
  for (const kind of ["permissions", "sets"]) {
    for (const [rawId, entry] of Object.entries(source[kind])) {
      if (entry.intervals)
        problems.push(`${catalog}:${rawId} has intervals, which this format does not hold`);
      const id = qualify(catalog, rawId);
      seen.add(`${kind}\u0000${id}`);
      const { key, name } = split(id);
      const known = builtinIds(key);
      const inBuiltin =
        kind === "permissions" ? known?.permissions.has(name) : known?.sets.has(name);
      const always =
        entry.since === "2.0.0" &&
        entry.until === null &&
        !entry.sinceAfter &&
        !entry.untilBefore &&
        !entry.unverified;
      if (!always || !inBuiltin) {
        const record = [entry.since, entry.until];
        if (entry.sinceAfter || entry.untilBefore || entry.unverified)
          record.push(entry.sinceAfter ?? null, entry.untilBefore ?? null);
        if (entry.unverified) record.push(entry.unverified);
        out.ids[id] = record;
        if (kind === "sets" && !inBuiltin) out.sets.push(id);
      }
      if (kind === "sets") {
        const lists = Object.entries(entry.members ?? {}).map(([version, members]) => [
          version,
          catalog === "core" && !id.startsWith("core:default") ? members.map(toHost) : members,
        ]);
        const newest = lists[lists.length - 1]?.[1];
        const builtinMembers = known?.sets.get(name);
        if (
          entry.until === null &&
          builtinMembers &&
          newest &&
          !sameMembers([...newest].sort(), [...builtinMembers].sort())
        ) {
          problems.push(`${id}: newest members differ from the built-in catalog`);
        }
        if (lists.length > 1 || !builtinMembers) out.members[id] = Object.fromEntries(lists);
      }
    }
  }
  for (const key of Object.keys(builtin).filter((k) =>
    catalog === "core" ? k === "core" || k.startsWith("core:") : k === catalog,
  )) {
    const known = builtinIds(key);
    const prefix = `${key}:`;
    for (const name of known.permissions)
      if (!seen.has(`permissions\u0000${prefix}${name}`))
        problems.push(`${prefix}${name} is built in but not in the history`);
    for (const name of known.sets.keys())
      if (!seen.has(`sets\u0000${prefix}${name}`))
        problems.push(`${prefix}${name} (set) is built in but not in the history`);
  }
  if (Object.keys(out.commands).length === 0) delete out.commands;
  catalogs[catalog] = out;
}
if (problems.length) {
  console.error(`acl-history.json and the built-in catalogs disagree:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}

const result = {
  about:
    "Derived from acl-history.json by scripts/build-acl-versions.mjs; do not edit. ids: [since, until, sinceAfter?, untilBefore?, unverified?]; members: set → {first version with that list: members}; commands: permission → {first version with that content: [allow, deny, description?]}.",
  generatedFrom: history.generatedFrom,
  catalogs,
};
// One catalog per line: small, and a diff shows which catalog changed.
const text = `{\n${Object.entries(result)
  .map(([k, v]) =>
    k === "catalogs"
      ? `  "catalogs": {\n${Object.entries(v)
          .map(([name, c]) => `    ${JSON.stringify(name)}: ${JSON.stringify(c)}`)
          .join(",\n")}\n  }`
      : `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`,
  )
  .join(",\n")}\n}\n`;
if (process.argv.includes("--check")) {
  const current = await readFile(data("acl-versions.json"), "utf8").catch(() => "");
  if (current !== text) {
    console.error("data/acl-versions.json is stale: run node scripts/build-acl-versions.mjs");
    process.exit(1);
  }
} else {
  await writeFile(data("acl-versions.json"), text);
}
