import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/**
 * "Every answer true for this app" (issue 31), through the built bin as users run it: a plugin key no
 * dependency provides, mobile targets from every piece of evidence, `check DIR` on a folder of apps,
 * the app's own spelling, REUSE licence files.
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const BUILD_TRUTH = path.join(FIXTURES, "real-world", "build-truth");

function caplint(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface Finding {
  file: string;
  line: number;
  column: number;
  severity: string;
  ruleId: string;
  message: string;
  hint?: string;
  data?: Record<string, unknown>;
}
const findings = (stdout: string) => (JSON.parse(stdout) as { diagnostics: Finding[] }).diagnostics;

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-app-truth-"));
  temporary.push(dir);
  return dir;
}

describe("a plugin key no dependency provides", () => {
  it("is an error naming the key the build has, when every dependency is known (shell360 with mobile:default misspelt)", () => {
    const result = caplint(
      ["check", "--app", "shell360-misspelt-plugin", "--format", "json"],
      path.join(FIXTURES, "capabilities", "unknown-plugin", "invalid"),
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const mine = findings(result.stdout).filter((d) => d.ruleId === "unknown-plugin");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ severity: "error", messageId: "notInBuild" });
    expect(mine[0]!.message).toContain(
      '"moblie:default": no dependency of the app provides it, so the android and iOS build fails',
    );
    expect(mine[0]!.hint).toContain('did you mean "mobile" ("mobile:default")?');
  });

  it("stays a warning when a dependency could not be read (the original app without its in-repo plugin's folder)", () => {
    const dir = scratch();
    cpSync(
      path.join(FIXTURES, "capabilities", "unknown-plugin", "invalid", "shell360-misspelt-plugin"),
      dir,
      {
        recursive: true,
      },
    );
    rmSync(path.join(dir, "tauri-plugin-mobile"), { recursive: true });
    const result = caplint(["check", "--app", ".", "--format", "json"], dir);
    const mine = findings(result.stdout).filter((d) => d.ruleId === "unknown-plugin");
    expect(mine.map((d) => d.severity)).toEqual(["warning"]);
  });
});

describe("mobile targets from every piece of evidence", () => {
  const cases = path.join(FIXTURES, "capabilities", "plugin-not-in-build", "invalid");

  it("a capability written against mobile-schema.json makes android and iOS ship: a desktop-only plugin there is an error; the hint and --debug name the evidence", () => {
    const result = caplint(
      ["check", "--app", "mobile-schema-no-gen", "--format", "json", "--debug"],
      cases,
    );
    expect(result.code).toBe(1);
    const [finding] = findings(result.stdout).filter((d) => d.ruleId === "plugin-not-in-build");
    expect(finding).toMatchObject({ severity: "error", messageId: "notOnTarget" });
    expect(finding!.hint).toContain(
      "android ships because capability file mobile-schema-no-gen/src-tauri/capabilities/desktop.json uses ../gen/schemas/mobile-schema.json",
    );
    expect(result.stderr).toContain(
      "caplint: debug: mobile-schema-no-gen/src-tauri/Cargo.toml: android ships: capability file mobile-schema-no-gen/src-tauri/capabilities/desktop.json uses ../gen/schemas/mobile-schema.json, which only a mobile build writes\n",
    );
    expect(result.stderr).toContain(
      "caplint: debug: mobile-schema-no-gen/src-tauri/Cargo.toml: linux ships: desktop\n",
    );
  });

  it("a Cargo table written for android alone only suggests it: a warning that says what would fail, exit 0", () => {
    const result = caplint(
      ["check", "--app", "android-table-suggests", "--format", "json", "--debug"],
      cases,
    );
    expect(result.code).toBe(0);
    const [finding] = findings(result.stdout).filter((d) => d.ruleId === "plugin-not-in-build");
    expect(finding).toMatchObject({ severity: "warning", messageId: "notOnSuggestedTarget" });
    expect(finding!.message).toContain("if the app ships for android");
    expect(finding!.hint).toContain(
      `android may ship (Cargo.toml has a [target.'cfg(not(target_os = "android"))'] table;`,
    );
    expect(result.stderr).toContain(
      `android ships: Cargo.toml has a [target.'cfg(not(target_os = "android"))'] table (suggests it only)\n`,
    );
  });

  it("a CI workflow that builds for android makes it ship", () => {
    const dir = scratch();
    cpSync(path.join(cases, "android-table-suggests"), dir, { recursive: true });
    mkdirSync(path.join(dir, ".git"));
    mkdirSync(path.join(dir, ".github", "workflows"), { recursive: true });
    writeFileSync(
      path.join(dir, ".github", "workflows", "android.yml"),
      "jobs:\n  apk:\n    steps:\n      - run: pnpm tauri android build --apk\n",
    );
    const result = caplint(["check", "--app", ".", "--format", "json"], dir);
    expect(result.code).toBe(1);
    const [finding] = findings(result.stdout).filter((d) => d.ruleId === "plugin-not-in-build");
    expect(finding).toMatchObject({ severity: "error", messageId: "notOnTarget" });
    expect(finding!.hint).toContain(
      "android ships because .github/workflows/android.yml builds it",
    );
  });
});

describe("check DIR on a folder that holds apps", () => {
  it("checks each app in its own context, exactly as caplint run there; Cargo.toml and JSON schemas beside them are never capabilities", () => {
    const dir = scratch();
    const corpus = path.join(dir, "corpus");
    for (const app of ["Alakazam-211__K2SO", "moshstudio__travel-plan", "ActivityWatch__aw-tauri"])
      cpSync(path.join(BUILD_TRUTH, app), path.join(corpus, app), { recursive: true });
    writeFileSync(path.join(corpus, "Cargo.toml"), '[workspace]\nmembers = ["*/src-tauri"]\n');
    writeFileSync(
      path.join(corpus, "capability.schema.json"),
      JSON.stringify({ $schema: "http://json-schema.org/draft-07/schema#", type: "object" }),
    );
    const fromAbove = caplint(["check", "corpus", "--format", "json"], dir);
    const inside = caplint(["--format", "json"], corpus);
    expect(fromAbove.stderr).toBe("");
    const strip = (list: Finding[], prefix: string) =>
      list.map((d) => ({ ...d, file: d.file.replace(prefix, "") }));
    expect(strip(findings(fromAbove.stdout), "corpus/")).toEqual(findings(inside.stdout));
    expect(fromAbove.code).toBe(inside.code);
    // K2SO's linux and windows builds fail (its real break): the error is there, and nothing about the root's files.
    expect(
      findings(fromAbove.stdout)
        .filter((d) => d.severity === "error")
        .map((d) => d.ruleId),
    ).toContain("plugin-not-in-build");
    expect(findings(fromAbove.stdout).some((d) => /Cargo\.toml|schema\.json/.test(d.file))).toBe(
      false,
    );
  });

  it("a plain folder of capability files is still walked, without its Cargo.toml or schema files", () => {
    const dir = scratch();
    writeFileSync(
      path.join(dir, "main.json"),
      JSON.stringify({ identifier: "main", windows: ["main"], permissions: ["core:default"] }),
    );
    writeFileSync(path.join(dir, "Cargo.toml"), '[package]\nname = "x"\n');
    writeFileSync(path.join(dir, "settings.json"), JSON.stringify({ theme: "dark" }));
    const result = caplint(["check", ".", "--format", "json"], dir);
    expect(result.code).toBe(0);
    expect(findings(result.stdout)).toEqual([]);
  });
});

