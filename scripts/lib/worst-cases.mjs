// Generators of the worst cases of issue 25 for `caplint events` and `caplint mcp`, by size: each
// returns text (or yields lines) for n units, so tests run them small and `npm run bench` at 10× and
// 100×. Deterministic: the same n gives the same bytes.

const TOOL_START = (id, messageId = 1) =>
  `{"type":"tool_start","tool_call_id":${id},"message_id":${messageId},"name":"run","arguments":{},"display_name":"Run","icon":"shell","label_short":"a","label_full":"b"}`;

/** One event with n unknown fields: n findings on one line. */
export function wideLine(n) {
  let line = '{"type":"user_message","message_id":1,"content":"x"';
  for (let i = 0; i < n; i++) line += `,"u${i}":1`;
  return `${line}}\n`;
}

/** n lines that are each one finding (an unknown event type). */
export function* badLines(n) {
  for (let i = 0; i < n; i++) yield '{"type":"nope"}\n';
}

/** n GlobalEvent sessions, each one finished turn (user_message, done): n sessions whose turn is done. */
export function* closedSessions(n) {
  for (let i = 0; i < n; i++) {
    yield `{"source":"s${i}","session_id":${i},"event":{"type":"user_message","message_id":${i},"content":"hi"}}\n`;
    yield `{"source":"s${i}","session_id":${i},"event":{"type":"done","message_id":${i},"stack_id":1,"content":"ok","input_tokens":1,"output_tokens":1}}\n`;
  }
}

/** n tool calls started and done one after the other (ids 1..n), then a tool_start reusing id 1. */
export function* reusedCallId(n) {
  yield '{"type":"user_message","message_id":1,"content":"go"}\n';
  for (let id = 1; id <= n; id++) {
    yield `${TOOL_START(id)}\n`;
    yield `{"type":"tool_done","tool_call_id":${id},"result":"ok"}\n`;
  }
  yield `${TOOL_START(1)}\n`;
}

/** A tool_start whose arguments nest `depth` arrays deep, with message_id 1.5 (not an integer). */
export function deepArguments(depth) {
  return `{"type":"tool_start","tool_call_id":1,"message_id":1.5,"name":"run","arguments":${"[".repeat(depth)}${"]".repeat(depth)},"display_name":"Run","icon":"shell","label_short":"a","label_full":"b"}\n`;
}
/**
 * A tools/list result of one tool whose input schema `$ref`s a node type with k properties that each
 * `$ref` it again (a walk that follows references without memory visits k^depth nodes).
 */
export function recursiveSchemaListing(k) {
  const properties = {};
  for (let i = 0; i < k; i++)
    properties[`p${i}`] = { $ref: "#/$defs/Node", description: `child ${i}` };
  return {
    tools: [
      {
        name: "demo_get_tree",
        description: "Gets a tree.",
        inputSchema: {
          type: "object",
          properties: { root: { $ref: "#/$defs/Node", description: "The root" } },
          additionalProperties: false,
          $defs: { Node: { type: "object", properties, additionalProperties: false } },
        },
        annotations: {
          title: "Get tree",
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
      },
    ],
  };
}

/** A tools/list result of n small tools. */
export function manyToolsListing(n) {
  const tools = [];
  for (let i = 0; i < n; i++) {
    tools.push({
      name: `demo_get_item_${i}`,
      description: `Gets item ${i}.`,
      inputSchema: {
        type: "object",
        properties: { id: { type: "string", maxLength: 64, description: "The id" } },
        required: ["id"],
        additionalProperties: false,
      },
      annotations: {
        title: `Get item ${i}`,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    });
  }
  return { tools };
}
