import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../helpers/run.js";

/**
 * The third level: findings that are true but change nothing at run time (a redundant or repeated
 * entry) are suggestions. They never fail a run, `--max-warnings` does not count them, every format
 * says so, and `--rule` or the config promotes them.
 */
function app(config?: object): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-suggestions-"));
  writeFileSync(
    path.join(dir, "main.json"),
    JSON.stringify(
      {
        identifier: "main",
        windows: ["main"],
        permissions: [
          "core:default",
          "core:window:allow-title",
          "dialog:default",
          "dialog:default",
        ],
      },
      null,
      2,
    ),
  );
  if (config) writeFileSync(path.join(dir, "caplint.config.json"), JSON.stringify(config));
  return dir;
}

interface JsonOutput {
  diagnostics: Array<{ ruleId: string; severity: string }>;
  summary: { errors: number; warnings: number; suggestions: number };
}

describe("suggestions", () => {
  it("are reported at their own level and counted apart in JSON", async () => {
    const result = await run(["check", "main.json", "--format", "json"], app());
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as JsonOutput;
    expect(output.diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([
      ["redundant-permission", "suggestion"],
      ["duplicate-permission", "suggestion"],
    ]);
    expect(output.summary).toMatchObject({ errors: 0, warnings: 0, suggestions: 2 });
  });

  it("are not counted by --max-warnings; promoted to warnings, they are", async () => {
    expect((await run(["check", "main.json", "--max-warnings", "0"], app())).code).toBe(0);
    const promoted = await run(
      ["check", "main.json", "--max-warnings", "0", "--rule", "redundant-permission=warning"],
      app(),
    );
    expect(promoted.code).toBe(1);
    expect(promoted.stderr).toBe("caplint: 1 warning exceeds --max-warnings 0\n");
  });

  it("are promoted by the config, and any rule can be lowered to one", async () => {
    const configured = await run(
      ["check", "main.json", "--format", "compact"],
      app({ rules: { "duplicate-permission": "error" } }),
    );
    expect(configured.code).toBe(1);
    expect(configured.stdout).toMatch(
      /: error permission "dialog:default" is already listed at entry 2 \[duplicate-permission\]/,
    );
    const dir = app();
    writeFileSync(
      path.join(dir, "typo.json"),
      JSON.stringify({
        identifier: "typo",
        windows: ["main"],
        permissions: ["core:window:allow-set-titel"],
      }),
    );
    const lowered = await run(
      ["check", "typo.json", "--format", "compact", "--rule", "unknown-permission=suggestion"],
      dir,
    );
    expect(lowered.code).toBe(0);
    expect(lowered.stdout).toMatch(
      /^typo\.json:1:\d+: suggestion unknown permission "core:window:allow-set-titel"/,
    );
  });

  it("are a SARIF note, a GitHub notice and a compact 'suggestion'", async () => {
    const dir = app();
    const sarif = JSON.parse(
      (await run(["check", "main.json", "--format", "sarif"], dir)).stdout,
    ) as {
      runs: Array<{
        results: Array<{ level: string }>;
        tool: {
          driver: {
            rules: Array<{
              id: string;
              defaultConfiguration: { level: string };
              properties: Record<string, string>;
            }>;
          };
        };
      }>;
    };
    expect(sarif.runs[0]!.results.map((r) => r.level)).toEqual(["note", "note"]);
    const rule = sarif.runs[0]!.tool.driver.rules.find((r) => r.id === "redundant-permission")!;
    expect(rule.defaultConfiguration.level).toBe("note");
    expect(rule.properties["problem.severity"]).toBe("recommendation");
    const github = await run(["check", "main.json", "--format", "github"], dir);
    expect(
      github.stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => line.slice(0, line.indexOf(" "))),
    ).toEqual(["::notice", "::notice"]);
    expect((await run(["check", "main.json", "--format", "compact"], dir)).stdout).toMatch(
      /^main\.json:8:5: suggestion "core:window:allow-title" is already granted/,
    );
  });

  it("say which rules sit at this level in `caplint rules`", async () => {
    const listed = await run(["rules"], app());
    expect(listed.stdout).toMatch(/^redundant-permission +suggestion +fix +capabilities +/m);
    expect(listed.stdout).toMatch(/^unknown-permission +error {12}capabilities +/m);
  });
});
