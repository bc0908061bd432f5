import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";

/**
 * The library API, used the way a dependent package uses it: `import ... from "caplint"` resolved
 * by Node through package.json "exports" (the package's self-reference), against the build in dist/.
 */
const exec = promisify(execFile);
/** Each test spawns node (and one runs tsc); on a busy two-core CI machine that can take minutes. */
const SPAWN_TIMEOUT = 240_000;
const APP = path.join(FIXTURES, "integrations", "app");

async function runModule(source: string): Promise<unknown> {
  const { stdout } = await exec(process.execPath, ["--input-type=module", "--eval", source], {
    cwd: ROOT,
  });
  return JSON.parse(stdout);
}

beforeAll(() => {
  if (!existsSync(path.join(ROOT, "dist", "index.js")))
    throw new Error("dist/index.js is missing: run `npm run build` first (npm test does)");
});

describe('import from "caplint"', () => {
  it(
    "loads, lints and formats a project, with the same results as the CLI",
    async () => {
      const result = await runModule(`
      import { loadProject, lint, format, RULES, VERSION } from "caplint";
      const project = await loadProject({ cwd: ${JSON.stringify(APP)}, app: "." });
      const result = await lint(project);
      const sarif = JSON.parse(await format(result, "sarif", { cwd: project.cwd }));
      const compact = await format(result, "compact", { cwd: project.cwd });
      const github = await format(result.diagnostics, "github", { cwd: project.cwd });
      console.log(JSON.stringify({
        version: VERSION,
        rules: RULES.map((r) => r.id),
        files: result.files,
        findings: result.diagnostics.map((d) => d.ruleId + " " + d.file + ":" + d.range.start.line),
        capabilities: project.capabilities.map((c) => c.identifier).sort(),
        sarifResults: sarif.runs[0].results.length,
        compact,
        github,
      }));
    `);
      const { RULES } = await import("../../src/registry.js");
      expect(result).toMatchObject({
        version: JSON.parse(
          (
            await exec(
              process.execPath,
              ["-p", "JSON.stringify(require('./package.json').version)"],
              { cwd: ROOT },
            )
          ).stdout,
        ),
        rules: RULES.map((r) => r.id),
        files: 2,
        findings: ["unknown-permission src-tauri/capabilities/typo.json:4"],
        capabilities: ["default", "settings"],
        sarifResults: 1,
      });
      const { compact, github } = result as { compact: string; github: string };
      expect(compact).toMatch(
        /^src-tauri\/capabilities\/typo\.json:4:19: error unknown permission "core:window:allow-set-titel"/,
      );
      // From the repository root (this checkout), as GitHub reads it.
      expect(github).toMatch(
        /^::error file=fixtures\/integrations\/app\/src-tauri\/capabilities\/typo\.json,line=4,/,
      );
    },
    SPAWN_TIMEOUT,
  );

  it(
    "applies a config (path, object or auto-discovered) exactly as caplint check does",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-library-config-"));
      cpSync(path.join(ROOT, "examples", "demo-app"), dir, { recursive: true });
      mkdirSync(path.join(dir, ".git"));
      const config = {
        rules: { "dangerous-permission": "off", "redundant-permission": "off" },
        overrides: [
          { files: ["src-tauri/capabilities/**"], rules: { "unknown-permission": "warning" } },
        ],
      };
      writeFileSync(path.join(dir, "caplint.config.json"), JSON.stringify(config));
      const result = (await runModule(`
      import { loadProject, lint, loadSettings, format } from "caplint";
      const cwd = ${JSON.stringify(dir)};
      const project = await loadProject({ cwd, app: "." });
      const summary = (r) => r.diagnostics.map((d) => d.ruleId + ":" + d.severity).sort();
      const plain = await lint(project);
      const byPath = await lint(project, { config: "caplint.config.json" });
      const byObject = await lint(project, { config: ${JSON.stringify(config)} });
      const settings = await loadSettings({ cwd, config: "auto" });
      const bySettings = await lint(await loadProject({ cwd, app: ".", settings }), { settings });
      let bad;
      try { await lint(project, { config: { rules: { "dangerus-permission": "off" } } }); } catch (error) { bad = error.name + ": " + error.message; }
      const json = JSON.parse(await format(bySettings, "json", { cwd, config: settings.configLabel ?? null }));
      console.log(JSON.stringify({ plain: summary(plain), byPath: summary(byPath), byObject: summary(byObject), bySettings: summary(bySettings), bad, config: json.summary.config }));
    `)) as {
        plain: string[];
        byPath: string[];
        byObject: string[];
        bySettings: string[];
        bad: string;
        config: string;
      };
      const cli = await exec(
        process.execPath,
        [path.join(ROOT, "bin", "caplint.js"), "check", "--format", "json"],
        { cwd: dir },
      ).catch((error: { stdout: string }) => error);
      const fromCli = (
        JSON.parse(cli.stdout) as { diagnostics: Array<{ ruleId: string; severity: string }> }
      ).diagnostics
        .map((d) => `${d.ruleId}:${d.severity}`)
        .sort();
      expect(result.plain).toContain("dangerous-permission:error");
      expect(result.plain).toContain("unknown-permission:error");
      expect(result.byPath).not.toContain("dangerous-permission:error");
      expect(result.byPath).toContain("unknown-permission:warning");
      expect(result.byPath).toEqual(fromCli);
      expect(result.byObject).toEqual(fromCli);
      expect(result.bySettings).toEqual(fromCli);
      expect(result.bad).toBe(
        'UsageError: config rules: unknown rule "dangerus-permission"; did you mean "dangerous-permission"?',
      );
      expect(result.config).toBe("caplint.config.json");
    },
    SPAWN_TIMEOUT,
  );

  it(
    "rejects an unknown format name",
    async () => {
      const result = await runModule(`
      import { format } from "caplint";
      try { await format([], "xml", { cwd: "/" }); console.log(JSON.stringify("no error")); }
      catch (error) { console.log(JSON.stringify(error.message)); }
    `);
      expect(result).toBe(
        'unknown format "xml": expected one of stylish, compact, json, sarif, github',
      );
    },
    SPAWN_TIMEOUT,
  );

  it(
    "answers what a window may call through resolveAccess",
    async () => {
      const result = (await runModule(`
      import { loadProject, resolveAccess } from "caplint";
      const project = await loadProject({ cwd: ${JSON.stringify(APP)}, app: "." });
      const main = resolveAccess(project, { window: "main", platform: "linux" });
      const other = resolveAccess(project, { window: "other", platform: "linux" });
      const remote = resolveAccess(project, { window: "main", url: "https://example.com/", platform: "linux" });
      const one = resolveAccess(project, { window: "main", platform: "linux", command: "plugin:fs|read_text_file" });
      console.log(JSON.stringify({
        capabilities: main.capabilities,
        allowed: main.allowed.map((a) => a.command),
        other: other.allowed.length,
        remote: remote.allowed.length,
        one: one.allowed.map((a) => a.command),
      }));
    `)) as {
        capabilities: string[];
        allowed: string[];
        other: number;
        remote: number;
        one: string[];
      };
      expect(result.capabilities).toEqual(["default", "settings"]);
      // Commands are named as the host's IPC names them: `plugin:<plugin>|<command>`.
      expect(result.allowed).toContain("plugin:fs|read_text_file");
      expect(result.allowed).not.toContain("plugin:fs|write_text_file");
      expect(result.one).toEqual(["plugin:fs|read_text_file"]);
      // Capabilities are for window "main" and local pages only.
      expect(result.other).toBe(0);
      expect(result.remote).toBe(0);
    },
    SPAWN_TIMEOUT,
  );

  it(
    "exposes the schemas and package.json, and hides internal modules",
    async () => {
      const result = await runModule(`
      import { createRequire } from "node:module";
      const require = createRequire(import.meta.url);
      const schema = require("caplint/schema/capability.schema.json");
      const pkg = require("caplint/package.json");
      let internal;
      try { await import("caplint/dist/lint.js"); internal = "importable"; } catch (error) { internal = error.code; }
      console.log(JSON.stringify({ schemaTitle: schema.title, name: pkg.name, internal }));
    `);
      expect(result).toEqual({
        schemaTitle: "CapabilityFile",
        name: "caplint",
        internal: "ERR_PACKAGE_PATH_NOT_EXPORTED",
      });
    },
    SPAWN_TIMEOUT,
  );

  it(
    "has types a TypeScript consumer compiles against (NodeNext resolution, types condition)",
    async () => {
      const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
      const project = path.join(FIXTURES, "integrations", "library-consumer", "tsconfig.json");
      const { stdout } = await exec(process.execPath, [tsc, "-p", project], { cwd: ROOT }).catch(
        (error: { stdout: string }) => error,
      );
      expect(stdout).toBe("");
    },
    SPAWN_TIMEOUT,
  );

  it(
    "publishes bin, dist, schema and data, and no sources or tests",
    async () => {
      const { stdout } = await exec("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
      });
      const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
      const files = pack!.files.map((f) => f.path);
      for (const required of [
        "package.json",
        "bin/caplint.js",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/cli/main.js",
        "dist/cli-bundle/main.cjs",
        "dist/cli-bundle/main.cjs.cache",
        "bin/package.json",
        "dist/generated/capability-validators.cjs",
        "schema/capability.schema.json",
        "data/core-acl-manifest.json",
      ]) {
        expect(files).toContain(required);
      }
      expect(files.filter((f) => /^(src|test|fixtures|scripts)\//.test(f))).toEqual([]);
    },
    SPAWN_TIMEOUT,
  );
});
