import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";
import { describeWithTool } from "../helpers/tools.js";
import { cleanEnv, releaseCommit } from "../helpers/release.js";
import { readYaml } from "./yaml.js";

/**
 * The hooks in .pre-commit-hooks.yaml, run by the real pre-commit tool (4.x from pip, the way users
 * get it; scripts/ensure-tools.sh installs it) in throw-away git repositories: a bad capability file
 * must stop the commit with caplint's message, a good one must pass, and a commit that only edits
 * build.rs or Cargo.toml is checked too.
 */
interface HookDefinition {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  exclude?: string;
  pass_filenames: boolean;
  require_serial?: boolean;
}

const MANIFEST = path.join(ROOT, ".pre-commit-hooks.yaml");
const APP = path.join(FIXTURES, "integrations", "app");
const BIN = path.join(ROOT, "bin", "caplint.js");
const TYPO_MESSAGE = 'unknown permission "core:window:allow-set-titel"';

const hooks = readYaml(MANIFEST) as HookDefinition[];
/** git, pre-commit and caplint processes per test; on a busy two-core CI machine that can take minutes. */
const HOOK_TIMEOUT = 240_000;
const hook = (id: string) => hooks.find((h) => h.id === id)!;

/** A `repo: local` config running caplint as the published caplint-system hook does (its files, exclude, serial). */
function localHook(
  name: string,
  entry = `'${process.execPath}' '${BIN}' check`,
  overrides: Partial<HookDefinition> = {},
) {
  const { files, exclude, pass_filenames, require_serial } = hook("caplint-system");
  return {
    repos: [
      {
        repo: "local",
        hooks: [
          {
            id: "caplint",
            name,
            entry,
            language: "system",
            files,
            exclude,
            pass_filenames,
            require_serial,
            ...overrides,
          },
        ],
      },
    ],
  };
}
const preCommit = spawnSync("pre-commit", ["--version"], { encoding: "utf8" });
const preCommitVersion = preCommit.status === 0 ? preCommit.stdout.trim() : undefined;
/** pre-commit 3 installed `language: node` hooks differently (npm pack); users install 4 today. */
const preCommitMajor = Number(/(\d+)\./.exec(preCommitVersion ?? "")?.[1] ?? 0);

interface Run {
  code: number;
  output: string;
}

function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  // pre-commit's npm install and build of this checkout takes 4-5 minutes while the rest of the suite runs on two cores.
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 560_000 });
  if (result.error) throw result.error;
  return { code: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

const temporaryDirs: string[] = [];
// pre-commit's npm install of this checkout leaves thousands of files: removing them takes a while on a busy machine.
afterAll(() => {
  for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
}, 300_000);

/** A git repository with pre-commit installed as its hook, holding the fixture app without capabilities. */
function repository(config: unknown, extraEnv: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-pre-commit-"));
  temporaryDirs.push(dir);
  const work = path.join(dir, "repo");
  mkdirSync(work);
  const env = cleanEnv({
    PRE_COMMIT_HOME: path.join(dir, "pre-commit-home"),
    HOME: dir,
    ...extraEnv,
  });
  const git = (...args: string[]) => sh("git", args, work, env);
  git("init", "-q", "-b", "main");
  git("config", "user.email", "test@example.com");
  git("config", "user.name", "caplint test");
  git("config", "commit.gpgsign", "false");
  cpSync(
    path.join(APP, "src-tauri", "tauri.conf.json"),
    path.join(work, "src-tauri", "tauri.conf.json"),
    { recursive: true },
  );
  mkdirSync(path.join(work, "src-tauri", "capabilities"), { recursive: true });
  // JSON is YAML, and saves quoting paths and regular expressions by hand.
  writeFileSync(path.join(work, ".pre-commit-config.yaml"), JSON.stringify(config, null, 2) + "\n");
  expect(sh("pre-commit", ["install"], work, env).code).toBe(0);
  const commit = (message: string, ...files: string[]): Run => {
    git("add", ...files);
    return git("commit", "-q", "-m", message);
  };
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    writeFileSync(path.join(work, file), text);
  };
  const commits = () => Number(git("rev-list", "--count", "--all").output.trim() || "0");
  return { work, env, git, commit, write, commits };
}

