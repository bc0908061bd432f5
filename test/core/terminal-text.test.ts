import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { format, lint, loadProject } from "../../src/index.js";
import {
  oneLine,
  outputScans,
  terminalSafe,
  textLines,
  WorkflowCommandGuard,
} from "../../src/core/terminal-text.js";
import { summarize, type Diagnostic } from "../../src/core/diagnostics.js";
import compact from "../../src/core/reporters/compact.js";
import { NO_PAINT } from "../../src/core/reporters/types.js";
import { run } from "../helpers/run.js";
import { workflowCommandLines } from "../helpers/workflow-commands.js";

/**
 * Threat: text from an untrusted repository reaches a reviewer's terminal. Each payload below is
 * one attack class; every text output must show it escaped, JSON and SARIF must keep it exactly.
 */
const PAYLOADS = {
  osc52Clipboard: "\u001b]52;c;Y3VybCBldmlsLnNofHNo\u0007",
  osc0Title: "\u001b]0;owned\u001b\\",
  csiClear: "\u001b[2J\u001b[H",
  bell: "\u0007",
  carriageReturn: "\rok   ",
  c1Csi: "\u009b31m",
  bidiOverride: "\u202eevil\u202c",
  bidiIsolate: "\u2066x\u2069",
  lineSeparator: "a\u2028b",
  del: "\u007f",
} as const;

/** Any character a terminal would act on, or that reorders or breaks what the reader sees. */
const RAW_CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

function expectNoRawControls(text: string): void {
  const match = RAW_CONTROL.exec(text);
  expect(
    match === null
      ? null
      : `U+${match[0].charCodeAt(0).toString(16).padStart(4, "0")} at ${match.index}: ${JSON.stringify(text.slice(Math.max(0, match.index - 40), match.index + 10))}`,
  ).toBeNull();
}

function hostileApp(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-terminal-"));
  const caps = path.join(dir, "src-tauri", "capabilities");
  mkdirSync(caps, { recursive: true });
  const all = Object.values(PAYLOADS).join("");
  writeFileSync(
    path.join(dir, "src-tauri", "tauri.conf.json"),
    JSON.stringify({ app: { windows: [{ label: `main${PAYLOADS.osc0Title}` }] } }),
  );
  writeFileSync(
    path.join(caps, "main.json"),
    JSON.stringify(
      {
        identifier: `main${PAYLOADS.csiClear}`,
        description: all,
        windows: [`main${PAYLOADS.osc0Title}`, `w${PAYLOADS.bidiOverride}`],
        permissions: [
          "core:default",
          `fs:allow-${PAYLOADS.osc52Clipboard}`,
          `x${PAYLOADS.c1Csi}:y${PAYLOADS.carriageReturn}`,
        ],
        [`field${PAYLOADS.bell}${PAYLOADS.del}`]: 1,
      },
      null,
      2,
    ) + "\n",
  );
  // A file name carrying escape sequences, and the code frame of a line full of them.
  writeFileSync(
    path.join(caps, `name${PAYLOADS.osc52Clipboard}${PAYLOADS.bidiIsolate}.json`),
    `{"identifier": "n", "windows": ["main"], "permissions": ["${PAYLOADS.csiClear.replace(/\u001b/g, "\\u001b")}x"], "${PAYLOADS.lineSeparator}": ${JSON.stringify(all)}}`,
  );
  return dir;
}

