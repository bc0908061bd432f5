#!/usr/bin/env node
// Builds data/js-api-map.json: for every published 2.x release of @tauri-apps/api and of the official
// plugins' JS packages (@tauri-apps/plugin-<name> for each plugin of data/plugins-acl-manifest.json),
// which IPC commands each export and class member invokes and which class it returns, read from the
// package's own dist JavaScript and .d.ts (scripts/lib/js-api-analysis.mjs). See data/js-api-map.md.
//
//   node scripts/build-js-api-map.mjs            download (npm view / npm pack), analyse, write
//   node scripts/build-js-api-map.mjs --check    the same, fail when the committed file differs
//   --tarballs DIR   analyse only the *.tgz in DIR (no network); the plugins' calls into
//                    @tauri-apps/api resolve against the committed map's newest api version
//   --out FILE       write there instead of data/js-api-map.json
//   --cache DIR      where downloaded tarballs are kept (default: $TMPDIR/caplint-js-api-tarballs)
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { PackageAnalysis } from "./lib/js-api-analysis.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const API = "@tauri-apps/api";
const RELEASE = /^2\.\d+\.\d+$/;

function option(name) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const check = process.argv.includes("--check");
const tarballDir = option("--tarballs");
const outFile = path.resolve(option("--out") ?? path.join(root, "data/js-api-map.json"));
const cacheDir = path.resolve(
  option("--cache") ?? path.join(os.tmpdir(), "caplint-js-api-tarballs"),
);

function compareVersions(a, b) {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

const execFileAsync = promisify(execFile);

async function npm(args) {
  return (await execFileAsync("npm", args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }))
    .stdout;
}

function tarballName(pkg, version) {
  return `${pkg.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
}

/** package → released 2.x versions → tarball path, from the registry or from --tarballs. */
async function tarballs() {
  const found = new Map();
  if (tarballDir) {
    for (const file of fs
      .readdirSync(tarballDir)
      .filter((name) => name.endsWith(".tgz"))
      .sort()) {
      const manifest = JSON.parse(
        execFileSync("tar", ["-xzOf", path.join(tarballDir, file), "package/package.json"], {
          encoding: "utf8",
        }),
      );
      if (!found.has(manifest.name)) found.set(manifest.name, new Map());
      found.get(manifest.name).set(manifest.version, path.join(tarballDir, file));
    }
    return found;
  }
  const plugins = Object.keys(
    JSON.parse(fs.readFileSync(path.join(root, "data/plugins-acl-manifest.json"), "utf8")),
  );
  fs.mkdirSync(cacheDir, { recursive: true });
  const queue = [API, ...plugins.map((plugin) => `@tauri-apps/plugin-${plugin}`)];
  // npm pack fetches one tarball after another: a few packages at a time.
  const worker = async () => {
    for (let pkg = queue.shift(); pkg; pkg = queue.shift()) {
      let versions;
      try {
        versions = [JSON.parse(await npm(["view", pkg, "versions", "--json"]))]
          .flat()
          .filter((version) => RELEASE.test(version));
      } catch {
        process.stderr.write(`${pkg}: not published, skipped\n`);
        continue;
      }
      const missing = versions.filter(
        (version) => !fs.existsSync(path.join(cacheDir, tarballName(pkg, version))),
      );
      if (missing.length > 0)
        await npm([
          "pack",
          ...missing.map((version) => `${pkg}@${version}`),
          "--pack-destination",
          cacheDir,
          "--silent",
        ]);
      found.set(
        pkg,
        new Map(
          versions.map((version) => [version, path.join(cacheDir, tarballName(pkg, version))]),
        ),
      );
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return found;
}

/** The public modules of an extracted package: file → specifier. */
function publicModules(pkg, dir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const modules = new Map();
  const target = (entry) =>
    typeof entry === "string" ? entry : (entry?.import ?? entry?.default ?? entry?.module);
  const exportsField = manifest.exports;
  const entries =
    typeof exportsField === "string" || exportsField?.import
      ? { ".": exportsField }
      : (exportsField ?? { ".": manifest.module ?? manifest.main });
  for (const [subpath, entry] of Object.entries(entries)) {
    if (subpath === "./package.json") continue;
    if (subpath.includes("*")) {
      // @tauri-apps/api: "./*" → "./*.js": every top-level module of the package.
      // (Only files with their .d.ts: a config file at the root is not a module of the API.)
      for (const file of fs
        .readdirSync(dir)
        .filter(
          (name) =>
            name.endsWith(".js") && fs.existsSync(path.join(dir, `${name.slice(0, -3)}.d.ts`)),
        )
        .sort()) {
        const name = file.slice(0, -3);
        modules.set(path.join(dir, file), name === "index" ? pkg : `${pkg}/${name}`);
      }
      continue;
    }
    const file = target(entry);
    if (typeof file !== "string" || !file.endsWith(".js")) continue;
    modules.set(
      path.join(dir, file),
      subpath === "." ? pkg : `${pkg}/${subpath.replace(/^\.\//, "")}`,
    );
  }
  return modules;
}

