// The built CLI committed on main, in prebuilt/ (the convention of JavaScript GitHub Actions, whose
// dist/ is committed): pre-commit installs caplint from any commit with `npm install -g git+…`, which
// packs the clone as it is (no build: npm would build a git dependency without its devDependencies),
// and the GitHub Action runs `uses: caplint/caplint@<any ref>` without installing anything.
// bin/caplint.js runs dist/'s bundle when there is one (a checkout that was built, the npm package)
// and prebuilt/'s otherwise.
//
//   npm run prebuilt                      build, then copy the build into prebuilt/ (commit it)
//   node scripts/prebuilt.mjs --check     exit 1 when prebuilt/ is not what dist/ holds (the build of
//                                         these sources); test/shipped/prebuilt.test.ts runs it in npm test
//
// The build is deterministic (tsc, the schema validators, esbuild: no time, no absolute path), so a
// prebuilt/ made on one machine is byte for byte what another builds from the same commit.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PREBUILT, RUNTIME_BUILD } from "./lib/runtime-files.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");

/** Each built file, as [its path below dist/, its path below prebuilt/]. */
function builtFiles() {
  return RUNTIME_BUILD.flatMap((entry) => {
    const full = path.join(ROOT, entry);
    if (!statSync(full, { throwIfNoEntry: false })) fail(`${entry} is missing: run npm run build`);
    const files = statSync(full).isDirectory()
      ? readdirSync(full).map((name) => path.posix.join(entry, name))
      : [entry];
    return files.map((file) => [
      file,
      path.posix.join(PREBUILT, path.posix.relative("dist", file)),
    ]);
  });
}

function filesBelow(dir) {
  if (!statSync(dir, { throwIfNoEntry: false })) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) =>
      path.relative(ROOT, path.join(dirent.parentPath, dirent.name)).split(path.sep).join("/"),
    );
}

const pairs = builtFiles();
if (check) {
  const stale = pairs.filter(([built, kept]) => {
    const keptPath = path.join(ROOT, kept);
    return (
      !statSync(keptPath, { throwIfNoEntry: false }) ||
      !readFileSync(path.join(ROOT, built)).equals(readFileSync(keptPath))
    );
  });
  const wanted = new Set(pairs.map(([, kept]) => kept));
  const extra = filesBelow(path.join(ROOT, PREBUILT)).filter((file) => !wanted.has(file));
  if (stale.length || extra.length) {
    const listed = [
      ...stale.map(([, kept]) => kept),
      ...extra.map((file) => `${file} (not built any more)`),
    ];
    fail(
      `${PREBUILT}/ is not the build of these sources (${listed.join(", ")}): run "npm run prebuilt" and commit ${PREBUILT}/`,
      1,
    );
  }
  process.stdout.write(`${PREBUILT}/ is the build of these sources (${pairs.length} files)\n`);
} else {
  rmSync(path.join(ROOT, PREBUILT), { recursive: true, force: true });
  for (const [built, kept] of pairs) {
    mkdirSync(path.dirname(path.join(ROOT, kept)), { recursive: true });
    copyFileSync(path.join(ROOT, built), path.join(ROOT, kept));
  }
  process.stdout.write(`${PREBUILT}/: ${pairs.length} files copied from dist/; commit them\n`);
}

function fail(message, code = 2) {
  process.stderr.write(`prebuilt: ${message}\n`);
  process.exit(code);
}
