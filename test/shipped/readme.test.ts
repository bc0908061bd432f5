import { spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run.js";

/**
 * Every caplint command the README shows runs through the built bin, in bash, from a sandbox that
 * mirrors the repository (the example app and the fixtures the README names), with `caplint` on PATH:
 * - ```sh blocks: each line that runs caplint must run (exit 0 or 1; 2 means the example is broken);
 *   a `cd` line moves the block's shell; `npm` commands are not run (`npm test` is this suite);
 * - ```console blocks: `$ ` lines are commands, the lines under one its expected output; a line that
 *   is only `…` or `...` stands for any lines, and `…` inside a line for any text.
 * Each block starts at the repository root.
 */
interface Block {
  language: "sh" | "console";
  line: number;
  lines: string[];
}

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");

function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(sh|console)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const start = i + 1;
    const body: string[] = [];
    while (++i < lines.length && !lines[i]!.startsWith("```")) body.push(lines[i]!);
    out.push({ language: fence[1] as Block["language"], line: start, lines: body });
  }
  return out;
}

const sandbox = mkdtempSync(path.join(tmpdir(), "caplint-readme-"));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** The repository as the README's commands see it: the example app and the fixtures they name, the bin linked in. */
function prepareSandbox(): { root: string; env: NodeJS.ProcessEnv } {
  const root = path.join(sandbox, "repo");
  mkdirSync(root);
  cpSync(path.join(ROOT, "examples"), path.join(root, "examples"), { recursive: true });
  for (const named of new Set([...README.matchAll(/\bfixtures\/[\w.-]+/g)].map((m) => m[0]))) {
    if (existsSync(path.join(ROOT, named)))
      cpSync(path.join(ROOT, named), path.join(root, named), { recursive: true });
  }
  // bin/caplint.js loads ../dist from its real path, so a link to the checkout's bin runs the build.
  symlinkSync(path.join(ROOT, "bin"), path.join(root, "bin"));
  // Fixture servers the README starts (node fixtures/mcp/...) import their dependencies from here.
  symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
  const shims = path.join(sandbox, "shims");
  mkdirSync(shims);
  writeFileSync(
    path.join(shims, "caplint"),
    `#!/bin/sh\nexec '${process.execPath}' '${path.join(ROOT, "bin", "caplint.js")}' "$@"\n`,
  );
  chmodSync(path.join(shims, "caplint"), 0o755);
  return {
    root,
    env: {
      ...process.env,
      PATH: `${shims}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
      NO_COLOR: "1",
      FORCE_COLOR: undefined,
    },
  };
}

const { root, env } = prepareSandbox();

function bash(command: string, cwd: string) {
  const result = spawnSync("bash", ["-c", command], {
    cwd,
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** `cd DIR` (alone, or as the part of a line before `&&`) moves the block's shell. */
function cdTarget(command: string): string | undefined {
  return /^cd\s+(\S+)\s*$/.exec(command.trim())?.[1];
}

/** A line of a sh block without its comment, and without `npm ...` steps (the suite itself). */
function runnablePart(line: string): string | undefined {
  const command = line.replace(/\s+#.*$/, "").trim();
  if (!command) return undefined;
  const parts = command
    .split("&&")
    .map((p) => p.trim())
    .filter((p) => !/^npm\b/.test(p));
  return parts.length ? parts.join(" && ") : undefined;
}

function outputPattern(expected: string[]): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const body = expected
    .map((line) =>
      /^\s*(…|\.\.\.)\s*$/.test(line) ? "(?:.*\\n)*?" : `${escape(line).replaceAll("…", ".*?")}\\n`,
    )
    .join("");
  return new RegExp(`^${body}$`);
}

describe("README examples, through the built bin", { timeout: 120_000 }, () => {
  const all = blocks(README);
  it("has runnable blocks", () => {
    expect(all.filter((b) => b.language === "sh").length).toBeGreaterThan(1);
    expect(all.filter((b) => b.language === "console").length).toBeGreaterThan(2);
  });

  for (const block of all.filter((b) => b.language === "sh")) {
    it(`README.md:${block.line} (sh): every caplint line runs`, () => {
      let cwd = root;
      let ran = 0;
      for (const line of block.lines) {
        const command = runnablePart(line);
        if (!command) continue;
        const target = cdTarget(command);
        if (target) {
          cwd = path.resolve(cwd, target);
          expect(existsSync(cwd), `${line}: the folder exists`).toBe(true);
          continue;
        }
        if (!/\bcaplint\b|bin\/caplint\.js/.test(command)) continue;
        const result = bash(command, cwd);
        ran++;
        expect([0, 1], `${command}\n(exit ${result.code})\n${result.stderr}`).toContain(
          result.code,
        );
        expect(result.stderr, command).not.toMatch(
          /internal error|usage|unknown (option|command)/i,
        );
      }
      expect(ran, "the block runs caplint").toBeGreaterThan(0);
    });
  }

  for (const block of all.filter((b) => b.language === "console")) {
    it(`README.md:${block.line} (console): each command prints what is shown`, () => {
      let cwd = root;
      const steps: Array<{ command: string; expected: string[] }> = [];
      for (const line of block.lines) {
        if (line.startsWith("$ ")) steps.push({ command: line.slice(2), expected: [] });
        else steps.at(-1)?.expected.push(line);
      }
      expect(steps.length).toBeGreaterThan(0);
      for (const { command, expected } of steps) {
        const target = cdTarget(command);
        if (target) {
          cwd = path.resolve(cwd, target);
          expect(existsSync(cwd), `${command}: the folder exists`).toBe(true);
          continue;
        }
        const result = bash(command.replace(/\s+#.*$/, ""), cwd);
        expect(result.stderr, command).toBe("");
        // Matrix cells are padded; the README does not show trailing blanks.
        const stdout = result.stdout.replace(/[ \t]+$/gm, "");
        expect(
          stdout,
          `${command}\n--- expected (… stands for more) ---\n${expected.join("\n")}`,
        ).toMatch(outputPattern(expected));
      }
    });
  }
});

/**
 * Commands written inline in the prose (`caplint …` in backquotes) run too, from the example app,
 * when they are complete: syntax summaries (placeholders in capitals, `[optional]` parts, `<…>`) and
 * bare command names (no option, path or value) are not commands to run.
 */
const NOT_RUN_INLINE: Record<string, string> = {
  "caplint check --watch": "runs until Ctrl-C (test/integrations/watch.test.ts drives it)",
};

function inlineCommands(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`(caplint [^`]+)`/g)].map((m) => m[1]!);
  const isSummary = (span: string) =>
    /\[|<[^ ]|\b[A-Z]+\b(?![.-])/.test(span.replace(/< \S+$/, ""));
  const isName = (span: string) =>
    span
      .split(/\s+/)
      .slice(1)
      .every((word) => /^[a-z-]+$/.test(word) && !word.startsWith("-"));
  return [...new Set(spans)].filter((span) => !isSummary(span) && !isName(span));
}

describe("README inline commands, through the built bin", { timeout: 120_000 }, () => {
  const commands = inlineCommands(README);
  it("finds the complete ones", () => {
    expect(commands).toContain(
      "caplint check - --stdin-filename src-tauri/capabilities/default.json --format json < buffer.json",
    );
    expect(commands).toContain("caplint permissions store --version 2.0.1");
  });

  const app = path.join(root, "examples", "demo-app");
  // The editor's unsaved buffer of `check -`'s example: the app's own default capability.
  writeFileSync(
    path.join(app, "buffer.json"),
    readFileSync(path.join(app, "src-tauri", "capabilities", "default.json")),
  );
  for (const command of commands.filter((c) => !(c in NOT_RUN_INLINE))) {
    it(`\`${command}\` runs`, () => {
      const result = bash(command, app);
      expect([0, 1], `${command}\n(exit ${result.code})\n${result.stderr}`).toContain(result.code);
      expect(result.stderr, command).toBe("");
    });
  }

  it("standard input named by --stdin-filename gets the findings of the file it stands for", () => {
    const stdin = bash(
      "caplint check - --stdin-filename src-tauri/capabilities/default.json --format json < buffer.json",
      app,
    );
    const file = bash("caplint check src-tauri/capabilities/default.json --format json", app);
    expect(JSON.parse(stdin.stdout).diagnostics.length).toBeGreaterThan(0);
    expect(stdin.stdout).toBe(file.stdout);
  });
});
