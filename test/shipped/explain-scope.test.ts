/**
 * `caplint explain` on the plugins' scope refusals, through the built bin: the fs, http, shell and
 * opener plugins' texts and the asset protocol's, as each words them (see src/capabilities/queries/
 * scope-refusal.ts for the sources), on fixtures/queries/scope-refusals. Each answer names the scope
 * entries read for the window and why they miss, and proposes the narrowest entry in the capability
 * file's own syntax; a window pattern a typo away is pointed at before any new capability.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkoutBin } from "../helpers/hosts.js";
import { FIXTURES } from "../helpers/run.js";

const APP = path.join(FIXTURES, "queries/scope-refusals");
const explain = (...argv: string[]) => checkoutBin.run({ argv: ["explain", ...argv], cwd: APP });
const fsText = (file: string, permission: string) =>
  `forbidden path: ${file}, maybe it is not allowed on the scope for \`${permission}\` permission in your capability file`;

describe("explain: the fs plugin's forbidden path", () => {
  it("names the global-scope entry that misses a dot-file on Linux, and proposes the literal path in $HOME", async () => {
    const result = await explain(
      `Uncaught (in promise) ${fsText("/home/alice/.bashrc", "allow-read-text-file")}`,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain(
      'the fs plugin refused the path "/home/alice/.bashrc" (plugin:fs|read_text_file) for window "main"',
    );
    expect(out).toContain("note: the path is a linux path: answering for that platform");
    expect(out).toContain(
      'allow { "path": "$HOME/**" }  global scope (every window) of capability main › fs:scope-home-recursive (src-tauri/capabilities/main.json:7): no match: its wildcards skip names that start with a dot on linux (requireLiteralLeadingDot)',
    );
    expect(out).toContain(
      'add this entry to "permissions" of capability main  (src-tauri/capabilities/main.json:4):',
    );
    expect(out).toContain('"allow": [{"path":"$HOME/.bashrc"}]');
    expect(out).toContain('"identifier": "fs:allow-read-text-file"');
    // A folder wildcard would not reach a dot-file there: no such advice.
    expect(out).not.toContain("$HOME/*;");
    expect(out).toContain("plugins.fs.requireLiteralLeadingDot: false in tauri.conf.json");
  });

  it("finds the same path allowed on Windows, where wildcards reach dot-files", async () => {
    const result = await explain(fsText("C:\\Users\\alice\\.bashrc", "allow-read-text-file"));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "note: the path is a windows path: answering for that platform",
    );
    expect(result.stdout).toContain("SCOPE ALLOWS IT");
    expect(result.stdout).toContain(
      'allow { "path": "$HOME/**" }  global scope (every window) of capability main › fs:scope-home-recursive (src-tauri/capabilities/main.json:7): matches',
    );
    expect(result.stdout).toContain("caplint finds the scope allows it");
    expect(result.stdout).not.toContain("to allow it:");
  });

  it("says a * stays in one folder, and proposes the file under $APPDATA with the folder forms as notes", async () => {
    const result = await explain(
      fsText(
        "/home/alice/.local/share/dev.caplint.scopes/notes/2026/today.md",
        "allow-read-text-file",
      ),
      "--format",
      "json",
    );
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.scopeRefusal).toMatchObject({
      plugin: "fs",
      subjectKind: "path",
      permission: "allow-read-text-file",
    });
    expect(answer.verdicts).toHaveLength(1);
    expect(answer.verdicts[0]).toMatchObject({
      platforms: ["linux"],
      command: "plugin:fs|read_text_file",
      acl: "allowed",
      scope: "refused",
    });
    expect(answer.verdicts[0].checked[0]).toEqual({
      list: "allow",
      value: { path: "$APPDATA/notes/*" },
      scopeOf: "command",
      capability: "main",
      permission: "fs:allow-read-text-file",
      chain: ["fs:allow-read-text-file"],
      file: "src-tauri/capabilities/main.json",
      line: 6,
      matches: false,
      why: "a `*` stays in one folder; `**` reaches into sub-folders",
    });
    expect(answer.suggestion.entry).toEqual({
      identifier: "fs:allow-read-text-file",
      allow: [{ path: "$APPDATA/notes/2026/today.md" }],
    });
    expect(answer.suggestion.addTo).toEqual({
      capability: "main",
      file: "src-tauri/capabilities/main.json",
      line: 4,
      field: "permissions",
    });
    expect(answer.suggestion.notes).toContain(
      "for every file of that folder (not its sub-folders) write $APPDATA/notes/2026/*; for the folder and everything below it, $APPDATA/notes/2026/**",
    );
  });

  it("reads a release build's text (no permission) against every fs command of the window and proposes fs:scope", async () => {
    const result = await explain(
      "forbidden path: /home/alice/.local/share/dev.caplint.scopes/notes/a.md\n    at invoke (core.js:1)",
      "--format",
      "json",
    );
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.scopeRefusal.subject).toBe(
      "/home/alice/.local/share/dev.caplint.scopes/notes/a.md",
    );
    expect(answer.notes.join("\n")).toContain("the message names no permission");
    expect(answer.verdicts[0].scope).toBe("allowed");
  });

  it("takes the command from --command when a release build's text names none, and refuses one of another plugin", async () => {
    const answer = JSON.parse(
      (
        await explain(
          "forbidden path: /home/alice/.ssh/id_rsa",
          "--command",
          "fs.read_text_file",
          "--format",
          "json",
        )
      ).stdout,
    );
    expect(answer.verdicts[0]).toMatchObject({
      command: "plugin:fs|read_text_file",
      scope: "refused",
    });
    expect(answer.suggestion.entry).toEqual({
      identifier: "fs:allow-read-text-file",
      allow: [{ path: "$HOME/.ssh/id_rsa" }],
    });
    const other = await explain("forbidden path: /home/alice/a.txt", "--command", "dialog.save");
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      "--command: plugin:dialog|save is not a command of the fs plugin",
    );
    const unknown = await explain("forbidden path: /home/alice/a.txt", "--command", "fs.nope");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "--command: no permission of the app or its plugins names plugin:fs|nope; did you mean",
    );
  });

  it("writes the entry as a TOML inline table for a TOML capability", async () => {
    const result = await explain(
      fsText("/home/alice/.config/dev.caplint.scopes/other.json", "allow-write-text-file"),
      "--window",
      "setings",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'add this entry to "permissions" of capability settings-tools  (src-tauri/capabilities/settings.toml:3):',
    );
    expect(result.stdout).toContain(
      '    { identifier = "fs:allow-write-text-file", allow = [{ path = "$APPCONFIG/other.json" }] }',
    );
    expect(result.stdout).toContain(
      'allow { path = "$APPCONFIG/settings.json" }  scope of capability settings-tools › fs:allow-write-text-file',
    );
  });

  it("points at the near-miss window pattern before proposing a capability, when the ACL refuses the window", async () => {
    const result = await explain(
      fsText("/home/alice/.config/dev.caplint.scopes/settings.json", "allow-write-text-file"),
      "--window",
      "settings",
    );
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain(
      "the ACL refuses plugin:fs|write_text_file to this window on every platform asked, so the plugin never read its scope",
    );
    const miss = out.indexOf(
      'note: capability settings-tools names window "setings" (src-tauri/capabilities/settings.toml:2), a typo or case away from "settings" and grants plugin:fs|write_text_file',
    );
    const proposal = out.indexOf("a new capability file");
    expect(miss).toBeGreaterThan(0);
    expect(proposal).toBeGreaterThan(miss);
    // The ACL's proposal carries the refused path as its scope, not a placeholder.
    expect(out).toContain('"allow": [{"path":"$APPCONFIG/settings.json"}]');
  });
});

describe("explain: the other plugins' scope refusals", () => {
  it("http: the URL pattern that misses, and the exact origin and path as the new entry", async () => {
    const result = await explain(
      'Error: "url not allowed on the configured scope: https://api.example.com/v2/items?page=2"',
      "--format",
      "json",
    );
    expect(result.code).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.scopeRefusal).toMatchObject({
      plugin: "http",
      subject: "https://api.example.com/v2/items?page=2",
    });
    expect(answer.verdicts[0].checked).toEqual([
      expect.objectContaining({
        value: { url: "https://api.example.com/v1/*" },
        matches: false,
        permission: "http:default",
      }),
    ]);
    expect(answer.suggestion.entry).toEqual({
      identifier: "http:allow-fetch",
      allow: [{ url: "https://api.example.com/v2/items" }],
    });
  });

  it("shell: a program the scope names but whose arguments fail is a change to that entry, not a new one", async () => {
    const result = await explain("program not allowed on the configured shell scope: lp");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "no match: names this program: its arguments failed the entry's args",
    );
    expect(result.stdout).toContain(
      'change "args" of the entry in capability main  (src-tauri/capabilities/main.json:12)',
    );
    expect(result.stdout).not.toContain("add this entry");
  });

  it("shell: a program no entry names gets its own entry", async () => {
    const result = await explain(
      "program not allowed on the configured shell scope: git",
      "--format",
      "json",
    );
    const answer = JSON.parse(result.stdout);
    expect(answer.suggestion.entry).toEqual({
      identifier: "shell:allow-execute",
      allow: [{ name: "git", cmd: "git" }],
    });
  });

  it("opener: the default URLs do not allow another application; the entry names it", async () => {
    const result = await explain("Not allowed to open url https://example.org/page with firefox");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'allow { "url": "https://*" }  global scope (every window) of capability main › opener:default › opener:allow-default-urls (src-tauri/capabilities/main.json:14): no match: its app does not allow opening with "firefox"',
    );
    expect(result.stdout).toContain(
      '"allow": [{"url":"https://example.org/page","app":"firefox"}]',
    );
  });

  it("asset protocol: the config's scope, and the path to add there", async () => {
    const result = await explain(
      "asset protocol not configured to allow the path: /home/alice/.local/share/dev.caplint.scopes/images/2026/a.png",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'allow "$APPDATA/images/*"  app config (src-tauri/tauri.conf.json:6): no match: a `*` stays in one folder',
    );
    expect(result.stdout).toContain(
      'add this value to "app.security.assetProtocol.scope"  (src-tauri/tauri.conf.json:6):\n    "$APPDATA/images/2026/a.png"',
    );
    expect(result.stdout).not.toContain("assuming");
  });

  it("a text with no refusal is a usage error that shows both kinds", async () => {
    const result = await explain("something went wrong");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "no refusal of Tauri's ACL or of a plugin's scope found in the text",
    );
  });
});

describe("access --command: a near-miss window pattern comes before a new capability", () => {
  it('points at windows: ["setings"] for window settings (issue 31)', async () => {
    const result = await checkoutBin.run({
      argv: ["access", "--window", "settings", "-C", "dialog.save"],
      cwd: APP,
    });
    expect(result.code).toBe(1);
    const miss = result.stdout.indexOf(
      'capability settings-tools names window "setings" (src-tauri/capabilities/settings.toml:2), a typo or case away from "settings" and grants plugin:dialog|save',
    );
    expect(miss).toBeGreaterThan(0);
    expect(result.stdout.indexOf("a new capability file")).toBeGreaterThan(miss);
  });
});
