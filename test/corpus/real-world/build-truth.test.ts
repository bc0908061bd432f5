import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, run } from "../../helpers/run.js";

/**
 * The build-truth corpus (fixtures/real-world/build-truth: public Tauri v2 apps with their Cargo files, some at
 * the commit where their build broke and at the commit that fixed it). Beside each app, VERDICT.md holds the
 * host's verdict per target it ships, settled by running the host's own capability code on the plugins that
 * target's build sees; verdicts.json holds the same verdicts for this test. See the set's README.
 */
const SET = path.join(FIXTURES, "real-world", "build-truth");
const apps = readdirSync(SET)
  .filter((name) => statSync(path.join(SET, name)).isDirectory())
  .sort();

type Verdict = Record<string, { status: string; message?: string }>;
const verdicts = JSON.parse(readFileSync(path.join(SET, "verdicts.json"), "utf8")) as Record<
  string,
  Verdict
>;

function source(app: string): string {
  return readFileSync(path.join(SET, app, "SOURCE.txt"), "utf8");
}

/** The folder that holds the app's src-tauri, as a user would pass it to --app. */
function appArgument(app: string): string {
  const srcTauri = /^app folder: (.+)$/m.exec(source(app))![1]!;
  return path.join(app, path.dirname(srcTauri));
}

async function check(app: string) {
  return run(["check", "--app", appArgument(app), "--format", "compact"], SET);
}

const failingTargets = (app: string) =>
  Object.entries(verdicts[app]!)
    .filter(([, verdict]) => verdict.status !== "ok")
    .map(([target]) => target);

/**
 * Errors that are real exposures (the severity contract's second kind of error), reviewed: remote pages that
 * reach a dangerous command.
 */
