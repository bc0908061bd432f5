/**
 * The event protocol of spec part a, as data: every ServerEvent type with its fields, the GlobalEvent
 * envelope, and the client-to-server messages. The validator (`validate-fields.ts`), the JSON Schema
 * (`caplint schema --events`) and the TypeScript types (`types.ts`) are all derived from these tables,
 * so they cannot drift apart.
 */

/** How a field's value is checked. Integer kinds are checked on the number as written. */
export type FieldKind =
  /** Signed 64-bit integer id. */
  | "int"
  /** Signed 64-bit integer, or null (the envelope's `session_id`). */
  | "nullableInt"
  /** Unsigned 32-bit token count, or null. */
  | "tokens"
  | "string"
  /** A string or null (`old_content`). */
  | "nullableString"
  | "boolean"
  /** Any JSON value (tool arguments, data payloads). */
  | "json"
  | "stringArray"
  /** Array of Attachment; the spec does not show an Attachment's fields, so items are any JSON value. */
  | "attachments";

export interface FieldDef {
  readonly kind: FieldKind;
  /** Omitted when absent; sending `null` instead is a finding. */
  readonly optional?: boolean;
  /** Closed set of values (`token_delta.kind`): anything else is an `event-field` error. */
  readonly enum?: readonly string[];
  /** Values clients understand; anything else is only a warning (`tool_done.result_type`). */
  readonly known?: readonly string[];
  /** Most characters (Unicode code points) allowed: the spec's Limits table (`event-limit`). */
  readonly maxChars?: number;
  /** A present array must not be empty (the spec says the field is omitted when empty). */
  readonly nonEmpty?: boolean;
  readonly description: string;
}

export interface EventDef {
  readonly description: string;
  readonly fields: Readonly<Record<string, FieldDef>>;
}

const int = (description: string) => ({ kind: "int", description }) as const;
const tokens = (description: string) => ({ kind: "tokens", description }) as const;
const str = (description: string) => ({ kind: "string", description }) as const;
const optionalStr = (description: string) =>
  ({ kind: "string", optional: true, description }) as const;
const bool = (description: string) => ({ kind: "boolean", description }) as const;
const json = (description: string) => ({ kind: "json", description }) as const;
const limited = <N extends number>(maxChars: N, description: string) =>
  ({ kind: "string", maxChars, description }) as const;
const strings = (description: string) => ({ kind: "stringArray", description }) as const;

