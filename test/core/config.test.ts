import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../src/core/config.js";
import { DOMAINS, RULES_BY_ID } from "../../src/registry.js";
import { FIXTURES, ROOT, run } from "../helpers/run.js";

/** A capability with an unknown field: one unknown-field error unless a config turns the rule off. */
const CAPABILITY = readFileSync(path.join(FIXTURES, "cli", "config", "cap.json"), "utf8");
const OFF = JSON.stringify({ rules: { "unknown-field": "off" } });

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "caplint-config-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe("config discovery stays inside the project", () => {
  it("ignores a config in a parent folder outside any repository (a stray /tmp or home config)", async () => {
    const root = tree({ "caplint.config.json": OFF, "app/cap.json": CAPABILITY });
    const result = await run(["check", "--format", "compact", "cap.json"], path.join(root, "app"));
    expect(result.stdout).toContain("[unknown-field]");
  });

  it("finds a config upward up to the repository root (the folder holding .git)", async () => {
    const root = tree({
      ".git/HEAD": "ref: refs/heads/main\n",
      "caplint.config.json": OFF,
      "app/nested/cap.json": CAPABILITY,
    });
    const result = await run(
      ["check", "--format", "compact", "cap.json"],
      path.join(root, "app", "nested"),
    );
    expect(result).toMatchObject({ code: 0, stdout: "" });
  });

  it("does not look above the repository root", async () => {
    const root = tree({
      "caplint.config.json": OFF,
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/cap.json": CAPABILITY,
    });
    const result = await run(["check", "--format", "compact", "cap.json"], path.join(root, "repo"));
    expect(result.stdout).toContain("[unknown-field]");
  });

  it("starts from --app, not only from the working directory", async () => {
    const root = tree({
      "app/caplint.config.json": OFF,
      "app/src-tauri/capabilities/cap.json": CAPABILITY,
      "elsewhere/.keep": "",
    });
    const result = await run(
      ["check", "--format", "compact", "--app", path.join(root, "app")],
      path.join(root, "elsewhere"),
    );
    expect(result).toMatchObject({ code: 0, stdout: "" });
  });
});

describe("the config file format", () => {
  it("accepts comments, trailing commas and a byte order mark (JSONC)", async () => {
    const config =
      '\uFEFF{\n  // quiet while migrating\n  "rules": { "unknown-field": "off", /* for now */ },\n}\n';
    const root = tree({ "caplint.config.json": config, "cap.json": CAPABILITY });
    expect(await run(["check", "--format", "compact", "cap.json"], root)).toMatchObject({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("reports a syntax error at the config's line and column (exit 2)", async () => {
    const root = tree({
      "caplint.config.json": '{\n  "rules": {\n    "unknown-field" "off"\n  }\n}\n',
      "cap.json": CAPABILITY,
    });
    const result = await run(["check", "cap.json"], root);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `caplint: ${path.join(root, "caplint.config.json")}:3:21: not valid JSON (ColonExpected)\n`,
    );
  });

  it("reports an `app` that is not a folder as the config's error, at its line", async () => {
    const root = tree({ "caplint.config.json": '{\n  "app": "no-such-app"\n}\n' });
    const result = await run(["check"], root);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `caplint: ${path.join(root, "caplint.config.json")}:2:10: "app": no-such-app is not a folder (relative to the config's folder)\n`,
    );
  });
});

describe("config sections per domain", () => {
  it("schema/caplint.config.schema.json (what editors validate against) is the schema the domains' sections build", () => {
    const shipped: unknown = JSON.parse(
      readFileSync(path.join(ROOT, "schema", "caplint.config.schema.json"), "utf8"),
    );
    expect(configSchema(RULES_BY_ID.configSections)).toEqual(shipped);
  });

  it("takes each domain's keys from its Domain: capabilities owns manifests and app, the core only rules and overrides", () => {
    expect(
      DOMAINS.map((domain) => [domain.name, Object.keys(domain.config?.properties ?? {})]),
    ).toEqual([
      ["capabilities", ["manifests", "app", "frontend"]],
      ["events", []],
      ["mcp", ["mcp"]],
    ]);
    const sectionOf = (key: string) =>
      DOMAINS.filter((domain) => domain.config && Object.hasOwn(domain.config.properties, key))
        .length;
    expect(["rules", "overrides", "$schema"].map(sectionOf)).toEqual([0, 0, 0]);
  });

  it("names the keys of every domain when a key is unknown", async () => {
    const root = tree({
      "caplint.config.json": '{ "manifest": ["acl-manifests.json"] }\n',
      "cap.json": CAPABILITY,
    });
    const result = await run(["check", "cap.json"], root);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `caplint: ${path.join(root, "caplint.config.json")}: (top level) unknown field "manifest" (known: rules, overrides, manifests, app, frontend, mcp)\n`,
    );
  });

  it("reads a section's keys as before: manifests relative to the config's folder", async () => {
    const root = tree({
      "caplint.config.json": '{ "manifests": ["gen/acl-manifests.json"] }\n',
      "gen/acl-manifests.json": "{ not json",
      "app/cap.json": CAPABILITY,
    });
    // Run from a subfolder with --config: the manifest is found next to the config, not the working directory.
    const result = await run(
      ["check", "--config", "../caplint.config.json", "cap.json"],
      path.join(root, "app"),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^caplint: \.\.\/gen\/acl-manifests\.json: /);
  });
});