const REVIEWED_EXPOSURES: ReadonlyArray<{ app: string; pattern: RegExp; why: string }> = [
  {
    app: "Sjj1024__PakePlus",
    pattern:
      /default\.json:\d+:\d+: error dangerous grant "(http:default|fs:allow-read-file|fs:allow-write-file)".*a script in remote pages \("https:\/\/\*:\*", "file:\/\/\*", "http:\/\/\*:\*"\)/,
    why: "any http(s) page loaded in its windows gets fetch to any host and read/write of every file (fs scope **/*)",
  },
  {
    app: "Sjj1024__PakePlus",
    pattern:
      /default\.json:\d+:\d+: error capability "default" lets remote pages \("https:\/\/\*:\*", "file:\/\/\*", "http:\/\/\*:\*".*tauri 2\.9\.5 .*\[remote-app-commands\]/,
    why: "tauri 2.9.5 checks app commands from remote pages only when the app defines permissions, and PakePlus defines none: every web page its windows show calls every command it registers (the gate gained `|| !is_local` in 2.11.1)",
  },
];

/**
 * Apps where caplint's answer matches the host's verdict (exit code and errors). The set's README lists the others
 * and what they wait for; each joins this list when caplint's answer on it is right.
 */
const JUDGED = [
  "ActivityWatch__aw-tauri",
  "Alakazam-211__K2SO",
  "Beaver-Notes__Beaver-Notes",
  "GiantClam__coworkany__broken",
  "GiantClam__coworkany__fixed",
  "Sjj1024__PakePlus",
  "TheBestTvarynka__Dataans",
  "apicize__app",
  "epicenter-so__epicenter__broken",
  "epicenter-so__epicenter__fixed",
  "moshstudio__travel-plan",
  "nashaofu__shell360",
  "sternelee__sendme-app",
];

describe("real-world corpus, build truth", () => {
  it("holds at least 10 apps from at least 10 public repositories, each with its licence, commit and Cargo files", () => {
    expect(apps.length).toBeGreaterThanOrEqual(10);
    const repositories = new Set(apps.map((app) => /^repo: (.+)$/m.exec(source(app))![1]));
    expect(repositories.size).toBeGreaterThanOrEqual(10);
    for (const app of apps) {
      expect(source(app), app).toMatch(
        /^license: (MIT|Apache-2\.0|GPL-3\.0|MPL-2\.0|Apache-2\.0 OR MIT) \(read in LICENSE/m,
      );
      expect(source(app), app).toMatch(/^commit: [0-9a-f]{40}$/m);
      const srcTauri = path.join(SET, app, /^app folder: (.+)$/m.exec(source(app))![1]!);
      expect(existsSync(path.join(srcTauri, "Cargo.toml")), app).toBe(true);
      const locks = [srcTauri, path.dirname(srcTauri), path.join(SET, app)].filter((dir) =>
        existsSync(path.join(dir, "Cargo.lock")),
      );
      expect(locks, app).not.toEqual([]);
    }
  });

  it("writes the host's verdict beside every app, for every target it ships", () => {
    expect(Object.keys(verdicts).sort()).toEqual(apps);
    for (const app of apps) {
      const written = readFileSync(path.join(SET, app, "VERDICT.md"), "utf8");
      for (const [target, verdict] of Object.entries(verdicts[app]!)) {
        expect(written, `${app} ${target}`).toContain(
          `| ${target} | ${verdict.status === "ok" ? "ok" : `error: ${verdict.status}`} |`,
        );
      }
      // Desktop targets are always shipped; mobile ones only with gen/android or gen/apple (or a capability naming them).
      const mobile = ["android", "iOS"].filter((target) =>
        existsSync(
          path.join(
            SET,
            app,
            path.dirname(/^app folder: (.+)$/m.exec(source(app))![1]!),
            "src-tauri",
            "gen",
            target === "iOS" ? "apple" : "android",
          ),
        ),
      );
      expect(Object.keys(verdicts[app]!).sort(), app).toEqual(
        ["linux", "macOS", "windows", ...mobile].sort(),
      );
    }
  });

  it("covers the three real build breaks and their fixes", () => {
    expect(failingTargets("GiantClam__coworkany__broken")).toEqual(["linux", "macOS", "windows"]);
    expect(failingTargets("GiantClam__coworkany__fixed")).toEqual([]);
    expect(failingTargets("epicenter-so__epicenter__broken")).toEqual([
      "linux",
      "macOS",
      "windows",
    ]);
    expect(failingTargets("epicenter-so__epicenter__fixed")).toEqual([]);
    // Plugins listed under a macOS-only target table: only the macOS build has them.
    expect(failingTargets("Alakazam-211__K2SO")).toEqual(["linux", "windows"]);
  });

  it("blocks each real build break with an error naming the plugin and the targets, and passes its fix", async () => {
    const errorsOf = async (app: string) =>
      (await check(app)).stdout.split("\n").filter((line) => line.includes(": error "));
    expect(await errorsOf("GiantClam__coworkany__broken")).toEqual([
      expect.stringMatching(
        /error plugin "updater" is not in the build: .*no tauri-plugin-updater dependency/,
      ),
    ]);
    expect(await errorsOf("epicenter-so__epicenter__broken")).toEqual([
      expect.stringMatching(
        /error plugin "process" is not in the build: .*no tauri-plugin-process dependency/,
      ),
    ]);
    const k2so = await errorsOf("Alakazam-211__K2SO");
    expect(k2so).toHaveLength(2);
    for (const line of k2so)
      expect(line).toMatch(
        /error plugin "(opener|drag)" is not in the linux and windows build \(tauri-plugin-\1 is a dependency only under \[target\.'cfg\(target_os = "macos"\)'\.dependencies\]\)/,
      );
    for (const fixed of ["GiantClam__coworkany__fixed", "epicenter-so__epicenter__fixed"])
      expect((await check(fixed)).code, fixed).toBe(0);
  }, 60_000);

  it("exits 1 exactly when a target's build fails or a reviewed exposure is found", async () => {
    for (const app of JUDGED) {
      const result = await check(app);
      const exposures = REVIEWED_EXPOSURES.filter(
        (r) => r.app === app && result.stdout.split("\n").some((line) => r.pattern.test(line)),
      );
      expect(result.code, app).toBe(failingTargets(app).length > 0 || exposures.length > 0 ? 1 : 0);
    }
  }, 120_000);

  it("reports errors only for a failing build or a reviewed exposure", async () => {
    for (const app of JUDGED) {
      if (failingTargets(app).length > 0) continue;
      const errors = (await check(app)).stdout
        .split("\n")
        .filter((line) => line.includes(": error "));
      const unexplained = errors.filter(
        (line) => !REVIEWED_EXPOSURES.some((r) => r.app === app && r.pattern.test(line)),
      );
      expect(unexplained, app).toEqual([]);
    }
  }, 120_000);

  it("knows every plugin the builds define: inlined in build.rs, in-repo (path), from git", async () => {
    for (const app of apps)
      expect((await check(app)).stdout, app).not.toContain("[unknown-plugin]");
  }, 120_000);

  it("produces the reviewed findings", async () => {
    const out: string[] = [];
    for (const app of apps) {
      const result = await check(app);
      out.push(
        `# ${app}: exit ${result.code}${result.stderr ? `, stderr: ${result.stderr.trim()}` : ""}`,
        ...result.stdout.trim().split("\n").filter(Boolean),
      );
    }
    await expect(out.join("\n") + "\n").toMatchFileSnapshot(path.join(SET, "expected.out"));
  }, 120_000);
});
