/**
 * Properties of the event validator (fast-check): valid recordings stay valid when split into
 * sessions and interleaved as GlobalEvent envelopes; mutated recordings (dropped, swapped, duplicated
 * lines, truncated JSON, garbage) never crash it and give well-formed findings only; pushing a
 * recording line by line or as one text gives the same findings.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EVENT_RULES_BY_ID } from "../../src/events/rules/index.js";
import { createEventValidator, type EventDiagnostic } from "../../src/events/validator.js";
import { fixtureFiles, isClientFixture, validateText } from "../events/helpers.js";
import { params } from "./support.js";

const serverRecordings = fixtureFiles("valid")
  .filter((file) => !isClientFixture(file) && !file.endsWith("envelopes.jsonl"))
  .map((file) =>
    readFileSync(file, "utf8")
      .split(/\r?\n/)
      .filter((line) => line.trim() !== ""),
  );

/** Indexes where a recording may be cut into two sessions: before a line, with nothing open before it. */
function idleCuts(lines: string[]): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]!.includes('"type":"user_message"')) continue;
    if (validateText(lines.slice(0, i).join("\n")).length === 0) cuts.push(i);
  }
  return cuts;
}
const CUTS = serverRecordings.map(idleCuts);

function wellFormed(findings: readonly EventDiagnostic[], lineCount: number): void {
  for (const d of findings) {
    expect(EVENT_RULES_BY_ID.has(d.ruleId)).toBe(true);
    expect(["error", "warning"]).toContain(d.severity);
    expect(d.message.length).toBeGreaterThan(0);
    expect(d.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(lineCount);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.endColumn).toBeGreaterThan(d.column);
    if (d.relatedLine !== undefined) {
      expect(d.relatedLine).toBeGreaterThanOrEqual(1);
      expect(d.relatedLine).toBeLessThanOrEqual(lineCount);
      expect(d.relatedLine).not.toBe(d.line);
    }
  }
}

describe("event recordings (properties)", () => {
  it("valid recordings stay valid when split into sessions and interleaved on the bus", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat(serverRecordings.length - 1), {
          minLength: 1,
          maxLength: serverRecordings.length,
        }),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        fc.array(fc.nat(), { minLength: 400, maxLength: 400 }),
        fc.option(fc.constantFrom("web", "telegram", "cli"), { nil: null }),
        (chosen, cutChoices, picks, source) => {
          // Each chosen recording, cut at some idle points, each part its own session.
          const queues: string[][] = [];
          let session = 100;
          let choice = 0;
          for (const index of chosen) {
            const lines = serverRecordings[index]!;
            let start = 0;
            for (const cut of CUTS[index]!) {
              if (!cutChoices[choice++ % cutChoices.length]) continue;
              queues.push(lines.slice(start, cut).map((line) => envelope(source, session, line)));
              session++;
              start = cut;
            }
            queues.push(lines.slice(start).map((line) => envelope(source, session++, line)));
          }
          const merged: string[] = [];
          let pick = 0;
          while (queues.some((queue) => queue.length)) {
            const open = queues.filter((queue) => queue.length);
            merged.push(open[picks[pick++ % picks.length]! % open.length]!.shift()!);
          }
          expect(validateText(merged.join("\n"))).toEqual([]);
        },
      ),
      params(401),
    );
  });

  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("swap" as const), at: fc.nat(), with: fc.nat() }),
    fc.record({ kind: fc.constant("duplicate" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat(), length: fc.nat() }),
    fc.record({
      kind: fc.constant("insert" as const),
      at: fc.nat(),
      text: fc.oneof(
        fc.string(),
        fc.json(),
        fc.jsonValue().map((v) => JSON.stringify({ type: "tool_done", tool_call_id: v })),
      ),
    }),
    fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), value: fc.jsonValue() }),
  );

  it("never crashes on mutated recordings, and findings are well formed", () => {
    fc.assert(
      fc.property(
        fc.nat(serverRecordings.length - 1),
        fc.array(mutation, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (index, mutations, client) => {
          const lines = [...serverRecordings[index]!];
          for (const m of mutations) {
            const at = m.at % Math.max(1, lines.length);
            if (m.kind === "drop") lines.splice(at, 1);
            else if (m.kind === "swap") {
              const other = m.with % Math.max(1, lines.length);
              [lines[at], lines[other]] = [lines[other]!, lines[at]!];
            } else if (m.kind === "duplicate") lines.splice(at, 0, lines[at] ?? "");
            else if (m.kind === "truncate")
              lines[at] = (lines[at] ?? "").slice(0, m.length % ((lines[at]?.length ?? 0) + 1));
            else if (m.kind === "insert") lines.splice(at, 0, m.text.replace(/\n/g, " "));
            else lines[at] = JSON.stringify(m.value);
          }
          const text = lines.join("\n");
          const findings = validateText(text, client);
          wellFormed(findings, lines.length);
          // Line by line or all at once: the same findings.
          const validator = createEventValidator({ client });
          const oneByOne = [...lines.flatMap((line) => validator.push(line)), ...validator.end()];
          expect(oneByOne.length).toBe(findings.length);
        },
      ),
      params(402),
    );
  });

  it("never crashes on arbitrary JSON events", () => {
    const event = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          type: fc.constantFrom(
            "tool_start",
            "tool_done",
            "agent_start",
            "agent_done",
            "done",
            "approval_resolved",
            "token_delta",
            "user_message",
          ),
          tool_call_id: fc.jsonValue(),
          request_id: fc.jsonValue(),
          agent_id: fc.jsonValue(),
          stack_id: fc.jsonValue(),
        },
        { requiredKeys: ["type"] },
      ),
      fc.record({ source: fc.jsonValue(), session_id: fc.jsonValue(), event: fc.jsonValue() }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const text = events.map((e) => JSON.stringify(e) ?? "null").join("\n");
        wellFormed(validateText(text), Math.max(1, events.length));
      }),
      params(403),
    );
  });
});

function envelope(source: string | null, sessionId: number, line: string): string {
  return `{"source":${JSON.stringify(source)},"session_id":${sessionId},"event":${line}}`;
}
