import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../src/core/diagnostics.js";
import { docsUrl, toolVersion } from "../../../src/core/tool.js";
import github, { escapeData, escapeProperty } from "../../../src/core/reporters/github.js";
import { terminalSafe } from "../../../src/core/terminal-text.js";
import { NO_PAINT } from "../../../src/core/reporters/types.js";
import { RULES_BY_ID } from "../../../src/registry.js";
import { FIXTURES, ROOT, run } from "../../helpers/run.js";

/** The reporter's text as it is printed: its annotations start with a marker the output layer renders as `::`. */
function report(...diagnostics: Diagnostic[]): string {
  return terminalSafe(
    github(
      { diagnostics, summary: { files: 1, errors: 0, warnings: 0, suggestions: 0, fixable: 0 } },
      {
        cwd: "/repo",
        paint: NO_PAINT,
        rules: RULES_BY_ID,
        toolVersion: toolVersion(),
        docsUrl,
        sourceText: () => undefined,
      },
    ),
  );
}

function diagnostic(overrides: Partial<Diagnostic>): Diagnostic {
  return {
    ruleId: "unknown-permission",
    severity: "error",
    message: "unknown permission",
    file: "src-tauri/capabilities/main.json",
    absolutePath: "/repo/src-tauri/capabilities/main.json",
    path: ["permissions", 0],
    range: { start: { line: 3, column: 5 }, end: { line: 3, column: 20 } },
    offset: 0,
    length: 15,
    ...overrides,
  };
}

/**
 * Decodes a workflow command the way the Actions runner does (ActionCommand.cs: the first `::`
 * after the properties ends them, `,` separates them, the first `=` splits key and value), so a
 * round trip proves that no character of a message or file name can break the command apart.
 */
function parseCommand(line: string): {
  command: string;
  properties: Record<string, string>;
  message: string;
} {
  const match = /^::([a-z]+) ([^]*?)::([^]*)$/.exec(line);
  if (!match) throw new Error(`not a workflow command: ${line}`);
  const unescapeData = (s: string) =>
    s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
  const unescapeProperty = (s: string) =>
    s
      .replace(/%3A/g, ":")
      .replace(/%2C/g, ",")
      .replace(/%0D/g, "\r")
      .replace(/%0A/g, "\n")
      .replace(/%25/g, "%");
  const properties: Record<string, string> = {};
  for (const pair of match[2]!.split(",")) {
    const eq = pair.indexOf("=");
    properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
  }
  return { command: match[1]!, properties, message: unescapeData(match[3]!) };
}

describe("github reporter escaping (as @actions/core)", () => {
  it.each([
    ["%", "%25", "%25"],
    ["\r", "%0D", "%0D"],
    ["\n", "%0A", "%0A"],
    [":", ":", "%3A"],
    [",", ",", "%2C"],
  ])("escapes %j as %s in data and %s in properties", (char, data, property) => {
    expect(escapeData(`a${char}b`)).toBe(`a${data}b`);
    expect(escapeProperty(`a${char}b`)).toBe(`a${property}b`);
  });

  it("escapes % first, so an escape sequence already in the text survives", () => {
    expect(escapeData("50%0A")).toBe("50%250A");
    expect(escapeProperty("%2C")).toBe("%252C");
  });

  it("escapes a message and a file name holding every special character", () => {
    const out = report(
      diagnostic({
        message: 'bad "a:b,c" 100%\r\nsecond line',
        hint: "write: x, y",
        file: "caps/we:ird,name%20\r\n.json",
        absolutePath: "/repo/caps/we:ird,name%20\r\n.json",
      }),
    );
    expect(out).toBe(
      "::error file=caps/we%3Aird%2Cname%2520%0D%0A.json,line=3,endLine=3,col=5,endColumn=20,title=unknown-permission::" +
        'bad "a:b,c" 100%25%0D%0Asecond line%0Ahelp: write: x, y\n',
    );
    expect(parseCommand(out.trimEnd())).toEqual({
      command: "error",
      properties: {
        file: "caps/we:ird,name%20\r\n.json",
        line: "3",
        endLine: "3",
        col: "5",
        endColumn: "20",
        title: "unknown-permission",
      },
      message: 'bad "a:b,c" 100%\r\nsecond line\nhelp: write: x, y',
    });
  });

  it("uses ::warning for warnings and leaves columns out of a range over several lines", () => {
    const out = report(
      diagnostic({
        severity: "warning",
        ruleId: "unknown-field",
        range: { start: { line: 2, column: 3 }, end: { line: 4, column: 2 } },
      }),
    );
    expect(out).toBe(
      "::warning file=src-tauri/capabilities/main.json,line=2,endLine=4,title=unknown-field::unknown permission\n",
    );
  });

  it("never ends a one-line range before it starts (GitHub rejects that)", () => {
    const out = report(
      diagnostic({ range: { start: { line: 1, column: 1 }, end: { line: 1, column: 1 } } }),
    );
    expect(parseCommand(out.trimEnd()).properties).toMatchObject({ col: "1", endColumn: "1" });
  });

  it("names no file for a finding outside the repository or on standard input, and says where in the message", () => {
    const outside = report(
      diagnostic({ file: "/elsewhere/caps/x.json", absolutePath: "/elsewhere/caps/x.json" }),
    );
    expect(outside).toBe(
      "::error title=unknown-permission::/elsewhere/caps/x.json:3:5: unknown permission\n",
    );
    const stdin = report(diagnostic({ file: "<stdin>", absolutePath: "<stdin>" }));
    expect(stdin).toBe("::error title=unknown-permission::<stdin>:3:5: unknown permission\n");
  });

  it("prints nothing when there are no findings", () => {
    expect(report()).toBe("");
  });
});

describe("caplint check --format github", { timeout: 120_000 }, () => {
  it("prints one decodable annotation per finding, with the rule as title", async () => {
    const cwd = path.join(FIXTURES, "sarif", "app");
    const result = await run(["check", "--format", "github"], cwd);
    const json = JSON.parse((await run(["check", "--format", "json"], cwd)).stdout) as {
      diagnostics: Array<{
        file: string;
        ruleId: string;
        severity: string;
        message: string;
        hint?: string;
        line: number;
      }>;
    };
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(json.diagnostics.length);
    lines.forEach((line, i) => {
      const d = json.diagnostics[i]!;
      const parsed = parseCommand(line);
      // A suggestion is a notice: GitHub shows it without marking the check as failing or warning.
      expect(parsed.command).toBe(d.severity === "suggestion" ? "notice" : d.severity);
      // From the repository root (this checkout), not from the folder caplint ran in.
      expect(parsed.properties).toMatchObject({
        file: path.relative(ROOT, path.join(cwd, d.file)),
        line: String(d.line),
        title: d.ruleId,
      });
      expect(parsed.message).toBe(d.hint ? `${d.message}\nhelp: ${d.hint}` : d.message);
    });
    expect(result.stdout).toContain(
      "file=fixtures/sarif/app/src-tauri/capabilities/odd name%2C v1.toml,",
    );
  });
});
