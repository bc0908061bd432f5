/**
 * Text from a tool server or a file never starts a GitHub Actions workflow command in caplint's
 * output (issue 36 item 6), through the built bin: a server's stderr passed on by `mcp --verbose`
 * (whole lines, lines cut across writes, indented ones), and a capability file's name and values in
 * every format and query. Inputs are generated here.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";
import { workflowCommandLines } from "../helpers/workflow-commands.js";

const BIN = path.join(ROOT, "bin", "caplint.js");

function caplint(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("no workflow command from a server's or a file's text", { timeout: 120_000 }, () => {
  it("mcp --verbose: a server's stderr lines, however written, are shown but never start a command", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-commands-"));
    const server = path.join(dir, "server.mjs");
    writeFileSync(
      server,
      [
        `const say = (text) => new Promise((done) => process.stderr.write(text, () => setTimeout(done, 20)));`,
        `await say("::error file=src/main.rs,line=1::forged by the server\\n");`,
        `await say("  ::warning::indented\\n\\u3000::add-mask::hidden\\n");`,
        // A command cut across two writes, and one cut right after a line break.
        `await say(":");`,
        `await say(":notice::cut in two\\nok\\n");`,
        `await say("::stop-commands::x\\nlegacy ##[error]anywhere\\n");`,
        `process.exit(3);`,
      ].join("\n"),
    );
    const result = caplint(["mcp", "--verbose", "--stdio", "--", process.execPath, server], dir);
    expect(result.code).toBe(2);
    expect(workflowCommandLines(result.stderr)).toEqual([]);
    for (const shown of [
      ":\\u003aerror file=src/main.rs,line=1::forged by the server",
      "  :\\u003awarning::indented",
      "\u3000:\\u003aadd-mask::hidden",
      ":\\u003anotice::cut in two",
      ":\\u003astop-commands::x",
      "legacy ##\\u005berror]anywhere",
    ]) {
      expect(result.stderr.split("\n")).toContain(shown);
    }
  });

  it("a capability file's name and values, in every format and query", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-commands-"));
    const tauri = path.join(dir, "src-tauri");
    mkdirSync(path.join(tauri, "capabilities"), { recursive: true });
    mkdirSync(path.join(tauri, "permissions"));
    writeFileSync(
      path.join(tauri, "tauri.conf.json"),
      JSON.stringify({ app: { windows: [{ label: "main" }] } }),
    );
    const name = "::error file=x,line=1::pwned.json";
    const capability = {
      identifier: "::error::capability",
      description: "first\n::error::from a description\n  ::add-mask::x ##[error]y",
      windows: ["main", "::warning::window"],
      permissions: ["core:default", "allow-greet", "::warning::permission"],
    };
    writeFileSync(path.join(tauri, "capabilities", name), JSON.stringify(capability, null, 2));
    writeFileSync(
      path.join(tauri, "permissions", "greet.toml"),
      '[[permission]]\nidentifier = "allow-greet"\ndescription = """\n::error::a permission description\n  ::notice::indented ##[warning]x\n"""\ncommands.allow = ["greet"]\n',
    );
    const runs = [
      ...["stylish", "compact", "github", "json", "sarif"].map((format) => ["check", "-f", format]),
      ["check", "-f", "stylish", path.join("src-tauri", "capabilities", name)],
      ["access", "--window", "main"],
      ["who-can", "greet"],
      ["matrix"],
      ["resolve"],
      ["permissions"],
      [
        "explain",
        'greet not allowed on window "::warning::window", webview "::warning::window", URL: local',
      ],
    ];
    for (const args of runs) {
      const result = caplint(args, dir);
      const label = args.join(" ");
      expect(result.stdout + result.stderr, label).toMatch(/::|\\u003a/);
      if (args[2] === "github") {
        // Only caplint's own annotations: one per finding, each a whole command.
        const lines = result.stdout.trimEnd().split("\n");
        expect(workflowCommandLines(result.stdout), label).toEqual(lines);
        for (const line of lines)
          expect(line, label).toMatch(/^::(error|warning|notice) (file|title)=[^\n]*::/);
        expect(result.stdout).not.toContain("##[");
      } else {
        expect(workflowCommandLines(result.stdout), label).toEqual([]);
      }
      expect(workflowCommandLines(result.stderr), label).toEqual([]);
    }
    // The file's name starts each compact line, neutralised.
    const loose = caplint(["check", "-f", "compact", name], path.join(tauri, "capabilities"));
    expect(loose.stdout).toMatch(/^:\\u003aerror file=x,line=1::pwned\.json:\d+:\d+: /m);
    expect(workflowCommandLines(loose.stdout)).toEqual([]);
  });
});
