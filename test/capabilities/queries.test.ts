import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess } from "../helpers/hosts.js";
import { FIXTURES, ROOT, run } from "../helpers/run.js";

const APP = path.join(FIXTURES, "queries", "app");
const QUERIES = path.join(FIXTURES, "queries");
const json = async (args: string[], cwd = APP) => {
  const result = await run([...args, "--format", "json"], cwd);
  expect(result.stderr).toBe("");
  return { ...result, data: JSON.parse(result.stdout) };
};

describe("access", () => {
  it("lists what a window may call, with the capability → permission chain", async () => {
    const { data, code } = await json(["access", "--window", "main", "--platform", "linux"]);
    expect(code).toBe(0);
    expect(data).toMatchObject({
      window: "main",
      webview: "main",
      origin: "local",
      platform: "linux",
      capabilities: ["main"],
    });
    const greet = data.allowed.find((a: { command: string }) => a.command === "greet");
    expect(greet.grantedBy).toEqual([
      expect.objectContaining({
        capability: "main",
        permission: "extra",
        chain: ["extra", "allow-greet"],
        file: "src-tauri/capabilities/main.json",
        line: 4,
      }),
    ]);
    // A set of the app crosses into other plugins.
    const commands = data.allowed.map((a: { command: string }) => a.command);
    expect(commands).toEqual(
      expect.arrayContaining(["plugin:dialog|save", "plugin:fs|read_file", "plugin:window|title"]),
    );
    // The extended scope reaches the command.
    const write = data.allowed.find(
      (a: { command: string }) => a.command === "plugin:fs|write_text_file",
    );
    expect(write.scopes).toEqual({ allow: [{ path: "$APPDATA/notes/*" }], deny: [] });
  });

  it("a glob pattern covers windows created from it", async () => {
    const { data } = await json(["access", "--window", "main-editor", "--platform", "linux"]);
    expect(data.capabilities).toEqual(["main"]);
    expect(data.allowed.length).toBeGreaterThan(90);
  });

  it("a deny in any capability wins everywhere, even one meant for another webview", async () => {
    const result = await run(
      ["access", "--window", "main", "--command", "plugin:window|close", "--platform", "linux"],
      APP,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("NOT ALLOWED: plugin:window|close (denied)");
    expect(result.stdout).toContain("window.close explicitly denied on origin local");
    expect(result.stdout).toContain(
      "denied by capability lockdown › core:window:deny-close [local]  (src-tauri/capabilities/lockdown.json:8)",
    );
    const { data } = await json(["access", "--window", "main", "--platform", "linux"]);
    expect(data.denied).toEqual([expect.objectContaining({ command: "plugin:window|close" })]);
    expect(data.denied[0].overriddenGrants[0]).toMatchObject({
      capability: "main",
      permission: "core:window:allow-close",
    });
  });

  it("answers yes with exit 0 and explains a miss in the runtime's words", async () => {
    const yes = await run(
      ["access", "-w", "main", "-C", "plugin:fs|read_file", "--platform", "linux"],
      APP,
    );
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain("ALLOWED: plugin:fs|read_file");
    const no = await run(
      ["access", "-w", "settings", "-C", "plugin:fs|read_file", "--platform", "linux"],
      APP,
    );
    expect(no.code).toBe(1);
    expect(no.stdout).toContain('allowed on: [windows: "main", "main-*", URL: local]');
  });

  it("platforms: a macOS-only capability applies on macOS only", async () => {
    const linux = await json(["access", "-w", "settings", "--platform", "linux"]);
    expect(linux.data.capabilities).toEqual([]);
    const mac = await json(["access", "-w", "settings", "--platform", "macOS"]);
    expect(mac.data.capabilities).toEqual(["settings"]);
    expect(mac.data.allowed.map((a: { command: string }) => a.command)).toContain(
      "plugin:window|set_size",
    );
  });

  it("origins: wildcard subdomains exclude the apex, ports are not widened, local is not remote", async () => {
    const ask = async (url: string) =>
      (await json(["access", "-w", "docs", "--url", url, "--platform", "linux"])).data.capabilities;
    expect(await ask("https://api.example.com/page")).toEqual(["remote-docs"]);
    expect(await ask("https://example.com/")).toEqual([]);
    expect(await ask("http://localhost:8080/x")).toEqual(["remote-docs"]);
    expect(await ask("http://localhost:1421/")).toEqual([]);
    expect((await json(["access", "-w", "docs", "--platform", "linux"])).data.capabilities).toEqual(
      [],
    );
    // The dev server URL is the app's own (local) origin.
    expect(
      (
        await json([
          "access",
          "-w",
          "main",
          "--url",
          "http://localhost:1420/index.html",
          "--platform",
          "linux",
        ])
      ).data.origin,
    ).toBe("local");
  });

  it("rejects a malformed URL and a command written as a permission", async () => {
    expect((await run(["access", "-w", "main", "--url", "not a url"], APP)).code).toBe(2);
    const result = await run(["access", "-w", "main", "-C", "core:window:allow-close"], APP);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("write the command as invoked");
  });
});

describe("who-can", () => {
  it("names every grant and the deny that blocks it", async () => {
    const { data } = await json(["who-can", "plugin:window|close", "--platform", "linux"]);
    expect(data.deniedEverywhere).toBe(true);
    expect(data.allowedBy).toEqual([
      expect.objectContaining({
        capability: "main",
        windows: ["main", "main-*"],
        context: "local",
      }),
    ]);
    expect(data.deniedBy).toEqual([
      expect.objectContaining({ capability: "lockdown", webviews: ["preview"] }),
    ]);
    const text = await run(["who-can", "plugin:event|listen", "--platform", "linux"], APP);
    expect(text.stdout).toContain("allowed for [windows: docs] from https://*.example.com");
    expect(text.stdout).toContain("allowed for [windows: main, main-*] from local");
  });
});

describe("matrix", () => {
  it("windows from tauri.conf.json × commands, as JSON and CSV", async () => {
    const { data } = await json(["matrix", "--platform", "linux"]);
    expect(data.windows).toEqual(["main", "main-editor", "settings", "docs"]);
    const main = data.rows.find((r: { window: string }) => r.window === "main");
    expect(main.granted).toContain("greet");
    expect(main.overridden).toEqual(["plugin:window|close"]);
    expect(data.rows.find((r: { window: string }) => r.window === "settings").granted).toEqual([]);
    const csv = await run(["matrix", "--platform", "macOS", "--format", "csv"], APP);
    const lines = csv.stdout.trim().split("\n");
    expect(lines[0]).toBe("command,main,main-editor,settings,docs");
    expect(lines).toContain("plugin:window|set_size,none,none,granted,none");
    expect(lines).toContain("plugin:window|close,denied,denied,none,none");
  });

  it("text table marks callable, denied and absent cells", async () => {
    const result = await run(["matrix", "--platform", "linux"], APP);
    expect(result.stdout).toMatch(/^plugin:window\|close +✖ +✖ +· +·/m);
    expect(result.stdout).toMatch(/^greet +✔ +✔ +· +·/m);
  });
});

describe("resolve", () => {
  it("prints the normalized model of the conformance format", async () => {
    const { data } = await json(["resolve", "--platform", "linux"]);
    expect(Object.keys(data)).toEqual(["platform", "allowed", "denied", "globalScope"]);
    expect(data.allowed["greet"]).toEqual([
      { context: "local", windows: ["main", "main-*"], webviews: [], scope: null },
    ]);
    expect(data.denied["plugin:window|close"]).toEqual([
      { context: "local", windows: [], webviews: ["preview"], scope: null },
    ]);
  });
});

describe("diff", () => {
  it("fails when the new version grants access the old did not", async () => {
    const result = await run(
      ["diff", "app", "app-v2", "--platform", "linux"],
      path.join(FIXTURES, "queries"),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^NEW ACCESS on linux \(7 command grants\):\n {2}window "docs" from https:\/\/partner\.dev:/,
    );
    expect(result.stdout).toContain("removed access (96 command grants):");
    const { data } = await json(
      ["diff", "app", "app-v2", "--platform", "linux"],
      path.join(FIXTURES, "queries"),
    );
    expect(data.added).toContainEqual(
      expect.objectContaining({
        command: "plugin:window|set_title",
        context: "https://*.example.com",
        window: "docs",
      }),
    );
    expect(data.removed.every((g: { window: string }) => g.window === "main-*")).toBe(true);
  });

  it("passes when nothing new is granted (narrowing only)", async () => {
    const result = await run(
      ["diff", "app-v2", "app-v2", "--platform", "linux"],
      path.join(FIXTURES, "queries"),
    );
    expect(result).toMatchObject({ code: 0, stdout: "no new access on linux\n" });
  });
});

describe("permissions", () => {
  it("lists a plugin's permissions with the commands they expand to", async () => {
    const { data } = await json(["permissions", "core:app"], ROOT);
    const defaults = data.find((p: { identifier: string }) => p.identifier === "core:app:default");
    expect(defaults.kind).toBe("default");
    expect(defaults.allows).toContain("plugin:app|host_version");
    const deny = data.find(
      (p: { identifier: string }) => p.identifier === "core:app:deny-app-hide",
    );
    expect(deny.denies).toEqual(["plugin:app|app_hide"]);
  });

  it("includes the app's own permissions and filters", async () => {
    const { data } = await json(["permissions", "--app", ".", "--filter", "greet"]);
    expect(data.map((p: { identifier: string }) => p.identifier)).toEqual(["extra", "allow-greet"]);
    expect(data[0].allows).toEqual(["greet", "plugin:dialog|save", "plugin:fs|read_file"]);
  });

  it("suggests a plugin for a typo", async () => {
    const result = await run(["permissions", "dialgo"], ROOT);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('did you mean "dialog"');
  });
});

describe("explain - reads standard input as check - does", () => {
  const DEMO = path.join(ROOT, "examples", "demo-app");

  it("is bounded by --max-file-size", async () => {
    const result = await inProcess.run({
      argv: ["explain", "-", "--max-file-size", "1000"],
      cwd: DEMO,
      stdin: "x".repeat(5000),
    });
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "caplint: -: standard input is larger than 1000 B (--max-file-size)\n",
    });
  });
});

