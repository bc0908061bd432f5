import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ROOT, run } from "../helpers/run.js";

const CLI = path.join(FIXTURES, "cli");

describe("exit codes", () => {
  it("0 for a clean file", async () => {
    const result = await run(["check", "forms/single.json"], CLI);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe("1 file checked, no problems\n");
  });

  it("1 for error-level findings", async () => {
    expect((await run(["check", "mixed-folder"], CLI)).code).toBe(1);
  });

  it("2 for a missing path, with a one-line message", async () => {
    const result = await run(["check", "does-not-exist.json"], CLI);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("caplint: does-not-exist.json: no such file or directory\n");
    expect(result.stdout).toBe("");
  });

  it("2 for an unknown option (commander would say 1)", async () => {
    const result = await run(["check", "--frobnicate"], CLI);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "caplint: --frobnicate: check has no such option; its options: caplint check --help\n",
    );
  });

  it("2 for a bad --format value, listing the choices", async () => {
    const result = await run(["check", "forms", "--format", "xml"], CLI);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("stylish");
  });

  it("2 for an unknown rule in --rule, with a did-you-mean", async () => {
    const result = await run(["check", "forms", "--rule", "unknown-permision=off"], CLI);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'caplint: --rule unknown-permision=off: unknown rule "unknown-permision"; did you mean "unknown-permission"?\n',
    );
  });

  it("2 outside an app folder without paths (and no app below it)", async () => {
    const empty = mkdtempSync(path.join(tmpdir(), "caplint-no-app-"));
    const result = await run([], empty);
    rmSync(empty, { recursive: true, force: true });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^caplint: no app here/);
  });

  it("0 for --help and --version", async () => {
    expect((await run(["--help"], CLI)).code).toBe(0);
    const version = await run(["--version"], CLI);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(
      JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).version,
    );
  });

  it("--max-warnings turns too many warnings into exit 1", async () => {
    const args = ["check", "suppressions/cap.json", "--rule", "unused-suppression=warning"];
    expect((await run(args, CLI)).code).toBe(0);
    const result = await run([...args, "--max-warnings", "0"], CLI);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/warnings? exceeds? --max-warnings 0/);
  });
});

describe("discovery and forms", () => {
  it("accepts all three forms, in JSON and TOML", async () => {
    const result = await run(["check", "--format", "json", "forms"], CLI);
    const output = JSON.parse(result.stdout);
    expect(output.summary).toEqual({
      files: 4,
      errors: 0,
      warnings: 0,
      suggestions: 0,
      fixable: 0,
      config: null,
    });
    expect(result.code).toBe(0);
  });

  it("reports every file of a folder when one is broken, skipping schemas/ folders", async () => {
    const result = await run(["check", "--format", "compact", "mixed-folder"], CLI);
    expect(result.stdout).toBe(
      [
        "mixed-folder/broken.json:4:1: error invalid JSON: expected ']' at end of file [parse]",
        'mixed-folder/typo.json:1:62: error unknown permission "core:windw:default": the host has no core area "windw" [unknown-permission]',
        "",
      ].join("\n"),
    );
  });

  it("runs on the example app folder", async () => {
    const result = await run(["check", "--app", "examples/demo-app", "--format", "json"], ROOT);
    const output = JSON.parse(result.stdout);
    // Its three capability files and the four frontend files the scan read (index.html, settings.html, src/main.ts, src/settings.ts).
    expect(output.summary.files).toBe(7);
    expect(output.summary.errors).toBeGreaterThan(0);
    expect(result.code).toBe(1);
  });

  it("discovers the app in the working directory and src-tauri itself", async () => {
    const fromApp = await run(["--format", "compact"], path.join(ROOT, "examples/demo-app"));
    const fromSrcTauri = await run(
      ["--format", "compact"],
      path.join(ROOT, "examples/demo-app/src-tauri"),
    );
    expect(fromApp.code).toBe(1);
    expect(fromApp.stdout).toContain("src-tauri/capabilities/default.json:");
    expect(fromSrcTauri.stdout).toContain("capabilities/default.json:");
    expect(fromSrcTauri.stdout.split("\n").length).toBe(fromApp.stdout.split("\n").length);
  });
});

