/**
 * A configuration problem names what is wrong where it is written (issue 36 item 7): `-c` given a
 * folder says so (it said "no such file", in every command), and `"app": "/"` in caplint.config.json
 * is blamed on that key (it was blamed on `--app`, which the command line did not have). Through the
 * built bin, in generated folders.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");

function caplint(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("configuration problems are named where they are", { timeout: 120_000 }, () => {
  it.each([
    ["events", ["events", "-c", "settings", "recording.jsonl"]],
    ["check", ["check", "-c", "settings", "main.json"]],
    ["mcp", ["mcp", "-c", "settings", "tools.json"]],
  ])("%s -c FOLDER: the folder is named as a folder, exit 2", (_, args) => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-config-"));
    mkdirSync(path.join(dir, "settings"));
    writeFileSync(path.join(dir, "recording.jsonl"), "");
    writeFileSync(path.join(dir, "main.json"), "{}");
    writeFileSync(path.join(dir, "tools.json"), '{"tools": []}');
    expect(caplint(args, dir)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "caplint: --config settings: is a folder; give the configuration file itself (such as settings/caplint.config.json)\n",
    });
  });

  it.each(["/", "."])(
    '"app": %j that is no app folder is blamed on the config key, not on --app',
    (app) => {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-config-"));
      mkdirSync(path.join(dir, ".git"));
      writeFileSync(
        path.join(dir, "caplint.config.json"),
        `{\n  "app": ${JSON.stringify(app)}\n}\n`,
      );
      const result = caplint(["check"], dir);
      expect(result.stderr).toBe(
        `caplint: ${path.join(dir, "caplint.config.json")}:2:10: "app": ${app} is not an app folder (no src-tauri/, capabilities/ or tauri.conf.json in it, nor a tauri.conf.json in the folders below it the Tauri CLI searches)\n`,
      );
      expect(result.stderr).not.toContain("--app");
      expect(result.code).toBe(2);
    },
  );
});