const BAD = readFileSync(path.join(APP, "src-tauri", "capabilities", "typo.json"), "utf8");
const GOOD = readFileSync(path.join(APP, "src-tauri", "capabilities", "default.json"), "utf8");

/** The checks every variant must pass: a bad file is refused with caplint's message, a good one passes. */
function expectHookStopsBadCommits(repo: ReturnType<typeof repository>, hookName: string) {
  repo.commit("config", ".pre-commit-config.yaml");
  repo.write("src-tauri/capabilities/settings.json", BAD);
  const refused = repo.commit("add settings", "src-tauri/capabilities/settings.json");
  expect(refused.code, refused.output).not.toBe(0);
  expect(refused.output).toMatch(new RegExp(`${hookName.replace(/[()]/g, "\\$&")}\\.+Failed`));
  expect(refused.output).toContain(TYPO_MESSAGE);
  expect(refused.output).toContain("src-tauri/capabilities/settings.json");
  expect(repo.commits()).toBe(1);

  repo.write("src-tauri/capabilities/settings.json", GOOD);
  const accepted = repo.commit("add settings", "src-tauri/capabilities/settings.json");
  expect(accepted.code, accepted.output).toBe(0);
  expect(accepted.output).toMatch(new RegExp(`${hookName.replace(/[()]/g, "\\$&")}\\.+Passed`));
  expect(repo.commits()).toBe(2);
}

/** A build.rs naming the app command `command`, as `tauri_build` reads it. */
const buildScript = (command: string) =>
  `fn main() {\n    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(&["${command}"]))).unwrap();\n}\n`;

/**
 * Files that change the verdict without being capability files: a commit of build.rs alone that
 * renames a granted command is refused, and a commit of Cargo.toml alone runs the hook.
 */
function expectBuildFilesChecked(repo: ReturnType<typeof repository>, hookName: string) {
  const name = hookName.replace(/[()]/g, "\\$&");
  repo.write("src-tauri/build.rs", buildScript("greet"));
  repo.write(
    "src-tauri/capabilities/greet.json",
    JSON.stringify({ identifier: "greet", windows: ["main"], permissions: ["allow-greet"] }) + "\n",
  );
  const granted = repo.commit("greet", "src-tauri/build.rs", "src-tauri/capabilities/greet.json");
  expect(granted.code, granted.output).toBe(0);

  repo.write("src-tauri/build.rs", buildScript("greet_user"));
  const renamed = repo.commit("rename greet", "src-tauri/build.rs");
  expect(renamed.code, renamed.output).not.toBe(0);
  expect(renamed.output).toMatch(new RegExp(`${name}\\.+Failed`));
  expect(renamed.output).toContain('unknown permission "allow-greet"');
  repo.git("reset", "-q", "--hard");

  repo.write("src-tauri/capabilities/typo.json", BAD);
  expect(repo.git("add", "src-tauri/capabilities/typo.json").code).toBe(0);
  expect(repo.git("commit", "-q", "--no-verify", "-m", "bypass").code).toBe(0);
  repo.write(
    "src-tauri/Cargo.toml",
    '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n',
  );
  const cargo = repo.commit("Cargo.toml", "src-tauri/Cargo.toml");
  expect(cargo.code, cargo.output).not.toBe(0);
  expect(cargo.output).toMatch(new RegExp(`${name}\\.+Failed`));
  expect(cargo.output).toContain(TYPO_MESSAGE);
}