describe("terminal escapes: escaped in every text output, exact in JSON and SARIF", () => {
  const dir = hostileApp();

  it.each(["stylish", "compact", "github"])("check --format %s", async (format) => {
    const result = await run(["check", "--format", format], dir);
    expect(result.code).toBe(1);
    expect(result.stdout.length).toBeGreaterThan(100);
    expectNoRawControls(result.stdout);
    expect(result.stdout).toContain("\\u001b]52;c;");
    expect(result.stdout).toContain("\\u2066x\\u2069");
  });

  it("colour stays, and every escape sequence in the output is caplint's own", async () => {
    const result = await run(["check"], dir, { NO_COLOR: undefined, FORCE_COLOR: "1" });
    const sequences = result.stdout.match(/\u001b[^a-zA-Z]*[a-zA-Z]?/g) ?? [];
    expect(sequences.length).toBeGreaterThan(5);
    for (const sequence of sequences)
      expect(sequence).toMatch(/^\u001b\[(31|33|36|39|1|2|22|4|24)m$/);
    expectNoRawControls(result.stdout.replace(/\u001b\[\d+m/g, ""));
  });

  it.each([
    ["access", "--window", `main${PAYLOADS.osc0Title}`, "--platform", "linux"],
    ["who-can", "core:app|version", "--platform", "linux"],
    ["matrix", "--platform", "linux"],
    ["permissions", "--app", "."],
    ["resolve", "--platform", "linux"],
    ["check", "--fix-dry-run", "--format", "compact"],
  ])("%s text output", async (...argv) => {
    const result = await run(argv, dir);
    expectNoRawControls(result.stdout);
    expectNoRawControls(result.stderr);
  });

  it("error messages quoting an argument", async () => {
    const result = await run(["check", `missing${PAYLOADS.osc52Clipboard}\n::error::forged`], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "caplint: missing\\u001b]52;c;Y3VybCBldmlsLnNofHNo\\u0007\\u000a::error::forged: no such file or directory\n",
    );
  });

  it("JSON and SARIF keep the exact values", async () => {
    const json = await run(["check", "--format", "json"], dir);
    expectNoRawControls(json.stdout);
    const data = JSON.parse(json.stdout) as {
      diagnostics: Array<{ file: string; message: string }>;
    };
    expect(
      data.diagnostics.some((d) =>
        d.file.endsWith(`name${PAYLOADS.osc52Clipboard}${PAYLOADS.bidiIsolate}.json`),
      ),
    ).toBe(true);
    expect(data.diagnostics.some((d) => d.message.includes(PAYLOADS.osc52Clipboard))).toBe(true);
    const sarif = await run(["check", "--format", "sarif"], dir);
    expectNoRawControls(sarif.stdout);
    expect(JSON.stringify(JSON.parse(sarif.stdout))).toContain(
      JSON.stringify(PAYLOADS.osc52Clipboard).slice(1, -1),
    );
    const access = await run(
      [
        "access",
        "--window",
        `main${PAYLOADS.osc0Title}`,
        "--platform",
        "linux",
        "--format",
        "json",
      ],
      dir,
    );
    expect(JSON.parse(access.stdout).window).toBe(`main${PAYLOADS.osc0Title}`);
  });

  it("the library's format() goes through the same layer", async () => {
    const project = await loadProject({ cwd: dir });
    const result = await lint(project);
    for (const name of ["stylish", "compact", "github", "json", "sarif"] as const) {
      expectNoRawControls(
        (await format(result, name, { cwd: dir, color: true })).replace(/\u001b\[\d+m/g, ""),
      );
    }
    expect(await format(result, "stylish", { cwd: dir, color: true })).toMatch(/\u001b\[31m/);
  });
});

describe("forged lines: a newline in a file name or value never starts a line", () => {
  it.each(["compact", "stylish", "github"])("%s", async (format) => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-forged-"));
    mkdirSync(path.join(dir, "caps"));
    writeFileSync(path.join(dir, "caps", "a\n::error file=x.json,line=1::forged\n.json"), "{");
    writeFileSync(path.join(dir, "caps", "b\r::warning::cr.json"), "{");
    writeFileSync(
      path.join(dir, "caps", "c.json"),
      JSON.stringify({
        identifier: "c",
        windows: ["w\n::error::label"],
        permissions: ["p\n::error::permission"],
      }),
    );
    const result = await run(["check", "--format", format, "caps"], dir);
    const forged = result.stdout
      .split("\n")
      .filter(
        (line) =>
          /^\s*::(error|warning)\b/.test(line) &&
          !line.startsWith(`::error file=caps/`) &&
          !line.startsWith(`::warning file=caps/`),
      );
    expect(forged).toEqual([]);
    expectNoRawControls(result.stdout);
    expect(result.stdout).toMatch(
      format === "github" ? /caps\/a%0A%3A%3Aerror/ : /caps\/a\\u000a::error/,
    );
  });
});

describe("the escaping functions", () => {
  it("escape each class, keep text, tabs and real characters, and are idempotent", () => {
    for (const payload of Object.values(PAYLOADS)) {
      expectNoRawControls(oneLine(payload));
      expectNoRawControls(terminalSafe(payload));
      expect(oneLine(oneLine(payload))).toBe(oneLine(payload));
    }
    expect(oneLine("tab\there, é, \ufffd, 😀, 中文")).toBe("tab\there, é, \ufffd, 😀, 中文");
    expect(oneLine("a\nb\r\n")).toBe("a\\u000ab\\u000d\\u000a");
    expect(terminalSafe("a\nb\u001b[2J")).toBe("a\nb\\u001b[2J");
    expect(oneLine("lone \ud800 and \udc00, pair \ud83d\ude00")).toBe(
      "lone \\ud800 and \\udc00, pair \ud83d\ude00",
    );
    expect(textLines(["one", "two\nthree"])).toBe("one\ntwo\\u000athree\n");
  });

  it("escaping JSON text keeps every value", () => {
    const value = { text: Object.values(PAYLOADS).join("|") + "\ud800" };
    const escaped = terminalSafe(JSON.stringify(value, null, 2));
    expectNoRawControls(escaped);
    expect(JSON.parse(escaped)).toEqual(value);
  });

  it("a repository cannot forge caplint's colour markers", () => {
    const forged = "\ue0000000000000:0\ue001red?";
    expect(terminalSafe(forged)).toBe(forged);
  });
});

describe("the compact report escapes each value of a line", () => {
  /** Hostile payloads, and lone surrogates at each edge of a value beside whole pairs and plain text. */
  const EDGE_VALUES = [
    ...Object.values(PAYLOADS),
    "\ud800",
    "\udc00",
    "end \ud83d",
    "\ude00 start",
    "plain",
    "plain \ud83d\ude00",
  ];

  it("as escaping the assembled line would: payloads and lone surrogates at every edge of a value", () => {
    const diagnostics = EDGE_VALUES.flatMap((value, i) => [
      diagnosticWith(value, `message ${i}`),
      diagnosticWith(`dir/${i}.json`, value),
      { ...diagnosticWith("", value), liveServer: value },
    ]);
    const lines = diagnostics.map((d) =>
      d.liveServer === undefined
        ? `${d.file}:${d.range.start.line}:${d.range.start.column}: ${d.severity} ${d.message} [${d.ruleId}]`
        : `${d.liveServer}: ${d.severity} ${d.message} [${d.ruleId}]`,
    );
    const report = compact({ diagnostics, summary: summarize(diagnostics, 1) }, REPORT_CONTEXT);
    expect(report).toBe(textLines(lines));
    expect(report.endsWith("]\n")).toBe(true);
    expect(compact({ diagnostics: [], summary: summarize([], 0) }, REPORT_CONTEXT)).toBe("");
  });

  it("is written without a second search for controls, as the search would have written it", () => {
    const diagnostics = EDGE_VALUES.flatMap((value, i) => [
      diagnosticWith(value, `message ${i}`),
      diagnosticWith("a.json", value),
    ]);
    const report = compact({ diagnostics, summary: summarize(diagnostics, 1) }, REPORT_CONTEXT);
    const before = outputScans.count;
    const written = terminalSafe(report);
    expect(outputScans.count).toBe(before);
    // Written once, forgotten: the same text again is searched, and the search changes nothing.
    expect(terminalSafe(report)).toBe(written);
    expect(outputScans.count).toBe(before + 1);
    expect(written).toBe(report);
    expectNoRawControls(written);
    // Any other text is searched and escaped as before.
    expect(terminalSafe(`x${report}`)).toBe(`x${report}`);
    expect(terminalSafe("a\u001bb")).toBe("a\\u001bb");
    expect(outputScans.count).toBe(before + 3);
  });

  const REPORT_CONTEXT = {
    cwd: "/x",
    paint: NO_PAINT,
    rules: new Map(),
    toolVersion: "0",
    sourceText: () => undefined,
    docsUrl: () => "",
  };

  function diagnosticWith(file: string, message: string): Diagnostic {
    const start = { line: 3, column: 7 };
    return {
      ruleId: "unknown-permission",
      messageId: "unknown",
      severity: "warning",
      message,
      file,
      absolutePath: `/x/${file}`,
      path: [],
      range: { start, end: start },
      offset: 0,
      length: 0,
    };
  }
});

describe("workflow commands: no text from a file or a server starts one", () => {
  const HOSTILE = [
    "::error file=a.json,line=1::forged",
    "  ::warning::indented",
    "\t\u00a0\u3000\u2003::add-mask::secret",
    "::stop-commands::token",
    "x ##[error]legacy anywhere in a line",
    "##[set-output name=x]y",
    ":: two colons and a space",
    "plain: text:: stays",
  ].join("\n");

  it("neutralises each form, keeps everything else, and is idempotent", () => {
    const safe = terminalSafe(HOSTILE + "\n");
    expect(workflowCommandLines(safe)).toEqual([]);
    expect(safe).toBe(
      [
        ":\\u003aerror file=a.json,line=1::forged",
        "  :\\u003awarning::indented",
        "\t\u00a0\u3000\u2003:\\u003aadd-mask::secret",
        ":\\u003astop-commands::token",
        "x ##\\u005berror]legacy anywhere in a line",
        "##\\u005bset-output name=x]y",
        ":\\u003a two colons and a space",
        "plain: text:: stays",
        "",
      ].join("\n"),
    );
    expect(terminalSafe(safe)).toBe(safe);
  });

  it("a stream cut anywhere is guarded as the whole text is", () => {
    // Every cut of the text into two and three pieces (a line start, one colon, a # may end a piece).
    const whole = terminalSafe(HOSTILE);
    for (let first = 0; first <= HOSTILE.length; first++) {
      for (const second of [first, first + 1, first + 2, first + 7]) {
        const guard = new WorkflowCommandGuard();
        const pieces = [
          HOSTILE.slice(0, first),
          HOSTILE.slice(first, second),
          HOSTILE.slice(Math.max(first, second)),
        ];
        expect(
          pieces.map((piece) => terminalSafe(piece, guard)).join(""),
          `cut at ${first}, ${second}`,
        ).toBe(whole);
      }
    }
  });

  it("caplint's own annotations are the only commands, in colour too", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-commands-"));
    writeFileSync(
      path.join(dir, "::error::x.json"),
      JSON.stringify({
        identifier: "::error::cap",
        windows: ["main"],
        permissions: ["::warning::p"],
      }),
    );
    const github = await run(["check", "-f", "github", "::error::x.json"], dir);
    const lines = github.stdout.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    expect(workflowCommandLines(github.stdout)).toEqual(lines);
    for (const line of lines) expect(line).toMatch(/^::(error|warning|notice) (file|title)=/);
    for (const format of ["stylish", "compact"]) {
      for (const color of [[], ["--color"]]) {
        const result = await run(["check", "-f", format, ...color, "::error::x.json"], dir);
        expect(result.stdout).toContain("error::x.json");
        expect(workflowCommandLines(result.stdout.replace(/\u001b\[\d+m/g, ""))).toEqual([]);
      }
    }
  });
});