describe("explain: a capability that covers the window on some of the refusing platforms only", () => {
  const REFUSAL =
    "window.set_title not allowed. Permissions associated with this command: core:window:allow-set-title";
  /** An app whose capability for window main is loaded on the platforms given, or every one. */
  function appWith(platforms: string[] | undefined): string {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-explain-"));
    mkdirSync(path.join(dir, "src-tauri", "capabilities"), { recursive: true });
    writeFileSync(
      path.join(dir, "src-tauri", "tauri.conf.json"),
      JSON.stringify({ app: { windows: [{ label: "main" }] } }),
    );
    writeFileSync(
      path.join(dir, "src-tauri", "capabilities", "desk.json"),
      JSON.stringify({
        identifier: "desk",
        windows: ["main"],
        ...(platforms ? { platforms } : {}),
        permissions: ["core:window:allow-close"],
      }),
    );
    return dir;
  }
  const explain = (dir: string, ...extra: string[]) =>
    run(["explain", REFUSAL, "--app", dir, ...extra], dir);

  it("is named with those platforms beside the new capability, in text and JSON", async () => {
    const dir = appWith(["linux", "windows"]);
    try {
      const text = await explain(dir);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(
        '  no capability covers window "main" from local pages on every platform it is refused on (only on some: desk on linux and windows); a new capability file (src-tauri/capabilities/main-set-title.json):\n',
      );
      const { data } = await json(["explain", REFUSAL, "--app", dir], dir);
      expect(data.suggestion.partlyCoveredBy).toEqual([
        {
          capability: "desk",
          file: "src-tauri/capabilities/desk.json",
          line: 1,
          platforms: ["linux", "windows"],
        },
      ]);
      expect(data.suggestion.addTo).toBeUndefined();
      // Without a capability for macOS, android and iOS, none to add the entry to each.
      expect(data.suggestion.addToEach).toBeUndefined();
      // On one of those platforms the capability covers the window: the entry goes there.
      const linux = await explain(dir, "--platform", "linux");
      expect(linux.stdout).toContain(
        'add this entry to "permissions" of capability desk  (src-tauri/capabilities/desk.json:1), which already covers window "main" from local pages:',
      );
      expect(linux.stdout).not.toContain("only on some");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is each of the capabilities that together cover every refusing platform, to add the entry to", async () => {
    const split = path.join(QUERIES, "split-platforms");
    const text = await explain(split);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      [
        '  add this entry to "permissions" of each of these capabilities, which together cover window "main" from local pages on every platform it is refused on:',
        "    capability desktop  (src-tauri/capabilities/desktop.json:5), on linux, macOS and windows:",
        '      "core:window:allow-set-title"',
        "    capability mobile  (src-tauri/capabilities/mobile.json:5), on android and iOS:",
        '      "core:window:allow-set-title"',
        "  or a capability of its own (src-tauri/capabilities/main-set-title.json):",
      ].join("\n"),
    );
    expect(text.stdout).not.toContain("no capability covers");
    const { data } = await json(["explain", REFUSAL, "--app", split], split);
    expect(data.suggestion.addToEach).toEqual([
      {
        capability: "desktop",
        file: "src-tauri/capabilities/desktop.json",
        line: 5,
        platforms: ["linux", "macOS", "windows"],
        text: '"core:window:allow-set-title"',
      },
      {
        capability: "mobile",
        file: "src-tauri/capabilities/mobile.json",
        line: 5,
        platforms: ["android", "iOS"],
        text: '"core:window:allow-set-title"',
      },
    ]);
    // Asked for linux and android, each covers one of the two.
    const twoPlatforms = await explain(split, "--platform", "linux,android");
    expect(twoPlatforms.stdout).toContain(
      "capability desktop  (src-tauri/capabilities/desktop.json:5), on linux:",
    );
    expect(twoPlatforms.stdout).toContain(
      "capability mobile  (src-tauri/capabilities/mobile.json:5), on android:",
    );
  });

  it("is not said when no capability covers the window on any of them", async () => {
    const dir = appWith(["android"]);
    try {
      const text = await explain(dir, "--platform", "linux,windows");
      expect(text.stdout).toContain(
        '  no capability covers window "main" from local pages; a new capability file',
      );
      const { data } = await json(
        ["explain", REFUSAL, "--app", dir, "--platform", "linux,windows"],
        dir,
      );
      expect(data.suggestion).not.toHaveProperty("partlyCoveredBy");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
