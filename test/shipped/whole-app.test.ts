import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/**
 * "Every answer covers the whole app", through the built bin as users run it: queries answer for
 * every platform, explain reads the host's own refusal texts, a file list is checked in its app's
 * context, and a monorepo root checks each app.
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const QUERIES = path.join(FIXTURES, "queries");

function caplint(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const temporary: string[] = [];
// Removing the 20,001-folder monorepo below takes longer than the 60 s hook default under load (seen in a
// full run with other files in parallel).
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
}, 300_000);
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-whole-app-"));
  temporary.push(dir);
  return dir;
}
function write(file: string, value: unknown) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2) + "\n");
}

describe("diff covers every platform", () => {
  // The pull request adds shell:allow-execute for every window, on macOS only; CI runs on Linux.
  const dir = scratch();
  cpSync(path.join(QUERIES, "app"), path.join(dir, "base"), { recursive: true });
  cpSync(path.join(QUERIES, "app"), path.join(dir, "pr"), { recursive: true });
  write(path.join(dir, "pr", "src-tauri", "capabilities", "mac-shell.json"), {
    identifier: "mac-shell",
    windows: ["*"],
    platforms: ["macOS"],
    permissions: [{ identifier: "shell:allow-execute", allow: [{ name: "ls", cmd: "ls" }] }],
  });

  it("fails without --platform, whatever the runner's platform, and names the platform", () => {
    const result = caplint(["diff", "base", "pr"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^NEW ACCESS on all platforms \(1 command grant\):\n {2}window "\*" from local:\n {4}plugin:shell\|execute {2}← mac-shell › shell:allow-execute {2}\(pr\/src-tauri\/capabilities\/mac-shell\.json:\d+\) {2}\[new command\] {2}\[macOS only\]$/m,
    );
    const json = JSON.parse(caplint(["diff", "base", "pr", "--format", "json"], dir).stdout);
    expect(json.platforms).toEqual(["linux", "macOS", "windows", "android", "iOS"]);
    expect(json.added).toEqual([
      expect.objectContaining({
        command: "plugin:shell|execute",
        window: "*",
        platforms: ["macOS"],
      }),
    ]);
  });

  it("--platform narrows, case-insensitively; an unknown name is a usage error with did-you-mean", () => {
    expect(caplint(["diff", "base", "pr", "--platform", "linux"], dir)).toMatchObject({
      code: 0,
      stdout: "no new access on linux\n",
    });
    expect(caplint(["diff", "base", "pr", "--platform", "macos"], dir).code).toBe(1);
    expect(caplint(["diff", "base", "pr", "--platform", "LINUX,windows"], dir).code).toBe(0);
    const bad = caplint(["diff", "base", "pr", "--platform", "macoss"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('did you mean "macOS"?');
  });

  it("check takes the same case-insensitive --platform", () => {
    expect(caplint(["check", "--app", "pr", "--platform", "ios"], dir).code).toBe(0);
  });
});

describe("who-can, access and matrix cover every platform", () => {
  it("who-can marks a grant that holds on one platform only", () => {
    const result = caplint(["who-can", "core:window.set_size"], QUERIES + "/app");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("plugin:window|set_size on all platforms");
    expect(result.stdout).toMatch(/allowed for \[windows: settings\] from local {2}\[macOS only\]/);
  });

  it("access shows where platforms differ, each plugin once with its global scope, each capability once", () => {
    const result = caplint(["access", "-w", "settings"], path.join(QUERIES, "app"));
    expect(result.stdout).toContain(
      'window "settings", webview "settings", origin local, on all platforms',
    );
    expect(result.stdout).toMatch(
      /plugin:window\|set_size {2}← capability settings › core:window:allow-set-size \[local\] {2}\(src-tauri\/capabilities\/settings\.toml:\d+\) {2}\[macOS only\]/,
    );

    const dir = scratch();
    cpSync(path.join(QUERIES, "app"), dir, { recursive: true });
    write(path.join(dir, "src-tauri", "capabilities", "home.json"), {
      identifier: "home",
      windows: ["*"],
      permissions: ["fs:scope-home-recursive"],
    });
    const main = caplint(["access", "-w", "main", "--platform", "linux"], dir);
    const groups = main.stdout.split("\n").filter((line) => /^ {2}\S/.test(line));
    expect(new Set(groups).size).toBe(groups.length);
    expect(groups.filter((g) => g === "  app commands")).toHaveLength(1);
    // The `**` a window really gets is in the plugin's global scope, not in its command scope.
    expect(main.stdout).toMatch(
      / {2}fs\n {4}global scope \(Tauri hands it to every window\): allow \{"path":"\$HOME"\}, \{"path":"\$HOME\/\*\*"\}/,
    );
  });

  it("access lists a capability once however many remote URLs match", () => {
    const dir = scratch();
    cpSync(path.join(QUERIES, "app"), dir, { recursive: true });
    write(path.join(dir, "src-tauri", "capabilities", "remote.json"), {
      identifier: "remote-docs",
      windows: ["docs"],
      local: false,
      remote: {
        urls: ["https://*.example.com", "https://docs.example.com", "https://docs.example.com/*"],
      },
      permissions: ["core:window:allow-set-title"],
    });
    const result = caplint(
      ["access", "-w", "docs", "--url", "https://docs.example.com/page", "--platform", "linux"],
      dir,
    );
    const line = result.stdout.split("\n").find((l) => l.includes("plugin:window|set_title"))!;
    expect(line).toContain(
      "capability remote-docs › core:window:allow-set-title [https://*.example.com, https://docs.example.com, https://docs.example.com/*]",
    );
    expect(line).not.toContain("more)");
  });

  it("matrix gives one mark per platform group where platforms differ", () => {
    const result = caplint(["matrix", "-w", "settings", "-w", "main"], path.join(QUERIES, "app"));
    expect(result.stdout).toContain(
      "platforms differ: each cell has one mark per group: 1. linux, windows, android, iOS; 2. macOS",
    );
    expect(result.stdout).toMatch(/^plugin:window\|set_size\s+·✔\s+··/m);
    const json = JSON.parse(
      caplint(["matrix", "--format", "json"], path.join(QUERIES, "app")).stdout,
    );
    expect(json.byPlatform.map((g: { platforms: string[] }) => g.platforms)).toEqual([
      ["linux", "windows", "android", "iOS"],
      ["macOS"],
    ]);
  });
});

describe("access --command and explain", () => {
  const app = path.join(QUERIES, "app");

  it("access -C accepts the command as invoked, as the host prints it, and bare", () => {
    const answers = ["plugin:fs|read_file", "fs.read_file", "read_file", "fs|read_file"].map((c) =>
      caplint(["access", "-w", "main", "-C", c, "--platform", "linux"], app),
    );
    for (const answer of answers) {
      expect(answer.code).toBe(0);
      expect(answer.stdout).toContain("ALLOWED: plugin:fs|read_file (allowed) on linux");
    }
    const ambiguous = caplint(["access", "-w", "main", "-C", "close"], app);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('"close" is a command of several plugins');
  });

  it("explains a debug-build refusal and prints the smallest entry with its scope", () => {
    const text =
      'Uncaught (in promise) fs.read_text_file not allowed on window "settings", webview "settings", URL: local';
    const result = caplint(["explain", text, "--platform", "linux"], app);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'Tauri refused plugin:fs|read_text_file for window "settings", webview "settings", origin local',
    );
    expect(result.stdout).toContain("NOT ALLOWED: plugin:fs|read_text_file (not-granted) on linux");
    expect(result.stdout).toContain('"fs:allow-read-text-file" enables only read_text_file');
    const json = JSON.parse(
      caplint(["explain", text, "--platform", "linux", "--format", "json"], app).stdout,
    );
    expect(json.suggestion.entry).toEqual({
      identifier: "fs:allow-read-text-file",
      allow: [{ path: "<path>" }],
    });
    expect(json.suggestion.newCapability).toEqual({
      identifier: "settings-read-text-file",
      windows: ["settings"],
      permissions: [json.suggestion.entry],
    });
  });

  it("explains a deny: remove it, wherever it is", () => {
    const result = caplint(
      [
        "explain",
        "window.close explicitly denied on origin local",
        "-w",
        "main",
        "--platform",
        "linux",
      ],
      app,
    );
    expect(result.stdout).toContain("NOT ALLOWED: plugin:window|close (denied) on linux");
    expect(result.stdout).toMatch(
      /remove the deny core:window:deny-close from capability lockdown {2}\(src-tauri\/capabilities\/lockdown\.json:\d+\)/,
    );
  });

  it("explains a remote refusal (the host's `remote: ` origin) with a remote-only capability", () => {
    const result = caplint(
      [
        "explain",
        'window.set_title not allowed on window "docs", webview "docs", URL: remote: https://evil.example/x',
        "--format",
        "json",
      ],
      app,
    );
    const json = JSON.parse(result.stdout);
    expect(json.origin).toBe("https://evil.example/x");
    expect(json.refusal.url).toBe("https://evil.example/x");
    expect(json.suggestion.newCapability).toMatchObject({
      windows: ["docs"],
      remote: { urls: ["https://evil.example/*"] },
      local: false,
      permissions: ["core:window:allow-set-title"],
    });
  });

  it("prints a remote origin as the host's `Origin` display writes it (`origin remote: https://…`), and reads it back", () => {
    const denied = caplint(
      [
        "explain",
        "window.close explicitly denied on origin remote: https://partner.dev/page",
        "-w",
        "docs",
        "--platform",
        "linux",
      ],
      app,
    );
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain(
      'Tauri refused plugin:window|close for window "docs", webview "docs", origin remote: https://partner.dev/page (an explicit deny)',
    );
    expect(denied.stdout).toContain(
      "window.close explicitly denied on origin remote: https://partner.dev/page",
    );
    const json = JSON.parse(
      caplint(
        [
          "explain",
          "Error: window.close explicitly denied on origin remote: https://partner.dev/page.",
          "-w",
          "docs",
          "-f",
          "json",
        ],
        app,
      ).stdout,
    );
    expect(json.refusal).toMatchObject({ kind: "denied", url: "https://partner.dev/page" });
    const access = caplint(
      ["access", "-w", "docs", "--url", "https://partner.dev/page", "--platform", "linux"],
      app,
    );
    expect(access.stdout.split("\n")[0]).toBe(
      'window "docs", webview "docs", origin remote: https://partner.dev/page, platform linux',
    );
    const matrix = caplint(
      ["matrix", "--url", "https://partner.dev/page", "--platform", "linux"],
      app,
    );
    expect(matrix.stdout.split("\n")[0]).toMatch(
      /^platform linux, origin remote: https:\/\/partner\.dev\/page;/,
    );
  });

  it("explains a release-build message with --window, and an app command without permissions", () => {
    const result = caplint(
      [
        "explain",
        "Command plugin:shell|execute not allowed by ACL",
        "--window",
        "main",
        "--platform",
        "linux",
        "--format",
        "json",
      ],
      app,
    );
    const json = JSON.parse(result.stdout);
    expect(json.refusal.kind).toBe("release");
    expect(json.suggestion.entry).toEqual({
      identifier: "shell:allow-execute",
      allow: [{ cmd: "<cmd>", name: "<name>" }],
    });
    expect(json.suggestion.addTo).toMatchObject({
      capability: "main",
      file: "src-tauri/capabilities/main.json",
    });
  });

  it("did-you-mean for an unknown command and an unknown window label", () => {
    const result = caplint(
      [
        "explain",
        'fs.read_txt_file not allowed on window "mian", webview "mian", URL: local',
        "--platform",
        "linux",
      ],
      app,
    );
    expect(result.stdout).toContain(
      'no known plugin has the command "plugin:fs|read_txt_file", and no permission can allow a command its plugin does not have; did you mean "plugin:fs|read_text_file"',
    );
    expect(result.stdout).not.toContain("fs:allow-read-txt-file");
    expect(result.stdout).toContain(
      'no capability and no window in tauri.conf.json has the label "mian"; did you mean "main"?',
    );
  });

  it("a text without a refusal is a usage error with an example", () => {
    const result = caplint(["explain", "something else went wrong"], app);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("caplint explain 'fs.read_text_file not allowed on window");
  });
});

describe("file lists and monorepos are checked in their apps' context", () => {
  /** An app with its own permission and a third-party plugin known only from its generated manifest. */
  function app(root: string, typos: boolean) {
    write(path.join(root, "src-tauri", "tauri.conf.json"), {
      identifier: "dev.caplint.app",
      app: { windows: [{ label: "main" }] },
    });
    write(
      path.join(root, "src-tauri", "permissions", "greet.toml"),
      '[[permission]]\nidentifier = "allow-greet"\ncommands.allow = ["greet"]\n',
    );
    write(path.join(root, "src-tauri", "gen", "schemas", "acl-manifests.json"), {
      store: {
        default_permission: null,
        permissions: {
          "allow-get": { identifier: "allow-get", commands: { allow: ["get"], deny: [] } },
        },
        permission_sets: {},
        global_scope_schema: null,
      },
    });
    write(path.join(root, "src-tauri", "capabilities", "default.json"), {
      identifier: "default",
      windows: ["main"],
      permissions: typos
        ? ["core:default", "allow-greeet", "store:allow-gett"]
        : ["core:default", "allow-greet", "store:allow-get"],
    });
  }

  it("a staged file with two typo'd permissions fails as in a full run (the pre-commit case)", () => {
    const dir = scratch();
    app(dir, true);
    const full = caplint(["check"], dir);
    const staged = caplint(["check", "src-tauri/capabilities/default.json"], dir);
    expect(full.code).toBe(1);
    expect(staged.code).toBe(1);
    for (const result of [full, staged]) {
      expect(result.stdout).toContain('unknown permission "allow-greeet"');
      expect(result.stdout).toContain('unknown permission "store:allow-gett"');
    }
    // Findings stay on the files given: another file's problem is not the commit's.
    write(path.join(dir, "src-tauri", "capabilities", "other.json"), {
      identifier: "other",
      windows: ["main"],
      permissions: ["nope:x"],
    });
    expect(caplint(["check", "src-tauri/capabilities/default.json"], dir).stdout).not.toContain(
      "other.json",
    );
  });

  it("at a monorepo root every app is checked in its own context; node_modules and gitignored folders are not walked", () => {
    const dir = scratch();
    app(path.join(dir, "apps", "good"), false);
    app(path.join(dir, "apps", "bad"), true);
    // A tauri.conf.json-only layout (the config folder is the app's src-tauri).
    write(path.join(dir, "tools", "viewer", "tauri.conf.json"), {
      identifier: "dev.caplint.viewer",
      app: { windows: [{ label: "viewer" }] },
    });
    write(path.join(dir, "tools", "viewer", "capabilities", "viewer.json"), {
      identifier: "viewer",
      windows: ["viewer"],
      permissions: ["core:window:allow-set-titel"],
    });
    app(path.join(dir, "node_modules", "some-pkg"), true);
    app(path.join(dir, "scratchpad", "old"), true);
    write(path.join(dir, ".gitignore"), "/scratchpad/\n");
    const result = caplint(["check", "--format", "compact"], dir);
    expect(result.code).toBe(1);
    const files = [
      ...new Set(
        result.stdout
          .split("\n")
          .filter(Boolean)
          .map((line) => line.split(":")[0]),
      ),
    ].sort();
    expect(files).toEqual([
      "apps/bad/src-tauri/capabilities/default.json",
      "tools/viewer/capabilities/viewer.json",
    ]);
    // The app's own permissions and manifest were read: allow-greet and store:allow-get are fine in apps/good.
    expect(result.stdout).not.toContain("apps/good");
    expect(result.stdout).toContain('unknown permission "allow-greeet"');
  });

  describe("at a monorepo root, .gitignore files are read as git reads them (the ignore package)", () => {
    /** Apps with a finding, each in a folder that holds tauri.conf.json (the folder is its src-tauri). */
    function checkedApps(dir: string): string[] {
      const result = caplint(["check", "--format", "compact"], dir);
      expect(result.stderr).toBe("");
      return [
        ...new Set(
          result.stdout
            .split("\n")
            .filter(Boolean)
            .map((line) => path.dirname(path.dirname(line.split(":")[0]!))),
        ),
      ].sort();
    }
    /** The apps whose capability file git does not ignore. */
    function appsGitSees(dir: string): string[] {
      execFileSync("git", ["init", "-q"], { cwd: dir });
      const files = execFileSync("git", ["ls-files", "--others", "--exclude-standard"], {
        cwd: dir,
        encoding: "utf8",
      }).split("\n");
      return files
        .filter((f) => f.endsWith("/capabilities/c.json"))
        .map((f) => path.dirname(path.dirname(f)))
        .sort();
    }
    const layouts: Array<{
      name: string;
      ignores: Record<string, string>;
      apps: string[];
      checked: string[];
    }> = [
      {
        name: "a deeper file re-includes what a shallower one ignored; nothing below an ignored folder comes back",
        ignores: {
          ".gitignore": "apps/*\n/lib/\n",
          "apps/.gitignore": "!good\n",
          "lib/.gitignore": "!kept\n",
        },
        apps: ["apps/good/x", "apps/bad", "lib/kept"],
        checked: ["apps/good/x"],
      },
      {
        name: "escapes, comments, trailing spaces and folder-only patterns",
        ignores: {
          ".gitignore": "\\#hash\n\\!bang\n# comment\nsp\\ ace\ntrail   \nbuild/\n!keep/build/\n",
        },
        apps: ["#hash", "!bang", "comment", "sp ace", "trail", "build", "x/build", "keep/build"],
        checked: ["comment", "keep/build"],
      },
      {
        name: "a nested file's patterns are relative to its folder, even with glob characters in the folder's name",
        ignores: { "[s]/.gitignore": "foo\n/bar\nx/y\n*.d/\n!keep.d\n" },
        apps: [
          "foo",
          "[s]/foo",
          "[s]/z/foo",
          "[s]/bar",
          "[s]/z/bar",
          "[s]/x/y",
          "[s]/q/x/y",
          "[s]/a.d",
          "[s]/keep.d",
          "s/foo",
        ],
        checked: ["[s]/keep.d", "[s]/q/x/y", "[s]/z/bar", "foo", "s/foo"],
      },
    ];
    for (const layout of layouts) {
      it(layout.name, () => {
        const dir = scratch();
        for (const [file, text] of Object.entries(layout.ignores))
          write(path.join(dir, file), text);
        for (const folder of layout.apps) {
          write(path.join(dir, folder, "tauri.conf.json"), {
            identifier: "dev.caplint.x",
            app: { windows: [{ label: "main" }] },
          });
          write(path.join(dir, folder, "capabilities", "c.json"), {
            identifier: "c",
            windows: ["main"],
            permissions: ["core:window:allow-set-titel"],
          });
        }
        const checked = checkedApps(dir);
        expect(checked).toEqual([...layout.checked].sort());
        expect(checked).toEqual(appsGitSees(dir));
      });
    }

    it("never reads a .gitignore above the folder it runs in, nor one that is a link", () => {
      const dir = scratch();
      write(path.join(dir, ".gitignore"), "app\nlinked\n");
      const outside = path.join(dir, "outside.gitignore");
      write(outside, "linked\n");
      for (const folder of ["repo/app", "repo/sub/linked"]) {
        write(path.join(dir, folder, "tauri.conf.json"), {
          identifier: "dev.caplint.x",
          app: { windows: [{ label: "main" }] },
        });
        write(path.join(dir, folder, "capabilities", "c.json"), {
          identifier: "c",
          windows: ["main"],
          permissions: ["core:window:allow-set-titel"],
        });
      }
      symlinkSync(outside, path.join(dir, "repo", "sub", ".gitignore"));
      expect(checkedApps(path.join(dir, "repo"))).toEqual(["app", "sub/linked"]);
    });
  });

  it("at a monorepo root an app 14 folders deep is checked (it was skipped with 'no problems'), and the folder limit stops the run naming it", () => {
    const dir = scratch();
    const deep = path.join(dir, ...Array.from({ length: 14 }, (_, i) => `level${i}`));
    app(path.join(deep, "bad"), true);
    const found = caplint(["check", "--format", "compact"], dir);
    expect(found.code).toBe(1);
    expect(found.stdout).toContain('unknown permission "allow-greeet"');

    // Past 20,000 folders the search stops: an error naming the limit (exit 2), never "no problems".
    const wide = scratch();
    for (let i = 0; i < 20_001; i++)
      mkdirSync(path.join(wide, "many", `f${i}`), { recursive: true });
    app(path.join(wide, "zz", "bad"), true);
    const stopped = caplint(["check", "--format", "compact"], wide);
    expect(stopped).toMatchObject({ code: 2, stdout: "" });
    expect(stopped.stderr).toMatch(
      /^caplint: the search for apps below this folder stopped at many\/f\d+: it looks into at most 20,000 folders; apps there would go unchecked: run caplint in the app's folder, or pass --app DIR for each app\n$/,
    );
    // Making 20,001 folders is most of the time: about 10 s on an idle two-core machine, past the default
    // 30 s when other test files load it (seen in CI under load: 34.8 s).
  }, 180_000);

  it("at a monorepo root each app follows its own caplint.config.json, and the footer names every config used", () => {
    const dir = scratch();
    write(path.join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    for (const name of ["quiet", "loud"]) {
      write(path.join(dir, "apps", name, "src-tauri", "tauri.conf.json"), {
        identifier: `dev.caplint.${name}`,
        app: { windows: [{ label: "main" }] },
      });
      write(path.join(dir, "apps", name, "src-tauri", "capabilities", "main.json"), {
        identifier: "main",
        windows: ["main"],
        permissions: ["core:default", "core:app:allow-version"],
      });
    }
    // core:app:allow-version is already in core:default: redundant-permission, which "quiet" turns off.
    write(path.join(dir, "apps", "quiet", "caplint.config.json"), {
      rules: { "redundant-permission": "off" },
    });
    const result = caplint(["check", "--format", "json"], dir);
    const report = JSON.parse(result.stdout) as {
      diagnostics: Array<{ file: string; ruleId: string }>;
      summary: { config: string | null };
    };
    expect(report.diagnostics.map((d) => `${d.file} ${d.ruleId}`)).toEqual([
      "apps/loud/src-tauri/capabilities/main.json redundant-permission",
    ]);
    expect(report.summary.config).toBe("apps/quiet/caplint.config.json");
    // --config names one config for every app.
    const forced = JSON.parse(
      caplint(["check", "--format", "json", "--config", "apps/quiet/caplint.config.json"], dir)
        .stdout,
    ) as typeof report;
    expect(forced.diagnostics).toEqual([]);
  });
});
