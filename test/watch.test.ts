import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "./helpers/run.js";

/** Spawns the real bin in watch mode and lets a test wait for output. */
function startWatch(cwd: string) {
  const child = spawn(process.execPath, [path.join(ROOT, "bin/caplint.js"), "check", "--watch", "--format", "compact"], { cwd, env: { ...process.env, NO_COLOR: "1" } });
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
