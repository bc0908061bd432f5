import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  compareVersions,
  loadVersionHistory,
  newestMatching,
} from "../../src/capabilities/catalog/versions.js";
import { lockedPackages } from "../../src/capabilities/load/cargo.js";
import { FIXTURES, ROOT } from "../helpers/run.js";

const VERSIONS = path.join(FIXTURES, "versions");

/** The built bin, as users run it. */
function bin(args: string[], cwd = ROOT) {
  const result = spawnSync(process.execPath, [path.join(ROOT, "bin/caplint.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

type Finding = {
  ruleId: string;
  messageId?: string;
  severity: string;
  message: string;
  hint?: string;
  line: number;
};
const check = (args: string[], cwd = ROOT) => {
  const result = bin(["check", ...args, "-f", "json"], cwd);
  const report = JSON.parse(result.stdout) as {
    diagnostics: Finding[];
    summary: { notes?: string[] };
  };
  return { code: result.code, findings: report.diagnostics, notes: report.summary.notes ?? [] };
};

const temp = mkdtempSync(path.join(os.tmpdir(), "caplint-versions-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe("the version history", () => {
  it("answers acl-history.md's existence test, with uncertainty where the history has no exact edge", async () => {
    const history = await loadVersionHistory();
    expect(history.exists("store", "store:allow-create-store", "2.0.1")).toBe(true);
    expect(history.exists("store", "store:allow-create-store", "2.1.0")).toBe(false);
    expect(history.exists("fs", "fs:allow-size", "2.0.3")).toBe(false);
    expect(history.exists("fs", "fs:allow-size", "2.1.0")).toBe(true);
    // since 2.5.0 after 2.4.5: 2.4.6 (not a known release) cannot be told; 2.4.5 surely lacks it.
    expect(
      history.exists("fs", "fs:allow-start-accessing-security-scoped-resource", "2.4.6"),
    ).toBeNull();
    expect(history.exists("fs", "fs:allow-start-accessing-security-scoped-resource", "2.4.5")).toBe(
      false,
    );
    // Unverified (core 2.12 from the JS package only): never certain to exist.
    expect(history.exists("core", "core:app:allow-exit", "2.12.1")).toBeNull();
    expect(history.exists("core", "core:app:allow-exit", "2.11.5")).toBe(false);
    expect(history.exists("dialog", "dialog:allow-ask", "2.8.4")).toBe(true);
    expect(history.membersAt("store", "store:default", "2.0.1")).toContain("allow-create-store");
    expect(history.membersAt("store", "store:default", "2.4.2")).toContain("allow-get-store");
  });

  it("data/acl-versions.json is what scripts/build-acl-versions.mjs derives from data/acl-history.json", () => {
    const result = spawnSync(
      process.execPath,
      [path.join(ROOT, "scripts/build-acl-versions.mjs"), "--check"],
      { encoding: "utf8" },
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("compares versions and resolves Cargo requirements to the newest release they allow", () => {
    expect(compareVersions("2.10.0", "2.9.9")).toBeGreaterThan(0);
    expect(compareVersions("2.0.0-rc.3", "2.0.0")).toBeLessThan(0);
    const versions = ["2.0.0", "2.0.1", "2.0.3", "2.1.0", "2.4.2", "2.4.5", "3.0.0"];
    expect(newestMatching("2", versions)).toBe("2.4.5");
    expect(newestMatching("2.0.1", versions)).toBe("2.4.5");
    expect(newestMatching("=2.0.1", versions)).toBe("2.0.1");
    expect(newestMatching("~2.0", versions)).toBe("2.0.3");
    expect(newestMatching("2.0.*", versions)).toBe("2.0.3");
    expect(newestMatching(">=2.1, <2.4", versions)).toBe("2.1.0");
    expect(newestMatching("*", versions)).toBe("3.0.0");
    expect(newestMatching("not a requirement", versions)).toBeUndefined();
  });

  it("reads a Cargo.lock's packages line by line", () => {
    const lock =
      '# generated\nversion = 4\n\n[[package]]\nname = "tauri"\nversion = "2.1.0"\ndependencies = [\n "serde",\n]\n\n[[package]]\nname = "tauri-plugin-fs"\nversion = "2.0.3"\n\n[metadata]\nname = "x"\n';
    expect(lockedPackages(lock)).toEqual([
      { name: "tauri", version: "2.1.0" },
      { name: "tauri-plugin-fs", version: "2.0.3" },
    ]);
  });
});

describe("identifiers are checked against the locked releases", () => {
  it("names the release in the message: removed, added later, and added at an uncertain edge", () => {
    const { code, findings, notes } = check(["--app", path.join(VERSIONS, "locked-app")]);
    expect(code).toBe(1);
    expect(notes).toEqual([]);
    expect(findings.map((f) => [f.line, f.severity, f.message, f.hint])).toEqual([
      [
        7,
        "error",
        '"store:allow-create-store" is not in tauri-plugin-store 2.4.2; it was removed after 2.0.1',
        'did you mean "store:allow-get-store", "store:allow-clear" or "store:allow-delete"?',
      ],
      [
        8,
        "error",
        '"fs:allow-size" is not in tauri-plugin-fs 2.0.3; it was added in 2.1.0',
        "upgrade to ≥ 2.1.0 (cargo update -p tauri-plugin-fs), or remove it",
      ],
      [
        9,
        "error",
        '"core:app:allow-identifier" is not in tauri 2.1.0; it was added after 2.3.1 (2.4.0 has it)',
        "upgrade to ≥ 2.4.0 (cargo update -p tauri), or remove it",
      ],
    ]);
    expect(findings.map((f) => f.messageId)).toEqual(["removed", "notYetAdded", "notYetAdded"]);
    // http:allow-fetch-cancel-body at 2.5.5 (added by 2.5.6, after 2.5.4) is uncertain: no finding.
    expect(findings.some((f) => f.message.includes("fetch-cancel-body"))).toBe(false);
  });

  it("an old release's identifiers and default-set members are right for that release", () => {
    const { code, findings } = check(["--app", path.join(VERSIONS, "old-store-app")]);
    expect(code).toBe(0);
    // store 2.0.1's default still held allow-create-store, so listing it beside the default is redundant.
    expect(findings.map((f) => [f.ruleId, f.message])).toEqual([
      [
        "redundant-permission",
        '"store:allow-create-store" is already granted by "store:default" in this capability',
      ],
    ]);
    const access = JSON.parse(
      bin([
        "access",
        "--app",
        path.join(VERSIONS, "old-store-app"),
        "-w",
        "main",
        "--platform",
        "linux",
        "-f",
        "json",
      ]).stdout,
    );
    const commands = access.allowed.map((a: { command: string }) => a.command);
    expect(commands).toContain("plugin:store|create_store");
    expect(commands).not.toContain("plugin:store|get_store");
  });

  it("without a Cargo.lock: the newest releases, said once in a note, not per finding", () => {
    const { findings, notes } = check(["--app", path.join(VERSIONS, "no-lock-app")]);
    expect(notes).toEqual([
      "no Cargo.lock or Cargo.toml found for the app: identifiers were checked against the newest core and plugin releases",
    ]);
    expect(findings.map((f) => f.message)).toEqual([
      '"store:allow-create-store" is not in tauri-plugin-store 2.4.5; it was removed after 2.0.1',
      'unknown permission "clipboard-manager:allow-read-html": plugin "clipboard-manager" has no permission or set "allow-read-html"',
    ]);
    const stylish = bin(["check", "--app", path.join(VERSIONS, "no-lock-app")]).stdout;
    expect(stylish.match(/note: /g)).toHaveLength(1);
    const sarif = JSON.parse(
      bin(["check", "--app", path.join(VERSIONS, "no-lock-app"), "-f", "sarif"]).stdout,
    );
    expect(sarif.runs[0].invocations[0].toolExecutionNotifications[0]).toMatchObject({
      level: "note",
      message: { text: notes[0] },
    });
  });

  it("with only a Cargo.toml: the newest release each requirement allows", () => {
    const { findings, notes } = check(["--app", path.join(VERSIONS, "toml-app")]);
    expect(notes).toEqual([
      "no Cargo.lock found: identifiers were checked against the newest releases fixtures/versions/toml-app/src-tauri/Cargo.toml allows",
    ]);
    // store is pinned to =2.0.1 (allow-create-store exists), fs to ~2.0 (2.0.3: no allow-size).
    expect(findings.map((f) => f.message)).toEqual([
      '"fs:allow-size" is not in tauri-plugin-fs 2.0.3; it was added in 2.1.0',
    ]);
  });

  it("finds the lock of a Cargo workspace above the app, but never outside the repository", () => {
    const repo = path.join(temp, "repo");
    const app = path.join(repo, "apps", "desktop");
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    cpSync(path.join(VERSIONS, "no-lock-app"), app, { recursive: true });
    writeFileSync(
      path.join(repo, "Cargo.lock"),
      '[[package]]\nname = "tauri-plugin-store"\nversion = "2.0.1"\n',
    );
    const inside = check(["--app", app]);
    expect(inside.notes).toEqual([]);
    // store 2.0.1 from the workspace lock still has allow-create-store; only the never-existing id is left.
    expect(inside.findings.map((f) => f.message)).toEqual([
      'unknown permission "clipboard-manager:allow-read-html": plugin "clipboard-manager" has no permission or set "allow-read-html"',
    ]);
    // The same app in a folder without a repository: a Cargo.lock two levels up is not the app's.
    const loose = path.join(temp, "loose");
    cpSync(path.join(VERSIONS, "no-lock-app"), path.join(loose, "a", "b"), { recursive: true });
    writeFileSync(
      path.join(loose, "Cargo.lock"),
      '[[package]]\nname = "tauri-plugin-store"\nversion = "2.0.1"\n',
    );
    const outside = check(["--app", path.join(loose, "a", "b")]);
    expect(outside.notes).toHaveLength(1);
    expect(outside.findings.map((f) => f.message)).toContain(
      '"store:allow-create-store" is not in tauri-plugin-store 2.4.5; it was removed after 2.0.1',
    );
  });

  it("a pre-release lock is checked against the newest catalog, and says so", () => {
    const dir = path.join(temp, "rc");
    cpSync(path.join(VERSIONS, "old-store-app"), dir, { recursive: true });
    writeFileSync(
      path.join(dir, "src-tauri", "Cargo.lock"),
      '[[package]]\nname = "tauri-plugin-store"\nversion = "2.0.0-rc.4"\n',
    );
    const { notes, findings } = check(["--app", dir]);
    expect(notes).toEqual([
      "tauri-plugin-store 2.0.0-rc.4: not a 2.x release the version history covers; checked against the newest catalog",
    ]);
    expect(findings.map((f) => f.message)).toEqual([
      '"store:allow-create-store" is not in tauri-plugin-store 2.4.5; it was removed after 2.0.1',
    ]);
  });
});

describe("caplint permissions PLUGIN --version V", () => {
  it("lists that release's catalog", () => {
    const list = (args: string[]) =>
      JSON.parse(bin(["permissions", ...args, "-f", "json"], temp).stdout) as Array<{
        identifier: string;
        members?: string[];
      }>;
    const old = list(["store", "--version", "2.0.1"]);
    expect(old.map((p) => p.identifier)).toContain("store:allow-create-store");
    expect(old.map((p) => p.identifier)).not.toContain("store:allow-get-store");
    expect(old.find((p) => p.identifier === "store:default")!.members).toContain(
      "allow-create-store",
    );
    const current = list(["store", "--version", "2.4.2"]);
    expect(current.map((p) => p.identifier)).toContain("store:allow-get-store");
    expect(current.map((p) => p.identifier)).not.toContain("store:allow-create-store");
    const core = list(["core:app", "--version", "2.1.0"]).map((p) => p.identifier);
    expect(core).not.toContain("core:app:allow-identifier");
    expect(core).toContain("core:app:allow-host-version");
    const bad = bin(["permissions", "store", "--version", "banana"], temp);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--version banana");
  });
});

describe("a permission's commands at the locked release", () => {
  // A real app (ActivityWatch's aw-tauri) that locks tauri-plugin-dialog 2.6.0 and grants dialog:default.
  const AW = path.join(FIXTURES, "versions/aw-tauri-dialog-2.6");

  it("dialog 2.6's allow-ask enables ask (from 2.7.0 an alias of message): the main window may call it", () => {
    const asked = bin([
      "access",
      AW,
      "--window",
      "main",
      "--command",
      "plugin:dialog|ask",
      "--platform",
      "linux",
    ]);
    expect(asked.stdout).not.toContain("no known plugin has the command");
    expect(asked.stdout).toMatch(/ALLOWED/);
    expect(asked.stdout).toContain("allow-ask");
    expect(asked.code).toBe(0);
  });

  it("permissions --version shows each release's commands and description", async () => {
    const list = (version: string) =>
      JSON.parse(
        bin(["permissions", "dialog", "--version", version, "-f", "json"], temp).stdout,
      ) as Array<{
        identifier: string;
        description: string;
        allows: string[];
      }>;
    const askAt = (version: string) =>
      list(version).find((p) => p.identifier === "dialog:allow-ask");
    expect(askAt("2.6.0")).toMatchObject({
      allows: ["plugin:dialog|ask"],
      description: "Enables the ask command without any pre-configured scope.",
    });
    expect(askAt("2.7.0")).toMatchObject({ allows: ["plugin:dialog|message"] });
    expect(askAt("2.7.0")?.description).toContain("alias to `allow-message`");
    // fs 2.1.0 added size to read-meta; 2.0.x's lacks it.
    const history = await loadVersionHistory();
    expect(history.commandsAt("fs", "fs:read-meta", "2.0.3")?.allow).not.toContain("size");
    expect(history.commandsAt("fs", "fs:read-meta", "2.1.0")?.allow).toContain("size");
    expect(history.commandsAt("dialog", "dialog:allow-open", "2.0.0")).toBeUndefined();
  });
});

describe("a committed manifest that differs from the locked release (manifest-mismatch)", () => {
  const MISMATCH = path.join(FIXTURES, "capabilities", "manifest-mismatch");
  const edited = path.join(MISMATCH, "invalid", "edited-app");

  it("is an error naming plugin, permission and difference; the unedited manifest is clean", () => {
    const { code, findings } = check(["--app", edited]);
    expect(code).toBe(1);
    const mismatches = findings
      .filter((f) => f.ruleId === "manifest-mismatch")
      .map((f) => f.message);
    expect(mismatches).toContain(
      'plugin "fs": "fs:allow-read-file" in the manifest no longer allows "read_file", as tauri-plugin-fs 2.5.1 does',
    );
    expect(mismatches).toContain(
      'plugin "fs": the manifest lacks "fs:allow-mkdir", which tauri-plugin-fs 2.5.1 defines',
    );
    expect(check(["--app", path.join(MISMATCH, "valid", "built-app")])).toMatchObject({
      code: 0,
      findings: [],
    });
  });

  it("the security answers use what either definition grants: an edit cannot hide a grant", () => {
    // fs:allow-read-file was edited to grant nothing; the union still grants read_file across $HOME.
    const dangerous = check(["--app", edited]).findings.filter(
      (f) => f.ruleId === "dangerous-permission",
    );
    expect(dangerous.map((f) => f.message)).toEqual([
      expect.stringContaining('dangerous grant "fs:allow-read-file" (plugin:fs|read_file)'),
    ]);
    const who = JSON.parse(
      bin(["who-can", "plugin:fs|read_file", "--app", edited, "--platform", "linux", "-f", "json"])
        .stdout,
    );
    expect(who.allowedBy.map((e: { chain: string[] }) => e.chain)).toEqual([
      ["fs:allow-read-file"],
    ]);
    // deny-write-file was edited to deny nothing: a deny only one definition has is not trusted to block.
    const before = path.join(temp, "before");
    cpSync(edited, before, { recursive: true });
    writeFileSync(
      path.join(before, "src-tauri", "capabilities", "main.json"),
      JSON.stringify({ identifier: "main", windows: ["main"], permissions: ["core:default"] }),
    );
    const diff = bin(["diff", before, edited, "--platform", "linux", "-f", "json"]);
    expect(diff.code).toBe(1);
    expect(JSON.parse(diff.stdout).added.map((g: { command: string }) => g.command)).toContain(
      "plugin:fs|read_file",
    );
    const html = path.join(temp, "mismatch.html");
    expect(bin(["report", "--app", edited, "--platform", "linux", "--html", html]).code).toBe(0);
    expect(readFileSync(html, "utf8")).toContain("plugin:fs|read_file");
  });
});
