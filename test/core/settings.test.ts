import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CAPABILITY_RULES_BY_ID } from "../../src/capabilities/rules/index.js";
import { MCP_RULES_BY_ID } from "../../src/mcp/rules/index.js";
import { loadSettings } from "../../src/core/settings.js";
import { RULES_BY_ID } from "../../src/registry.js";
import { ROOT, run } from "../helpers/run.js";

/** The demo app in a repository of its own, with a config beside src-tauri/. */
function demoRepo(config: object | undefined): string {
  const root = mkdtempSync(path.join(tmpdir(), "caplint-settings-"));
  cpSync(path.join(ROOT, "examples", "demo-app"), root, { recursive: true });
  mkdirSync(path.join(root, ".git"));
  if (config) writeFileSync(path.join(root, "caplint.config.json"), JSON.stringify(config));
  return root;
}

const DEMO_OFF = { rules: { "dangerous-permission": "off", "redundant-permission": "off" } };

interface JsonReport {
  diagnostics: Array<{ ruleId: string }>;
  summary: { errors: number; warnings: number; suggestions: number; config: string | null };
}

const json = (stdout: string) => JSON.parse(stdout) as JsonReport;

describe("one configuration for every command", { timeout: 60_000 }, () => {
  it("check and report count the same findings under the same config (review §7 problem 4)", async () => {
    const root = demoRepo(DEMO_OFF);
    const checked = json((await run(["check", "--format", "json"], root)).stdout);
    expect(
      checked.diagnostics.some(
        (d) => d.ruleId === "dangerous-permission" || d.ruleId === "redundant-permission",
      ),
    ).toBe(false);
    const reported = await run(["report", "--html", "report.html"], root);
    expect(reported.code).toBe(0);
    const { errors, warnings, suggestions } = checked.summary;
    const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
    expect(reported.stdout).toContain(
      `; ${counted(errors, "error")}, ${counted(warnings, "warning")}${suggestions ? `, ${counted(suggestions, "suggestion")}` : ""}; 0 dangerous grants; config: caplint.config.json`,
    );
    // Without the config, both count more: the config is what made the difference.
    const unconfigured = demoRepo(undefined);
    const all = json((await run(["check", "--format", "json"], unconfigured)).stdout);
    expect(all.summary.errors + all.summary.warnings).toBeGreaterThan(errors + warnings);
    expect((await run(["report", "--html", "report.html"], unconfigured)).stdout).toContain(
      `${all.summary.errors} errors, ${all.summary.warnings} warnings`,
    );
  });

  it("report takes --rule like check", async () => {
    const root = demoRepo(undefined);
    const checked = json(
      (await run(["check", "--format", "json", "--rule", "unknown-permission=off"], root)).stdout,
    );
    const reported = await run(["report", "--html", "-", "--rule", "unknown-permission=off"], root);
    expect(reported.code).toBe(0);
    expect(checked.diagnostics.some((d) => d.ruleId === "unknown-permission")).toBe(false);
    expect(reported.stdout).not.toContain("unknown-permission");
  });

  it("a shared config may set rules of every domain: check accepts event and MCP rules, events accepts capability rules", async () => {
    const root = demoRepo({
      rules: { "unknown-field": "off", "tool-lifecycle": "off", "mcp-tool-verb": "off" },
    });
    expect((await run(["check", "--format", "compact"], root)).stderr).toBe("");
    cpSync(
      path.join(ROOT, "examples", "events", "session.jsonl"),
      path.join(root, "session.jsonl"),
    );
    const events = await run(["events", "--format", "json", "session.jsonl"], root);
    expect(events.stderr).toBe("");
    const report = json(events.stdout);
    expect(report.diagnostics.map((d) => d.ruleId)).not.toContain("tool-lifecycle");
    expect(report.diagnostics.map((d) => d.ruleId)).toContain("approval-lifecycle");
    expect(report.summary.config).toBe("caplint.config.json");
  });

  it("an unknown rule id in the config is a usage error with a did-you-mean, for every command that reads it", async () => {
    const root = demoRepo({ rules: { "dangerus-permission": "off" } });
    for (const argv of [
      ["check"],
      ["report", "--html", "-"],
      ["access", "-w", "main"],
      ["matrix"],
      ["who-can", "fs.read_file"],
      ["explain", 'plugin:fs|read_file not allowed on window "main", webview "main", URL: local'],
      ["resolve"],
      ["permissions", "fs"],
      ["events", "x.jsonl"],
    ]) {
      const result = await run(argv, root);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr, argv.join(" ")).toContain(
        `caplint.config.json rules: unknown rule "dangerus-permission"; did you mean "dangerous-permission"?`,
      );
    }
  });

  it("--rule and --only take the command's own rules: another domain's id says where it belongs (exit 2)", async () => {
    const root = demoRepo(undefined);
    const check = await run(["check", "--rule", "event-json=off"], root);
    expect(check).toMatchObject({ code: 2, stdout: "" });
    expect(check.stderr).toContain(
      `"event-json" is a rule for events (caplint events), not for capabilities`,
    );
    const events = await run(["events", "--rule", "unknown-field=off", "x.jsonl"], root);
    expect(events.code).toBe(2);
    expect(events.stderr).toContain(
      `"unknown-field" is a rule for capabilities (caplint check), not for events`,
    );
    const only = await run(["check", "--only", "unknwn-field"], root);
    expect(only.code).toBe(2);
    expect(only.stderr).toContain(
      `--only unknwn-field: unknown rule "unknwn-field"; did you mean "unknown-field"?`,
    );
    const bad = await run(["check", "--rule", "unknown-field"], root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--rule unknown-field: expected ID=SEVERITY");
  });

  it("the queries answer for the config's app", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "caplint-settings-"));
    mkdirSync(path.join(root, ".git"));
    cpSync(path.join(ROOT, "examples", "demo-app"), path.join(root, "apps", "demo"), {
      recursive: true,
    });
    writeFileSync(path.join(root, "caplint.config.json"), JSON.stringify({ app: "apps/demo" }));
    const access = await run(["access", "-w", "main", "--format", "json"], root);
    expect(access.stderr).toBe("");
    expect(access.code).toBe(0);
    expect(JSON.stringify(JSON.parse(access.stdout))).toContain("core:default");
    const matrix = await run(["matrix"], root);
    expect(matrix.code).toBe(0);
    expect(matrix.stdout).toContain("main");
    // --config names another config: its app is asked about instead (here one whose main window is
    // granted core:app:default only).
    const other = path.join(root, "apps", "other", "src-tauri");
    mkdirSync(path.join(other, "capabilities"), { recursive: true });
    writeFileSync(
      path.join(other, "tauri.conf.json"),
      JSON.stringify({ identifier: "dev.caplint.other", app: { windows: [{ label: "main" }] } }),
    );
    writeFileSync(
      path.join(other, "capabilities", "default.json"),
      JSON.stringify({
        identifier: "default",
        windows: ["main"],
        permissions: ["core:app:default"],
      }),
    );
    writeFileSync(path.join(root, "other.json"), JSON.stringify({ app: "apps/other" }));
    const elsewhere = await run(
      ["access", "-w", "main", "--config", "other.json", "--format", "json"],
      root,
    );
    expect(elsewhere.stderr).toBe("");
    expect(elsewhere.stdout).toContain("core:app:default");
    expect(elsewhere.stdout).not.toContain("core:default");
  });
});