describe("the app's spelling in every answer", () => {
  it("an app locking the tauri crate gets tauri_version from resolve and access, with no generated manifest", () => {
    const app = path.join(BUILD_TRUTH, "moshstudio__travel-plan");
    const access = caplint(["access", "--app", ".", "--window", "main", "--format", "json"], app);
    expect(access.stderr).toBe("");
    expect(access.stdout).toContain("plugin:app|tauri_version");
    expect(access.stdout).not.toContain("host_version");
    const resolve = caplint(["resolve", "--app", "."], app);
    expect(resolve.stdout).toContain("tauri_version");
    expect(resolve.stdout).not.toContain("host_version");
  });

  it("--help says caplint is for Tauri v2 apps", () => {
    const help = caplint(["--help"], ROOT);
    expect(help.stdout.split("\n").slice(0, 4).join(" ")).toMatch(/Tauri v2 apps/);
  });
});

describe("REUSE licence files", () => {
  it("default.json.license beside default.json is not a stray file (black-book-browser)", () => {
    const result = caplint(
      ["check", "--app", "reuse-sidecar", "--format", "json"],
      path.join(FIXTURES, "capabilities", "ignored-file", "valid"),
    );
    expect(result.code).toBe(0);
    expect(findings(result.stdout)).toEqual([]);
  });

  it("a .license file without the file it licenses is still reported", () => {
    const dir = scratch();
    cpSync(path.join(FIXTURES, "capabilities", "ignored-file", "valid", "reuse-sidecar"), dir, {
      recursive: true,
    });
    writeFileSync(
      path.join(dir, "src-tauri", "capabilities", "old.json.license"),
      "SPDX-License-Identifier: GPL-3.0-or-later\n",
    );
    const result = caplint(["check", "--app", ".", "--format", "json"], dir);
    expect(findings(result.stdout).map((d) => `${d.ruleId} ${d.file}`)).toEqual([
      "ignored-file src-tauri/capabilities/old.json.license",
    ]);
  });
});

