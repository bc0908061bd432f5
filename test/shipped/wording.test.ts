import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

/**
 * Plural and agreement everywhere (issue 33 item 6): counts go through core/wording.ts (`plural`,
 * `agree`), and this test reads what the built bin prints across commands, runs that count one thing
 * included, for a count of one with a plural noun, a plural subject with a singular verb, "(s)", and
 * Markdown marks of permission descriptions.
 */
const BIN = path.join(ROOT, "bin", "caplint.js");
const DEMO = "examples/demo-app";
const QUERIES = "fixtures/queries";

const RUNS: string[][] = [
  ["check", "--app", DEMO],
  ["check", "--app", DEMO, "-f", "compact"],
  ["check", "--app", DEMO, "--fix-dry-run"],
  [
    "check",
    "fixtures/cli/suppressions/cap.json",
    "--rule",
    "unused-suppression=warning",
    "--max-warnings",
    "0",
  ],
  ["events", "fixtures/events/tool-lifecycle/invalid/recording-cut.jsonl", "--summary"],
  ["events", "examples/events/session.jsonl", "--summary"],
  ["events", "fixtures/events/event-json/invalid/blank-lines.jsonl"],
  ["access", "--app", DEMO, "-w", "main"],
  ["access", "--app", DEMO, "-w", "settings"],
  ["who-can", "fs.read_text_file", "--app", DEMO],
  ["matrix", "--app", DEMO],
  ["diff", `${QUERIES}/app`, `${QUERIES}/app-v2`],
  ["diff", `${QUERIES}/app`, `${QUERIES}/app-v2`, "-f", "compact"],
  ["permissions", "--app", DEMO],
  ["least-privilege", "--app", DEMO],
  ["report", "--app", DEMO, "--html", "-"],
  ["mcp", "fixtures/mcp/dumps/bad.json"],
  ["rules", "unknown-permission"],
];

const NOUNS =
  "lines|warnings|errors|problems|files|commands|permissions|capabilities|windows|webviews|entries|calls|tools|pages|suggestions|grants|origins|platforms|rules|servers|events|findings|sessions|scopes|labels|fixes|sets|plugins|targets";
const BAD = [
  // "1 warnings", "1 command grants", "(1 lines)"
  new RegExp(`(?<![\\d.,/])\\b1 (?:[a-z-]+ )?(?:${NOUNS})\\b`),
  // "the app's own permissions has", "warnings exceeds"
  /\b(?:permissions|warnings|errors|files|capabilities|commands) (?:has|exceeds|is)\b/,
  /\b1 [a-z]+s exceed\b/,
  /\(s\)/,
];

function caplint(args: string[]): string {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  expect(result.status, `${args.join(" ")}: ${result.stderr}`).toBeLessThan(2);
  return result.stdout + result.stderr;
}

describe("wording across commands (built bin)", { timeout: 240_000 }, () => {
  it.each(RUNS.map((args) => [args.join(" "), args] as const))(
    "%s: no count disagrees with its noun or verb",
    (_name, args) => {
      const lines = caplint(args).split("\n");
      for (const pattern of BAD) expect(lines.filter((line) => pattern.test(line))).toEqual([]);
    },
  );

  it("the runs say counts of one somewhere (the test reads singular forms, not only plurals)", () => {
    const text = RUNS.map(caplint).join("\n");
    expect(text).toMatch(/\b1 (?:problem|warning|file|command|call|line)\b/);
  });

  it("permission descriptions are terminal text: no Markdown heading, bold or code marks", () => {
    const text = caplint(["permissions", "--app", DEMO]);
    expect(text).toContain("Granted Permissions:");
    expect(text.split("\n").filter((line) => /\*\*|`|^ {2}#+ |\]\(/.test(line))).toEqual([]);
  });
});
