import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";
import { cleanEnv } from "../helpers/release.js";

/**
 * `caplint diff --base REF` on commits crafted to make the snapshot writer write elsewhere: tree
 * entries git itself would never check out (`..`, `.`, `.git`, names written twice), a link beside a
 * tree of the same name whose text stays inside but whose resolution through another link does not.
 * The commits are made here with `git hash-object --literally` and `git commit-tree`; the snapshot's
 * temporary folder is under a TMPDIR of the test's own, so a write outside it lands where the test looks.
 */
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

interface Workspace {
  /** Holds `victim.json`, `tmp/` (the run's TMPDIR) and `repo/`. */
  top: string;
  repo: string;
  tmp: string;
}

function workspace(): Workspace {
  const top = mkdtempSync(path.join(tmpdir(), "caplint-diff-hostile-"));
  temporaries.push(top);
  const repo = path.join(top, "repo");
  const tmp = path.join(top, "tmp");
  mkdirSync(tmp);
  writeFileSync(path.join(top, "victim.json"), "original\n");
  cpSync(path.join(FIXTURES, "queries", "app"), repo, { recursive: true });
  git(["init", "-q", "-b", "main"], repo);
  git(["add", "-A"], repo);
  git(["commit", "-q", "-m", "base"], repo);
  return { top, repo, tmp };
}

