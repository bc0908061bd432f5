import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/** Spawns the real bin in watch mode and lets a test wait for output (both streams, and each apart). */
function startWatch(cwd: string, format = "compact") {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "bin/caplint.js"), "check", "--watch", "--format", format],
    {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
    },
  );
  let output = "";
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => ((output += chunk), (stdout += chunk)));
  child.stderr.on("data", (chunk) => ((output += chunk), (stderr += chunk)));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const waitFor = async (
    predicate: (text: string) => boolean,
    what: string,
    timeoutMs = 15_000,
  ) => {
    const start = Date.now();
    while (!predicate(output)) {
      if (Date.now() - start > timeoutMs)
        throw new Error(`timed out waiting for ${what}; output so far:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const runs = () => output.split("[caplint] watching").length - 1;
  return {
    child,
    exited,
    waitFor,
    runs,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
  };
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

      writeFileSync(
        capability,
        JSON.stringify({
          identifier: "extra",
          windows: ["main"],
          permissions: ["core:windw:default"],
        }),
      );
      await watcher.waitFor(
        (t) => t.includes("[unknown-permission]"),
        "a re-run after adding a file",
      );

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

const capability = (identifier: string, permissions: string[] = ["core:default"]) =>
  JSON.stringify({ identifier, windows: ["main"], permissions }, null, 2);

/** A fresh app with one capability; the watcher runs on it until the test's body ends. */
async function withWatchedApp(
  body: (app: {
    dir: string;
    caps: string;
    watcher: ReturnType<typeof startWatch>;
    nextRun: (what: string) => Promise<string>;
  }) => Promise<void>,
) {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-watch-"));
  const caps = path.join(dir, "src-tauri", "capabilities");
  mkdirSync(caps, { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "tauri.conf.json"),
    JSON.stringify({ app: { windows: [{ label: "main" }] } }),
  );
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

/** Waits until no run has ended for half a second: a burst of events (git's, a loop's) is over. */
async function settle(watcher: ReturnType<typeof startWatch>) {
  for (let runs = -1; runs !== watcher.runs();) {
    runs = watcher.runs();
    await wait(500);
  }
}

describe(
  "check --watch keeps watching through what editors and git do",
  { timeout: 90_000 },
  () => {
    it("atomic saves (temporary file + rename), several in a row", () =>
      withWatchedApp(async ({ caps, nextRun }) => {
        for (const [i, permission] of ["core:nope", "core:default", "core:still-nope"].entries()) {
          const run = nextRun(`atomic save ${i}`);
          writeFileSync(path.join(caps, `.main.json.${i}.tmp`), capability("main", [permission]));
          renameSync(path.join(caps, `.main.json.${i}.tmp`), path.join(caps, "main.json"));
          const output = await run;
          expect(output.includes("[unknown-permission]"), `save ${i}`).toBe(
            permission !== "core:default",
          );
          await wait(200);
        }
      }));

    it("a deleted sub-folder, and the capabilities folder deleted and created again", () =>
      withWatchedApp(async ({ caps, nextRun }) => {
        mkdirSync(path.join(caps, "sub", "deeper"), { recursive: true });
        let run = nextRun("a new sub-folder");
        writeFileSync(
          path.join(caps, "sub", "deeper", "extra.json"),
          capability("extra", ["core:nope"]),
        );
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
      withWatchedApp(async ({ dir, caps, watcher }) => {
        const git = (...args: string[]) =>
          execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], {
            cwd: dir,
            stdio: "pipe",
          });
        const lastRun = () => watcher.output().split("[caplint] watching").at(-2)!;
        git("init", "-q", "-b", "main");
        git("add", ".");
        git("commit", "-qm", "base");
        git("checkout", "-q", "-b", "feature");
        mkdirSync(path.join(caps, "feature"));
        writeFileSync(
          path.join(caps, "feature", "f.json"),
          capability("feature", ["core:feature-nope"]),
        );
        git("add", ".");
        git("commit", "-qm", "feature");
        await watcher.waitFor(
          () => lastRun().includes("core:feature-nope"),
          "the feature's capability",
        );
        // Each verdict differs from the one before: a run that ended before the switch cannot pass for one after it.
        for (let round = 0; round < 3; round++) {
          git("checkout", "-q", "main");
          await watcher.waitFor(
            () => !lastRun().includes("core:feature-nope"),
            `checkout main ${round}`,
          );
          await wait(300);
          git("checkout", "-q", "feature");
          await watcher.waitFor(
            () => lastRun().includes("core:feature-nope"),
            `checkout feature ${round}`,
          );
          await wait(300);
        }
      }));

    it("1,000 files, and a file that flips between broken and valid", () =>
      withWatchedApp(async ({ caps, watcher }) => {
        const lastRun = () => {
          const parts = watcher.output().split("[caplint] watching");
          return parts[parts.length - 2]!;
        };
        mkdirSync(path.join(caps, "many"));
        for (let i = 0; i < 1000; i++)
          writeFileSync(path.join(caps, "many", `c${i}.json`), capability(`c${i}`));
        await settle(watcher);
        expect(lastRun()).not.toMatch(/\[[a-z-]+\]\n/);
        writeFileSync(path.join(caps, "many", "c999.json"), capability("c999", ["core:last-nope"]));
        await watcher.waitFor(
          () => lastRun().includes("core:last-nope"),
          "the change in one of 1,000 files",
        );
        for (let i = 0; i < 4; i++) {
          await settle(watcher);
          const broken = i % 2 === 0;
          writeFileSync(
            path.join(caps, "main.json"),
            broken ? '{ "identifier": "main", ' : capability("main"),
          );
          await watcher.waitFor(
            () =>
              lastRun().includes("main.json:1:") === broken &&
              lastRun().includes("[parse]") === broken,
            `flip ${i}`,
          );
        }
      }));

    it("a config file that does not exist yet is seen when it appears", () =>
      withWatchedApp(async ({ dir, nextRun }) => {
        const run = nextRun("tauri.conf.json replaced");
        writeFileSync(
          path.join(dir, "src-tauri", "tauri.conf.json"),
          JSON.stringify({ app: { windows: [{ label: "other" }] } }),
        );
        expect(await run).toContain("[unmatched-window]");
      }));
  },
);

describe(
  "check --watch watches every file the run read, and reads them all again",
  { timeout: 180_000 },
  () => {
    type Change = (
      file: string,
      edit: (text: string) => string,
      until: (run: string) => boolean,
      what: string,
    ) => Promise<string>;

    /** The app of fixtures/cli/app-build: build.rs with app commands and inlined plugins, a path plugin, Cargo files. */
    async function withBuildApp(
      format: string,
      body: (app: {
        dir: string;
        watcher: ReturnType<typeof startWatch>;
        change: Change;
      }) => Promise<void>,
    ) {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-watch-build-"));
      cpSync(path.join(FIXTURES, "cli", "app-build"), dir, { recursive: true });
      const watcher = startWatch(dir, format);
      const lastRun = () => watcher.output().split("[caplint] watching").at(-2)!;
      /** Edits a file, then waits for a run whose output shows the edit was seen (the run in progress may predate it). */
      const change: Change = async (file, edit, until, what) => {
        const absolute = path.join(dir, file);
        writeFileSync(absolute, edit(existsSync(absolute) ? readFileSync(absolute, "utf8") : ""));
        await watcher.waitFor(() => until(lastRun()), what, 30_000);
        return lastRun();
      };
      try {
        await watcher.waitFor((t) => t.includes("[caplint] watching"), "the first run");
        await body({ dir, watcher, change });
        expect(watcher.output()).not.toMatch(/internal error|\n\s+at |Error:/);
        watcher.child.kill("SIGINT");
        expect(await watcher.exited).toBe(0);
      } finally {
        watcher.child.kill("SIGKILL");
      }
    }
    const has = (text: string) => (run: string) => run.includes(text);
    const lacks = (text: string) => (run: string) => !run.includes(text);

    it("build.rs, a path plugin's build.rs and permissions, Cargo.toml, a new path plugin, Rust sources and caplint.config.json", () =>
      withBuildApp("compact", async ({ dir, watcher, change }) => {
        expect(watcher.output()).not.toContain('"allow-greet"');
        expect(watcher.output()).toContain('unknown permission "local:allow-nope"');
        // The app command renamed in build.rs: its permission no longer exists; renamed back, it does.
        await change(
          "src-tauri/build.rs",
          (text) => text.replace('&["greet"]', '&["greeting"]'),
          has('unknown permission "allow-greet"'),
          "build.rs edited",
        );
        await change(
          "src-tauri/build.rs",
          (text) => text.replace('&["greeting"]', '&["greet"]'),
          lacks('"allow-greet"'),
          "build.rs restored",
        );
        // The path plugin's command renamed in its own build.rs.
        await change(
          "plugins/tauri-plugin-local/build.rs",
          (text) => text.replace('"do_thing"', '"do_other"'),
          has('unknown permission "local:allow-do-thing"'),
          "the path plugin's build.rs edited",
        );
        // A permission file added to the path plugin's permissions/ folder.
        await change(
          "plugins/tauri-plugin-local/permissions/nope.toml",
          () => '[[permission]]\nidentifier = "allow-nope"\ncommands.allow = ["ping"]\n',
          lacks('"local:allow-nope"'),
          "a new permission file",
        );
        // Cargo.toml: the path plugin is no longer a dependency of the app.
        await change(
          "src-tauri/Cargo.toml",
          (text) => text.replace(/^tauri-plugin-local = .*$/m, ""),
          has('unknown plugin "local" in "local:default"'),
          "Cargo.toml edited",
        );
        // A path plugin no run read before: Cargo.toml names it, then its own build.rs changes.
        mkdirSync(path.join(dir, "plugins", "tauri-plugin-extra"));
        writeFileSync(
          path.join(dir, "plugins", "tauri-plugin-extra", "Cargo.toml"),
          '[package]\nname = "tauri-plugin-extra"\nversion = "0.1.0"\n',
        );
        writeFileSync(
          path.join(dir, "plugins", "tauri-plugin-extra", "build.rs"),
          'const COMMANDS: &[&str] = &["hello"];\nfn main() { tauri_plugin::Builder::new(COMMANDS).build(); }\n',
        );
        await change(
          "src-tauri/capabilities/extra.json",
          () =>
            JSON.stringify({
              identifier: "extra",
              windows: ["main"],
              permissions: ["extra:allow-hello"],
            }),
          has('unknown plugin "extra"'),
          "a capability for a new plugin",
        );
        await change(
          "src-tauri/Cargo.toml",
          (text) => `${text}tauri-plugin-extra = { path = "../plugins/tauri-plugin-extra" }\n`,
          lacks('"extra:allow-hello"'),
          "the new plugin in Cargo.toml",
        );
        await change(
          "plugins/tauri-plugin-extra/build.rs",
          (text) => text.replace('"hello"', '"bye"'),
          has('unknown permission "extra:allow-hello"'),
          "the new plugin's build.rs edited",
        );
        // A window made in a Rust source that did not exist: the capability for it stops being unmatched.
        await change(
          "src-tauri/capabilities/settings.json",
          () =>
            JSON.stringify({
              identifier: "settings",
              windows: ["settings"],
              permissions: ["core:default"],
            }),
          has("[unmatched-window]"),
          "a capability for a window made in code",
        );
        mkdirSync(path.join(dir, "src-tauri", "src"), { recursive: true });
        await change(
          "src-tauri/src/main.rs",
          () =>
            'fn main() { WebviewWindowBuilder::new(app, "settings", WebviewUrl::default()); }\n',
          lacks("[unmatched-window]"),
          "src/main.rs created",
        );
        // caplint.config.json appears: its rule settings apply. Broken, it fails the run; fixed, the next run follows.
        await change(
          "caplint.config.json",
          () => JSON.stringify({ rules: { "unknown-permission": "off" } }),
          lacks("[unknown-permission]"),
          "caplint.config.json created",
        );
        await change(
          "caplint.config.json",
          () => "{ broken",
          (run) => /caplint: .*caplint\.config\.json/.test(run),
          "caplint.config.json broken",
        );
        await change(
          "caplint.config.json",
          () => JSON.stringify({ rules: {} }),
          has("[unknown-permission]"),
          "caplint.config.json fixed",
        );
      }));

    it("-f json: standard output holds one JSON document per run, one per line (JSON Lines); the status goes to standard error", () =>
      withBuildApp("json", async ({ watcher, change }) => {
        await change(
          "src-tauri/build.rs",
          (text) => text.replace('&["greet"]', '&["greeting"]'),
          has('unknown permission \\"allow-greet\\"'),
          "build.rs edited",
        );
        const lines = watcher.stdout().split("\n");
        expect(lines.pop()).toBe("");
        expect(lines.length).toBeGreaterThanOrEqual(2);
        const reports = lines.map(
          (line) => JSON.parse(line) as { diagnostics: Array<{ message: string }> },
        );
        const messages = (report: { diagnostics: Array<{ message: string }> }) =>
          report.diagnostics.map((d) => d.message).join("\n");
        expect(messages(reports[0]!)).not.toContain('"allow-greet"');
        expect(messages(reports.at(-1)!)).toContain('unknown permission "allow-greet"');
        expect(watcher.stderr()).toMatch(
          /^(\n\[caplint\] watching \d+ paths for changes; press Ctrl-C to stop\n){2,}$/,
        );
      }));
  },
);