describe("which config was used is printed", { timeout: 60_000 }, () => {
  it("stylish: a footer line relative to the working directory", async () => {
    const root = demoRepo(DEMO_OFF);
    const atRoot = await run(["check"], root);
    expect(atRoot.stdout).toMatch(/\n {2}config: caplint\.config\.json\n$/);
    const nested = await run(["check", "--app", ".."], path.join(root, "src-tauri"));
    expect(nested.stdout).toContain("  config: ../caplint.config.json\n");
    const none = await run(["check"], demoRepo(undefined));
    expect(none.stdout).not.toContain("config:");
  });

  it("stylish: a control character in the config's path is escaped, never sent to the terminal", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "caplint-settings-"));
    const folder = path.join(root, "evil\u001b]0;x\u0007dir");
    mkdirSync(path.join(folder, ".git"), { recursive: true });
    cpSync(path.join(ROOT, "examples", "demo-app"), folder, { recursive: true });
    writeFileSync(path.join(folder, "caplint.config.json"), JSON.stringify(DEMO_OFF));
    const result = await run(["check", "--app", folder], root);
    expect(result.stdout).not.toMatch(/[\u001b\u0007]/);
    expect(result.stdout).toContain("config: evil\\u001b]0;x\\u0007dir/caplint.config.json");
  });

  it("JSON: summary.config, null when there is none", async () => {
    expect(
      json((await run(["check", "--format", "json"], demoRepo(DEMO_OFF))).stdout).summary.config,
    ).toBe("caplint.config.json");
    expect(
      json((await run(["check", "--format", "json"], demoRepo(undefined))).stdout).summary.config,
    ).toBeNull();
    const root = demoRepo(undefined);
    writeFileSync(path.join(root, "other.json"), JSON.stringify(DEMO_OFF));
    expect(
      json((await run(["check", "--format", "json", "-c", "other.json"], root)).stdout).summary
        .config,
    ).toBe("other.json");
  });

  it("events: the stylish footer and summary.config", async () => {
    const root = demoRepo({ rules: { "tool-lifecycle": "warning" } });
    cpSync(
      path.join(ROOT, "examples", "events", "session.jsonl"),
      path.join(root, "session.jsonl"),
    );
    const stylish = await run(["events", "session.jsonl"], root);
    expect(stylish.stdout).toMatch(/\n {2}config: caplint\.config\.json\n$/);
    expect(stylish.stdout).toMatch(/warning .*\[?tool-lifecycle/);
    const none = json(
      (
        await run(
          ["events", "--format", "json", path.join(ROOT, "examples", "events", "session.jsonl")],
          path.join(ROOT, "examples", "events"),
        )
      ).stdout,
    );
    expect(none.summary.config).toBeNull();
  });
});