/** Every ServerEvent type the spec lists (section "Events"), in the spec's order. */
export const SERVER_EVENTS = {
  tool_start: {
    description: "A tool call begins; clients show its card.",
    fields: {
      tool_call_id: int("Id of the tool call."),
      message_id: int("Id of the assistant message making the call."),
      name: str("Raw function id."),
      arguments: json("Arguments of the call."),
      display_name: str("Friendly card title."),
      icon: str("Semantic icon key such as edit, read, shell, mcp."),
      label_short: limited(60, "Short label (at most 60 characters)."),
      label_full: limited(120, "Full label (at most 120 characters)."),
      path: optionalStr("The single viewable file the call targets."),
    },
  },
  tool_done: {
    description: "The call completed successfully.",
    fields: {
      tool_call_id: int("Id of the tool call."),
      result: str("Result of the call."),
      result_type: {
        kind: "string",
        optional: true,
        known: ["string", "json"],
        description: "`string` or `json`; absent or unknown is shown as plain text.",
      },
      preview_old: optionalStr("File content before a file-write tool, for an inline diff."),
      preview_new: optionalStr("File content after a file-write tool, for an inline diff."),
    },
  },
  tool_error: {
    description: "The call failed.",
    fields: { tool_call_id: int("Id of the tool call."), error: str("What went wrong.") },
  },
  tool_cancelled: {
    description: "The user stopped the call with /stop (deliberate, not a failure).",
    fields: { tool_call_id: int("Id of the tool call.") },
  },
  tool_rejected: {
    description: "An approval policy or a human denied the call.",
    fields: { tool_call_id: int("Id of the tool call."), reason: str("Why it was denied.") },
  },
  agent_start: {
    description: "A sub-agent frame begins.",
    fields: {
      stack_id: int("Id of the agent's stack."),
      parent_tool_call_id: int("The running tool call that started the agent."),
      agent_id: str("Id of the agent."),
      parent_agent_id: str("Id of the parent agent."),
      depth: int("Nesting depth."),
      prompt_preview: limited(500, "Start of the agent's prompt (truncated to 500 characters)."),
    },
  },
  agent_done: {
    description: "A sub-agent frame ends.",
    fields: {
      stack_id: int("Id of the agent's stack."),
      agent_id: str("Id of the agent."),
      parent_agent_id: str("Id of the parent agent."),
      result_preview: limited(500, "Start of the agent's result (truncated to 500 characters)."),
    },
  },
  done: {
    description: "The final answer; authoritative, carries the complete content.",
    fields: {
      message_id: int("Id of the assistant message."),
      stack_id: int("Id of the stack."),
      content: str("Complete answer text."),
      input_tokens: tokens("Input tokens used, or null."),
      output_tokens: tokens("Output tokens used, or null."),
      reasoning_content: optionalStr("Complete reasoning text."),
    },
  },
  error: {
    description: "Fatal error for the request.",
    fields: { message: str("What went wrong.") },
  },
  truncated: {
    description: "The model was cut off by the token limit (finish reason `length`).",
    fields: { output_tokens: tokens("Output tokens used, or null.") },
  },
  thinking: {
    description: "Text produced alongside tool calls.",
    fields: {
      message_id: int("Id of the assistant message."),
      content: str("Text produced alongside the tool calls."),
      input_tokens: tokens("Input tokens used, or null."),
      output_tokens: tokens("Output tokens used, or null."),
      reasoning_content: optionalStr("Reasoning text."),
    },
  },
  token_delta: {
    description: "Streamed answer or reasoning text (best effort; `done` is authoritative).",
    fields: {
      kind: {
        kind: "string",
        enum: ["content", "reasoning"],
        description: "`content` (visible answer) or `reasoning` (chain of thought).",
      },
      delta: str("The streamed text."),
    },
  },
  pending_write: {
    description: "A file write waits for approval.",
    fields: {
      request_id: int("Id of the approval request."),
      tool_call_id: int("Id of the tool call."),
      path: str("File to be written."),
      old_content: {
        kind: "nullableString",
        description: "Current content, or null for a new file.",
      },
      new_content: str("Content to be written."),
    },
  },
  approval_required: {
    description: "A tool call waits for human approval (per-session view, with arguments).",
    fields: {
      request_id: int("Id of the approval request."),
      tool_call_id: int("Id of the tool call."),
      tool_name: str("Name of the tool."),
      arguments: json("Arguments of the call."),
    },
  },
  agent_question: {
    description: "The agent asks the user a question (per-session view).",
    fields: {
      request_id: int("Id of the clarification request."),
      tool_call_id: int("Id of the tool call asking."),
      title: str("Title of the question."),
      question: str("The question."),
      suggested_answers: strings("Suggested answers."),
    },
  },
  file_changed: {
    description: "A book file was written.",
    fields: { path: str("Path of the file.") },
  },
  open_file: {
    description: "The frontend opens a file in its viewer (from the show_file_to_user tool).",
    fields: { path: str("Agent path of the file.") },
  },
  model_fallback: {
    description: "The model failed and the service switched to another.",
    fields: {
      from: str("Model that failed."),
      to: str("Model used instead."),
      reason: str("Why it failed."),
    },
  },
  llm_failed: {
    description: "All fallbacks are used up.",
    fields: { tried: strings("Models tried."), last_error: str("Last error.") },
  },
  approval_requested: {
    description:
      "The approval manager registered a pending approval (global bus notice, no arguments).",
    fields: {
      request_id: int("Id of the approval request."),
      tool_call_id: int("Id of the tool call."),
      tool_name: str("Name of the tool."),
    },
  },
  approval_resolved: {
    description: "A pending approval or pending write was approved or rejected (global bus).",
    fields: {
      request_id: int("Id of the approval request."),
      tool_call_id: int("Id of the tool call."),
      approved: bool("Whether it was approved."),
    },
  },
  clarification_requested: {
    description: "A pending question was registered (global bus).",
    fields: {
      request_id: int("Id of the clarification request."),
      title: str("Title of the question."),
    },
  },
  clarification_resolved: {
    description: "The question was answered (global bus).",
    fields: { request_id: int("Id of the clarification request.") },
  },
  elicitation_requested: {
    description:
      "An external tool server asks the user for input mid tool call (global bus; the value is never carried).",
    fields: {
      request_id: int("Id of the elicitation request."),
      title: str("Title of the request."),
    },
  },
  elicitation_resolved: {
    description: "The elicitation was accepted, declined or cancelled (global bus).",
    fields: { request_id: int("Id of the elicitation request.") },
  },
  new_session: {
    description: "The active session of the source was replaced (/new, /clear).",
    fields: { session_id: int("Id of the new session.") },
  },
  user_message: {
    description: "The user's message row was saved (turn start, or a message injected mid-turn).",
    fields: {
      message_id: int("Id of the stored history row."),
      content: str("The message."),
      attachments: {
        kind: "attachments",
        optional: true,
        nonEmpty: true,
        description: "Uploaded files (omitted when empty).",
      },
    },
  },
  turn_running: {
    description: "Whether a turn is running (sent right after a client connects or reconnects).",
    fields: { running: bool("True while a turn runs.") },
  },
  client_selected: {
    description: "The model selection changed (broadcast to every client of the source).",
    fields: { client: str("`auto` or a model name.") },
  },
  security_group_selected: {
    description: "The session's security group changed (broadcast to every client of the source).",
    fields: { group: str("The group; `default` when cleared.") },
  },
} as const satisfies Record<string, EventDef>;

export type ServerEventType = keyof typeof SERVER_EVENTS;
export const SERVER_EVENT_TYPES = Object.keys(SERVER_EVENTS) as ServerEventType[];

/** The envelope of every event on the global broadcast bus. `event` is checked as a ServerEvent. */
export const GLOBAL_EVENT = {
  description: "An event as published on the global broadcast bus.",
  fields: {
    source: {
      kind: "nullableString",
      description:
        "The client channel; null for system or background events (scheduled jobs, ticks, plugins).",
    },
    session_id: { kind: "nullableInt", description: "Id of the session, or null." },
    event: { kind: "json", description: "The ServerEvent." },
  },
} as const satisfies EventDef;

/** Client-to-server messages (`--client`). */
export const CLIENT_MESSAGE = {
  description: "A user message sent by a client.",
  fields: {
    content: str("The message."),
    attachments: {
      kind: "attachments",
      optional: true,
      description: "Files uploaded beforehand (default empty).",
    },
  },
} as const satisfies EventDef;

export const INBOUND_DATA_MESSAGE = {
  description: "A data push from a remote client (wire form, `type` = `data`).",
  fields: {
    stream: str("Name of the data stream."),
    payload: json("Any JSON value."),
  },
} as const satisfies EventDef;

export const INT64_MIN = -9223372036854775808n;
export const INT64_MAX = 9223372036854775807n;
export const UINT32_MAX = 4294967295;
