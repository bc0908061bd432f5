import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/** Spawns the real bin in watch mode and lets a test wait for output. */
function startWatch(cwd: string) {
  const child = spawn(process.execPath, [path.join(ROOT, "bin/caplint.js"), "check", "--watch", "--format", "compact"], {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const waitFor = async (predicate: (text: string) => boolean, what: string, timeoutMs = 15_000) => {
    const start = Date.now();
    while (!predicate(output)) {
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; output so far:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const runs = () => output.split("[caplint] watching").length - 1;
  return { child, exited, waitFor, runs, output: () => output };
}

describe("check --watch", () => {
  it("re-lints on every change, survives broken files, and exits 0 on Ctrl-C", async () => {
    const app = mkdtempSync(path.join(tmpdir(), "caplint-watch-"));
    cpSync(path.join(FIXTURES, "queries", "app"), app, { recursive: true });
    const capability = path.join(app, "src-tauri", "capabilities", "extra.json");
    const watcher = startWatch(app);
    try {
      await watcher.waitFor((t) => t.includes("[caplint] watching"), "the first run");
      expect(watcher.output()).not.toContain("[unknown-permission]");

      writeFileSync(capability, JSON.stringify({ identifier: "extra", windows: ["main"], permissions: ["core:windw:default"] }));
      await watcher.waitFor((t) => t.includes("[unknown-permission]"), "a re-run after adding a file");

      // Written at once, while that run may still be finishing: the change must not be lost.
      writeFileSync(capability, '{ "identifier": "extra", ');
      await watcher.waitFor((t) => t.includes("[parse]"), "a re-run with a broken file");
      expect(watcher.child.exitCode).toBeNull();

      const before = watcher.runs();
      unlinkSync(capability);
      await watcher.waitFor(() => watcher.runs() > before, "a re-run after deleting the file");

      watcher.child.kill("SIGINT");
      expect(await watcher.exited).toBe(0);
    } finally {
      watcher.child.kill("SIGKILL");
    }
  }, 60_000);
});

const capability = (identifier: string, permissions: string[] = ["core:default"]) => JSON.stringify({ identifier, windows: ["main"], permissions }, null, 2);

/** A fresh app with one capability; the watcher runs on it until the test's body ends. */
async function withWatchedApp(
  body: (app: { dir: string; caps: string; watcher: ReturnType<typeof startWatch>; nextRun: (what: string) => Promise<string> }) => Promise<void>,
) {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-watch-"));
  const caps = path.join(dir, "src-tauri", "capabilities");
  mkdirSync(caps, { recursive: true });
  writeFileSync(path.join(dir, "src-tauri", "tauri.conf.json"), JSON.stringify({ app: { windows: [{ label: "main" }] } }));
  writeFileSync(path.join(caps, "main.json"), capability("main"));
  const watcher = startWatch(dir);
  /** Waits for the next completed run and returns its output. */
  const nextRun = async (what: string) => {
    const before = watcher.runs();
    await watcher.waitFor(() => watcher.runs() > before, what);
    const parts = watcher.output().split("[caplint] watching");
    return parts[parts.length - 2]!;
  };
  try {
    await watcher.waitFor((t) => t.includes("[caplint] watching"), "the first run");
    await body({ dir, caps, watcher, nextRun });
    expect(watcher.output()).not.toMatch(/internal error|\n\s+at |Error:/);
    watcher.child.kill("SIGINT");
    expect(await watcher.exited).toBe(0);
  } finally {
    watcher.child.kill("SIGKILL");
  }
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("check --watch keeps watching through what editors and git do", { timeout: 90_000 }, () => {
  it("atomic saves (temporary file + rename), several in a row", () =>
    withWatchedApp(async ({ caps, nextRun }) => {
      for (const [i, permission] of ["core:nope", "core:default", "core:still-nope"].entries()) {
        const run = nextRun(`atomic save ${i}`);
        writeFileSync(path.join(caps, `.main.json.${i}.tmp`), capability("main", [permission]));
        renameSync(path.join(caps, `.main.json.${i}.tmp`), path.join(caps, "main.json"));
        const output = await run;
        expect(output.includes("[unknown-permission]"), `save ${i}`).toBe(permission !== "core:default");
        await wait(200);
      }
    }));

  it("a deleted sub-folder, and the capabilities folder deleted and created again", () =>
    withWatchedApp(async ({ caps, nextRun }) => {
      mkdirSync(path.join(caps, "sub", "deeper"), { recursive: true });
      let run = nextRun("a new sub-folder");
      writeFileSync(path.join(caps, "sub", "deeper", "extra.json"), capability("extra", ["core:nope"]));
      expect(await run).toContain("[unknown-permission]");
      await wait(200);
      run = nextRun("the sub-folder deleted");
      rmSync(path.join(caps, "sub"), { recursive: true });
      expect(await run).not.toContain("[unknown-permission]");
      await wait(200);
      run = nextRun("the folder deleted");
      rmSync(caps, { recursive: true });
      await run;
      await wait(300);
      run = nextRun("the folder created again");
      mkdirSync(caps);
      writeFileSync(path.join(caps, "main.json"), capability("main", ["core:again-nope"]));
      expect(await run).toContain("core:again-nope");
      await wait(300);
      run = nextRun("a change in the new folder");
      writeFileSync(path.join(caps, "main.json"), capability("main", ["core:third-nope"]));
      expect(await run).toContain("core:third-nope");
    }));

  it("a branch switch that removes and restores a sub-folder", () =>
    withWatchedApp(async ({ dir, caps, nextRun }) => {
      const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: dir, stdio: "pipe" });
      git("init", "-q", "-b", "main");
      git("add", ".");
      git("commit", "-qm", "base");
      git("checkout", "-q", "-b", "feature");
      mkdirSync(path.join(caps, "feature"));
      writeFileSync(path.join(caps, "feature", "f.json"), capability("feature", ["core:feature-nope"]));
      git("add", ".");
      git("commit", "-qm", "feature");
      await wait(500);
      for (let round = 0; round < 3; round++) {
        let run = nextRun(`checkout main ${round}`);
        git("checkout", "-q", "main");
        expect(await run).not.toContain("core:feature-nope");
        await wait(300);
        run = nextRun(`checkout feature ${round}`);
        git("checkout", "-q", "feature");
        expect(await run).toContain("core:feature-nope");
        await wait(300);
      }
    }));

  it("1,000 files, and a file that flips between broken and valid", () =>
    withWatchedApp(async ({ caps, watcher }) => {
      const lastRun = () => {
        const parts = watcher.output().split("[caplint] watching");
        return parts[parts.length - 2]!;
      };
      /** Waits until no run has started for a second: a burst of events is over. */
      const settle = async () => {
        for (let runs = -1; runs !== watcher.runs();) {
          runs = watcher.runs();
          await wait(500);
        }
      };
      mkdirSync(path.join(caps, "many"));
      for (let i = 0; i < 1000; i++) writeFileSync(path.join(caps, "many", `c${i}.json`), capability(`c${i}`));
      await settle();
      expect(lastRun()).not.toMatch(/\[[a-z-]+\]\n/);
      writeFileSync(path.join(caps, "many", "c999.json"), capability("c999", ["core:last-nope"]));
      await watcher.waitFor(() => lastRun().includes("core:last-nope"), "the change in one of 1,000 files");
      for (let i = 0; i < 4; i++) {
        await settle();
        const broken = i % 2 === 0;
        writeFileSync(path.join(caps, "main.json"), broken ? '{ "identifier": "main", ' : capability("main"));
        await watcher.waitFor(() => lastRun().includes("main.json:1:") === broken && lastRun().includes("[parse]") === broken, `flip ${i}`);
      }
    }));

  it("a config file that does not exist yet is seen when it appears", () =>
    withWatchedApp(async ({ dir, nextRun }) => {
      const run = nextRun("tauri.conf.json replaced");
      writeFileSync(path.join(dir, "src-tauri", "tauri.conf.json"), JSON.stringify({ app: { windows: [{ label: "other" }] } }));
      expect(await run).toContain("[unmatched-window]");
    }));
});