describe("caplint mcp reads the same configuration", { timeout: 60_000 }, () => {
  function mcpRepo(config: object | undefined): string {
    const root = mkdtempSync(path.join(tmpdir(), "caplint-settings-mcp-"));
    mkdirSync(path.join(root, ".git"));
    cpSync(path.join(ROOT, "fixtures", "mcp", "dumps", "bad.json"), path.join(root, "tools.json"));
    if (config) writeFileSync(path.join(root, "caplint.config.json"), JSON.stringify(config));
    return root;
  }

  it("its rules are set by caplint.config.json (overrides included) and --rule; the config is printed", async () => {
    const plain = json((await run(["mcp", "-f", "json", "tools.json"], mcpRepo(undefined))).stdout);
    expect(plain.diagnostics.map((d) => d.ruleId)).toContain("mcp-input-bounds");
    expect(plain.summary.config).toBeNull();
    const root = mcpRepo({
      rules: { "mcp-input-bounds": "off", "unknown-field": "off" },
      overrides: [{ files: ["tools.json"], rules: { "mcp-tool-verb": "error" } }],
    });
    const configured = json((await run(["mcp", "-f", "json", "tools.json"], root)).stdout);
    expect(configured.diagnostics.map((d) => d.ruleId)).not.toContain("mcp-input-bounds");
    expect(configured.diagnostics.find((d) => d.ruleId === "mcp-tool-verb")).toMatchObject({
      severity: "error",
    });
    expect(configured.summary.config).toBe("caplint.config.json");
    const cli = json(
      (await run(["mcp", "-f", "json", "--rule", "mcp-input-bounds=warning", "tools.json"], root))
        .stdout,
    );
    expect(cli.diagnostics.map((d) => d.ruleId)).toContain("mcp-input-bounds");
    expect((await run(["mcp", "tools.json"], root)).stdout).toMatch(
      /\n {2}config: caplint\.config\.json\n$/,
    );
    const other = await run(["mcp", "-f", "json", "-c", "none.json", "tools.json"], root);
    expect(other).toMatchObject({ code: 2, stderr: "caplint: --config none.json: no such file\n" });
  });

  it("an MCP rule that is off is not started", async () => {
    const spy = vi.spyOn(MCP_RULES_BY_ID.get("mcp-input-bounds")!, "check");
    await run(
      ["mcp", "-f", "compact", "tools.json"],
      mcpRepo({ rules: { "mcp-input-bounds": "off" } }),
    );
    expect(spy).not.toHaveBeenCalled();
    await run(["mcp", "-f", "compact", "tools.json"], mcpRepo(undefined));
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});

describe("rules that are off everywhere do not run", { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it("off in the config or by --rule: the rule's check is never called; an override that turns it on makes it run", async () => {
    const rule = CAPABILITY_RULES_BY_ID.get("dangerous-permission")!;
    if (rule.kind === "pipeline") throw new Error("dangerous-permission is a rule with a check");
    const spy = vi.spyOn(rule, "check");
    await run(["check", "--format", "compact"], demoRepo(DEMO_OFF));
    expect(spy).not.toHaveBeenCalled();
    await run(
      ["check", "--format", "compact", "--rule", "dangerous-permission=off"],
      demoRepo(undefined),
    );
    await run(
      ["check", "--format", "compact", "--only", "unknown-permission"],
      demoRepo(undefined),
    );
    await run(["report", "--html", "-"], demoRepo(DEMO_OFF));
    expect(spy).not.toHaveBeenCalled();
    await run(
      ["check", "--format", "compact"],
      demoRepo({
        ...DEMO_OFF,
        overrides: [
          { files: ["src-tauri/capabilities/**"], rules: { "dangerous-permission": "error" } },
        ],
      }),
    );
    expect(spy).toHaveBeenCalledTimes(1);
    await run(["check", "--format", "compact"], demoRepo(undefined));
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it("the settings say which rules run", async () => {
    const cwd = demoRepo(undefined);
    const settings = await loadSettings({
      rules: RULES_BY_ID,
      domain: "capabilities",
      cwd,
      config: {
        rules: { "unknown-field": "off", "scope-conflict": "error" },
        overrides: [{ files: ["x/**"], rules: { "dead-scope": "off" } }],
      },
    });
    expect(settings.runs("unknown-field")).toBe(false);
    expect(settings.runs("scope-conflict")).toBe(true);
    expect(settings.runs("dead-scope")).toBe(true);
    expect(settings.runs("parse")).toBe(true);
    expect(settings.severityFor("dead-scope", path.join(cwd, "x", "a.json"))).toBe("off");
    expect(settings.severityFor("dead-scope", path.join(cwd, "y.json"))).toBeUndefined();
    expect(settings.configLabel).toBeUndefined();
  });
});

describe("the config file as given", () => {
  it("README's example config is accepted as written", async () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const example = /## Configuration[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)![1]!;
    const value = JSON.parse(example) as Record<string, unknown>;
    delete value.app;
    await expect(
      loadSettings({ rules: RULES_BY_ID, domain: "capabilities", cwd: ROOT, config: value }),
    ).resolves.toBeDefined();
  });
});