describe(".pre-commit-hooks.yaml", () => {
  it("defines the node hook and its documented system variant", () => {
    expect(hooks.map((h) => h.id)).toEqual(["caplint", "caplint-system"]);
    for (const h of hooks) {
      // The app, not a file list: pre-commit splits long lists into several runs, whatever require_serial says.
      expect(h).toMatchObject({
        entry: "caplint check",
        pass_filenames: false,
        require_serial: true,
      });
      expect(h.name).toMatch(/^caplint/);
    }
    expect(hook("caplint").language).toBe("node");
    expect(hook("caplint-system").language).toBe("system");
    expect(hook("caplint-system").files).toBe(hook("caplint").files);
  });

  it("selects every file that can change the verdict, and not the generated schemas", () => {
    const files = new RegExp(hook("caplint").files);
    const exclude = new RegExp(hook("caplint").exclude!);
    const selected = (file: string) => files.test(file) && !exclude.test(file);
    for (const file of [
      "src-tauri/capabilities/default.json",
      "capabilities/a.toml",
      "apps/x/src-tauri/capabilities/nested/b.json",
      "src-tauri/tauri.conf.json",
      "tauri.conf.json",
      "src-tauri/tauri.linux.conf.json",
      "src-tauri/Tauri.toml",
      "src-tauri/Tauri.windows.toml",
      "src-tauri/build.rs",
      "src-tauri/Cargo.toml",
      "Cargo.toml",
      "Cargo.lock",
      "src-tauri/permissions/greet.toml",
      "src-tauri/permissions/autogenerated/greet.json",
      "plugins/fs/permissions/default.toml",
      "src-tauri/gen/schemas/acl-manifests.json",
      "caplint.config.json",
      "apps/desktop/caplint.config.json",
      "src-tauri/permissions/app.toml",
      "plugins/tauri-plugin-x/permissions/autogenerated/commands/run.toml",
    ]) {
      expect(selected(file), file).toBe(true);
    }
    for (const file of [
      "src-tauri/capabilities/schemas/desktop-schema.json",
      "src-tauri/gen/schemas/capabilities.json",
      "src-tauri/capabilities/notes.md",
      "package.json",
      "src-tauri/mytauri.conf.json",
      "src-tauri/src/main.rs",
      "src-tauri/gen/schemas/desktop-schema.json",
      "src-tauri/permissions/README.md",
      "my-build.rs",
      "src-tauri/mybuild.rs",
      "plugins/tauri-plugin-x/permissions/schemas/schema.json",
    ]) {
      expect(selected(file), file).toBe(false);
    }
  });
});

