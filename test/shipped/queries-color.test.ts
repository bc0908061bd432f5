/**
 * Colour in the query commands' text answers, through the built bin: `--color` paints the verdicts
 * (ALLOWED green, NOT ALLOWED / DENIED / NEW ACCESS red), `--no-color`, NO_COLOR and a pipe print none,
 * FORCE_COLOR forces it, and JSON or CSV answers are never coloured. A terminal (isTTY) is tested
 * through main(), which gets the stream the bin would pass.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { spawnNode } from "../helpers/hosts.js";
import { ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");
const DEMO = path.join(ROOT, "examples/demo-app");
const QUERIES = path.join(ROOT, "fixtures/queries");

const GREEN = (text: string) => `\u001b[32m${text}\u001b[39m`;
const RED = (text: string) => `\u001b[31m${text}\u001b[39m`;
const BOLD = (text: string) => `\u001b[1m${text}\u001b[22m`;
const ESCAPE = "\u001b";
/** What a terminal shows once the SGR sequences are gone. */
const visible = (text: string) => text.replace(/\u001b\[\d+m/g, "");

/** No colour unless a case asks: a pipe, NO_COLOR unset ("" counts as unset), FORCE_COLOR unset (spawnNode drops it). */
const PLAIN_ENV = { NO_COLOR: "" };

const caplint = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnNode([BIN, ...args], cwd, undefined, { ...PLAIN_ENV, ...env });

interface Case {
  name: string;
  args: string[];
  cwd: string;
  code: number;
  /** Painted text the coloured answer must hold. */
  painted: string[];
}

const CASES: Case[] = [
  {
    name: "access --command (allowed)",
    args: ["access", "--window", "main", "-C", "greet", "--platform", "linux"],
    cwd: DEMO,
    code: 0,
    painted: [`${BOLD(GREEN("ALLOWED"))}: greet`],
  },
  {
    name: "access --command (denied)",
    args: ["access", "--window", "main", "-C", "window.close", "--platform", "linux"],
    cwd: path.join(QUERIES, "app"),
    code: 1,
    painted: [`${BOLD(RED("NOT ALLOWED"))}: plugin:window|close`],
  },
  {
    name: "access (the list)",
    args: ["access", "--window", "main", "--platform", "linux"],
    cwd: path.join(QUERIES, "app"),
    code: 0,
    painted: [`${GREEN("allowed")}: `, `${RED("denied everywhere")} (`, RED("✖")],
  },
  {
    name: "explain",
    args: [
      "explain",
      'fs.read_text_file not allowed on window "settings", webview "settings", URL: local',
      "--platform",
      "linux",
    ],
    cwd: DEMO,
    code: 0,
    painted: [`${BOLD(RED("NOT ALLOWED"))}: plugin:fs|read_text_file`],
  },
  {
    name: "who-can",
    args: ["who-can", "window.close", "--platform", "linux"],
    cwd: path.join(QUERIES, "app"),
    code: 0,
    painted: [`${RED("DENIED everywhere")} by capability`],
  },
  {
    name: "matrix",
    args: ["matrix", "--platform", "linux"],
    cwd: DEMO,
    code: 0,
    painted: [`${GREEN("✔")} callable, ${RED("✖")} granted but denied`],
  },
  {
    name: "diff",
    args: ["diff", "app", "app-v2", "--platform", "linux"],
    cwd: QUERIES,
    code: 1,
    painted: [`${BOLD(RED("NEW ACCESS"))} on linux`],
  },
  {
    name: "permissions",
    args: ["permissions", "opener"],
    cwd: DEMO,
    code: 0,
    painted: [BOLD("opener:default")],
  },
];

describe("query commands colour their text answers like check (built bin)", () => {
  for (const c of CASES) {
    it(`${c.name}: --color paints the verdict, and only adds colour`, async () => {
      const [coloured, plain] = await Promise.all([
        caplint([...c.args, "--color"], c.cwd),
        caplint(c.args, c.cwd),
      ]);
      expect(coloured.stderr).toBe("");
      expect(coloured.code).toBe(c.code);
      for (const text of c.painted) expect(coloured.stdout).toContain(text);
      // A pipe (no terminal) gets no colour; the words are the same either way.
      expect(plain.code).toBe(c.code);
      expect(plain.stdout).not.toContain(ESCAPE);
      expect(visible(coloured.stdout)).toBe(plain.stdout);
    });
  }

  it("--no-color and NO_COLOR win over FORCE_COLOR; FORCE_COLOR colours a pipe; FORCE_COLOR=0 does not", async () => {
    const [args, cwd] = [CASES[0]!.args, CASES[0]!.cwd];
    const verdict = `${BOLD(GREEN("ALLOWED"))}: greet`;
    const forced = await caplint(args, cwd, { FORCE_COLOR: "1" });
    expect(forced.stdout).toContain(verdict);
    expect(
      (await caplint([...args, "--no-color"], cwd, { FORCE_COLOR: "1" })).stdout,
    ).not.toContain(ESCAPE);
    expect((await caplint(args, cwd, { FORCE_COLOR: "1", NO_COLOR: "1" })).stdout).not.toContain(
      ESCAPE,
    );
    expect((await caplint(args, cwd, { FORCE_COLOR: "0" })).stdout).not.toContain(ESCAPE);
    // The explicit option wins over the environment both ways.
    expect((await caplint([...args, "--color"], cwd, { NO_COLOR: "1" })).stdout).toContain(verdict);
  });

  it("never colours JSON or CSV answers, even with --color or FORCE_COLOR", async () => {
    const runs = await Promise.all([
      caplint(
        [
          "access",
          "--window",
          "main",
          "-C",
          "greet",
          "--platform",
          "linux",
          "--format",
          "json",
          "--color",
        ],
        DEMO,
      ),
      caplint(["who-can", "greet", "--format", "json"], DEMO, { FORCE_COLOR: "1" }),
      caplint(["matrix", "--format", "csv", "--color"], DEMO),
      caplint(["matrix", "--format", "json", "--color"], DEMO),
      caplint(["diff", "app", "app-v2", "--format", "json", "--color"], QUERIES),
    ]);
    for (const run of runs) {
      expect(run.stderr).toBe("");
      expect(run.stdout).not.toContain(ESCAPE);
    }
    expect(JSON.parse(runs[0].stdout).explanation.verdict).toBe("allowed");
  });

  it("resolve (JSON only) has no --color option", async () => {
    const run = await caplint(["resolve", "--color"], DEMO);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "caplint: --color: resolve has no such option; its options: caplint resolve --help\n",
    );
  });

  it("report: the line about the written page colours its counts; the page itself has no terminal colour", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-report-color-"));
    const file = path.join(dir, "report.html");
    const run = await caplint(["report", "--html", file, "--color"], DEMO);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      new RegExp(`^wrote .*; ${RED("\\d+ errors?").replace(/\[/g, "\\[")}, `),
    );
    expect(readFileSync(file, "utf8")).not.toContain(ESCAPE);
    expect((await caplint(["report", "--html", file], DEMO)).stdout).not.toContain(ESCAPE);
  });
});

describe("a terminal gets colour by default (main() with a TTY stdout)", () => {
  const runOn = async (env: Record<string, string>, extra: string[] = []) => {
    let stdout = "";
    const code = await main({
      argv: [...CASES[0]!.args, ...extra],
      cwd: DEMO,
      env,
      stdout: { write: (s: string) => (stdout += s), isTTY: true },
      stderr: { write: () => true },
    });
    return { code, stdout };
  };

  it("colours on a terminal, not with NO_COLOR or --no-color", async () => {
    expect((await runOn({})).stdout).toContain(`${BOLD(GREEN("ALLOWED"))}: greet`);
    expect((await runOn({ NO_COLOR: "1" })).stdout).not.toContain(ESCAPE);
    expect((await runOn({}, ["--no-color"])).stdout).not.toContain(ESCAPE);
  });
});
