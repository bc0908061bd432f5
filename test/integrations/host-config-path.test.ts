import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, run } from "../helpers/run.js";

/**
 * pre-commit passes the changed files, so a change to tauri.conf.json arrives as a file path.
 * The config is no capability file: it stands for "check this app's capabilities".
 */
const APP = path.join(FIXTURES, "integrations", "app");
const TYPO =
  'src-tauri/capabilities/typo.json:4:19: error unknown permission "core:window:allow-set-titel"';

interface JsonReport {
  diagnostics: Array<{ file: string; ruleId: string }>;
  summary: { files: number };
}

async function check(
  cwd: string,
  ...paths: string[]
): Promise<{ code: number; report: JsonReport; compact: string }> {
  const json = await run(["check", "--format", "json", ...paths], cwd);
  const compact = await run(["check", "--format", "compact", ...paths], cwd);
  return {
    code: json.code,
    report: JSON.parse(json.stdout) as JsonReport,
    compact: compact.stdout,
  };
}

describe("a host config passed as a path", { timeout: 120_000 }, () => {
  it("checks its app's capabilities instead of linting the config as a capability", async () => {
    const { code, report, compact } = await check(APP, "src-tauri/tauri.conf.json");
    expect(code).toBe(1);
    expect(report.diagnostics.map((d) => d.file)).toEqual(["src-tauri/capabilities/typo.json"]);
    expect(report.summary.files).toBe(2);
    expect(compact).toContain(TYPO);
  });

  it("does the same for a platform config such as tauri.linux.conf.json", async () => {
    const { report } = await check(APP, "src-tauri/tauri.linux.conf.json");
    expect(report.diagnostics.map((d) => `${d.file} ${d.ruleId}`)).toEqual([
      "src-tauri/capabilities/typo.json unknown-permission",
    ]);
  });

  it("reports each capability once when the config comes with capability files of its app", async () => {
    const { report } = await check(
      APP,
      "src-tauri/capabilities/typo.json",
      "src-tauri/tauri.conf.json",
      "src-tauri/capabilities/default.json",
    );
    expect(report.diagnostics).toHaveLength(1);
    expect(report.summary.files).toBe(2);
  });

  it("still lints a capability file alone, without loading the app", async () => {
    const { code, report } = await check(APP, "src-tauri/capabilities/default.json");
    expect(code).toBe(0);
    expect(report.summary.files).toBe(1);
  });

  it("adds the capabilities of a second app whose config is passed", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "caplint-two-apps-"));
    cpSync(APP, path.join(root, "one"), { recursive: true });
    cpSync(APP, path.join(root, "two"), { recursive: true });
    // Distinct identifiers: capabilities checked together share one identifier space (duplicate-capability).
    rmSync(path.join(root, "two", "src-tauri", "capabilities", "default.json"));
    writeFileSync(
      path.join(root, "two", "src-tauri", "capabilities", "typo.json"),
      '{ "identifier": "other", "windows": ["main"], "permissions": ["fs:allow-raed-file"] }\n',
    );
    const { report } = await check(
      root,
      "one/src-tauri/tauri.conf.json",
      "two/src-tauri/tauri.conf.json",
    );
    expect(report.diagnostics.map((d) => d.file).sort()).toEqual([
      "one/src-tauri/capabilities/typo.json",
      "two/src-tauri/capabilities/typo.json",
    ]);
  });
});
