/**
 * Issue 25's classes for `caplint events`: every input size stays linear in time and bounded in
 * memory (the built bin under a small heap: a run that kept its findings, its closed sessions or its
 * whole output would abort), and what the validator must still see at those sizes, it sees. Inputs
 * come from scripts/lib/worst-cases.mjs, which `npm run bench` runs at 10× and 100× these sizes.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { checkRecording } from "../../src/events/run-events.js";
import { MAX_DONE_SESSIONS } from "../../src/events/stream-state.js";
import { createEventValidator, type EventDiagnostic } from "../../src/events/validator.js";
// prettier-ignore
// @ts-expect-error: a plain JavaScript module shared with the benchmark
import { badLines, closedSessions, deepArguments, reusedCallId, wideLine } from "../../scripts/lib/worst-cases.mjs";
import { ROOT } from "../helpers/run.js";

const BIN = path.join(ROOT, "bin", "caplint.js");

function validate(lines: Iterable<string>): EventDiagnostic[] {
  const validator = createEventValidator();
  const found: EventDiagnostic[] = [];
  for (const line of lines) for (const d of validator.push(line.replace(/\n$/, ""))) found.push(d);
  for (const d of validator.end()) found.push(d);
  return found;
}

/** The bin under a 40 MB old generation, reading `input` from standard input; resolves with its exit code and the last lines it printed. */
function boundedRun(
  args: string[],
  input: Iterable<string>,
): Promise<{ code: number | null; tail: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--max-old-space-size=40", BIN, "events", ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1" },
    });
    let tail = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-2000)));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, tail, stderr }));
    Readable.from(input).pipe(child.stdin);
  });
}