describeWithTool(
  "pre-commit 4",
  preCommitMajor >= 4,
  `run scripts/ensure-tools.sh (pip install pre-commit); found ${preCommitVersion ?? "none"}`,
  `pre-commit (${preCommitVersion ?? "not installed"})`,
  () => {
    beforeAll(() => {
      if (!readFileSync(BIN, "utf8").includes('"dist", "cli-bundle"'))
        throw new Error(
          "bin/caplint.js no longer loads dist/cli-bundle/main.cjs: update this test",
        );
      expect(
        spawnSync(process.execPath, [BIN, "--version"]).status,
        "the build in dist/ (run npm run build)",
      ).toBe(0);
    });

    it(
      "repo: local, language: system, with the hook's files/exclude: refuses a bad capability file and accepts a good one",
      () => {
        const repo = repository(localHook("caplint (local)"));
        expectHookStopsBadCommits(repo, "caplint (local)");

        // A changed tauri.conf.json checks its app: a bad capability committed past the hook shows up.
        repo.write("src-tauri/capabilities/typo.json", BAD);
        expect(repo.git("add", "src-tauri/capabilities/typo.json").code).toBe(0);
        expect(repo.git("commit", "-q", "--no-verify", "-m", "bypass").code).toBe(0);
        repo.write(
          "src-tauri/tauri.conf.json",
          readFileSync(path.join(APP, "src-tauri", "tauri.conf.json"), "utf8").replace(
            '"Demo"',
            '"Demo 2"',
          ),
        );
        const configChange = repo.commit("rename window", "src-tauri/tauri.conf.json");
        expect(configChange.code, configChange.output).not.toBe(0);
        expect(configChange.output).toContain(`src-tauri/capabilities/typo.json`);
        expect(configChange.output).toContain(TYPO_MESSAGE);
        expect(configChange.output).not.toMatch(/tauri\.conf\.json\s*\n\s*\d+:\d+/);

        // Generated schemas under capabilities/ are no capability files: the hook does not run on them.
        repo.git("reset", "-q", "--hard");
        repo.write(
          "src-tauri/capabilities/schemas/desktop-schema.json",
          '{ "$schema": "http://json-schema.org/draft-07/schema#" }\n',
        );
        const schemas = repo.commit(
          "schemas",
          "src-tauri/capabilities/schemas/desktop-schema.json",
        );
        expect(schemas.code, schemas.output).toBe(0);
        expect(schemas.output).toMatch(/caplint \(local\)\.+\(no files to check\)Skipped/);
      },
      HOOK_TIMEOUT,
    );

    it(
      "blocks the real build breaks of the build-truth corpus, a Cargo.toml-only one included, and lets their fixes through",
      () => {
        const repo = repository(localHook("caplint (breaks)"));
        // The upstream apps only: caplint checks every app below the repository root when the root holds none.
        rmSync(path.join(repo.work, "src-tauri"), { recursive: true });
        repo.commit("config", ".pre-commit-config.yaml");
        const corpus = path.join(FIXTURES, "real-world", "build-truth");
        const place = (app: string, folder: string) => {
          rmSync(path.join(repo.work, folder), { recursive: true, force: true });
          cpSync(path.join(corpus, app), path.join(repo.work, folder), { recursive: true });
          expect(repo.git("add", "-A", folder).code).toBe(0);
        };
        const commitStaged = (message: string) => repo.git("commit", "-q", "-m", message);

        // Each upstream break, then the upstream commit that fixed it.
        for (const [name, plugin] of [
          ["GiantClam__coworkany", "updater"],
          ["epicenter-so__epicenter", "process"],
        ] as const) {
          place(`${name}__broken`, name);
          const refused = commitStaged(`${name}: the break`);
          expect(refused.code, refused.output).not.toBe(0);
          expect(refused.output).toMatch(/caplint \(breaks\)\.+Failed/);
          expect(refused.output).toContain(`plugin "${plugin}" is not in the build`);
          place(`${name}__fixed`, name);
          const accepted = commitStaged(`${name}: the fix`);
          expect(accepted.code, accepted.output).toBe(0);
          expect(accepted.output).toMatch(/caplint \(breaks\)\.+Passed/);
        }

        // K2SO broke its linux and windows builds in a commit that touched only Cargo.toml and Cargo.lock: a
        // [target.'cfg(target_os = "macos")'.dependencies] header above the opener and drag plugins.
        const cargo = "K2SO/src-tauri/Cargo.toml";
        place("Alakazam-211__K2SO", "K2SO");
        const macOnly = `[target.'cfg(target_os = "macos")'.dependencies]\n`;
        const broken = readFileSync(path.join(repo.work, cargo), "utf8");
        expect(broken).toContain(macOnly);
        repo.write(cargo, broken.replace(macOnly, ""));
        expect(repo.git("add", "-A", "K2SO").code).toBe(0);
        expect(repo.git("commit", "-q", "--no-verify", "-m", "K2SO before the break").code).toBe(0);
        repo.write(cargo, broken);
        const refused = repo.commit("K2SO: macOS-only dependencies", cargo);
        expect(refused.code, refused.output).not.toBe(0);
        expect(refused.output).toMatch(/caplint \(breaks\)\.+Failed/);
        expect(refused.output).toContain('plugin "opener" is not in the linux and windows build');
      },
      HOOK_TIMEOUT,
    );

    it(
      "a build break is blocked (an official plugin with no dependency; a desktop-only plugin in an app that builds for Android), and the fixed app passes",
      () => {
        const repo = repository(
          localHook("caplint (build)", undefined, { pass_filenames: false, require_serial: true }),
        );
        const cargo = (extra: string) =>
          `[package]\nname = "demo"\nversion = "0.1.0"\n\n[dependencies]\ntauri = "2"\n${extra}\n[target.'cfg(not(any(target_os = "android", target_os = "ios")))'.dependencies]\ntauri-plugin-updater = "2"\n`;
        const capability = (permissions: string[], platforms?: string[]) =>
          JSON.stringify(
            {
              identifier: "main",
              windows: ["main"],
              ...(platforms ? { platforms } : {}),
              permissions,
            },
            null,
            2,
          ) + "\n";
        repo.write("src-tauri/Cargo.toml", cargo(""));
        repo.write("src-tauri/gen/android/settings.gradle.kts", 'rootProject.name = "demo"\n');
        repo.commit(
          "app",
          ".pre-commit-config.yaml",
          "src-tauri/Cargo.toml",
          "src-tauri/gen/android/settings.gradle.kts",
        );

        repo.write(
          "src-tauri/capabilities/default.json",
          capability(["core:default", "opener:allow-open-path"]),
        );
        const noDependency = repo.commit("open paths", "src-tauri/capabilities/default.json");
        expect(noDependency.code, noDependency.output).not.toBe(0);
        expect(noDependency.output).toMatch(/caplint \(build\)\.+Failed/);
        expect(noDependency.output).toContain(
          'plugin "opener" is not in the build: src-tauri/Cargo.toml has no tauri-plugin-opener dependency',
        );

        repo.write(
          "src-tauri/capabilities/default.json",
          capability(["core:default", "updater:default"]),
        );
        const desktopOnly = repo.commit("updates", "src-tauri/capabilities/default.json");
        expect(desktopOnly.code, desktopOnly.output).not.toBe(0);
        expect(desktopOnly.output).toContain('plugin "updater" is not in the android build');
        expect(repo.commits()).toBe(1);

        // The fixes: the dependency added, the desktop-only grant limited to the desktop platforms.
        repo.write("src-tauri/Cargo.toml", cargo('tauri-plugin-opener = "2"\n'));
        repo.write(
          "src-tauri/capabilities/default.json",
          capability(
            ["core:default", "opener:allow-open-path", "updater:default"],
            ["linux", "macOS", "windows"],
          ),
        );
        const fixed = repo.commit(
          "fixed",
          "src-tauri/Cargo.toml",
          "src-tauri/capabilities/default.json",
        );
        expect(fixed.code, fixed.output).toBe(0);
        expect(fixed.output).toMatch(/caplint \(build\)\.+Passed/);
        expect(repo.commits()).toBe(2);
      },
      HOOK_TIMEOUT,
    );

    it(
      "a commit of 2,500 capability files runs caplint once, in the app's context, and stops on a typo in one of them",
      () => {
        // Counts caplint runs: each one appends a line before running the built bin.
        const tools = mkdtempSync(path.join(tmpdir(), "caplint-count-"));
        temporaryDirs.push(tools);
        const runs = path.join(tools, "runs");
        const wrapper = path.join(tools, "caplint");
        writeFileSync(
          wrapper,
          `#!/bin/sh\necho run >> '${runs}'\nexec '${process.execPath}' '${BIN}' "$@"\n`,
          { mode: 0o755 },
        );
        const repo = repository(localHook("caplint (2500)", `'${wrapper}' check`));
        repo.commit("config", ".pre-commit-config.yaml");
        // Long paths on purpose: as arguments they would be some 190 KB, over pre-commit's 128 KiB per run.
        const files: string[] = [];
        for (let i = 0; i < 2500; i++) {
          const n = String(i).padStart(4, "0");
          const file = `src-tauri/capabilities/feature-area-number-${n}/capability-file-number-${n}.json`;
          const permissions =
            i === 1234 ? ["core:window:allow-set-titel"] : ["core:window:allow-close"];
          repo.write(
            file,
            JSON.stringify({ identifier: `cap-${n}`, windows: ["main"], permissions }) + "\n",
          );
          files.push(file);
        }
        expect(repo.git("add", "src-tauri").code).toBe(0);
        const refused = repo.git("commit", "-q", "-m", "2500 capabilities");
        expect(refused.code, refused.output.slice(-2000)).not.toBe(0);
        expect(refused.output).toMatch(/caplint \(2500\)\.+Failed/);
        expect(refused.output).toContain(
          "src-tauri/capabilities/feature-area-number-1234/capability-file-number-1234.json",
        );
        expect(refused.output).toMatch(
          /\d+:\d+ +error +unknown permission "core:window:allow-set-titel"/,
        );
        expect(refused.output).toContain("2500 checked");
        expect(readFileSync(runs, "utf8")).toBe("run\n");
        expect(repo.commits()).toBe(1);

        repo.write(
          files[1234]!,
          JSON.stringify({
            identifier: "cap-1234",
            windows: ["main"],
            permissions: ["core:window:allow-set-title"],
          }) + "\n",
        );
        writeFileSync(runs, "");
        const accepted = repo.commit("2500 capabilities", files[1234]!);
        expect(accepted.code, accepted.output.slice(-2000)).toBe(0);
        expect(readFileSync(runs, "utf8")).toBe("run\n");
        expect(repo.commits()).toBe(2);
      },
      HOOK_TIMEOUT,
    );

    it(
      "repo: this checkout, hook caplint-system, with caplint on PATH",
      () => {
        const shims = mkdtempSync(path.join(tmpdir(), "caplint-path-"));
        temporaryDirs.push(shims);
        writeFileSync(
          path.join(shims, "caplint"),
          `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`,
          { mode: 0o755 },
        );
        const head = sh("git", ["rev-parse", "HEAD"], ROOT, cleanEnv({})).output.trim();
        const repo = repository(
          { repos: [{ repo: ROOT, rev: head, hooks: [{ id: "caplint-system" }] }] },
          { PATH: `${shims}${path.delimiter}${process.env.PATH ?? ""}` },
        );
        expectHookStopsBadCommits(repo, "caplint (system)");
        expectBuildFilesChecked(repo, "caplint (system)");
      },
      HOOK_TIMEOUT,
    );

    it("repo: a plain commit of a clone of this checkout (what autoupdate pins without tags), hook caplint (language: node), npm from an empty cache", () => {
      // What users get from `pre-commit autoupdate` when the repository has no tags: main's newest commit, as it is.
      const clone = path.join(mkdtempSync(path.join(tmpdir(), "caplint-clone-")), "caplint");
      temporaryDirs.push(path.dirname(clone));
      const cloned = sh(
        "git",
        ["clone", "-q", "--no-hardlinks", ROOT, clone],
        tmpdir(),
        cleanEnv({}),
      );
      expect(cloned.code, cloned.output).toBe(0);
      const rev = sh("git", ["rev-parse", "HEAD"], clone, cleanEnv({})).output.trim();
      const npmCache = mkdtempSync(path.join(tmpdir(), "caplint-npm-cache-"));
      temporaryDirs.push(npmCache);
      const repo = repository(
        { repos: [{ repo: clone, rev, hooks: [{ id: "caplint" }] }] },
        { npm_config_cache: npmCache },
      );
      const installed = sh("pre-commit", ["install-hooks"], repo.work, repo.env);
      expect(installed.code, installed.output).toBe(0);
      // Nothing is built and npm has no install script to warn about.
      expect(installed.output).not.toMatch(
        /tsc: not found|git dep preparation failed|install-scripts|npm warn/i,
      );
      expectHookStopsBadCommits(repo, "caplint");
      expectBuildFilesChecked(repo, "caplint");
    }, 600_000);

    it("repo: a release commit of this checkout, hook caplint (language: node), installed by pre-commit with npm from an empty cache", () => {
      const { clone, rev } = releaseCommit("v0.0.0-test");
      temporaryDirs.push(path.dirname(clone));
      expect(rev).toMatch(/^[0-9a-f]{40}$/);

      const npmCache = mkdtempSync(path.join(tmpdir(), "caplint-npm-cache-"));
      temporaryDirs.push(npmCache);
      const repo = repository(
        { repos: [{ repo: clone, rev, hooks: [{ id: "caplint" }] }] },
        { npm_config_cache: npmCache },
      );
      const installed = sh("pre-commit", ["install-hooks"], repo.work, repo.env);
      expect(installed.code, installed.output).toBe(0);
      expect(installed.output).not.toMatch(/tsc: not found|git dep preparation failed/);
      expectHookStopsBadCommits(repo, "caplint");
      expectBuildFilesChecked(repo, "caplint");
    }, 600_000);
  },
);
