import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";
import { cleanEnv } from "../helpers/release.js";

/**
 * `caplint diff --base REF [--head REF]` through the built bin, in throw-away git repositories: the
 * base side read from git's objects (no checkout, the work tree and the repository untouched), the
 * new side the work tree or another commit.
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

function sh(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: cleanEnv({ HOME: cwd, ...IDENTITY }),
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
const caplint = (args: string[], cwd: string) => sh(process.execPath, [BIN, ...args], cwd);
const git = (args: string[], cwd: string) => {
  const result = sh("git", args, cwd);
  if (result.code !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.trim();
};

/** A repository whose main holds fixtures/queries/app, and whose work tree has app-v2's capabilities. */
function repository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-diff-base-"));
  temporaries.push(dir);
  git(["init", "-q", "-b", "main"], dir);
  cpSync(path.join(FIXTURES, "queries", "app"), dir, { recursive: true });
  git(["add", "-A"], dir);
  git(["commit", "-q", "-m", "base"], dir);
  cpSync(
    path.join(FIXTURES, "queries", "app-v2", "src-tauri", "capabilities"),
    path.join(dir, "src-tauri", "capabilities"),
    { recursive: true },
  );
  return dir;
}

describe("caplint diff --base", () => {
  it("compares the work tree with a commit read from git, touching neither the work tree nor the repository", () => {
    const dir = repository();
    const status = git(["status", "--porcelain", "--untracked-files=all"], dir);
    const refs = git(["for-each-ref"], dir);
    const result = caplint(["diff", "--base", "main", "--platform", "linux"], dir);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(
      /^NEW ACCESS on linux \(7 command grants\):\n {2}window "docs" from https:\/\/partner\.dev:\n/,
    );
    expect(result.stdout).toContain(
      "plugin:window|set_title  ← remote-docs › core:window:allow-set-title  (src-tauri/capabilities/remote.json:16)  [new command, new remote origin]",
    );
    expect(git(["status", "--porcelain", "--untracked-files=all"], dir)).toBe(status);
    expect(git(["for-each-ref"], dir)).toBe(refs);
    expect(git(["stash", "list"], dir)).toBe("");

    // The same commit on both sides: nothing new.
    expect(caplint(["diff", "--base", "main", "--head", "HEAD"], dir)).toMatchObject({
      code: 0,
      stdout: "no new access on all platforms\n",
    });
  });

  it("--head REF reads the new side from git too; runs from a sub-folder", () => {
    const dir = repository();
    git(["add", "-A"], dir);
    git(["commit", "-q", "-m", "v2"], dir);
    // A work tree that says otherwise does not count.
    rmSync(path.join(dir, "src-tauri", "capabilities", "remote.json"));
    const result = caplint(
      ["diff", "--base", "main~1", "--head", "main", "--format", "json"],
      path.join(dir, "src-tauri"),
    );
    expect(result.code, result.stderr).toBe(1);
    const answer = JSON.parse(result.stdout);
    expect(answer.failOn).toEqual(["commands", "origins", "scopes"]);
    const setTitle = answer.added.find(
      (grant: { command: string; context: string }) =>
        grant.command === "plugin:window|set_title" && grant.context === "https://partner.dev",
    );
    expect(setTitle).toMatchObject({ window: "docs", kinds: ["commands", "origins"] });
    expect(setTitle.grantedBy[0]).toMatchObject({ file: "capabilities/remote.json", line: 16 });
  });

  it("annotations and SARIF on the lines that add the access; --fail-on chooses what fails", () => {
    const dir = repository();
    const github = caplint(["diff", "--base", "main", "--format", "github"], dir);
    expect(github.code).toBe(1);
    expect(github.stdout).toMatch(
      /^::error file=src-tauri\/capabilities\/remote\.json,line=15,endLine=15,col=5,endColumn=25,title=new-access::new remote origin: plugin:event\|emit to window "docs" from https:\/\/partner\.dev/m,
    );
    expect(github.stdout).toMatch(
      /^::error file=src-tauri\/capabilities\/remote\.json,line=16,.*title=new-access::new command: plugin:window\|set_title/m,
    );

    const sarif = JSON.parse(caplint(["diff", "--base", "main", "--format", "sarif"], dir).stdout);
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].tool.driver.rules.map((rule: { id: string }) => rule.id)).toEqual([
      "new-access",
    ]);
    const locations = sarif.runs[0].results.map(
      (r: {
        locations: Array<{
          physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
        }>;
      }) => [
        r.locations[0]!.physicalLocation.artifactLocation.uri,
        r.locations[0]!.physicalLocation.region.startLine,
      ],
    );
    expect(locations).toContainEqual(["src-tauri/capabilities/remote.json", 16]);

    // New remote origins are allowed by this gate: only the new command fails it; its origin finding is a warning.
    const commandsOnly = caplint(
      ["diff", "--base", "main", "--format", "compact", "--fail-on", "commands"],
      dir,
    );
    expect(commandsOnly.code).toBe(1);
    expect(commandsOnly.stdout).toMatch(
      /^src-tauri\/capabilities\/remote\.json:15:5: warning new remote origin: /m,
    );
    expect(commandsOnly.stdout).toMatch(
      /^src-tauri\/capabilities\/remote\.json:16:5: error new command: /m,
    );
    expect(caplint(["diff", "--base", "main", "--fail-on", "none"], dir).code).toBe(0);
    expect(caplint(["diff", "--base", "main", "--fail-on", "files"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"files" is not one of commands, origins, scopes'),
    });
  });

  it("reads build.rs, Cargo and permission files of each side from its commit", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-diff-base-"));
    temporaries.push(dir);
    git(["init", "-q", "-b", "main"], dir);
    mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
    cpSync(
      path.join(FIXTURES, "integrations", "app", "src-tauri", "tauri.conf.json"),
      path.join(dir, "src-tauri", "tauri.conf.json"),
    );
    const buildScript = (commands: string[]) =>
      `fn main() {\n    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(&${JSON.stringify(commands)}))).unwrap();\n}\n`;
    writeFileSync(path.join(dir, "src-tauri", "build.rs"), buildScript(["greet"]));
    writeFileSync(
      path.join(dir, "src-tauri", "capabilities", "default.json"),
      JSON.stringify({ identifier: "default", windows: ["main"], permissions: ["allow-greet"] }),
    );
    git(["add", "-A"], dir);
    git(["commit", "-q", "-m", "base"], dir);
    // The build now also generates allow-delete-files, and the capability grants it.
    writeFileSync(path.join(dir, "src-tauri", "build.rs"), buildScript(["greet", "delete_files"]));
    writeFileSync(
      path.join(dir, "src-tauri", "capabilities", "default.json"),
      JSON.stringify({
        identifier: "default",
        windows: ["main"],
        permissions: ["allow-greet", "allow-delete-files"],
      }),
    );
    const result = caplint(["diff", "--base", "main", "--platform", "linux"], dir);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toMatch(
      /^NEW ACCESS on linux \(1 command grant\):\n {2}window "main" from local:\n {4}delete_files {2}← default › allow-delete-files/,
    );
  });

  it("counts scope widened through the global scope and dropped denies, in every format, on the new side's lines", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-diff-base-"));
    temporaries.push(dir);
    git(["init", "-q", "-b", "main"], dir);
    const capabilities = path.join(dir, "src-tauri", "capabilities");
    mkdirSync(capabilities, { recursive: true });
    cpSync(
      path.join(FIXTURES, "integrations", "app", "src-tauri", "tauri.conf.json"),
      path.join(dir, "src-tauri", "tauri.conf.json"),
    );
    const main = (...permissions: string[]) =>
      `{\n  "identifier": "main",\n  "windows": ["main"],\n  "permissions": [\n    ${permissions.join(",\n    ")}\n  ]\n}\n`;
    writeFileSync(
      path.join(capabilities, "main.json"),
      main(
        '"fs:allow-read-file"',
        '{ "identifier": "fs:scope", "deny": [{ "path": "$HOME/.ssh/**" }] }',
        '{ "identifier": "fs:allow-read-file", "deny": [{ "path": "$HOME/secret" }] }',
      ),
    );
    writeFileSync(
      path.join(capabilities, "lockdown.json"),
      '{\n  "identifier": "lockdown",\n  "windows": ["*"],\n  "permissions": [\n    { "identifier": "fs:scope", "deny": [{ "path": "$HOME/.gnupg/**" }] }\n  ]\n}\n',
    );
    git(["add", "-A"], dir);
    git(["commit", "-q", "-m", "base"], dir);
    // The pull request: the home folder allowed to every fs command (a scope-only permission), the
    // .ssh deny dropped from fs:scope, the deny-only entry gone, and the lockdown capability deleted.
    writeFileSync(
      path.join(capabilities, "main.json"),
      main('"fs:allow-read-file"', '"fs:scope"', '"fs:scope-home-recursive"'),
    );
    rmSync(path.join(capabilities, "lockdown.json"));

    const text = caplint(["diff", "--base", "main", "--platform", "linux"], dir);
    expect(text.code, text.stderr).toBe(1);
    expect(text.stdout).toBe(
      [
        "no new command grants on linux",
        "WIDER SCOPES (5 scope values):",
        '  plugin:fs|read_file no longer denied {"path":"$HOME/secret"} for window "main" from local  ← main › fs:allow-read-file  (src-tauri/capabilities/main.json:7)',
        '  global scope of fs (every fs command, every window) allowed {"path":"$HOME/**"}  ← main › fs:scope-home-recursive  (src-tauri/capabilities/main.json:7)',
        '  global scope of fs (every fs command, every window) allowed {"path":"$HOME"}  ← main › fs:scope-home-recursive  (src-tauri/capabilities/main.json:7)',
        '  global scope of fs (every fs command, every window) no longer denied {"path":"$HOME/.gnupg/**"}  ← lockdown › fs:scope  (src-tauri/capabilities/lockdown.json:5)',
        '  global scope of fs (every fs command, every window) no longer denied {"path":"$HOME/.ssh/**"}  ← main › fs:scope  (src-tauri/capabilities/main.json:6)',
        "",
      ].join("\n"),
    );

    const answer = JSON.parse(
      caplint(["diff", "--base", "main", "--platform", "linux", "--format", "json"], dir).stdout,
    );
    expect(answer.widenedScopes).toContainEqual({
      scope: "global",
      plugin: "fs",
      change: "allowed",
      value: { path: "$HOME" },
      platforms: ["linux"],
      allowedBy: {
        capability: "main",
        permission: "fs:scope-home-recursive",
        chain: ["fs:scope-home-recursive"],
        file: "src-tauri/capabilities/main.json",
        line: 7,
      },
    });
    expect(answer.widenedScopes).toContainEqual(
      expect.objectContaining({
        scope: "command",
        plugin: "fs",
        command: "plugin:fs|read_file",
        context: "local",
        window: "main",
        change: "no longer denied",
        value: { path: "$HOME/secret" },
        deniedBy: expect.objectContaining({
          capability: "main",
          file: "src-tauri/capabilities/main.json",
          line: 7,
        }),
      }),
    );

    // Each finding on the new side's line: the entry that adds the access, the entry that lost its deny,
    // the list an entry left, or, for a deleted file, the app's first capability file.
    const compact = caplint(
      ["diff", "--base", "main", "--platform", "linux", "--format", "compact"],
      dir,
    );
    expect(compact.code).toBe(1);
    expect(compact.stdout.split("\n").filter((line) => line.includes("[new-access]"))).toEqual([
      'src-tauri/capabilities/main.json:1:1: error wider scope: global scope of fs (every fs command, every window) no longer denied {"path":"$HOME/.gnupg/**"}, denied on the old side by lockdown › fs:scope (src-tauri/capabilities/lockdown.json:5) [new-access]',
      'src-tauri/capabilities/main.json:4:18: error wider scope: plugin:fs|read_file no longer denied {"path":"$HOME/secret"} for window "main" from local, denied on the old side by main › fs:allow-read-file (src-tauri/capabilities/main.json:7) [new-access]',
      'src-tauri/capabilities/main.json:6:5: error wider scope: global scope of fs (every fs command, every window) no longer denied {"path":"$HOME/.ssh/**"}, denied on the old side by main › fs:scope (src-tauri/capabilities/main.json:6) [new-access]',
      'src-tauri/capabilities/main.json:7:5: error wider scope: global scope of fs (every fs command, every window) allowed {"path":"$HOME/**"}; global scope of fs (every fs command, every window) allowed {"path":"$HOME"} [new-access]',
    ]);

    const github = caplint(
      ["diff", "--base", "main", "--platform", "linux", "--format", "github"],
      dir,
    );
    expect(github.stdout).toMatch(
      /^::error file=src-tauri\/capabilities\/main\.json,line=7,endLine=7,col=5,endColumn=30,title=new-access::wider scope: global scope of fs \(every fs command, every window\) allowed \{"path":"\$HOME\/\*\*"\}/m,
    );
    expect(github.stdout).toMatch(
      /^::error file=src-tauri\/capabilities\/main\.json,line=6,.*no longer denied \{"path":"\$HOME\/\.ssh\/\*\*"\}.*%0Ahelp: a deny no longer narrows what the windows may reach: put it back, or say in the pull request why it goes/m,
    );
    expect(github.stdout).toMatch(
      /line=7,.*%0Ahelp: if this access is intended, say why in the pull request/,
    );

    const sarif = JSON.parse(
      caplint(["diff", "--base", "main", "--platform", "linux", "--format", "sarif"], dir).stdout,
    );
    const results = sarif.runs[0].results.map(
      (r: {
        level: string;
        locations: Array<{
          physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
        }>;
      }) => [
        r.level,
        r.locations[0]!.physicalLocation.artifactLocation.uri,
        r.locations[0]!.physicalLocation.region.startLine,
      ],
    );
    expect(results).toEqual([
      ["error", "src-tauri/capabilities/main.json", 1],
      ["error", "src-tauri/capabilities/main.json", 4],
      ["error", "src-tauri/capabilities/main.json", 6],
      ["error", "src-tauri/capabilities/main.json", 7],
    ]);

    // A gate on new commands and origins only: the same findings as warnings, exit 0.
    const lenient = caplint(
      [
        "diff",
        "--base",
        "main",
        "--platform",
        "linux",
        "--format",
        "compact",
        "--fail-on",
        "commands,origins",
      ],
      dir,
    );
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toMatch(
      /^src-tauri\/capabilities\/main\.json:7:5: warning wider scope: global scope of fs/m,
    );
    expect(caplint(["diff", "--base", "main", "--fail-on", "commands,origins"], dir).code).toBe(0);

    // Without an fs command nothing reads the global scope: the same scope changes widen nothing.
    writeFileSync(
      path.join(capabilities, "main.json"),
      main('"fs:scope"', '"fs:scope-home-recursive"'),
    );
    const unread = caplint(["diff", "--base", "main", "--platform", "linux"], dir);
    expect(unread.code).toBe(0);
    expect(unread.stdout).toMatch(/^no new access on linux\nremoved access \(1 command grant\):\n/);
  });

  it("never follows a link of the base commit out of the repository", () => {
    const dir = repository();
    const outside = mkdtempSync(path.join(tmpdir(), "caplint-outside-"));
    temporaries.push(outside);
    writeFileSync(
      path.join(outside, "secret.json"),
      JSON.stringify({
        identifier: "secret",
        windows: ["*"],
        permissions: ["shell:allow-execute"],
      }),
    );
    symlinkSync(
      path.join(outside, "secret.json"),
      path.join(dir, "src-tauri", "capabilities", "linked.json"),
    );
    git(["add", "-A"], dir);
    git(["commit", "-q", "-m", "link"], dir);
    const result = caplint(["diff", "--base", "main", "--head", "main", "--format", "json"], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(path.join(outside, "secret.json"), "utf8")).toContain("secret");
    expect(JSON.stringify(JSON.parse(result.stdout))).not.toContain("shell");
  });

  it("a shallow clone without the base says which fetch to add", () => {
    const dir = repository();
    git(["add", "-A"], dir);
    git(["commit", "-q", "-m", "v2"], dir);
    git(["branch", "release", "main~1"], dir);
    const clone = path.join(mkdtempSync(path.join(tmpdir(), "caplint-shallow-")), "clone");
    temporaries.push(path.dirname(clone));
    git(["clone", "-q", "--depth=1", "--single-branch", "-b", "main", `file://${dir}`, clone], dir);
    const result = caplint(["diff", "--base", "origin/release"], clone);
    expect(result).toMatchObject({
      code: 2,
      stdout: "",
      stderr:
        "caplint: --base origin/release: not in this shallow clone; fetch it first: git fetch --depth=1 origin +release:refs/remotes/origin/release (in GitHub Actions: actions/checkout with fetch-depth: 0)\n",
    });
    git(["fetch", "-q", "--depth=1", "origin", "+release:refs/remotes/origin/release"], clone);
    expect(caplint(["diff", "--base", "origin/release"], clone).code).toBe(1);
  });

  it("a ref that does not exist: advice that fits the repository (its remotes, or none), with a did-you-mean", () => {
    const dir = repository();
    git(["branch", "release"], dir);
    // No remote: no fetch to suggest, and no "origin" made up.
    expect(caplint(["diff", "--base", "relase"], dir)).toMatchObject({
      code: 2,
      stdout: "",
      stderr:
        'caplint: --base relase: no such commit, branch or tag in this repository, and it has no remote to fetch it from; did you mean "release"?\n',
    });
    // A remote with another name than origin: the fetch names it.
    git(["remote", "add", "upstream", "https://example.invalid/app.git"], dir);
    expect(caplint(["diff", "--base", "nosuchref"], dir).stderr).toBe(
      "caplint: --base nosuchref: no such commit, branch or tag in this repository; fetch it first: git fetch --depth=1 upstream +nosuchref:refs/remotes/upstream/nosuchref and use --base upstream/nosuchref\n",
    );
  });

  it("--app names the app folder inside the repository, as in every other command", () => {
    const dir = repository();
    const nested = path.join(dir, "apps", "one");
    mkdirSync(path.dirname(nested), { recursive: true });
    git(["mv", "src-tauri", "apps/one/"], dir);
    git(["commit", "-q", "-m", "move"], dir);
    cpSync(
      path.join(FIXTURES, "queries", "app-v2", "src-tauri", "capabilities"),
      path.join(nested, "src-tauri", "capabilities"),
      { recursive: true },
    );
    const byFlag = caplint(
      ["diff", "--base", "main", "--app", "apps/one", "--platform", "linux"],
      dir,
    );
    expect(byFlag.code, byFlag.stderr).toBe(1);
    expect(byFlag.stdout).toBe(
      caplint(["diff", "--base", "main", "apps/one", "--platform", "linux"], dir).stdout,
    );
    expect(byFlag.stdout).toMatch(/^NEW ACCESS on linux/);
    expect(caplint(["diff", "--app", "apps/one"], dir)).toMatchObject({
      code: 2,
      stderr:
        "caplint: diff --app apps/one: --app names the app with --base REF; without it, give OLD and NEW folders\n",
    });
  });

  it("outside a git repository, and without OLD and NEW, a usage error", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-no-git-"));
    temporaries.push(dir);
    const outside = caplint(["diff", "--base", "main"], dir);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/^caplint: not in a git repository/);
    expect(caplint(["diff"], dir)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("diff needs OLD and NEW folders, or --base REF"),
    });
  });
});
