/**
 * Issue 30 leftovers: an app whose config is not in `src-tauri/` (Seelen-UI keeps `src/tauri.conf.json`
 * beside its Rust code, its package.json at the repository root). caplint finds the app as the Tauri
 * CLI does when run in a folder that is no app itself (tauri-cli `app_paths.rs`: a walk at most three
 * folders down for a folder holding a config, skipping hidden and ignored folders, not entering links),
 * bounded to the repository; the frontend is the package.json's folder beside the config's. Through the
 * built bin, on a copy of Seelen-UI's files (fixtures/app-discovery/seelen-ui, SOURCE.txt) and on
 * generated folders.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");
const SEELEN = path.join(FIXTURES, "app-discovery", "seelen-ui");
const sandbox = mkdtempSync(path.join(tmpdir(), "caplint-app-discovery-"));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function caplint(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A copy of the Seelen-UI fixture as its own repository (a `.git` at its root, as a clone has). */
function seelenCopy(): string {
  const copy = mkdtempSync(path.join(sandbox, "seelen-"));
  cpSync(SEELEN, copy, { recursive: true });
  mkdirSync(path.join(copy, ".git"));
  return copy;
}

/** A repository with an app config in each folder named (relative paths), and a package.json at its root. */
function repositoryWith(configs: string[]): string {
  const repo = mkdtempSync(path.join(sandbox, "repo-"));
  mkdirSync(path.join(repo, ".git"));
  writeFileSync(path.join(repo, "package.json"), '{ "name": "app" }\n');
  for (const folder of configs) {
    mkdirSync(path.join(repo, folder), { recursive: true });
    writeFileSync(path.join(repo, folder, "tauri.conf.json"), '{ "identifier": "com.example" }\n');
  }
  return repo;
}

const NOT_AN_APP =
  "not an app folder (no src-tauri/, capabilities/ or tauri.conf.json in it, nor a tauri.conf.json in the folders below it the Tauri CLI searches)";

describe("an app whose config is not in src-tauri/ (built bin)", { timeout: 120_000 }, () => {
  it("--app at the repository root takes src/ (where the config is) and reads the frontend of the root's package.json", () => {
    const repo = seelenCopy();
    const result = caplint(["least-privilege", "--app", ".", "-f", "json"], repo);
    expect(result.stderr).toBe("");
    const plan = JSON.parse(result.stdout) as {
      windows: Array<{ calls: Array<{ file: string; line: number; command: string }> }>;
    };
    const calls = plan.windows
      .flatMap((window) => window.calls)
      .map((call) => `${call.file}:${call.line} ${call.command}`);
    expect(calls).toEqual(
      expect.arrayContaining([
        "src/ui/react/settings/modules/shared/config/infra.ts:4 plugin:app|version",
        "src/ui/react/settings/modules/shared/config/infra.ts:8 plugin:path|join",
        // Through the app's own wrapper (`_invoke(cmd)` in _tauri.ts, under src/ beside the Rust code):
        // the folder of the config is read as frontend, not skipped as the Rust side.
        "src/ui/vanilla/entry-point/MainSetup.ts:11 state_get_widgets",
        "src/ui/vanilla/entry-point/MainSetup.ts:19 plugin:event|listen",
      ]),
    );
  });

  it("with nothing given, a query in the repository root finds the same app, and check checks it", () => {
    const repo = seelenCopy();
    const byApp = caplint(["least-privilege", "--app", ".", "-f", "json"], repo);
    const found = caplint(["least-privilege", "-f", "json"], repo);
    expect(found).toEqual(byApp);
    const checkAll = caplint(["check", "-f", "compact"], repo);
    const checkApp = caplint(["check", "--app", ".", "-f", "compact"], repo);
    expect(checkAll.stderr).toBe("");
    expect(checkAll).toEqual(checkApp);
  });

  it("two folders below holding a config: --app refuses to guess and names both (exit 2)", () => {
    const repo = repositoryWith(["desktop", "tools/inspector"]);
    expect(caplint(["check", "--app", "."], repo)).toEqual({
      code: 2,
      stdout: "",
      stderr: `caplint: --app .: 2 folders below it hold an app config (desktop/, tools/inspector/), and the Tauri CLI run there builds whichever its walk meets first, in the order the file system lists them; pass --app with one of them\n`,
    });
  });

  it.each([
    ["four folders down (the CLI looks three down)", ["a/b/c/d"], ""],
    ["in a hidden folder", [".hidden/app"], ""],
    ["in node_modules", ["node_modules/some-app"], ""],
    ["in a folder .gitignore ignores", ["build/app"], "build/\n"],
    ["in a folder .taurignore ignores", ["examples/app"], ""],
  ])(
    "a config %s is not the app: --app is refused as not an app folder",
    (_, configs, gitignore) => {
      const repo = repositoryWith(configs);
      if (gitignore) writeFileSync(path.join(repo, ".gitignore"), gitignore);
      if (configs[0] === "examples/app")
        writeFileSync(path.join(repo, ".taurignore"), "examples\n");
      expect(caplint(["check", "--app", "."], repo)).toEqual({
        code: 2,
        stdout: "",
        stderr: `caplint: --app .: ${NOT_AN_APP}\n`,
      });
    },
  );

  it("a config three folders down is the app (the CLI's depth)", () => {
    const repo = repositoryWith(["a/b/c"]);
    const result = caplint(["check", "--app", ".", "-f", "json"], repo);
    expect(result.stderr).toBe("");
    expect(result.code).not.toBe(2);
  });

  it("a link to an app folder outside the repository is not followed; one inside it is taken", () => {
    const outside = repositoryWith(["app"]);
    const repo = repositoryWith([]);
    symlinkSync(path.join(outside, "app"), path.join(repo, "linked"));
    expect(caplint(["check", "--app", "."], repo).stderr).toBe(`caplint: --app .: ${NOT_AN_APP}\n`);
    const inside = repositoryWith(["real/app"]);
    mkdirSync(path.join(inside, "vendor"));
    symlinkSync(path.join(inside, "real", "app"), path.join(inside, "vendor", "app"));
    expect(caplint(["check", "--app", "."], inside).stderr).toContain(
      "2 folders below it hold an app config (real/app/, vendor/app/)",
    );
  });

  it("outside any repository nothing below the folder is searched", () => {
    const plain = mkdtempSync(path.join(tmpdir(), "caplint-no-repository-"));
    try {
      mkdirSync(path.join(plain, "src"));
      writeFileSync(path.join(plain, "src", "tauri.conf.json"), "{}\n");
      expect(caplint(["check", "--app", "."], plain).stderr).toBe(
        `caplint: --app .: ${NOT_AN_APP}\n`,
      );
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