/** A view of one module's table, as the analysis of another package asks for it. */
function tableView(tables, specifierOf) {
  return (specifier) => {
    const table = tables(specifier);
    if (!table) return undefined;
    return {
      member(name) {
        if (table.members[name]) return table.members[name];
        const dot = name.indexOf(".");
        if (dot > 0 && table.ns?.[name.slice(0, dot)])
          return tableView(
            tables,
            specifierOf,
          )(table.ns[name.slice(0, dot)])?.member(name.slice(dot + 1));
        return undefined;
      },
      classMembers(className) {
        return Object.keys(table.members)
          .filter((key) => key.startsWith(`${className}#`) || key.startsWith(`${className}.`))
          .map((key) => key.slice(className.length));
      },
    };
  };
}

function analyse(pkg, tarball, foreign) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "caplint-js-api-"));
  try {
    execFileSync("tar", ["-xzf", tarball, "-C", dir]);
    const packageDir = path.join(dir, "package");
    const modules = new Map(
      [...publicModules(pkg, packageDir)].filter(([file]) => fs.existsSync(file)),
    );
    const analysis = new PackageAnalysis(packageDir, foreign, injectedGlobals());
    const tables = new Map();
    for (const [file, specifier] of modules) tables.set(specifier, analysis.table(file, modules));
    return tables;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The web APIs the plugins' injected scripts replace (data/js-api-overrides.json `implicit[].global`). */
function injectedGlobals() {
  const overrides = JSON.parse(
    fs.readFileSync(path.join(root, "data/js-api-overrides.json"), "utf8"),
  );
  return new Map(
    overrides.implicit.filter((call) => call.global).map((call) => [call.global, call.commands]),
  );
}

function committed() {
  return fs.existsSync(path.join(root, "data/js-api-map.json"))
    ? JSON.parse(fs.readFileSync(path.join(root, "data/js-api-map.json"), "utf8"))
    : undefined;
}

/** The tables of the newest version of a package in a built map. */
function newestTables(map, pkg) {
  const entry = map?.packages[pkg];
  if (!entry) return new Map();
  const last = entry.versions.length - 1;
  return new Map(
    Object.entries(entry.modules)
      .filter(([, indexes]) => indexes[last] !== null)
      .map(([specifier, indexes]) => [specifier, map.tables[indexes[last]]]),
  );
}

async function build() {
  const found = await tarballs();
  const packages = {};
  const tables = [];
  const tableIndex = new Map();
  let apiTables = new Map();
  const foreign = tableView((specifier) => apiTables.get(specifier));
  const names = [...found.keys()].sort((a, b) =>
    a === API ? -1 : b === API ? 1 : a.localeCompare(b),
  );
  if (!found.has(API)) apiTables = newestTables(committed(), API);
  for (const pkg of names) {
    const versions = [...found.get(pkg).keys()].sort(compareVersions);
    const modules = {};
    const unusable = [];
    versions.forEach((version, position) => {
      const analysed = analyse(pkg, found.get(pkg).get(version), foreign);
      // @tauri-apps/api 2.10.0 was published with its sources only: nothing of it can be imported.
      if (analysed.size === 0) unusable.push(version);
      for (const [specifier, table] of analysed) {
        const text = JSON.stringify(table);
        if (!tableIndex.has(text)) {
          tableIndex.set(text, tables.length);
          tables.push(table);
        }
        modules[specifier] ??= versions.map(() => null);
        modules[specifier][position] = tableIndex.get(text);
      }
      // Plugins resolve their calls into @tauri-apps/api against its newest release (what their ^2 ranges install).
      if (pkg === API && analysed.size > 0) apiTables = analysed;
    });
    packages[pkg] = {
      versions,
      ...(unusable.length > 0 ? { withoutModules: unusable } : {}),
      modules: Object.fromEntries(Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))),
    };
  }
  const newestApi = found.has(API)
    ? [...found.get(API).keys()].sort(compareVersions).at(-1)
    : committed()?.packages[API]?.versions.at(-1);
  return {
    about:
      "Generated by scripts/build-js-api-map.mjs from the npm packages themselves; do not edit (data/js-api-map.md). packages.<name>.modules.<specifier>[i] is the index in tables of the module's table in versions[i] (null: no such module; withoutModules: versions published without any module of their exports). A table's members: export, Class (constructor), Class#member, Class.static → {c: IPC commands ({n}: the call's n-th argument, {?}: not known statically), r: class returned}; ns: namespace → module; classes: returned class → the module that exports it.",
    generated: new Date().toISOString().slice(0, 10),
    apiResolvedAgainst: newestApi ? `${API}@${newestApi}` : null,
    packages,
    tables,
  };
}

