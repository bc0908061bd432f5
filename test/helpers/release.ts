import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "./run.js";

const IDENTITY = {
  GIT_AUTHOR_NAME: "caplint test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "caplint test",
  GIT_COMMITTER_EMAIL: "test@example.com",
};

/** The environment of a nested git or npm: nothing inherited from a git or `npm test` running these tests. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // npm_*: what `npm test` exports to its scripts (its cache, prefixes) must not steer a nested npm.
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith("GIT_") && !key.startsWith("PRE_COMMIT") && !/^npm_/i.test(key))
      env[key] = value;
  return { ...env, NO_COLOR: "1", ...extra };
}

/**
 * What users pin: a release commit (scripts/release-commit.mjs) in a fresh clone of this checkout's
 * HEAD, made from the build in dist/, tagged `tag`. Returns the clone and the commit.
 */
export function releaseCommit(tag: string): { clone: string; rev: string } {
  const clone = path.join(mkdtempSync(path.join(tmpdir(), "caplint-release-")), "caplint");
  const env = cleanEnv({ HOME: path.dirname(clone), ...IDENTITY });
  const cloned = spawnSync("git", ["clone", "-q", "--no-hardlinks", ROOT, clone], {
    env,
    encoding: "utf8",
  });
  if (cloned.status !== 0) throw new Error(`git clone: ${cloned.stderr}`);
  for (const built of ["cli-bundle", "generated"])
    cpSync(path.join(ROOT, "dist", built), path.join(clone, "dist", built), { recursive: true });
  const release = spawnSync(
    process.execPath,
    [path.join(clone, "scripts", "release-commit.mjs"), "--no-build", "--tag", tag],
    {
      cwd: clone,
      env,
      encoding: "utf8",
    },
  );
  if (release.status !== 0)
    throw new Error(`scripts/release-commit.mjs: ${release.stdout}${release.stderr}`);
  return { clone, rev: release.stdout.trim() };
}
