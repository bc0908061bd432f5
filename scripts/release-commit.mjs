// Makes a release commit: HEAD plus a fresh build in dist/ (RUNTIME_BUILD and the PREBUILT marker),
// for a tag users pin as `rev:` in .pre-commit-config.yaml and as `uses: caplint/caplint@REF`. main's
// commits carry the build too (prebuilt/, scripts/prebuilt.mjs); a release commit's dist/ is built
// from exactly the tagged sources even when prebuilt/ lags. The commit is made with git's plumbing
// on top of HEAD (a temporary index, no checkout), and the work tree and the current branch are
// left as they were.
//
//   node scripts/release-commit.mjs [--tag v1.2.3] [--no-build]
//
// Prints the commit's hash. --no-build uses the build already in dist/ (it must be of HEAD).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PREBUILT_MARKER, RUNTIME_BUILD, RUNTIME_SOURCES } from "./lib/runtime-files.mjs";

const args = process.argv.slice(2);
const tagAt = args.indexOf("--tag");
const tag = tagAt >= 0 ? args[tagAt + 1] : undefined;
if (tagAt >= 0 && !tag) fail("--tag needs a name");
const unknown = args.filter((arg, i) => !["--tag", "--no-build"].includes(arg) && i !== tagAt + 1);
if (unknown.length)
  fail(
    `unknown argument ${unknown[0]} (usage: node scripts/release-commit.mjs [--tag NAME] [--no-build])`,
  );

const git = (gitArgs, options = {}) =>
  execFileSync("git", gitArgs, { encoding: "utf8", ...options }).trim();
const root = git(["rev-parse", "--show-toplevel"]);
process.chdir(root);
// The bundle must be built from HEAD's sources: no tracked file may differ from HEAD.
const changed = git(["status", "--porcelain", "--untracked-files=no"]);
if (changed) fail(`the work tree differs from HEAD; commit or stash first:\n${changed}`);
if (!args.includes("--no-build")) {
  const build = spawnSync("npm", ["run", "build"], {
    stdio: "inherit",
    shell: process.platform === "win32",
  });
  if (build.status !== 0) fail("npm run build failed");
}

// The rest of what the bin needs must be in HEAD's tree already.
for (const entry of RUNTIME_SOURCES)
  if (!git(["ls-tree", "--name-only", "HEAD", "--", entry])) fail(`${entry} is not in HEAD`);
const files = RUNTIME_BUILD.flatMap((entry) => filesUnder(entry));
if (!files.includes("dist/cli-bundle/main.cjs"))
  fail("dist/cli-bundle/main.cjs is missing: run npm run build");
const head = git(["rev-parse", "HEAD"]);
const scratch = mkdtempSync(path.join(tmpdir(), "caplint-release-"));
try {
  const env = { ...process.env, GIT_INDEX_FILE: path.join(scratch, "index") };
  git(["read-tree", "HEAD"], { env });
  for (const file of files) {
    const blob = git(["hash-object", "-w", "--", file]);
    git(["update-index", "--add", "--cacheinfo", `100644,${blob},${file}`], { env });
  }
  const marker = git(["hash-object", "-w", "--stdin"], {
    input: `The built CLI of ${head}, added by scripts/release-commit.mjs.\n`,
  });
  git(["update-index", "--add", "--cacheinfo", `100644,${marker},${PREBUILT_MARKER}`], { env });
  const tree = git(["write-tree"], { env });
  const commit = git([
    "commit-tree",
    tree,
    "-p",
    head,
    "-m",
    `Release tree of ${head.slice(0, 12)}: the built CLI, for pre-commit and the GitHub Action`,
  ]);
  if (tag) git(["tag", tag, commit]);
  process.stdout.write(`${commit}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

function filesUnder(entry) {
  if (!statSync(entry, { throwIfNoEntry: false })) fail(`${entry} is missing: run npm run build`);
  if (!statSync(entry).isDirectory()) return [entry];
  return readdirSync(entry, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) =>
      path.posix.join(
        path.relative(root, dirent.parentPath).split(path.sep).join("/"),
        dirent.name,
      ),
    )
    .sort();
}

function fail(message) {
  process.stderr.write(`release-commit: ${message}\n`);
  process.exit(2);
}