/** One package or table per line: small diffs when a release adds a table. */
function serialise(map) {
  const lines = ["{"];
  lines.push(`  "about": ${JSON.stringify(map.about)},`);
  lines.push(`  "generated": ${JSON.stringify(map.generated)},`);
  lines.push(`  "apiResolvedAgainst": ${JSON.stringify(map.apiResolvedAgainst)},`);
  lines.push('  "packages": {');
  const packageNames = Object.keys(map.packages);
  packageNames.forEach((name, index) =>
    lines.push(
      `    ${JSON.stringify(name)}: ${JSON.stringify(map.packages[name])}${index < packageNames.length - 1 ? "," : ""}`,
    ),
  );
  lines.push("  },");
  lines.push('  "tables": [');
  map.tables.forEach((table, index) =>
    lines.push(`    ${JSON.stringify(table)}${index < map.tables.length - 1 ? "," : ""}`),
  );
  lines.push("  ]");
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

const map = await build();
if (check) {
  const current = fs.existsSync(outFile) ? JSON.parse(fs.readFileSync(outFile, "utf8")) : undefined;
  const strip = (value) => value && JSON.stringify({ ...value, generated: undefined });
  if (strip(current) !== strip(map)) {
    process.stderr.write(
      `${path.relative(process.cwd(), outFile)} is stale: run node scripts/build-js-api-map.mjs\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${path.relative(process.cwd(), outFile)} is up to date\n`);
} else {
  fs.writeFileSync(outFile, serialise(map));
  const versions = Object.values(map.packages).reduce(
    (sum, entry) => sum + entry.versions.length,
    0,
  );
  process.stdout.write(
    `${path.relative(process.cwd(), outFile)}: ${Object.keys(map.packages).length} packages, ${versions} versions, ${map.tables.length} tables, ${fs.statSync(outFile).size} bytes\n`,
  );
}