describe("grants that grant nothing", () => {
  it("an empty default set is a suggestion naming the locked release; an http grant without a URL is a warning with the scope to add (getAsterisk/claudia, nashaofu/shell360)", () => {
    const claudia = caplint(
      ["check", "--app", ".", "--format", "json"],
      path.join(FIXTURES, "real-world", "getAsterisk__claudia"),
    );
    const mine = findings(claudia.stdout).filter(
      (d) =>
        d.ruleId === "empty-grant" || (d.ruleId === "dead-scope" && d.message.includes("http")),
    );
    expect(mine.map((d) => [d.line, d.severity, d.ruleId, d.message.split(":")[0]])).toEqual([
      [46, "warning", "dead-scope", '"http'],
      [47, "warning", "dead-scope", '"http'],
      [50, "suggestion", "empty-grant", '"clipboard-manager'],
      [51, "suggestion", "empty-grant", '"global-shortcut'],
    ]);
    expect(mine[0]!.message).toBe(
      '"http:default" grants nothing: plugin:http|fetch fetches only URLs an http scope names, and no entry gives it one',
    );
    expect(mine[0]!.hint).toBe(
      'add the URLs the app fetches, e.g. { "identifier": "http:default", "allow": [{ "url": "https://api.example.com/*" }] }, or remove the permission',
    );
    expect(mine[3]!.hint).toContain('"global-shortcut:allow-register"');
    // Suggestions and warnings only: the verdict (exit code) is what it was.
    expect(claudia.code).toBe(0);

    const shell360 = caplint(
      ["check", "--app", ".", "--format", "json"],
      path.join(BUILD_TRUTH, "nashaofu__shell360"),
    );
    const empty = findings(shell360.stdout).filter((d) => d.ruleId === "empty-grant");
    expect(empty.map((d) => `${d.file}:${d.line}`)).toEqual([
      "src-tauri/capabilities/desktop.json:37",
      "src-tauri/capabilities/mobile.json:35",
    ]);
    expect(empty[0]!.message).toBe(
      '"clipboard-manager:default" grants nothing: its default set is empty at tauri-plugin-clipboard-manager 2.3.2, so it enables none of the clipboard-manager plugin\'s commands',
    );
  });
});