describe("output formats", () => {
  it("json follows the documented contract", async () => {
    const result = await run(["check", "--format", "json", "mixed-folder/typo.json"], CLI);
    const output = JSON.parse(result.stdout);
    expect(output.diagnostics).toEqual([
      {
        file: "mixed-folder/typo.json",
        ruleId: "unknown-permission",
        messageId: "unknown",
        severity: "error",
        message: 'unknown permission "core:windw:default": the host has no core area "windw"',
        line: 1,
        column: 62,
        endLine: 1,
        endColumn: 82,
        path: ["permissions", 0],
        hint: expect.stringContaining("core:window:default"),
        fixable: false,
      },
    ]);
    expect(output.summary).toEqual({
      files: 1,
      errors: 1,
      warnings: 0,
      suggestions: 0,
      fixable: 0,
      config: null,
    });
  });

  it("stylish groups by file with a code frame, a hint and a summary", async () => {
    const result = await run(["check", "mixed-folder/typo.json"], CLI);
    expect(result.stdout).toContain("mixed-folder/typo.json\n  1:62  error  unknown permission");
    expect(result.stdout).toContain("> 1 | {");
    expect(result.stdout).toMatch(/\| +\^{20}\n/);
    expect(result.stdout).toContain('help: did you mean "core:window:default"');
    expect(result.stdout).toContain("✖ 1 problem (1 error, 0 warnings) in 1 file");
  });

  it("colour only when asked or on a terminal", async () => {
    const plain = await run(["check", "mixed-folder/typo.json"], CLI);
    expect(plain.stdout).not.toContain("\u001b[");
    const coloured = await run(["check", "mixed-folder/typo.json", "--color"], CLI);
    expect(coloured.stdout).toContain("\u001b[");
  });

  it("--only runs just the named rules (parse and schema always)", async () => {
    const result = await run(
      [
        "check",
        "--format",
        "compact",
        "--only",
        "unknown-field",
        "mixed-folder",
        "suppressions/cap.json",
        "config/cap.json",
      ],
      CLI,
    );
    expect(
      result.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => line.replace(/^.*\[(.*)\]$/, "$1")),
    ).toEqual(["unknown-field", "parse"]);
    expect((await run(["check", "--only", "no-such-rule", "forms"], CLI)).code).toBe(2);
  });

  it("--quiet keeps errors only", async () => {
    const result = await run(
      ["check", "--format", "compact", "--quiet", "suppressions/cap.json"],
      CLI,
    );
    expect(result.stdout).toBe("");
  });
});

describe("configuration and suppressions", () => {
  it("reads caplint.config.json upward, with per-file overrides", async () => {
    const result = await run(["check", "--format", "compact", "."], path.join(CLI, "config"));
    expect(result.stdout).toBe(
      'cap.json:1:78: error unknown capability field "extra": the host ignores it [unknown-field]\n',
    );
    expect(result.code).toBe(1);
    const nested = await run(
      ["check", "--format", "compact", "../cap.json"],
      path.join(CLI, "config", "nested"),
    );
    expect(nested.stdout).toContain("error unknown capability field");
  });

  it("--rule on the command line wins over the config", async () => {
    const result = await run(
      ["check", "--format", "compact", ".", "--rule", "unknown-field=off"],
      path.join(CLI, "config"),
    );
    expect(result).toMatchObject({ code: 0, stdout: "" });
  });

  it("rejects a config with an unknown rule (exit 2, did-you-mean)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-config-"));
    writeFileSync(
      path.join(dir, "caplint.config.json"),
      JSON.stringify({ rules: { "no-targt": "off" } }),
    );
    writeFileSync(path.join(dir, "cap.json"), readFileSync(path.join(CLI, "forms/single.json")));
    const result = await run(["check", "cap.json"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown rule "no-targt"/);
    writeFileSync(
      path.join(dir, "caplint.config.json"),
      JSON.stringify({ rules: { "unknown-field": "loud" } }),
    );
    expect((await run(["check", "cap.json"], dir)).stderr).toMatch(
      /must be "off", "suggestion", "warning" or "error"/,
    );
    writeFileSync(path.join(dir, "caplint.config.json"), JSON.stringify({ rulez: {} }));
    expect((await run(["check", "cap.json"], dir)).stderr).toMatch(/unknown field "rulez"/);
  });

  it("caplint-disable suppresses inside its capability and reports unused entries", async () => {
    const result = await run(["check", "--format", "compact", "suppressions/cap.json"], CLI);
    expect(result.stdout).toBe(
      [
        'suppressions/cap.json:5:41: warning caplint-disable "duplicate-permission" suppresses nothing in capability "suppressed" [unused-suppression]',
        'suppressions/cap.json:5:65: warning caplint-disable names unknown rule "unknown-plugn" [unused-suppression]',
        "",
      ].join("\n"),
    );
  });
});

describe("other commands", () => {
  it("schema prints the draft-07 capability schema", async () => {
    const result = await run(["schema"], CLI);
    const schema = JSON.parse(result.stdout);
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.definitions.Capability.required).toEqual(["identifier", "permissions"]);
  });

  it("rules lists every rule as text and JSON", async () => {
    const json = JSON.parse((await run(["rules", "--format", "json"], CLI)).stdout);
    expect(json.map((r: { id: string }) => r.id)).toContain("unknown-permission");
    expect(json.find((r: { id: string }) => r.id === "invalid-platform")).toMatchObject({
      defaultSeverity: "error",
      fixable: true,
      docs: "docs/rules/invalid-platform.md",
    });
    const text = (await run(["rules"], CLI)).stdout;
    expect(text).toMatch(/^duplicate-capability +error +capabilities +Disallow/m);
    expect(
      json.every((r: { domain: string }) => ["capabilities", "events", "mcp"].includes(r.domain)),
    ).toBe(true);
  });

  it("rules --domain lists one domain's rules", async () => {
    const json = JSON.parse(
      (await run(["rules", "--domain", "capabilities", "--format", "json"], CLI)).stdout,
    );
    expect(json.length).toBeGreaterThan(20);
    expect(new Set(json.map((r: { domain: string }) => r.domain))).toEqual(
      new Set(["capabilities"]),
    );
  });
});
