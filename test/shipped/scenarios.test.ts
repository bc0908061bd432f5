import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkoutBin, inProcess, type Host, type HostResult } from "../helpers/hosts.js";
import { ROOT } from "../helpers/run.js";
import { SCENARIOS, type Expectation, type Scenario } from "./scenarios.js";

/** A spawned bin starts Node and the bundle; on a busy two-core machine that takes a while. */
const TIMEOUT = 60_000;
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function expectText(actual: string, expected: Expectation | undefined, stream: string): void {
  if (expected === undefined) return;
  if (typeof expected === "string") expect(actual, stream).toBe(expected);
  else if (expected instanceof RegExp) expect(actual, stream).toMatch(expected);
  else expected(actual);
}

async function runScenario(host: Host, scenario: Scenario): Promise<HostResult & { tmp: string }> {
  const tmp = mkdtempSync(path.join(tmpdir(), "caplint-scenario-"));
  scratch.push(tmp);
  const argv = scenario.args.map((arg) => arg.replaceAll("{tmp}", tmp));
  const result = await host.run({
    argv,
    cwd: path.join(ROOT, scenario.cwd ?? "."),
    ...(scenario.stdin === undefined ? {} : { stdin: scenario.stdin }),
  });
  return { ...result, tmp };
}

function check(scenario: Scenario, result: HostResult & { tmp: string }): void {
  expect(result.code, `exit code; stderr: ${result.stderr}`).toBe(scenario.code);
  expectText(result.stdout, scenario.stdout, "stdout");
  expectText(result.stderr, scenario.stderr ?? "", "stderr");
  expect(result.stderr, "no stack trace").not.toMatch(/\n\s+at /);
  for (const [file, assert] of Object.entries(scenario.files ?? {})) {
    const full = path.join(result.tmp, file);
    expect(existsSync(full), `${file} written`).toBe(true);
    assert(readFileSync(full, "utf8"));
  }
}

describe("every command, in-process main()", () => {
  for (const scenario of SCENARIOS) {
    it(scenario.name, async () => check(scenario, await runScenario(inProcess, scenario)));
  }
});

describe("every command, through the built bin (node bin/caplint.js)", { timeout: TIMEOUT }, () => {
  it("the bundle is built", () => {
    expect(existsSync(path.join(ROOT, "dist/cli-bundle/main.cjs")), "run npm run build first").toBe(
      true,
    );
  });
  for (const scenario of SCENARIOS) {
    it.concurrent(scenario.name, async () => {
      const [bin, reference] = await Promise.all([
        runScenario(checkoutBin, scenario),
        runScenario(inProcess, scenario),
      ]);
      check(scenario, bin);
      // Both hosts print the same bytes, but for the temporary folder each run gets.
      expect(bin.stdout.replaceAll(bin.tmp, "{tmp}"), "stdout equals main()'s").toBe(
        reference.stdout.replaceAll(reference.tmp, "{tmp}"),
      );
      expect(bin.stderr.replaceAll(bin.tmp, "{tmp}"), "stderr equals main()'s").toBe(
        reference.stderr.replaceAll(reference.tmp, "{tmp}"),
      );
    });
  }
});

describe("the scenario table", () => {
  it("has a row for every command caplint --help lists", async () => {
    const help = await inProcess.run({ argv: ["--help"], cwd: ROOT });
    const commands = [...help.stdout.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)]
      .map((m) => m[1]!)
      .filter((c) => c !== "help");
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands)
      expect(
        SCENARIOS.some((s) => s.args[0] === command),
        `a scenario for ${command}`,
      ).toBe(true);
  });
});
