/**
 * `diff --base` says what is wrong once and plainly (issue 36, cosmetic): a 100,000-character ref is cut
 * and printed once (it was printed whole four times, in the fetch advice too), and a bare repository
 * is called bare (it was "not in a git repository"). Through the built bin, in repositories made here.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";
import { cleanEnv } from "../helpers/release.js";

const BIN = path.join(ROOT, "bin", "caplint.js");
const IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};
const temporaries: string[] = [];
afterAll(() => {
  for (const dir of temporaries) rmSync(dir, { recursive: true, force: true });
});

function git(args: string[], cwd: string): void {
  const result = spawnSync("git", args, { cwd, env: cleanEnv({ HOME: cwd, ...IDENTITY }) });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.toString()}`);
}

function caplint(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: cleanEnv({ HOME: cwd, NO_COLOR: "1" }),
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-diff-messages-"));
  temporaries.push(dir);
  return dir;
}

describe("diff --base messages", { timeout: 120_000 }, () => {
  it("a 100,000-character ref is cut and printed once, without asking git (with a remote to advise a fetch from)", () => {
    const repo = folder();
    cpSync(path.join(FIXTURES, "queries", "app"), repo, { recursive: true });
    git(["init", "-q", "-b", "main"], repo);
    git(["add", "-A"], repo);
    git(["commit", "-q", "-m", "base"], repo);
    git(["remote", "add", "origin", "https://example.invalid/app.git"], repo);
    const ref = "a".repeat(100_000);
    for (const option of ["--base", "--head"]) {
      const args =
        option === "--base" ? ["diff", "--base", ref] : ["diff", "--base", "main", "--head", ref];
      const result = caplint(args, repo);
      expect(result.stderr).toBe(
        `caplint: ${option} ${"a".repeat(80)}…[99920 more characters]: not a git revision (100,000 characters; a ref name is a path, at most 4,096)\n`,
      );
      expect(result.code).toBe(2);
    }
  });

  it("a bare repository is called bare", () => {
    const bare = folder();
    git(["init", "-q", "--bare"], bare);
    const result = caplint(["diff", "--base", "HEAD"], bare);
    expect(result.stderr).toBe(
      `caplint: ${bare} is a bare git repository: it has commits but no work tree, and --base and --head read the app from where caplint runs in one; run it in a clone or a worktree (git worktree add)\n`,
    );
    expect(result.code).toBe(2);
  });
});
