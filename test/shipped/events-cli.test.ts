/** `caplint events` and `caplint schema --events` through the built bin, standard input piped. */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines } from "../../src/events/read-lines.js";
import { ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");
const EVENTS = "fixtures/events";

function caplint(args: string[], options: { input?: string | Buffer; cwd?: string } = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    input: options.input ?? "",
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("caplint events", () => {
  it("passes a valid recording (exit 0)", () => {
    const { code, stdout } = caplint([
      "events",
      `${EVENTS}/agent-frame/valid/sub-agents.jsonl`,
      `${EVENTS}/approval-lifecycle/valid/approval-rejected.jsonl`,
    ]);
    expect(stdout).toBe("2 files checked, no problems\n");
    expect(code).toBe(0);
  });

  it("reports findings with line, column, hint and the related line (exit 1)", () => {
    const { code, stdout } = caplint([
      "events",
      `${EVENTS}/tool-lifecycle/invalid/terminals.jsonl`,
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      "5:36  error  tool_done for tool call 6, which already ended with tool_error  tool-lifecycle",
    );
    expect(stdout).toContain("see line 4");
    expect(stdout).toContain("help: exactly one of tool_done");
    expect(stdout).toContain("✖ 3 problems (3 errors, 0 warnings) in 1 file");
  });

  it("reads standard input with - or no file", () => {
    const input = readFileSync(path.join(ROOT, EVENTS, "turn-order/invalid/after-done.jsonl"));
    for (const args of [["events", "-"], ["events"]]) {
      const { code, stdout } = caplint([...args, "--format", "compact"], { input });
      expect(code).toBe(1);
      expect(stdout.split("\n")[0]).toBe(
        "<stdin>:3:9: error token_delta after the turn's done, before any new user_message [turn-order]",
      );
    }
    expect(caplint(["events", "-", "-"]).code).toBe(2);
  });

  it("reports a live stream's findings as its lines arrive (compact)", async () => {
    const child = spawn(process.execPath, [BIN, "events", "--format", "compact", "-"], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stdout = "";
    const firstOutput = new Promise<string>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => resolve((stdout += chunk.toString()))),
    );
    child.stdin.write(
      '{"type":"user_message","message_id":1,"content":"go"}\n{"type":"tool_done","tool_call_id":5,"result":"ok"}\n',
    );
    // The input is still open: the finding must arrive before the recording ends.
    expect(await firstOutput).toBe(
      "<stdin>:2:36: error tool_done for tool call 5, which never started [tool-lifecycle]\n",
    );
    child.stdin.end(
      '{"type":"tool_start","tool_call_id":6,"message_id":2,"name":"n","arguments":{},"display_name":"d","icon":"i","label_short":"a","label_full":"b"}\n',
    );
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(stdout).toBe(
      "<stdin>:2:36: error tool_done for tool call 5, which never started [tool-lifecycle]\n" +
        '<stdin>:3:1: warning tool call 6 ("n") is still running when the recording ends [tool-lifecycle]\n',
    );
    expect(code).toBe(1);
  });

  it("keeps check's JSON contract, with relatedLine and the field's JSON path through the envelope", () => {
    const { code, stdout } = caplint([
      "events",
      "--format",
      "json",
      `${EVENTS}/turn-order/invalid/per-session.jsonl`,
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.diagnostics).toEqual([
      {
        file: `${EVENTS}/turn-order/invalid/per-session.jsonl`,
        ruleId: "turn-order",
        messageId: "outputAfterDone",
        severity: "error",
        message: "token_delta after the turn's done, before any new user_message",
        line: 3,
        column: 48,
        endLine: 3,
        endColumn: 61,
        path: ["event", "type"],
        hint: "a turn's output ends with done; the next turn starts with user_message",
        relatedLine: 1,
        fixable: false,
      },
    ]);
    expect(report.summary).toEqual({
      files: 1,
      errors: 1,
      warnings: 0,
      suggestions: 0,
      fixable: 0,
      config: null,
    });
  });

  it("writes SARIF with related locations and GitHub annotations", () => {
    const sarif = JSON.parse(
      caplint(["events", "--format", "sarif", `${EVENTS}/tool-lifecycle/invalid/terminals.jsonl`])
        .stdout,
    );
    const results = sarif.runs[0].results;
    expect(results).toHaveLength(3);
    expect(
      results.map((r: { properties: { messageId: string } }) => r.properties.messageId),
    ).toEqual(["endWithoutStart", "secondEnd", "secondStart"]);
    expect(results[1].relatedLocations[0].physicalLocation.region).toEqual({ startLine: 4 });
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toContain(
      "approval-lifecycle",
    );
    const github = caplint([
      "events",
      "--format",
      "github",
      `${EVENTS}/unknown-result-type/invalid/result-types.jsonl`,
    ]).stdout;
    expect(github.split("\n")[0]).toMatch(
      /^::warning file=fixtures\/events\/unknown-result-type\/invalid\/result-types.jsonl,line=3,endLine=3,col=73,endColumn=\d+,title=unknown-result-type::/,
    );
  });

  it("--quiet, --max-warnings, --rule and --output", () => {
    const file = `${EVENTS}/tool-lifecycle/invalid/recording-cut.jsonl`;
    expect(caplint(["events", file]).code).toBe(0);
    expect(caplint(["events", "--max-warnings", "0", file]).code).toBe(1);
    expect(caplint(["events", "--quiet", "--format", "compact", file]).stdout).toBe("");
    expect(
      caplint(["events", "--rule", "tool-lifecycle=error", "--format", "compact", file]).stdout,
    ).toContain("warning tool call 12");
    expect(
      caplint([
        "events",
        "--rule",
        "tool-lifecycle=off",
        "--format",
        "compact",
        `${EVENTS}/tool-lifecycle/invalid/terminals.jsonl`,
      ]),
    ).toMatchObject({
      code: 0,
      stdout: "",
    });
    const bad = caplint(["events", "--rule", "tool-lifecyle=off", file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('did you mean "tool-lifecycle"?');
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-events-"));
    const out = caplint(
      [
        "events",
        "--format",
        "json",
        "--output",
        path.join(dir, "report.json"),
        path.join(ROOT, file),
      ],
      { cwd: dir },
    );
    expect(out.stdout).toBe("");
    expect(JSON.parse(readFileSync(path.join(dir, "report.json"), "utf8")).summary.warnings).toBe(
      1,
    );
  });

  it("reads rule settings from caplint.config.json, next to capability rules", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-events-"));
    writeFileSync(
      path.join(dir, "caplint.config.json"),
      JSON.stringify({ rules: { "event-unknown-field": "error", "unknown-field": "off" } }),
    );
    writeFileSync(path.join(dir, "r.jsonl"), '{"type":"file_changed","path":"a","pathh":"b"}\n');
    const { code, stdout } = caplint(["events", "--format", "compact", "r.jsonl"], { cwd: dir });
    expect(stdout).toBe(
      'r.jsonl:1:35: error unknown field "pathh" in file_changed [event-unknown-field]\n',
    );
    expect(code).toBe(1);
    writeFileSync(
      path.join(dir, "caplint.config.json"),
      JSON.stringify({ rules: { "event-unknwn-field": "error" } }),
    );
    expect(caplint(["events", "r.jsonl"], { cwd: dir }).code).toBe(2);
  });

  it("--client checks client-to-server traffic", () => {
    expect(
      caplint(["events", "--client", `${EVENTS}/event-field/valid/client-traffic.jsonl`]).code,
    ).toBe(0);
    const server = caplint([
      "events",
      "--format",
      "compact",
      `${EVENTS}/event-field/valid/client-traffic.jsonl`,
    ]);
    expect(server.code).toBe(1);
    expect(server.stdout).toContain('event has no "type"');
  });

  it("--summary prints counts, tool calls by outcome and the longest-open call", () => {
    const text = caplint([
      "events",
      "--summary",
      `${EVENTS}/tool-lifecycle/valid/pending-write.jsonl`,
    ]).stdout;
    expect(text).toContain(
      "fixtures/events/tool-lifecycle/valid/pending-write.jsonl: 14 events on 14 lines",
    );
    expect(text).toMatch(/tool_start +3/);
    expect(text).toContain(
      "tool calls: 3 (3 done, 0 error, 0 cancelled, 0 rejected, 0 open at turn end, 0 still open)",
    );
    expect(text).toContain(
      'longest-open call: 1202 ("write_file"), lines 2-6 (4 lines), tool_done',
    );
    const json = JSON.parse(
      caplint([
        "events",
        "--summary",
        "--format",
        "json",
        `${EVENTS}/tool-lifecycle/valid/pending-write.jsonl`,
      ]).stdout,
    );
    expect(json.events[0]).toMatchObject({
      events: 14,
      types: { tool_start: 3 },
      toolCalls: { byTerminal: { tool_done: 3 } },
    });
  });

  it("fails with exit 2 and one line on missing files and folders", () => {
    const missing = caplint(["events", "nope.jsonl"]);
    expect(missing).toMatchObject({
      code: 2,
      stderr: 'caplint: "nope.jsonl": no such file or directory\n',
    });
    expect(caplint(["events", "fixtures"]).code).toBe(2);
  });

  it("survives binary input and never prints control characters from it", () => {
    const garbage = Buffer.concat([
      Buffer.from('{"type":"\\u001b[31mred\u009b"}\n'),
      Buffer.from([0, 1, 2, 0xff, 0xfe, 10]),
      Buffer.from('{"type":"done"\n'),
    ]);
    const { code, stdout, stderr } = caplint(["events", "--format", "compact"], { input: garbage });
    expect(code).toBe(1);
    expect(stderr).toBe("");
    expect(stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(stdout).toContain('unknown event type "\\u001b[31mred\\u009b"');
  });
});

describe("caplint schema --events", () => {
  it("prints the draft-07 schema of every event, the envelope and the client messages", () => {
    const { code, stdout } = caplint(["schema", "--events"]);
    expect(code).toBe(0);
    const schema = JSON.parse(stdout);
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(Object.keys(schema.definitions)).toEqual(
      expect.arrayContaining([
        "tool_start",
        "security_group_selected",
        "GlobalEvent",
        "ClientMessage",
        "InboundDataMessage",
        "ServerLine",
        "ClientLine",
      ]),
    );
  });
});

describe("code frames of long lines (issue 22)", () => {
  it("show a window around the field, cut with …, and the marker under the field", () => {
    const padding = "p".repeat(5000);
    const line = `{"type":"tool_done","tool_call_id":5,"result":"${padding}","result_type":"xml"}`;
    const { stdout } = caplint(["events", "-"], { input: `${line}\n` });
    const lines = stdout.split("\n");
    const frame = lines[lines.findIndex((l) => l.endsWith("unknown-result-type")) + 1]!;
    const marker = lines[lines.indexOf(frame) + 1]!;
    expect(frame).toMatch(/^ {2}> 1 \| …p+","result_type":"xml"}$/);
    expect(frame.length).toBeLessThan(200);
    // The marker sits exactly under "xml" in the window.
    const at = marker.indexOf("^");
    expect(marker.slice(at)).toBe("^^^^^");
    expect(frame.slice(at, at + 5)).toBe('"xml"');
  });

  it("name every missing field in one finding instead of one identical frame per field", () => {
    const input = '{"type":"tool_start","tool_call_id":1,"message_id":1,"arguments":{}}\n';
    const { stdout } = caplint(
      ["events", "--format", "compact", "--rule", "tool-lifecycle=off", "-"],
      { input },
    );
    expect(stdout).toBe(
      '<stdin>:1:1: error tool_start is missing required fields "name", "display_name", "icon", "label_short" and "label_full" [event-field]\n',
    );
  });
});

describe("a FIFO as the recording", () => {
  it("is read once, in the default format, and the run ends", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-events-fifo-"));
    const fifo = path.join(dir, "live.jsonl");
    execFileSync("mkfifo", [fifo]);
    const child = spawn(process.execPath, [BIN, "events", fifo], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1" },
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    writeFileSync(fifo, '{"type":"nope"}\n');
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(stdout).toContain('1:9  error  unknown event type "nope"  event-type');
    expect(stdout).toContain('  > 1 | {"type":"nope"}');
  }, 30_000);
});

describe("caplint rules", () => {
  it("lists the event rules", () => {
    const rows = JSON.parse(caplint(["rules", "--format", "json"]).stdout) as Array<{
      id: string;
      command: string;
    }>;
    expect(rows.filter((r) => r.command === "events").map((r) => r.id)).toEqual([
      "agent-frame",
      "approval-lifecycle",
      "event-field",
      "event-json",
      "event-limit",
      "event-type",
      "event-unknown-field",
      "tool-lifecycle",
      "turn-order",
      "unknown-result-type",
    ]);
  });
});

describe("readLines", () => {
  it("splits chunks anywhere, keeps multi-byte characters whole, and skips overlong lines without holding them", async () => {
    const text = Buffer.from("ab\ncé🎉d\n0123456789ABCDEF\nlast");
    const chunks = Array.from(text, (byte) => Buffer.from([byte]));
    const lines: string[] = [];
    const overlong: number[] = [];
    await readLines(
      Readable.from(chunks),
      { line: (l) => lines.push(l), overlong: (n) => overlong.push(n) },
      10,
    );
    expect(lines).toEqual(["ab", "cé🎉d", "last"]);
    expect(overlong).toEqual([16]);
  });
});
