// A deterministic, realistic event recording for the benchmark: turns of a user message, streamed
// reasoning and answer deltas, tool calls (mostly successful, some failing, cancelled or rejected
// after an approval), now and then a sub-agent, and the final done. About 150 bytes an event.
import { createWriteStream } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prng } from "./lib/prng.mjs";

const WORDS =
  "the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part".split(
    " ",
  );
const TOOLS = [
  ["read_file", "read"],
  ["write_file", "edit"],
  ["run_shell", "shell"],
  ["search_docs", "mcp"],
];

/** Writes `events` events to `file`; resolves with the byte count. */
export function writeRecording(file, events, seed = 7) {
  const random = prng(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const out = createWriteStream(file);
  let bytes = 0;
  let buffer = [];
  const emit = (event) => {
    buffer.push(JSON.stringify(event));
    if (buffer.length >= 1000) flush();
  };
  const flush = () => {
    const text = buffer.join("\n") + "\n";
    bytes += Buffer.byteLength(text);
    out.write(text);
    buffer = [];
  };
  let written = 0;
  let id = 1000;
  let messageId = 1;
  const counted = (event) => {
    emit(event);
    written++;
  };
  while (written < events) {
    const message = messageId++;
    counted({ type: "user_message", message_id: message, content: words(12) });
    for (let i = 0, n = 3 + Math.floor(random() * 10); i < n; i++)
      counted({
        type: "token_delta",
        kind: "reasoning",
        delta: ` ${words(3 + Math.floor(random() * 6))}`,
      });
    const calls = Math.floor(random() * 4);
    if (calls)
      counted({
        type: "thinking",
        message_id: message,
        content: words(15),
        input_tokens: 1200 + Math.floor(random() * 900),
        output_tokens: Math.floor(random() * 300),
        reasoning_content: words(10),
      });
    for (let c = 0; c < calls; c++) {
      const callId = id++;
      const [name, icon] = pick(TOOLS);
      const path = `~/project/src/${pick(WORDS)}.ts`;
      counted({
        type: "tool_start",
        tool_call_id: callId,
        message_id: message,
        name,
        arguments: { path, limit: 200 },
        display_name: name.replace("_", " "),
        icon,
        label_short: `${name} ${path}`.slice(0, 60),
        label_full: `${name} ${path} (${words(3)})`.slice(0, 120),
        path,
      });
      const roll = random();
      if (name === "run_shell" && roll < 0.3) {
        const request = id++;
        const approved = roll > 0.05;
        counted({
          type: "approval_required",
          request_id: request,
          tool_call_id: callId,
          tool_name: name,
          arguments: { command: "npm test" },
        });
        counted({ type: "approval_resolved", request_id: request, tool_call_id: callId, approved });
        if (!approved) {
          counted({ type: "tool_rejected", tool_call_id: callId, reason: "denied by the user" });
          continue;
        }
      }
      if (name === "search_docs" && roll < 0.2) {
        const agent = `agent-${id++}`;
        const stack = id++;
        counted({
          type: "agent_start",
          stack_id: stack,
          parent_tool_call_id: callId,
          agent_id: agent,
          parent_agent_id: "root",
          depth: 1,
          prompt_preview: words(20),
        });
        for (let i = 0; i < 5; i++)
          counted({ type: "token_delta", kind: "content", delta: ` ${words(3)}` });
        counted({
          type: "agent_done",
          stack_id: stack,
          agent_id: agent,
          parent_agent_id: "root",
          result_preview: words(20),
        });
      }
      if (roll > 0.97) counted({ type: "tool_cancelled", tool_call_id: callId });
      else if (roll > 0.9)
        counted({ type: "tool_error", tool_call_id: callId, error: `Error: ${words(6)}` });
      else
        counted({
          type: "tool_done",
          tool_call_id: callId,
          result: words(200),
          result_type: random() < 0.5 ? "string" : "json",
        });
    }
    for (let i = 0, n = 20 + Math.floor(random() * 40); i < n; i++)
      counted({
        type: "token_delta",
        kind: "content",
        delta: ` ${words(2 + Math.floor(random() * 6))}`,
      });
    counted({
      type: "done",
      message_id: message,
      stack_id: 1,
      content: words(300),
      input_tokens: 2000 + Math.floor(random() * 5000),
      output_tokens: Math.floor(random() * 900),
    });
  }
  flush();
  return new Promise((resolve, reject) => out.end(() => resolve(bytes)).on("error", reject));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, count] = process.argv.slice(2);
  console.log(await writeRecording(file, Number(count ?? 1000)));
}