function git(args: string[], cwd: string, input?: Buffer): string {
  const result = spawnSync("git", args, { cwd, input, env: cleanEnv({ HOME: cwd, ...IDENTITY }) });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.toString()}`);
  return result.stdout.toString().trim();
}

const blob = (repo: string, text: string | Buffer) =>
  git(["hash-object", "-w", "--stdin"], repo, Buffer.from(text));

/** A tree object written as given, in the given order: what `git mktree` would refuse too. */
function tree(repo: string, entries: Array<[mode: string, name: string, object: string]>): string {
  const raw = entries.map(([mode, name, object]) =>
    Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(object, "hex")]),
  );
  return git(
    ["hash-object", "-t", "tree", "-w", "--literally", "--stdin"],
    repo,
    Buffer.concat(raw),
  );
}

/** The entries of a tree, as `tree()` takes them. */
function entriesOf(repo: string, treeish: string): Array<[string, string, string]> {
  return git(["ls-tree", "-z", treeish], repo)
    .split("\0")
    .filter(Boolean)
    .map((line) => {
      const [meta = "", name = ""] = line.split("\t");
      const [mode = "", , object = ""] = meta.split(" ");
      return [mode.replace(/^0+/, ""), name, object];
    });
}

/** A commit on top of main whose root tree is main's plus `extra` entries. */
function craftedCommit(repo: string, extra: Array<[string, string, string]>): string {
  return git(
    [
      "commit-tree",
      tree(repo, [...entriesOf(repo, "HEAD"), ...extra]),
      "-p",
      "HEAD",
      "-m",
      "crafted",
    ],
    repo,
  );
}

function caplint(args: string[], space: Workspace) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: space.repo,
    encoding: "utf8",
    env: cleanEnv({ HOME: space.repo, TMPDIR: space.tmp, ...IDENTITY }),
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Every path under `dir` but the repository, with its size: what a run may not change. */
function outsideTheRepository(space: Workspace): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (full === space.repo) continue;
      const stat = statSync(full, { throwIfNoEntry: false });
      found.push(
        `${path.relative(space.top, full)} ${stat?.isDirectory() ? "dir" : `${stat?.size} ${(stat?.mode ?? 0) & 0o777}`}`,
      );
      if (stat?.isDirectory()) walk(full);
    }
  };
  walk(space.top);
  return found.sort();
}

describe("diff --base writes only inside its snapshot folder", () => {
  it.each([
    ["100644", "a file"],
    ["100755", "an executable file"],
  ])(
    "tree entries named .. (%s, %s) are refused, naming the entry; nothing is written outside",
    (mode) => {
      const space = workspace();
      const before = outsideTheRepository(space);
      const payload = blob(
        space.repo,
        JSON.stringify({
          identifier: "pwned",
          windows: ["*"],
          permissions: ["shell:allow-execute"],
        }),
      );
      let inner = tree(space.repo, [[mode, "victim.json", payload]]);
      for (let depth = 0; depth < 3; depth++) inner = tree(space.repo, [["40000", "..", inner]]);
      const commit = craftedCommit(space.repo, [["40000", "evil", inner]]);
      expect(git(["ls-tree", "-r", "--name-only", commit], space.repo)).toContain(
        "evil/../../../victim.json",
      );

      const result = caplint(["diff", "--base", commit, "--head", commit], space);
      expect(result).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toBe(
        `caplint: --base: ${commit.slice(0, 12)} has a tree entry "evil/../../../victim.json" that is named ".."; git would not check it out, and caplint does not read it\n`,
      );
      expect(readFileSync(path.join(space.top, "victim.json"), "utf8")).toBe("original\n");
      expect(outsideTheRepository(space)).toEqual(before);
    },
  );

  it("a link beside a tree of the same name, leaving through another link, is refused; nothing is written through it", () => {
    const space = workspace();
    const before = outsideTheRepository(space);
    const payload = blob(space.repo, JSON.stringify({ identifier: "pwned" }));
    // y1 -> . makes y1/y1/../.. the folder above the snapshot's, though the text reads as ".".
    const commit = craftedCommit(space.repo, [
      ["120000", "y1", blob(space.repo, ".")],
      ["120000", "z", blob(space.repo, "y1/y1/../..")],
      ["40000", "z", tree(space.repo, [["100644", "victim.json", payload]])],
    ]);
    const result = caplint(["diff", "--base", commit], space);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toMatch(
      /has a tree entry "z(\/victim\.json)?" that (is written twice|lies below the link "z")/,
    );
    expect(readFileSync(path.join(space.top, "victim.json"), "utf8")).toBe("original\n");
    expect(outsideTheRepository(space)).toEqual(before);
  });

  it.each([
    [".", 'is named "."'],
    [".git", "is named .git"],
    [".GIT", "is named .git"],
  ])("an entry named %s is refused", (name, why) => {
    const space = workspace();
    const commit = craftedCommit(space.repo, [
      ["40000", name, tree(space.repo, [["100644", "x.json", blob(space.repo, "{}")]])],
    ]);
    const result = caplint(["diff", "--base", commit], space);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toContain(`has a tree entry "${name}/x.json" that ${why}`);
    expect(readdirSync(space.tmp)).toEqual([]);
  });

  it("a file written twice, and a file below a file of the same name, are refused", () => {
    const space = workspace();
    const one = blob(space.repo, "{}");
    const twice = craftedCommit(space.repo, [
      ["100644", "x.json", one],
      ["100644", "x.json", blob(space.repo, '{"other":1}')],
    ]);
    expect(caplint(["diff", "--base", twice], space)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('has a tree entry "x.json" that is written twice'),
    });
    const below = craftedCommit(space.repo, [
      ["100644", "x.json", one],
      ["40000", "x.json", tree(space.repo, [["100644", "y.json", one]])],
    ]);
    expect(caplint(["diff", "--base", below], space)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'has a tree entry "x.json/y.json" that lies below the file "x.json"',
      ),
    });
    expect(readdirSync(space.tmp)).toEqual([]);
  });

  it("a link that leaves only through another link is not made, and what it names is never read", () => {
    const space = workspace();
    // The folder above the snapshot's, where a link would lead: a capability granting the shell.
    writeFileSync(
      path.join(space.tmp, "leak.json"),
      JSON.stringify({ identifier: "leak", windows: ["*"], permissions: ["shell:allow-execute"] }),
    );
    const withLink = tree(space.repo, [
      ...entriesOf(space.repo, "HEAD:src-tauri/capabilities"),
      ["120000", "leak.json", blob(space.repo, "../../s1/../leak.json")],
    ]);
    const srcTauri = entriesOf(space.repo, "HEAD:src-tauri").map(
      ([mode, name, object]): [string, string, string] => [
        mode,
        name,
        name === "capabilities" ? withLink : object,
      ],
    );
    const root = entriesOf(space.repo, "HEAD").map(
      ([mode, name, object]): [string, string, string] => [
        mode,
        name,
        name === "src-tauri" ? tree(space.repo, srcTauri) : object,
      ],
    );
    const commit = git(
      [
        "commit-tree",
        tree(space.repo, [["120000", "s1", blob(space.repo, ".")], ...root]),
        "-p",
        "HEAD",
        "-m",
        "leak",
      ],
      space.repo,
    );
    const result = caplint(["diff", "--base", "HEAD", "--head", commit, "--format", "json"], space);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain("shell");
  });

  it("memory holds one blob at a time, not the commit: 12 files of 10 MB in a 120 MB commit", () => {
    const space = workspace();
    mkdirSync(path.join(space.repo, "big"));
    // Files of a kind the snapshot writes (".lock") that no loader parses, so the snapshot alone is measured.
    for (let index = 0; index < 12; index++)
      writeFileSync(
        path.join(space.repo, "big", `f${index}.lock`),
        `# ${index}\n${"x".repeat(10 * 1024 * 1024 - 200)}\n`,
      );
    git(["add", "-A"], space.repo);
    git(["commit", "-q", "-m", "big"], space.repo);
    rmSync(path.join(space.repo, "big"), { recursive: true });
    const probe = path.join(space.top, "rss.mjs");
    writeFileSync(
      probe,
      `import { writeSync } from "node:fs"; process.on("exit", () => writeSync(2, "maxrss=" + process.resourceUsage().maxRSS + "\\n"));`,
    );
    const result = spawnSync(
      process.execPath,
      ["--import", probe, BIN, "diff", "--base", "main", "--head", "main"],
      {
        cwd: space.repo,
        encoding: "utf8",
        env: cleanEnv({ HOME: space.repo, TMPDIR: space.tmp, ...IDENTITY }),
      },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe("no new access on all platforms\n");
    const peakKiB = Number(/maxrss=(\d+)/.exec(result.stderr)?.[1]);
    // Before: every blob in one buffer and a copy of it (12 files: 330 MB; 50 files: 1.13 GB); now about 140 MB whatever the size.
    expect(peakKiB / 1024).toBeLessThan(200);
    expect(readdirSync(space.tmp)).toEqual([]);
  });
});
