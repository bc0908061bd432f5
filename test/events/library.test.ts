/** The event validator as a library: createEventValidator, the Vitest matcher and the types. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import "../../src/events/vitest.js";
import { validateEventStream } from "../../src/events/vitest.js";
import { createEventValidator, type ServerEvent, type ServerEventOf } from "../../src/index.js";
import { EVENT_FIXTURES } from "./helpers.js";

const lines = (file: string) => readFileSync(path.join(EVENT_FIXTURES, file), "utf8").split("\n");

describe("createEventValidator", () => {
  it("reports each finding as soon as its line is pushed, and open calls at end()", () => {
    const validator = createEventValidator();
    expect(validator.push('{"type":"user_message","message_id":1,"content":"go"}')).toEqual([]);
    expect(
      validator.push(
        '{"type":"tool_start","tool_call_id":1,"message_id":2,"name":"read_file","arguments":{},"display_name":"Read","icon":"read","label_short":"a","label_full":"b"}',
      ),
    ).toEqual([]);
    expect(
      validator
        .push('{"type":"tool_done","tool_call_id":2,"result":"ok"}')
        .map((d) => [d.ruleId, d.line]),
    ).toEqual([["tool-lifecycle", 3]]);
    expect(validator.end().map((d) => [d.ruleId, d.severity, d.line])).toEqual([
      ["tool-lifecycle", "warning", 2],
    ]);
    expect(validator.summary).toMatchObject({
      lines: 3,
      events: 3,
      types: { user_message: 1, tool_start: 1, tool_done: 1 },
    });
  });

  it("counts events by type in the order types first appear, whenever the summary is read", () => {
    const validator = createEventValidator();
    const delta = '{"type":"token_delta","kind":"content","delta":"a"}';
    validator.push(delta);
    validator.push(delta);
    expect(validator.summary.types).toEqual({ token_delta: 2 });
    validator.push("not json");
    validator.push(delta);
    validator.push('{"type":"user_message","message_id":1,"content":"go"}');
    validator.push('{"type":"no_such_type"}');
    validator.push(delta);
    expect(Object.entries(validator.summary.types)).toEqual([
      ["token_delta", 4],
      ["(invalid)", 1],
      ["user_message", 1],
      ["(unknown type)", 1],
    ]);
    expect(validator.summary.events).toBe(6);
  });

  it("remembers the last 10,000 ended ids for its messages, forgetting the longest-ended first", () => {
    const validator = createEventValidator();
    const messages = (line: string) => validator.push(line).map((d) => d.messageId);
    const runCall = (id: number) => {
      validator.push(
        `{"type":"tool_start","tool_call_id":${id},"message_id":1,"name":"t","arguments":{},"display_name":"T","icon":"read","label_short":"a","label_full":"b"}`,
      );
      validator.push(`{"type":"tool_done","tool_call_id":${id},"result":"ok"}`);
    };
    for (let id = 1; id <= 10_001; id++) runCall(id);
    // Call 1 ended 10,000 calls ago: forgotten; call 2 is still remembered.
    expect(messages('{"type":"tool_done","tool_call_id":1,"result":"ok"}')).toEqual([
      "endWithoutStart",
    ]);
    expect(messages('{"type":"tool_done","tool_call_id":2,"result":"ok"}')).toEqual(["secondEnd"]);

    // An id that ends again is remembered from its last end: "a" outlives "b", which ended after its first end.
    const runAgent = (agent: string) => {
      validator.push(
        `{"type":"agent_start","stack_id":1,"parent_tool_call_id":1,"agent_id":"${agent}","parent_agent_id":"root","depth":1,"prompt_preview":"p"}`,
      );
      validator.push(
        `{"type":"agent_done","stack_id":1,"agent_id":"${agent}","parent_agent_id":"root","result_preview":"r"}`,
      );
    };
    runAgent("a");
    runAgent("b");
    runAgent("a");
    for (let n = 0; n < 9_999; n++) runAgent(`other-${n}`);
    expect(
      messages(
        '{"type":"agent_done","stack_id":1,"agent_id":"b","parent_agent_id":"root","result_preview":"r"}',
      ),
    ).toEqual(["doneWithoutStart"]);
    expect(
      messages(
        '{"type":"agent_done","stack_id":1,"agent_id":"a","parent_agent_id":"root","result_preview":"r"}',
      ),
    ).toEqual(["secondDone"]);
  });

  it("takes severities from the caller", () => {
    const validator = createEventValidator({
      severity: (id) =>
        id === "event-unknown-field" ? "error" : id === "event-type" ? "off" : undefined,
    });
    expect(
      validator
        .push('{"type":"file_changed","path":"a","x":1}\n{"type":"nope"}')
        .map((d) => [d.ruleId, d.severity]),
    ).toEqual([["event-unknown-field", "error"]]);
  });
});

describe("expect(lines).toBeValidEventStream()", () => {
  it("passes valid recordings given as lines, events or one text", () => {
    expect(lines("agent-frame/valid/sub-agents.jsonl")).toBeValidEventStream();
    expect(
      readFileSync(
        path.join(EVENT_FIXTURES, "approval-lifecycle/valid/approval-approved.jsonl"),
        "utf8",
      ),
    ).toBeValidEventStream();
    const events: ServerEvent[] = [
      { type: "user_message", message_id: 1, content: "hi" },
      { type: "token_delta", kind: "content", delta: "hello" },
      {
        type: "done",
        message_id: 2,
        stack_id: 1,
        content: "hello",
        input_tokens: null,
        output_tokens: 1,
      },
    ];
    expect(events).toBeValidEventStream();
    expect(lines("event-field/valid/client-traffic.jsonl")).toBeValidEventStream({ client: true });
  });

  it("fails with every finding listed, and warnings only when asked", () => {
    expect(() =>
      expect(lines("tool-lifecycle/invalid/terminals.jsonl")).toBeValidEventStream(),
    ).toThrow(
      /found 3 problems:\n {2}line 2:36: error tool_done for tool call 5, which never started \[tool-lifecycle\]\n {2}line 5:36: error tool_done for tool call 6, which already ended with tool_error \[tool-lifecycle\] \(see line 4\)/,
    );
    expect(lines("tool-lifecycle/invalid/recording-cut.jsonl")).toBeValidEventStream();
    expect(lines("tool-lifecycle/invalid/recording-cut.jsonl")).not.toBeValidEventStream({
      warnings: true,
    });
    expect(() => expect(42).toBeValidEventStream()).toThrow(
      /expected an array of lines or events, or a string/,
    );
    expect(validateEventStream(["{"]).map((d) => d.ruleId)).toEqual(["event-json"]);
  });

  it("types events by their definitions", () => {
    const start: ServerEventOf<"tool_start"> = {
      type: "tool_start",
      tool_call_id: 1,
      message_id: 2,
      name: "n",
      arguments: {},
      display_name: "d",
      icon: "i",
      label_short: "s",
      label_full: "f",
    };
    // @ts-expect-error token_delta.kind is "content" or "reasoning"
    const delta: ServerEventOf<"token_delta"> = { type: "token_delta", kind: "text", delta: "x" };
    expect([start, delta].length).toBe(2);
  });
});