describe("caplint events stays linear and bounded", () => {
  it("30,000 findings on one line are placed from one parse of it", () => {
    const found = validate([wideLine(30_000)]);
    expect(found).toHaveLength(30_000);
    expect(found[29_999]).toMatchObject({
      ruleId: "event-unknown-field",
      column: wideLine(30_000).lastIndexOf('"u29999"') + 1,
    });
  }, 60_000);

  // Before: every finding was kept to be sorted and grouped (stylish grouped them quadratically), and
  // JSON was built as one string; a never-ending stdin grew without bound.
  for (const format of ["stylish", "json", "sarif"]) {
    it(`100,000 bad lines from standard input in ${format}: printed as they come, in a 40 MB heap`, async () => {
      const { code, tail, stderr } = await boundedRun(["--format", format, "-"], badLines(100_000));
      expect(stderr).toBe("");
      expect(code).toBe(1);
      if (format === "stylish")
        expect(tail).toContain(
          "✖ 100000 problems (100000 errors, 0 warnings) in 1 file (1 checked)",
        );
      else expect(tail.trimEnd().endsWith("}")).toBe(true);
    }, 120_000);
  }

  // Before: -o FILE collected the whole report in memory and wrote it at the end (60 MB of stylish
  // text for 150,000 bad lines, in a 40 MB heap: an abort).
  for (const format of ["stylish", "json", "sarif"]) {
    it(`-o FILE: 150,000 bad lines in ${format} are streamed into the file, in a 40 MB heap, and put in place at the end`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-events-output-"));
      const target = path.join(dir, `report.${format}`);
      writeFileSync(target, "the previous report\n");
      const { code, tail, stderr } = await boundedRun(
        ["--format", format, "-o", target, "-"],
        badLines(150_000),
      );
      expect(stderr).toBe("");
      expect(code).toBe(1);
      expect(tail).toBe("");
      const written = readFileSync(target, "utf8");
      if (format === "stylish")
        expect(
          written.endsWith("✖ 150000 problems (150000 errors, 0 warnings) in 1 file (1 checked)\n"),
        ).toBe(true);
      else {
        const report = JSON.parse(written) as {
          diagnostics?: unknown[];
          runs?: Array<{ results: unknown[] }>;
        };
        expect(report.diagnostics?.length ?? report.runs![0]!.results.length).toBe(150_000);
      }
      // The temporary file was renamed over the target: nothing else is left in the folder.
      expect(readdirSync(dir)).toEqual([`report.${format}`]);
    }, 180_000);
  }

  it("-o FILE is the same report as standard output, and a run that fails leaves the previous file untouched", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-events-output-"));
    writeFileSync(path.join(dir, "r.jsonl"), [...badLines(50)].join(""));
    for (const format of ["stylish", "compact", "github", "json", "sarif"]) {
      const shown = spawnSync(process.execPath, [BIN, "events", "--format", format, "r.jsonl"], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, NO_COLOR: "1" },
      });
      const written = spawnSync(
        process.execPath,
        [BIN, "events", "--format", format, "-o", "out", "r.jsonl"],
        { cwd: dir, encoding: "utf8" },
      );
      expect(written).toMatchObject({ status: 1, stdout: "", stderr: "" });
      expect(readFileSync(path.join(dir, "out"), "utf8")).toBe(shown.stdout);
    }
    // A recording that is a folder fails while reading: exit 2, the old report kept, no temporary file left.
    writeFileSync(path.join(dir, "out"), "the previous report\n");
    mkdirSync(path.join(dir, "folder.jsonl"));
    const failed = spawnSync(
      process.execPath,
      [BIN, "events", "-o", "out", "r.jsonl", "folder.jsonl"],
      { cwd: dir, encoding: "utf8" },
    );
    expect(failed.status).toBe(2);
    expect(readFileSync(path.join(dir, "out"), "utf8")).toBe("the previous report\n");
    expect(readdirSync(dir).sort()).toEqual(["folder.jsonl", "out", "r.jsonl"]);
  }, 60_000);

  it("the streamed JSON and SARIF reports are the reporters' own documents", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-events-bounds-"));
    const file = path.join(dir, "r.jsonl");
    writeFileSync(
      file,
      [...badLines(3)].join("") +
        '{"type":"user_message","message_id":1,"content":"x","extra":1}\n',
    );
    for (const format of ["json", "sarif"]) {
      const { stdout } = spawnSync(process.execPath, [BIN, "events", "--format", format, file], {
        cwd: dir,
        encoding: "utf8",
      });
      const report = JSON.parse(stdout);
      // Re-serialised whole, the document is byte for byte what was streamed.
      expect(JSON.stringify(report, null, 2) + "\n").toBe(stdout);
      expect(format === "json" ? report.diagnostics.length : report.runs[0].results.length).toBe(4);
    }
    const empty = path.join(dir, "empty.jsonl");
    writeFileSync(empty, '{"type":"user_message","message_id":1,"content":"x"}\n');
    const { stdout } = spawnSync(
      process.execPath,
      [BIN, "events", "--format", "json", "--summary", empty],
      { cwd: dir, encoding: "utf8" },
    );
    expect(JSON.stringify(JSON.parse(stdout), null, 2) + "\n").toBe(stdout);
    expect(JSON.parse(stdout)).toMatchObject({ diagnostics: [], events: [{ events: 1 }] });
  }, 60_000);

  it("sessions with a finished turn are kept as the line of their done, the last 100,000 of them, and the bound is said", () => {
    const found = validate([
      ...closedSessions(MAX_DONE_SESSIONS + 1),
      '{"source":"s0","session_id":0,"event":{"type":"token_delta","kind":"content","delta":"late"}}',
    ]);
    expect(found.map((d) => [d.ruleId, d.messageId, d.severity])).toEqual([
      ["turn-order", "memoryLimit", "warning"],
    ]);
    // A recent session is still remembered: output after its done is found.
    const recent = validate([
      ...closedSessions(5_000),
      '{"source":"s4000","session_id":4000,"event":{"type":"token_delta","kind":"content","delta":"late"}}',
    ]);
    expect(recent.map((d) => [d.ruleId, d.messageId, d.line])).toEqual([
      ["turn-order", "outputAfterDone", 10_001],
    ]);
  }, 60_000);

  it('`"source": null` and `"source": "null"` are two sessions', () => {
    const done = (source: string) =>
      `{"source":${source},"session_id":1,"event":{"type":"done","message_id":1,"stack_id":1,"content":"ok","input_tokens":1,"output_tokens":1}}`;
    expect(validate([done("null"), done('"null"')])).toEqual([]);
    expect(validate([done("null"), done("null")]).map((d) => d.messageId)).toEqual(["secondDone"]);
  });

  it("a tool_call_id reused after 20,000 other calls is still found (ended ids are kept as ranges)", () => {
    const found = validate(reusedCallId(20_000));
    expect(found.map((d) => [d.ruleId, d.messageId, d.line])).toEqual([
      ["tool-lifecycle", "startAfterEarlierEnd", 40_002],
    ]);
    // Ids that do not count up are remembered too (until the bound, which is said).
    const scattered = ['{"type":"user_message","message_id":1,"content":"go"}'];
    for (let i = 0; i < 12_000; i++) {
      const id = (i * 7919) % 1_000_003;
      scattered.push(
        `{"type":"tool_start","tool_call_id":${id},"message_id":1,"name":"run","arguments":{},"display_name":"R","icon":"shell","label_short":"a","label_full":"b"}`,
      );
      scattered.push(`{"type":"tool_done","tool_call_id":${id},"result":"ok"}`);
    }
    scattered.push(
      '{"type":"tool_start","tool_call_id":7919,"message_id":1,"name":"run","arguments":{},"display_name":"R","icon":"shell","label_short":"a","label_full":"b"}',
    );
    expect(validate(scattered).map((d) => d.messageId)).toContain("startAfterEarlierEnd");
  }, 60_000);

  it("a 2,000,000-digit id is cut in the message, with a marker", () => {
    const id = "9".repeat(2_000_000);
    const found = validate([`{"type":"tool_done","tool_call_id":${id},"result":"ok"}`]);
    expect(found.length).toBeGreaterThan(0);
    for (const d of found) expect(d.message.length).toBeLessThan(300);
    expect(found.map((d) => d.message).join("\n")).toContain("more characters]");
  });

  it("a payload nested 3,000 and 1,000,000 deep does not stop the line's other checks", () => {
    for (const depth of [3_000, 1_000_000]) {
      const found = validate([deepArguments(depth)]);
      expect(found.map((d) => [d.ruleId, d.messageId, d.message])).toContainEqual([
        "event-field",
        "wrongType",
        '"message_id" of tool_start must be an integer (signed 64-bit), got 1.5 (not an integer)',
      ]);
    }
  }, 60_000);

  it("bytes that are not UTF-8 are an event-json finding on their line, wherever the chunks are cut", async () => {
    const good = Buffer.from('{"type":"user_message","message_id":1,"content":"é ok"}\n');
    const bad = Buffer.concat([
      Buffer.from('{"type":"user_message","message_id":2,"content":"a'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('b"}\n'),
    ]);
    const bytes = Buffer.concat([
      good,
      bad,
      good,
      Buffer.from('{"type":"user_message","message_id":3,"content":"cut '),
      Buffer.from([0xe2, 0x82]),
    ]);
    for (let cut = 1; cut < bytes.length; cut += 7) {
      const result = await checkRecording(
        Readable.from([bytes.subarray(0, cut), bytes.subarray(cut)]),
        "r.jsonl",
        "/r.jsonl",
        {
          client: false,
          severityFor: () => undefined,
        },
      );
      const invalid = result.diagnostics
        .filter((d) => d.messageId === "invalidUtf8")
        .map((d) => [d.range.start.line, d.range.start.column]);
      expect(invalid, `cut at ${cut}`).toEqual([
        [2, 51],
        [4, 54],
      ]);
    }
  });
});
