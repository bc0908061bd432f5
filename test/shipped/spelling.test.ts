import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  spellCommand,
  spellIdentifier,
  spellManifest,
} from "../../src/capabilities/catalog/brand.js";
import { checkIdentifier } from "../../src/capabilities/catalog/identifier.js";
import { FIXTURES, ROOT } from "../helpers/run.js";

const SPELLING = path.join(FIXTURES, "spelling");
const TAURI_APP = path.join(SPELLING, "tauri-app");
const HOST_APP = path.join(SPELLING, "host-app");
const MANIFEST_APP = path.join(SPELLING, "manifest-app");

/** The built bin, as users run it. */
function bin(args: string[], cwd = ROOT) {
  const result = spawnSync(process.execPath, [path.join(ROOT, "bin/caplint.js"), ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const temp = mkdtempSync(path.join(os.tmpdir(), "caplint-spelling-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function app(name: string, permissions: unknown[]): string {
  const dir = path.join(temp, name);
  mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "capabilities", "main.json"),
    JSON.stringify({ identifier: "main", windows: ["main"], permissions }, null, 2),
  );
  return dir;
}

describe("the brand word's two spellings", () => {
  it("maps only the brand-bearing names, never other text that contains the word", () => {
    expect(spellIdentifier("core:app:allow-tauri-version", "host")).toBe(
      "core:app:allow-host-version",
    );
    expect(spellIdentifier("core:app:deny-host-version", "tauri")).toBe(
      "core:app:deny-tauri-version",
    );
    expect(spellIdentifier("my-tauri-version", "host")).toBe("my-tauri-version");
    expect(spellIdentifier("fs:allow-tauri-version", "host")).toBe("fs:allow-tauri-version");
    expect(spellCommand("plugin:app|tauri_version", "host")).toBe("plugin:app|host_version");
    expect(spellCommand("plugin:app|host_version", "tauri")).toBe("plugin:app|tauri_version");
    expect(spellCommand("get_tauri_version", "host")).toBe("get_tauri_version");
    const manifest = {
      default_permission: null,
      permissions: {
        "allow-get-tauri-info": {
          identifier: "allow-get-tauri-info",
          commands: { allow: ["get_tauri_info"], deny: [] },
        },
      },
      permission_sets: {},
      global_scope_schema: null,
    };
    expect(spellManifest("__app-acl__", manifest, "host")).toBe(manifest);
  });

  it("rejects the crate-name prefix in both spellings, as the build does", () => {
    expect(checkIdentifier("tauri-plugin-fs:default")).toEqual({
      ok: false,
      message: "identifiers cannot start with tauri-plugin-",
    });
    expect(checkIdentifier("host-plugin-fs:default")).toEqual({
      ok: false,
      message: "identifiers cannot start with host-plugin-",
    });
    const dir = app("prefixes", ["tauri-plugin-fs:default", "host-plugin-fs:default"]);
    const result = bin(["check", "--app", dir, "-f", "json"]);
    expect(result.code).toBe(1);
    const found = JSON.parse(result.stdout).diagnostics.map(
      (d: { ruleId: string; message: string; hint?: string }) => [d.ruleId, d.message, d.hint],
    );
    expect(found).toEqual([
      [
        "invalid-identifier",
        'invalid permission identifier "tauri-plugin-fs:default": identifiers cannot start with tauri-plugin-',
        'write "fs:default"',
      ],
      [
        "invalid-identifier",
        'invalid permission identifier "host-plugin-fs:default": identifiers cannot start with host-plugin-',
        'write "fs:default"',
      ],
    ]);
  });

  it("check accepts both spellings, and treats them as the same permission", () => {
    expect(bin(["check", "--app", TAURI_APP])).toMatchObject({ code: 0 });
    expect(bin(["check", "--app", HOST_APP])).toMatchObject({ code: 0 });
    const dir = app("both", [
      "core:app:allow-tauri-version",
      "core:app:allow-host-version",
      "core:app:deny-tauri-version",
    ]);
    const result = bin(["check", "--app", dir, "-f", "json"]);
    const diagnostics = JSON.parse(result.stdout).diagnostics as Array<{
      ruleId: string;
      message: string;
    }>;
    expect(diagnostics.filter((d) => d.ruleId === "unknown-permission")).toEqual([]);
    expect(diagnostics.find((d) => d.ruleId === "duplicate-permission")?.message).toBe(
      'permission "core:app:allow-host-version" is already listed at entry 0',
    );
  });

  it("a typo gets suggestions in the project's spelling", () => {
    const dir = app("typo", ["core:app:deny-tauri-version", "core:app:allow-tauri-versio"]);
    const result = bin(["check", "--app", dir, "-f", "json"]);
    const typo = JSON.parse(result.stdout).diagnostics.find(
      (d: { ruleId: string }) => d.ruleId === "unknown-permission",
    );
    expect(typo.hint).toContain('"core:app:allow-tauri-version"');
    expect(typo.hint).not.toContain("host");
  });

  it("queries answer in the spelling of the capability files, whichever spelling is asked", () => {
    for (const asked of ["plugin:app|host_version", "plugin:app|tauri_version"]) {
      const who = bin(["who-can", asked, "--app", TAURI_APP, "--platform", "linux", "-f", "json"]);
      expect(who.code).toBe(0);
      const data = JSON.parse(who.stdout);
      expect(data.command).toBe("plugin:app|tauri_version");
      expect(data.allowedBy.map((e: { chain: string[] }) => e.chain)).toEqual([
        ["core:app:allow-tauri-version"],
      ]);
      const access = bin([
        "access",
        "--window",
        "main",
        "--command",
        asked,
        "--app",
        TAURI_APP,
        "--platform",
        "linux",
      ]);
      expect(access.code).toBe(0);
      expect(access.stdout).toContain("ALLOWED: plugin:app|tauri_version");
    }
    const host = bin([
      "who-can",
      "plugin:app|tauri_version",
      "--app",
      HOST_APP,
      "--platform",
      "linux",
    ]);
    expect(host.stdout).toContain("plugin:app|host_version on linux");
    expect(host.stdout).toContain("by capability main › core:app:allow-host-version");

    const matrix = bin(["matrix", "--app", TAURI_APP, "--platform", "linux", "-f", "csv"]);
    expect(matrix.stdout).toContain("plugin:app|tauri_version,granted");
    expect(matrix.stdout).not.toContain("host_version");
    const resolved = bin(["resolve", "--app", TAURI_APP, "--platform", "linux"]);
    expect(resolved.stdout).toContain("plugin:app|tauri_version");
    expect(resolved.stdout).not.toContain("host_version");
    const listing = JSON.parse(
      bin(["permissions", "core:app", "--app", TAURI_APP, "-f", "json"]).stdout,
    ) as Array<{
      identifier: string;
      description: string;
      allows: string[];
      members?: string[];
    }>;
    const ids = listing.map((p) => p.identifier);
    expect(ids).toContain("core:app:allow-tauri-version");
    expect(ids).not.toContain("core:app:allow-host-version");
    const allow = listing.find((p) => p.identifier === "core:app:allow-tauri-version")!;
    expect(allow).toMatchObject({
      allows: ["plugin:app|tauri_version"],
      description: "Enables the tauri_version command without any pre-configured scope.",
    });
    expect(listing.find((p) => p.identifier === "core:app:default")!.members).toContain(
      "allow-tauri-version",
    );
    // Outside any app, the spec's spelling.
    const builtin = JSON.parse(
      bin(["permissions", "core:app", "-f", "json"], temp).stdout,
    ) as Array<{ identifier: string }>;
    expect(builtin.map((p) => p.identifier)).toContain("core:app:allow-host-version");
  });

  it("explain and who-can answer in the project's spelling, whichever spelling the pasted text or the question uses", () => {
    const cases: Array<[string, string, string]> = [
      [TAURI_APP, "app.host_version", "tauri"],
      [HOST_APP, "app.tauri_version", "host"],
      [MANIFEST_APP, "app.host_version", "tauri"],
    ];
    for (const [dir, written, spelling] of cases) {
      const other = spelling === "tauri" ? "host" : "tauri";
      const explained = bin([
        "explain",
        `${written} not allowed on window "settings", webview "settings", URL: local`,
        "--app",
        dir,
        "--platform",
        "linux",
      ]);
      expect(explained.code, explained.stderr).toBe(0);
      expect(explained.stdout).toContain(
        // The framework is named as the app spells it: Tauri, or the spec's "the host".
        `${spelling === "tauri" ? "Tauri" : "the host"} refused plugin:app|${spelling}_version for window "settings"`,
      );
      expect(explained.stdout).toContain(`core:app:allow-${spelling}-version`);
      expect(explained.stdout, `${written} in ${path.basename(dir)}`).not.toContain(
        `${other}_version`,
      );
      expect(explained.stdout).not.toContain(`${other}-version`);
      const json = JSON.parse(
        bin([
          "explain",
          `Command plugin:app|${written.slice(4)} not allowed by ACL`,
          "--window",
          "settings",
          "--app",
          dir,
          "-f",
          "json",
        ]).stdout,
      );
      expect(json.command).toBe(`plugin:app|${spelling}_version`);
      for (const form of [written, written.slice(4)]) {
        const who = bin(["who-can", form, "--app", dir, "--platform", "linux"]);
        expect(who.stdout.split("\n")[0], form).toBe(`plugin:app|${spelling}_version on linux`);
      }
    }
  });

  it("the generated manifest's spelling decides over the capability files'", () => {
    const who = bin([
      "who-can",
      "plugin:app|host_version",
      "--app",
      MANIFEST_APP,
      "--platform",
      "linux",
      "-f",
      "json",
    ]);
    const data = JSON.parse(who.stdout);
    expect(data.command).toBe("plugin:app|tauri_version");
    expect(data.deniedEverywhere).toBe(true);
    expect(data.deniedBy.map((e: { chain: string[] }) => e.chain)).toEqual([
      ["core:app:deny-tauri-version"],
    ]);
    expect(data.allowedBy.map((e: { chain: string[] }) => e.chain)).toEqual([
      ["core:app:default", "core:app:allow-tauri-version"],
    ]);
  });

  it("where the app's Cargo files or generated manifest show the framework crate, the other spelling is a build error that --fix renames", () => {
    const check = (dir: string) => {
      const result = bin(["check", "--app", dir, "-f", "json"], dir);
      const found = JSON.parse(result.stdout).diagnostics.filter(
        (d: { ruleId: string }) => d.ruleId === "legacy-identifier",
      );
      return {
        code: result.code,
        found: found.map((d: { severity: string; message: string; hint: string }) => [
          d.severity,
          d.message,
          d.hint,
        ]),
      };
    };
    const locked = app("locked-tauri", ["core:app:default", "core:app:deny-host-version"]);
    writeFileSync(
      path.join(locked, "src-tauri", "Cargo.lock"),
      'version = 4\n\n[[package]]\nname = "tauri"\nversion = "2.5.1"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
    );
    expect(check(locked)).toEqual({
      code: 1,
      found: [
        [
          "error",
          'permission "core:app:deny-host-version" spells the brand word "host": this app\'s framework crate only knows "core:app:deny-tauri-version"',
          'rename it to "core:app:deny-tauri-version" (src-tauri/Cargo.lock locks the tauri crate)',
        ],
      ],
    });
    const fixed = bin(["check", "--app", locked, "--fix"]);
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(
      JSON.parse(readFileSync(path.join(locked, "src-tauri", "capabilities", "main.json"), "utf8"))
        .permissions,
    ).toEqual(["core:app:default", "core:app:deny-tauri-version"]);

    // A framework crate spelled `host` makes `tauri` the error; TOML capabilities are renamed in place.
    const hosted = path.join(temp, "hosted");
    mkdirSync(path.join(hosted, "src-tauri", "capabilities"), { recursive: true });
    writeFileSync(
      path.join(hosted, "src-tauri", "Cargo.toml"),
      '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nhost = "2"\n',
    );
    const toml = path.join(hosted, "src-tauri", "capabilities", "main.toml");
    writeFileSync(
      toml,
      'identifier = "main"\nwindows = ["main"]\n# keep this comment\npermissions = ["core:app:allow-tauri-version"]\n',
    );
    expect(check(hosted).found).toEqual([
      [
        "error",
        'permission "core:app:allow-tauri-version" spells the brand word "tauri": this app\'s framework crate only knows "core:app:allow-host-version"',
        'rename it to "core:app:allow-host-version" (src-tauri/Cargo.toml depends on the host crate)',
      ],
    ]);
    expect(bin(["check", "--app", hosted, "--fix"]).code).toBe(0);
    expect(readFileSync(toml, "utf8")).toBe(
      'identifier = "main"\nwindows = ["main"]\n# keep this comment\npermissions = ["core:app:allow-host-version"]\n',
    );

    const manifest = check(MANIFEST_APP);
    expect(manifest.code).toBe(1);
    expect(manifest.found[0][2]).toBe(
      'rename it to "core:app:deny-tauri-version" (the generated manifest src-tauri/gen/schemas/acl-manifests.json spells it "tauri")',
    );
  });

  it("diff: renaming to the other spelling grants nothing new, and report answers in the project's spelling", () => {
    const forward = bin(["diff", HOST_APP, TAURI_APP, "--platform", "linux", "-f", "json"]);
    expect(forward.code).toBe(0);
    expect(JSON.parse(forward.stdout)).toMatchObject({ added: [], removed: [] });
    expect(bin(["diff", TAURI_APP, HOST_APP, "--platform", "linux"])).toMatchObject({ code: 0 });
    const widened = app("widened", [
      "core:app:allow-tauri-version",
      "core:app:allow-app-hide",
      "core:window:default",
    ]);
    const added = JSON.parse(
      bin(["diff", HOST_APP, widened, "--platform", "linux", "-f", "json"]).stdout,
    ).added.map((g: { command: string }) => g.command);
    expect(added).toEqual(["plugin:app|app_hide"]);

    const html = path.join(temp, "report.html");
    expect(bin(["report", "--app", TAURI_APP, "--platform", "linux", "--html", html]).code).toBe(0);
    const page = readFileSync(html, "utf8");
    expect(page).toContain("tauri_version");
    expect(page).not.toContain("host_version");
  });

  it("a real Tauri app with tauri 2.8.5 locked: no command or output of any query, check or report spells the brand word host", () => {
    // janhq/jan (Apache-2.0, fixtures/real-world/second-set/janhq__jan/SOURCE.txt): Cargo.lock locks tauri 2.8.5.
    const jan = path.join(FIXTURES, "real-world", "second-set", "janhq__jan");
    const html = path.join(temp, "jan-report.html");
    const runs: string[][] = [
      ["access", "--window", "main"],
      ["access", "--window", "main", "-f", "json"],
      ["access", "--window", "main", "--command", "plugin:app|host_version"],
      ["access", "--window", "main", "--command", "app.host_version", "-f", "json"],
      ["matrix"],
      ["matrix", "-f", "json"],
      ["matrix", "-f", "csv"],
      ["resolve"],
      ["resolve", "-f", "json"],
      ["who-can", "plugin:app|host_version"],
      ["who-can", "app.host_version", "-f", "json"],
      ["explain", 'app.host_version not allowed on window "main", webview "main", URL: local'],
      [
        "explain",
        "Command plugin:app|host_version not allowed by ACL",
        "--window",
        "logs-app-window",
        "-f",
        "json",
      ],
      ["permissions", "core:app"],
      ["permissions", "core:app", "-f", "json"],
      ["check"],
      ["check", "-f", "json"],
      ["check", "-f", "sarif"],
      ["check", "-f", "github"],
      ["diff", ".", "."],
      ["report", "--html", html],
    ];
    let spelledTauri = 0;
    for (const args of runs) {
      const result = bin([...args, "--platform", "linux"], jan);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBeLessThan(2);
      // explain's JSON keeps the pasted text as written (its "written" field): that is the user's, not an answer.
      const answer = result.stdout.replace(/^\s*"written": .*$/gm, "");
      const output =
        answer + result.stderr + (args[0] === "report" ? readFileSync(html, "utf8") : "");
      expect(
        output.match(/\bhost[_-](?:version|plugin)|allow-host-|deny-host-/g),
        args.join(" "),
      ).toBeNull();
      if (/tauri[_-]version/.test(output)) spelledTauri++;
    }
    // The answers that name the command at all name it in the app's spelling.
    expect(spelledTauri).toBeGreaterThanOrEqual(12);
    // 20 runs of the bin: on the shared, loaded test machine that can take more than the default 30 s.
  }, 240_000);
});

describe("the framework's name in prose follows the app's spelling", () => {
  /** Every answer of the commands below: text, JSON and SARIF (the report's HTML too). */
  function answers(cwd: string, extra: string[][] = []): Array<[string, string]> {
    const html = path.join(temp, `${path.basename(cwd)}-prose.html`);
    const runs: string[][] = [
      ["check", "-f", "compact"],
      ["check", "-f", "json"],
      ["check", "-f", "sarif"],
      ["access", "--window", "main"],
      ["access", "--window", "main", "-f", "json"],
      ["matrix"],
      ["resolve"],
      ["report", "--html", html],
      ...extra,
    ];
    return runs.map((args) => {
      const result = bin([...args, "--platform", "linux"], cwd);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBeLessThan(2);
      const output = result.stdout + result.stderr;
      return [args.join(" "), args[0] === "report" ? output + readFileSync(html, "utf8") : output];
    });
  }

  it("a tauri app's text, JSON and SARIF never say host as a word: Tauri refuses, Tauri ignores, any hostname", () => {
    // Three apps whose Cargo.lock locks the tauri crate: janhq/jan (real, Apache-2.0: unknown fields, broad
    // remote URLs), an app locked to tauri 2.0.6 whose remote page may call its commands unchecked, and the
    // SARIF fixture (a deny that applies globally, an ignored file, plain http, an unknown field).
    const apps: Array<[string, string[][]]> = [
      [path.join(FIXTURES, "real-world", "second-set", "janhq__jan"), []],
      [
        path.join(FIXTURES, "queries", "remote-app-commands", "tauri-2.0.6"),
        [
          ["who-can", "save_note"],
          [
            "access",
            "--window",
            "main",
            "--url",
            "https://docs.example.com",
            "--command",
            "save_note",
          ],
          ["explain", "Command save_note not allowed by ACL", "--window", "main"],
        ],
      ],
      [path.join(FIXTURES, "sarif", "app"), []],
    ];
    const named: string[] = [];
    for (const [cwd, extra] of apps)
      for (const [args, output] of answers(cwd, extra)) {
        expect(
          output.match(/.{0,60}\bhost\b.{0,20}/gi),
          `${path.basename(cwd)}: ${args}`,
        ).toBeNull();
        for (const phrase of output.match(
          /\bTauri (?:ignores|refused|does not check|applies|reads)\b|not checked by Tauri|any hostname/g,
        ) ?? [])
          named.push(phrase);
      }
    // The answers did speak about the framework: in its name, not in the spec's word.
    expect(new Set(named)).toEqual(
      new Set([
        "Tauri ignores",
        "Tauri refused",
        "Tauri does not check",
        "not checked by Tauri",
        "Tauri applies",
        "Tauri reads",
        "any hostname",
      ]),
    );
    // 27 runs of the bin: on the shared, loaded test machine that is more than the default 30 s.
  }, 240_000);

  it("an app spelled host keeps the spec's word, the same app spelled tauri says Tauri", () => {
    for (const [spelling, framework] of [
      ["host", "the host"],
      ["tauri", "Tauri"],
    ] as const) {
      const dir = path.join(temp, `prose-${spelling}`);
      writeMainCapability(dir, `core:app:allow-${spelling}-version`);
      expectFrameworkNamed(dir, framework, ["dialog.save", "plugin:dialog|save"], spelling);
    }
  });

  it("an app with no Cargo files and no brand-spelled identifier is named Tauri, and spelled tauri, by its tauri.conf.json or Tauri.toml", () => {
    // Like 0PandaDEV/Qopy in the real-world corpus: a config and capabilities, nothing else that shows the spelling.
    const cases: Array<[config: string | undefined, permission: string, framework: string]> = [
      ["tauri.conf.json", "dialog:default", "Tauri"],
      ["Tauri.toml", "dialog:default", "Tauri"],
      // No config file: nothing says which framework reads the capabilities, the spec's word stays.
      [undefined, "dialog:default", "the host"],
      // The identifiers' spelling is evidence and decides before the config's name.
      ["tauri.conf.json", "core:app:allow-host-version", "the host"],
    ];
    for (const [config, permission, framework] of cases) {
      const dir = path.join(temp, `config-${config ?? "none"}-${permission.replace(/:/g, "_")}`);
      writeMainCapability(dir, permission);
      if (config === "tauri.conf.json")
        writeFileSync(
          path.join(dir, "src-tauri", config),
          JSON.stringify({ identifier: "com.example.app", app: { windows: [{ label: "main" }] } }),
        );
      if (config === "Tauri.toml")
        writeFileSync(
          path.join(dir, "src-tauri", config),
          'identifier = "com.example.app"\n\n[[app.windows]]\nlabel = "main"\n',
        );
      expectFrameworkNamed(
        dir,
        framework,
        ["fs.read_file", "plugin:fs|read_file"],
        `${config} ${permission}`,
      );
      // The identifiers and commands the answers print follow the same word: `tauri_version` in a Tauri app.
      const word = framework === "Tauri" ? "tauri" : "host";
      const access = bin(["access", "--window", "main", "-C", `plugin:app|${word}_version`], dir);
      expect(access.stdout, `${config} ${permission}`).toContain(`plugin:app|${word}_version`);
      expect(access.stdout, `${config} ${permission}`).not.toContain(
        `plugin:app|${word === "tauri" ? "host" : "tauri"}_version`,
      );
    }
  });
});

/**
 * The app in `dir` names its framework `framework` in a finding (the unknown field `windowz` its
 * capability carries) and in `explain`'s answer to the host's refusal of `command` (as the host's
 * message writes it, and as caplint names it), for window and webview "main".
 */
function expectFrameworkNamed(
  dir: string,
  framework: string,
  [refused, command]: [refused: string, command: string],
  label: string,
): void {
  const check = bin(["check", "-f", "json"], dir);
  expect(check.code, `${label}: ${check.stderr}`).toBeLessThan(2);
  expect(JSON.parse(check.stdout).diagnostics, label).toContainEqual(
    expect.objectContaining({
      ruleId: "unknown-field",
      message: `unknown capability field "windowz": ${framework} ignores it`,
    }),
  );
  const explained = bin(
    ["explain", `${refused} not allowed on window "main", webview "main", URL: local`],
    dir,
  );
  expect(explained.stdout.split("\n")[0], label).toBe(
    `${framework} refused ${command} for window "main", webview "main", origin local (no capability grants it)`,
  );
}

/** An app in `dir` whose one capability grants `permission` to "main" and carries the unknown field `windowz`. */
function writeMainCapability(dir: string, permission: string): void {
  mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
  writeFileSync(
    path.join(dir, "src-tauri", "capabilities", "main.json"),
    JSON.stringify({
      identifier: "main",
      windows: ["main"],
      windowz: ["main"],
      permissions: [permission],
    }),
  );
}
