#!/usr/bin/env node
// Runs one build of caplint over every fixture in every output format and writes each run's exit code,
// stdout and stderr to a folder, so two builds (main's and a refactor's) can be compared with `diff -r`:
//
//   node scripts/compare-outputs.mjs <build-root> <out-dir> [--only capabilities|events|mcp] [--bundle]
//   diff -r /tmp/before /tmp/after
//
// <build-root> holds a build (`npm run build`): its dist/cli/main.js is run in-process, one run after
// another, as test/helpers/run.ts runs main() (a child process per run would take an hour here).
// With --bundle, the shipped bundle (dist/cli-bundle/main.cjs, what bin/caplint.js runs) is compiled
// and run instead: a change to scripts/bundle.mjs or its minification shows only there.
// Cases: every capability rule fixture (fixtures/capabilities/: a file or app folder, with its .args,
// and --fix-dry-run on the fixable ones), every app of fixtures/real-world, every recording of
// fixtures/events and every dump of fixtures/mcp (each with its .args).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import vm from "node:vm";

const [buildRoot, outDir, ...rest] = process.argv.slice(2);
if (!buildRoot || !outDir) {
  process.stderr.write(
    "usage: node scripts/compare-outputs.mjs <build-root> <out-dir> [--only capabilities|events|mcp] [--bundle]\n",
  );
  process.exit(2);
}
const onlyAt = rest.indexOf("--only");
const only = onlyAt >= 0 ? rest[onlyAt + 1] : undefined;
const ROOT = path.resolve(import.meta.dirname, "..");
const FIXTURES = path.join(ROOT, "fixtures");
const FORMATS = ["stylish", "compact", "json", "sarif", "github"];
const { main } = rest.includes("--bundle")
  ? shippedBundle(path.join(path.resolve(buildRoot), "dist", "cli-bundle", "main.cjs"))
  : await import(pathToFileURL(path.join(path.resolve(buildRoot), "dist", "cli", "main.js")).href);

/** The bundle's exports, compiled as bin/caplint.js compiles it (a wrapped CommonJS module body). */
function shippedBundle(bundle) {
  const module = { exports: {} };
  new vm.Script(readFileSync(bundle, "utf8"), { filename: bundle }).runInThisContext()(
    module.exports,
    createRequire(bundle),
    module,
    bundle,
    path.dirname(bundle),
  );
  return module.exports;
}

const CASE = /\.(json|jsonl|toml|json5|txt)$/;

function argsOf(file) {
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean)
    : [];
}

/** [name, cwd, argv without --format] of every case. */
function* cases() {
  if (!only || only === "capabilities") {
    const rules = path.join(FIXTURES, "capabilities");
    for (const rule of readdirSync(rules).sort()) {
      for (const kind of ["valid", "invalid"]) {
        const dir = path.join(rules, rule, kind);
        if (!existsSync(dir)) continue;
        for (const name of readdirSync(dir).sort()) {
          if (name.endsWith(".out") || name.endsWith(".args") || /\.fixed\.(json|toml)$/.test(name))
            continue;
          const isApp = statSync(path.join(dir, name)).isDirectory();
          if (!isApp && !CASE.test(name)) continue;
          const argv = [
            "check",
            ...(isApp ? ["--app", name] : [name]),
            ...argsOf(path.join(dir, `${name.replace(CASE, "")}.args`)),
          ];
          yield [`${rule}/${kind}/${name}`, dir, argv];
          if (
            existsSync(path.join(dir, `${name.replace(CASE, "")}.fixed.json`)) ||
            existsSync(path.join(dir, `${name.replace(CASE, "")}.fixed.toml`))
          )
            yield [`${rule}/${kind}/${name}.fix-dry-run`, dir, [...argv, "--fix-dry-run"]];
        }
      }
    }
    const corpus = path.join(FIXTURES, "real-world");
    for (const app of readdirSync(corpus).sort())
      if (statSync(path.join(corpus, app)).isDirectory())
        yield [`real-world/${app}`, corpus, ["check", "--app", app]];
  }
  if (!only || only === "events") {
    const root = path.join(FIXTURES, "events");
    for (const name of readdirSync(root, { recursive: true, encoding: "utf8" }).sort())
      if (name.endsWith(".jsonl"))
        yield [
          `events/${name}`,
          root,
          ["events", name, ...argsOf(path.join(root, name.replace(/\.jsonl$/, ".args")))],
        ];
  }
  if (!only || only === "mcp") {
    const root = path.join(FIXTURES, "mcp");
    for (const name of readdirSync(root, { recursive: true, encoding: "utf8" }).sort())
      if (name.endsWith(".json") && !name.startsWith("clients"))
        yield [
          `mcp/${name}`,
          root,
          ["mcp", name, ...argsOf(path.join(root, name.replace(/\.json$/, ".args")))],
        ];
  }
}

let count = 0;
for (const [name, cwd, argv] of cases()) {
  for (const format of FORMATS) {
    let stdout = "";
    let stderr = "";
    const code = await main({
      argv: [argv[0], "--format", format, ...argv.slice(1)],
      cwd,
      env: { NO_COLOR: "1" },
      stdout: { write: (s) => (stdout += s) },
      stderr: { write: (s) => (stderr += s) },
    });
    const file = path.join(outDir, `${name}.${format}`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `exit ${code}\n--- stdout\n${stdout}--- stderr\n${stderr}`);
    count++;
  }
}
process.stdout.write(`${count} runs written to ${outDir}\n`);
