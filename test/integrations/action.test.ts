import { execFileSync, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, ROOT } from "../helpers/run.js";
import { readYaml } from "./yaml.js";
import { releaseCommit } from "../helpers/release.js";

/**
 * action.yml run the way the Actions runner runs a composite action, without GitHub: each `run:`
 * step is written to a file and executed with `bash --noprofile --norc -eo pipefail` (the runner's
 * `shell: bash`), after `${{ … }}` expressions are replaced by test values, in the step's
 * working directory and with the GITHUB_* variables the runner sets.
 */
interface Step {
  name: string;
  shell?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  "working-directory"?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = readYaml(path.join(ROOT, "action.yml")) as Action;
const APP = path.join(FIXTURES, "integrations", "app");

let actionPath: string;

interface StepRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Replaces `${{ expr }}`; an expression the test does not know fails the test instead of passing through. */
function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    if (!(expression in values))
      throw new Error(`action.yml uses \${{ ${expression} }}, which this test does not provide`);
    return values[expression]!;
  });
}

function runStep(step: Step, workspace: string, inputs: Record<string, string>): StepRun {
  expect(step.shell, `step "${step.name}" sets shell: bash`).toBe("bash");
  const values: Record<string, string> = {
    "github.action_path": actionPath,
    "github.workspace": workspace,
  };
  for (const [name, input] of Object.entries(action.inputs))
    values[`inputs.${name}`] = inputs[name] ?? input.default ?? "";
  const temp = mkdtempSync(path.join(tmpdir(), "caplint-runner-"));
  const script = path.join(temp, "step.sh");
  writeFileSync(script, substitute(step.run!, values));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: temp,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: workspace,
    GITHUB_ACTION_PATH: actionPath,
    GITHUB_ENV: path.join(temp, "env"),
    GITHUB_OUTPUT: path.join(temp, "output"),
    GITHUB_STEP_SUMMARY: path.join(temp, "summary"),
    RUNNER_TEMP: temp,
    // Installs from the npm cache that `npm ci` of this checkout filled, so the test needs no network.
    npm_config_prefer_offline: "true",
  };
  for (const [key, value] of Object.entries(step.env ?? {})) env[key] = substitute(value, values);
  const cwd = path.resolve(workspace, substitute(step["working-directory"] ?? ".", values));
  const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
    cwd,
    env,
    encoding: "utf8",
    timeout: 280_000,
  });
  if (result.error) throw result.error;
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

const step = (name: string) => {
  const found = action.runs.steps.find((s) => s.name === name);
  if (!found) throw new Error(`action.yml has no step "${name}"`);
  return found;
};

const temporaries: string[] = [];
afterAll(() => {
  for (const dir of temporaries) rmSync(dir, { recursive: true, force: true });
}, 120_000);

/** The files of `rev` in `repo`, as the runner checks out an action: `git archive`, no .git. */
function extract(repo: string, rev: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-action-"));
  const archive = execFileSync("git", ["archive", "--format=tar", rev], {
    cwd: repo,
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: archive });
  return dir;
}

function workspace(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-workspace-"));
  cpSync(APP, dir, { recursive: true });
  return dir;
}

/** Each step spawns bash and node; on a busy two-core CI machine that can take a while. */
const STEP_TIMEOUT = 120_000;

