#!/usr/bin/env node
// Records, in data/acl-history.json, each official plugin permission's commands per release where they
// differ from the built-in (newest) catalog: `plugins.<name>.commands.<id>` = { "<first version with
// that content>": { allow, deny } }. In tauri-plugin-dialog up to 2.6, `allow-ask` enables the `ask`
// command; from 2.7.0 it is an alias of `message`.
//
//   node scripts/build-acl-commands.mjs --git DIR [--git DIR ...]   DIR: git directories of
//        tauri-apps/plugins-workspace (or a fork that copies its v2 branch) holding the release commits
//        named in acl-history.json's evidence
//   --check   exit 1 when acl-history.json's commands differ from what the sources give
//
// Sources, strongest first:
// 1. git: every `plugins/<name>/permissions/**/*.toml` (not schemas/) at each release commit of the
//    history's `evidence` (`{"git": commit}`), parsed as tauri-build does: `[[permission]]` identifier,
//    `commands.allow`, `commands.deny`.
// 2. after the last release with git evidence, the edge where the newest content begins is the first
//    release whose JS package (data/js-api-map.json; the Rust and JS versions are kept equal since 2.2.0)
//    no longer invokes a command that only the old content enables; without such an edge it is left
//    uncertain (`sinceAfter`) and the newest content is assumed only from the first release after it.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "smol-toml";

const data = (name) => new URL(`../data/${name}`, import.meta.url);
const historyText = readFileSync(data("acl-history.json"), "utf8");
const history = JSON.parse(historyText);
const builtin = JSON.parse(readFileSync(data("plugins-acl-manifest.json"), "utf8"));
const jsMap = JSON.parse(readFileSync(data("js-api-map.json"), "utf8"));

const gitDirs = process.argv.flatMap((arg, index) =>
  process.argv[index - 1] === "--git" ? [arg] : [],
);
if (gitDirs.length === 0) {
  console.error("usage: node scripts/build-acl-commands.mjs --git DIR [--git DIR ...] [--check]");
  process.exit(2);
}

function compareVersions(a, b) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

function git(dir, args) {
  return execFileSync("git", ["--git-dir", dir, ...args], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  });
}

/** The git directory holding a commit, or undefined. */
function holder(commit) {
  return gitDirs.find((dir) => {
    try {
      return git(dir, ["cat-file", "-t", commit]).trim() === "commit";
    } catch {
      return false;
    }
  });
}

/** permission id → { allow, deny } of a plugin at a commit. */
function permissionsAt(dir, commit, plugin) {
  const files = git(dir, ["ls-tree", "-r", "--name-only", commit, `plugins/${plugin}/permissions`])
    .split("\n")
    .filter((file) => file.endsWith(".toml") && !file.includes("/schemas/"));
  const permissions = new Map();
  for (const file of files) {
    const toml = parse(git(dir, ["show", `${commit}:${file}`]));
    for (const permission of toml.permission ?? []) {
      permissions.set(permission.identifier, {
        allow: [...(permission.commands?.allow ?? [])],
        deny: [...(permission.commands?.deny ?? [])],
        description: permission.description,
      });
    }
  }
  return permissions;
}

/** Commands the plugin's JS package invokes in a version (undefined when the map lacks that version). */
function invokedByJs(plugin, version) {
  const entry = jsMap.packages[`@tauri-apps/plugin-${plugin}`];
  const position = entry?.versions.indexOf(version) ?? -1;
  if (position < 0) return undefined;
  const commands = new Set();
  for (const indexes of Object.values(entry.modules)) {
    const table = indexes[position] === null ? undefined : jsMap.tables[indexes[position]];
    for (const member of Object.values(table?.members ?? {}))
      for (const command of member.c) commands.add(command);
  }
  return commands;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const result = {};
for (const [plugin, catalog] of Object.entries(history.plugins)) {
  const newest = builtin[plugin]?.permissions ?? {};
  const gitVersions = catalog.versions.filter((version) => catalog.evidence[version]?.git);
  const perVersion = new Map();
  for (const version of gitVersions) {
    const commit = catalog.evidence[version].git;
    const dir = holder(commit);
    if (!dir) {
      console.error(
        `${plugin} ${version}: commit ${commit} is in none of the git directories given`,
      );
      process.exit(2);
    }
    perVersion.set(version, permissionsAt(dir, commit, plugin));
  }
  const lastGit = gitVersions.at(-1);
  const commands = {};
  for (const [id, current] of Object.entries(newest)) {
    const content = { allow: current.commands?.allow ?? [], deny: current.commands?.deny ?? [] };
    const lists = [];
    for (const version of gitVersions) {
      const found = perVersion.get(version).get(id);
      if (!found) continue; // not in that release: the identifier history says so
      const { description, ...commandsOnly } = found;
      // The release's own description when it differs from the newest one (ask's says "ask", not "an alias to message").
      if (
        !same(
          lists.at(-1)?.[1] && { allow: lists.at(-1)[1].allow, deny: lists.at(-1)[1].deny },
          commandsOnly,
        )
      ) {
        lists.push([
          version,
          description && description !== current.description
            ? { ...commandsOnly, description }
            : commandsOnly,
        ]);
      }
    }
    const commandsOf = (entry) => ({ allow: entry.allow, deny: entry.deny });
    if (lists.length === 0 || (lists.length === 1 && same(commandsOf(lists[0][1]), content)))
      continue;
    if (!same(commandsOf(lists.at(-1)[1]), content)) {
      // The newest content begins after the last git release: find the edge in the JS packages.
      const old = lists.at(-1)[1];
      const onlyOld = [...old.allow, ...old.deny].filter(
        (command) => !content.allow.includes(command) && !content.deny.includes(command),
      );
      const later = catalog.versions.filter((version) => compareVersions(version, lastGit) > 0);
      let edge;
      let previous = lastGit;
      for (const version of later) {
        const invoked = invokedByJs(plugin, version);
        if (!invoked) continue;
        const usesOld = onlyOld.some((command) => invoked.has(`plugin:${plugin}|${command}`));
        if (!usesOld) {
          edge = { version, after: previous };
          break;
        }
        previous = version;
      }
      if (edge)
        lists.push([
          edge.version,
          {
            ...content,
            evidence: `js: @tauri-apps/plugin-${plugin} ${edge.after} invokes ${onlyOld.join(", ")}, ${edge.version} no longer`,
          },
        ]);
      else lists.push([later[0] ?? lastGit, { ...content, sinceAfter: lastGit }]);
    }
    commands[id] = Object.fromEntries(lists);
  }
  if (Object.keys(commands).length > 0) result[plugin] = commands;
}

const updated = structuredClone(history);
for (const [plugin, catalog] of Object.entries(updated.plugins)) {
  if (result[plugin]) catalog.commands = result[plugin];
  else delete catalog.commands;
}
const text = `${JSON.stringify(updated, null, 1)}\n`;
if (process.argv.includes("--check")) {
  if (text !== historyText) {
    console.error(
      "data/acl-history.json's commands are stale: run node scripts/build-acl-commands.mjs --git ...",
    );
    process.exit(1);
  }
} else {
  writeFileSync(data("acl-history.json"), text);
  const count = Object.values(result).reduce(
    (sum, commands) => sum + Object.keys(commands).length,
    0,
  );
  console.log(
    `data/acl-history.json: ${count} permissions of ${Object.keys(result).length} plugins whose commands changed between releases`,
  );
}
