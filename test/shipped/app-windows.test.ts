import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/**
 * One view of the app's windows (issue 31 item 5), through the built bin: the windows tauri.conf.json
 * declares and those the app's Rust and frontend sources create are the same list for matrix, report,
 * access, who-can, explain and the known windows of a refusal, as check's unmatched-window sees them.
 */
const APP = path.join(FIXTURES, "capabilities", "unmatched-window", "valid", "code-windows");
const WINDOWS = ["main", "settings", "quick-note", "preview"];

function caplint(args: string[]) {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "bin", "caplint.js"), ...args, "--app", APP, "--platform", "linux"],
    {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the app's windows, one list for every command", () => {
  it("check knows the windows made in src/lib.rs and the frontend", () => {
    expect(caplint(["check", "-f", "json"]).code).toBe(0);
  });

  it("matrix has a column for each, in the order config then sources", () => {
    const matrix = caplint(["matrix", "-f", "json"]);
    expect(matrix.code).toBe(0);
    expect(JSON.parse(matrix.stdout).windows).toEqual(WINDOWS);
    expect(caplint(["matrix"]).stdout.split("\n")[1]).toMatch(
      /^command\s+main\s+settings\s+quick-note\s+preview$/,
    );
  });

  it("report counts them and draws their columns", () => {
    const report = caplint(["report", "--html", "-"]);
    expect(report.code).toBe(0);
    expect(report.stdout).toContain('data-stat="windows"><div class="value">4</div>');
  });

  it("access and explain answer for a window made in Rust; a typo's refusal lists it and proposes it", () => {
    const access = caplint(["access", "--window", "settings", "-f", "json"]);
    expect(access.code, access.stderr).toBe(0);
    const typo = caplint(["access", "--window", "setings"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      '(known windows: "main", "settings", "quick-note" and "preview"); did you mean "settings"?',
    );
    const explain = caplint([
      "explain",
      'app.version not allowed on window "setings", webview "setings", URL: local',
    ]);
    expect(explain.stdout).toContain('did you mean "settings"');
  });

  it("who-can says which of the app's windows a glob grant reaches", () => {
    const text = caplint(["who-can", "app.version"]);
    expect(text.stdout).toContain(
      "the app's windows it reaches: main, settings, quick-note, preview",
    );
    const json = JSON.parse(caplint(["who-can", "app.version", "-f", "json"]).stdout);
    expect(json.allowedBy[0].reaches).toEqual(WINDOWS);
  });
});