describe("action.yml", () => {
  it("is a composite action with the documented inputs and only bash steps", () => {
    expect(action.runs.using).toBe("composite");
    expect(Object.keys(action.inputs).sort()).toEqual([
      "args",
      "format",
      "paths",
      "sarif-file",
      "working-directory",
    ]);
    expect(action.inputs.format!.default).toBe("github");
    for (const input of Object.values(action.inputs))
      expect(input.description.length).toBeGreaterThan(10);
    expect(action.runs.steps.map((s) => s.name)).toEqual(["Prepare caplint", "Run caplint"]);
    for (const s of action.runs.steps) {
      expect(s.shell).toBe("bash");
      // Inputs must reach scripts through env:, never by pasting values into the script text.
      expect(s.run).not.toMatch(/\$\{\{\s*inputs\./);
    }
  });

  describe("run as the runner runs it, from a release tag", () => {
    beforeAll(() => {
      // The action's checkout at a release tag: a release commit of this repository's HEAD (with the built CLI), without node_modules.
      const { clone, rev } = releaseCommit("v0.0.0-action");
      temporaries.push(path.dirname(clone));
      actionPath = extract(clone, rev);
      const prepare = runStep(
        step("Prepare caplint"),
        mkdtempSync(path.join(tmpdir(), "caplint-workspace-")),
        {},
      );
      expect(prepare, "the prebuilt CLI needs no install and no build").toEqual({
        code: 0,
        stdout: "",
        stderr: "",
      });
      expect(existsSync(path.join(actionPath, "node_modules"))).toBe(false);
      expect(existsSync(path.join(actionPath, "dist", "cli"))).toBe(false);
    }, 300_000);

    afterAll(() => rmSync(actionPath, { recursive: true, force: true }), 120_000);

    it(
      "prints annotations and writes SARIF; exit 1 on findings",
      () => {
        const dir = workspace();
        const result = runStep(step("Run caplint"), dir, { "sarif-file": "reports/caplint.sarif" });
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toBe("");
        expect(result.stdout).toMatch(
          /^::error file=src-tauri\/capabilities\/typo\.json,line=4,endLine=4,col=19,endColumn=\d+,title=unknown-permission::unknown permission "core:window:allow-set-titel"/,
        );
        expect(result.stdout.trimEnd().split("\n")).toHaveLength(1);
        const sarif = JSON.parse(readFileSync(path.join(dir, "reports", "caplint.sarif"), "utf8"));
        expect(sarif.version).toBe("2.1.0");
        expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual([
          "unknown-permission",
        ]);
        expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
          uri: "src-tauri/capabilities/typo.json",
          uriBaseId: "%SRCROOT%",
        });
      },
      STEP_TIMEOUT,
    );

    it(
      "exits 0 with no annotations and an empty SARIF report when all is well",
      () => {
        const dir = workspace();
        rmSync(path.join(dir, "src-tauri", "capabilities", "typo.json"));
        const result = runStep(step("Run caplint"), dir, { "sarif-file": "caplint.sarif" });
        expect(result).toEqual({ code: 0, stdout: "", stderr: "" });
        expect(
          JSON.parse(readFileSync(path.join(dir, "caplint.sarif"), "utf8")).runs[0].results,
        ).toEqual([]);
      },
      STEP_TIMEOUT,
    );

    it(
      "checks only the given paths, in the given format, with extra args",
      () => {
        const dir = workspace();
        const onlyGood = runStep(step("Run caplint"), dir, {
          paths: "src-tauri/capabilities/default.json\n",
          format: "compact",
        });
        expect(onlyGood).toEqual({ code: 0, stdout: "", stderr: "" });
        writeFileSync(
          path.join(dir, "src-tauri", "capabilities", "extra.json"),
          '{ "identifier": "extra", "windows": ["main"], "colour": "red", "permissions": ["core:default"] }\n',
        );
        const warningOnly = runStep(step("Run caplint"), dir, {
          paths: "src-tauri/capabilities/default.json  src-tauri/capabilities/extra.json",
          format: "compact",
        });
        expect(warningOnly.code).toBe(0);
        expect(warningOnly.stdout).toMatch(
          /^src-tauri\/capabilities\/extra\.json:1:\d+: warning unknown capability field "colour"/,
        );
        const strict = runStep(step("Run caplint"), dir, {
          paths: "src-tauri/capabilities/extra.json",
          format: "compact",
          args: "--max-warnings 0",
        });
        expect(strict.code).toBe(1);
      },
      STEP_TIMEOUT,
    );

    it(
      "runs in working-directory",
      () => {
        const dir = mkdtempSync(path.join(tmpdir(), "caplint-workspace-"));
        cpSync(APP, path.join(dir, "apps", "demo"), { recursive: true });
        const result = runStep(step("Run caplint"), dir, {
          "working-directory": "apps/demo",
          format: "compact",
        });
        expect(result.code).toBe(1);
        expect(result.stdout).toMatch(/^src-tauri\/capabilities\/typo\.json:4:19: error /);
      },
      STEP_TIMEOUT,
    );

    it(
      "treats input values as data, not shell code",
      () => {
        const dir = workspace();
        const result = runStep(step("Run caplint"), dir, {
          paths: "$(touch injected-1) `touch injected-2`;touch injected-3",
          args: "--quiet",
        });
        expect(result.code).toBe(2);
        expect(result.stderr).toBe("caplint: $(touch: no such file or directory\n");
        expect(readdirSync(dir).filter((f) => f.startsWith("injected"))).toEqual([]);
      },
      STEP_TIMEOUT,
    );

    it(
      "stops with exit 2 before annotating when the SARIF report cannot be written",
      () => {
        const dir = workspace();
        mkdirSync(path.join(dir, "report.sarif"));
        const result = runStep(step("Run caplint"), dir, { "sarif-file": "report.sarif" });
        expect(result.code).toBe(2);
        expect(result.stdout).toBe("");
        expect(result.stderr).toMatch(
          /^caplint: --output report\.sarif: cannot write the report: /,
        );
      },
      STEP_TIMEOUT,
    );
  });

  describe("from any commit of main (uses: caplint/caplint@<commit>): the committed prebuilt/ CLI", () => {
    afterAll(() => rmSync(actionPath, { recursive: true, force: true }), 120_000);

    it("runs without installing or building anything", () => {
      // HEAD as it is committed: its prebuilt/, no dist/, no node_modules.
      actionPath = extract(ROOT, "HEAD");
      expect(existsSync(path.join(actionPath, "dist"))).toBe(false);
      const prepare = runStep(
        step("Prepare caplint"),
        mkdtempSync(path.join(tmpdir(), "caplint-workspace-")),
        {},
      );
      expect(prepare).toEqual({ code: 0, stdout: "", stderr: "" });
      expect(existsSync(path.join(actionPath, "node_modules"))).toBe(false);
      expect(existsSync(path.join(actionPath, "dist"))).toBe(false);
      const result = runStep(step("Run caplint"), workspace(), { format: "compact" });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^src-tauri\/capabilities\/typo\.json:4:19: error /);
      expect(result.stderr).toBe("");
    }, 120_000);

    it("a tree without any built CLI stops at the prepare step with an annotation, exit 2", () => {
      rmSync(path.join(actionPath, "prebuilt"), { recursive: true });
      const prepare = runStep(
        step("Prepare caplint"),
        mkdtempSync(path.join(tmpdir(), "caplint-workspace-")),
        {},
      );
      expect(prepare.code).toBe(2);
      expect(prepare.stdout).toMatch(
        /^::error title=caplint::this ref of caplint carries no built CLI/,
      );
    });
  });
});
