/**
 * The streaming event validator: push lines as they arrive, end() when the recording stops.
 * Each call returns the findings it could decide; nothing is kept per event beyond what is open.
 */
import {
  AT_TOP,
  checkClientLine,
  checkServerLine,
  type ExactNumbers,
  type FieldReport,
} from "./check-fields.js";
import type { JsonObject, JsonPath } from "./event-values.js";
import {
  EVENT_RULES,
  EVENT_RULES_BY_ID,
  isStreamRule,
  type EventMessage,
  type EventRuleId,
} from "./rules/index.js";
import type { EventRuleContext } from "./rules/types.js";
import type { Diagnostic } from "../core/diagnostics.js";
import type { RuleMeta } from "../core/lint/rule.js";
import {
  RuleRun,
  type Finding,
  type FindingFields,
  type FindingInput,
  type RunSettings,
  type Span,
} from "../core/lint/run-rules.js";
import { cutValue, formatMessage, type MessageData } from "../core/messages.js";
import { quote } from "./text.js";
import { startTraversal } from "./traversal.js";
import { eventOfShape, LineShapes, MAX_LEARN_TRIES } from "./line-shapes.js";
import type { CallStats } from "./stream-state.js";
import { locate, mayHaveInexactNumbers, syntaxError, withExactNumbers } from "./parse-line.js";
import { jsonTree, type JsonTree } from "../core/source/json-tree.js";
import { loneSurrogateEscape, propertiesWritten } from "../core/source/document.js";
import { plural } from "../core/wording.js";

export type EventSeverity = "error" | "warning" | "suggestion";

export interface EventDiagnostic {
  ruleId: EventRuleId;
  /** The id of the rule's message template (`messages` in EVENT_RULES) the text was built from. */
  messageId: string;
  severity: EventSeverity;
  message: string;
  hint?: string;
  /** 1-based line of the event in the recording (blank lines count). */
  line: number;
  /** 1-based column, in UTF-16 code units, of the field the finding is about. */
  column: number;
  endColumn: number;
  /** JSON path of that field in the line (through `event` for an envelope). */
  path: JsonPath;
  /** The other event of a pair: the start a terminal event ends, the request a resolution answers. */
  relatedLine?: number;
}

export interface EventValidatorOptions {
  /** Check client-to-server traffic (ClientMessage, InboundDataMessage) instead of ServerEvents. */
  client?: boolean;
  /** A rule's configured severity; "off" drops its findings; undefined keeps the default. */
  severity?: (ruleId: EventRuleId) => EventSeverity | "off" | undefined;
}

export interface EventSummary {
  lines: number;
  events: number;
  /** Events by type, envelope contents included; "(invalid)" counts lines that are not events. */
  types: Record<string, number>;
  toolCalls: CallStats;
}

export interface EventValidator {
  /** Checks the next line of the recording (text without its line break; a string with line breaks is split). */
  push(line: string): EventDiagnostic[];
  /** Ends the recording: findings about what is still open. */
  end(): EventDiagnostic[];
  /** Counts so far (for `--summary`). */
  readonly summary: EventSummary;
}

/** Longest line read; a longer one is reported and skipped (memory stays bounded). */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

/**
 * The validator fed one line at a time (a line read from a stream has no line break to look for),
 * giving findings as the core's Diagnostics of the recording `file`.
 */
export interface LineValidator {
  /** Checks the next line, a text without line breaks; `invalidUtf8` when its bytes were not UTF-8 (decoded with U+FFFD). */
  pushLine(line: string, invalidUtf8?: boolean): readonly Diagnostic[];
  /** Counts a line longer than MAX_LINE_CHARS, which was skipped unread, and reports it. */
  pushOverlong(chars: number): readonly Diagnostic[];
  /** Ends the recording: findings about what is still open. */
  end(): readonly Diagnostic[];
  readonly summary: EventSummary;
}

export interface LineValidatorOptions {
  client?: boolean;
  /**
   * Take a line that is an earlier clean line with another last string as that line's event without
   * parsing it (line-shapes.ts); on unless false (tests compare the two).
   */
  lineShapes?: boolean;
  /** The recording as findings name it, and as the settings know it. */
  file: string;
  absolutePath: string;
  settings: RunSettings;
}

/** A finding of this domain as the core's rule run takes it: a path in the line, or a span on a line of its own (no offsets: a recording is streamed, not kept). */
type LineFinding = Finding;

/** What a finding says beyond its message. */
type PlacedFinding = Pick<FindingFields, "hint" | "path" | "relatedLine" | "demote">;

/** A finding's message: one of its rule's messageIds and the placeholders' values. */
interface EventText {
  messageId: string;
  data?: MessageData | undefined;
}

const EVENT_JSON = EVENT_RULES_BY_ID.get("event-json")!;

/** Columns `column` up to `endColumn` of `line`. */
function lineSpan(line: number, column: number, endColumn: number): Span {
  return {
    range: { start: { line, column }, end: { line, column: endColumn } },
    offset: 0,
    length: 0,
  };
}

export function createLineValidator(options: LineValidatorOptions): LineValidator {
  const { file, absolutePath, settings } = options;
  let lineNumber = 0;
  let text = "";
  /** The syntax tree of `text`, built at most once per line, and only for a line that needs positions or exact numbers. */
  let tree: JsonTree | undefined;
  const treeOf = (): JsonTree => (tree ??= jsonTree(text));
  /** Shapes of the server events read so far (none for client traffic, whose lines have no type). */
  const shapes = options.client || options.lineShapes === false ? undefined : new LineShapes();
  /** Whether the line being read has a finding of its text or fields (it then gives no shape). */
  let lineFlawed = false;
  /** Lines of the current run of one type that failed to give a shape. */
  let learnTries = 0;
  let eventPath: JsonPath = AT_TOP;
  const types = Object.create(null) as Record<string, number>;
  // A recording streams its findings out as it is read: no per-file budget.
  const run = new RuleRun<LineFinding>({
    settings,
    budget: false,
    words: (rule, finding) => ({
      message: formatMessage(rule, finding.messageId, shortValues(finding.data)),
    }),
  });
  /** The recording: a finding without a span is at the key or value of its path in the line being read. */
  const input: FindingInput<LineFinding> = {
    file,
    absolutePath,
    locate(finding) {
      const span =
        text === ""
          ? { offset: 0, length: 1 }
          : locate(treeOf(), finding.path, finding.target ?? "value");
      return lineSpan(lineNumber, span.offset + 1, span.offset + span.length + 1);
    },
  };

  /** A finding at `line`, columns `column` up to `endColumn`. */
  const emit = (
    rule: RuleMeta,
    message: EventText,
    finding: PlacedFinding,
    line: number,
    column: number,
    endColumn: number,
  ) => run.report(rule, { ...finding, ...message, span: lineSpan(line, column, endColumn) }, input);

  /** A finding in the line being read, at the key or value of `path`. */
  const add = (
    rule: RuleMeta,
    message: EventText,
    finding: PlacedFinding,
    target: "key" | "value",
  ) => run.report(rule, { ...finding, ...message, target }, input);

  /** A finding of the line reader or the definitions' walk, which name their rule. */
  const addLineFinding = (report: EventMessage, finding: PlacedFinding, target: "key" | "value") =>
    add(EVENT_RULES_BY_ID.get(report.ruleId)!, report, finding, target);

  const onField = (report: FieldReport) => {
    lineFlawed = true;
    addLineFinding(report, { hint: report.hint, path: report.path }, report.target);
  };

  const traversal = startTraversal();
  run.listen(
    EVENT_RULES.filter(isStreamRule).filter((rule) => run.severityOf(rule, absolutePath)),
    (rule, report): EventRuleContext => ({
      rule,
      stream: traversal.stream,
      on: traversal.on,
      report: (finding) =>
        report(
          {
            messageId: finding.messageId,
            data: finding.data,
            hint: finding.hint,
            relatedLine: finding.relatedLine,
            demote: finding.cut,
            // About an earlier line, whose text is gone: the whole line.
            ...(finding.line === undefined
              ? { path: [...eventPath, finding.field] }
              : { path: [finding.field], span: lineSpan(finding.line, 1, 2) }),
          },
          input,
        ),
    }),
  );
  /**
   * Events are counted by type in runs (token deltas come dozens in a row): the run of the last
   * type counted is added to `types` when another type comes or the summary is read. A type is
   * put in `types` when first seen, so the summary lists types in that order.
   */
  let runType: string | undefined;
  let runCount = 0;
  const endRun = () => {
    if (runType !== undefined) types[runType]! += runCount;
    runCount = 0;
  };
  const summary: EventSummary = {
    lines: 0,
    events: 0,
    get types() {
      endRun();
      return types;
    },
    toolCalls: traversal.stats,
  };

  /** The members of the line being read, counted once for the repeated-key and unknown-field checks. */
  const members: MemberCounts = { top: 0, all: 0, lastKey: "", plainAfterColons: false };
  const count = (type: string) => {
    if (type === runType) {
      runCount++;
      return;
    }
    endRun();
    runType = type;
    runCount = 1;
    types[type] ??= 0;
  };

  const checkLine = (line: string, invalidUtf8: boolean) => {
    lineNumber++;
    summary.lines = lineNumber;
    if (lineNumber === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
    tree = undefined;
    lineFlawed = invalidUtf8;
    if (invalidUtf8) {
      // Where the decoder put its first replacement character (a real U+FFFD before it would be found first).
      const at = Math.max(0, line.indexOf("\ufffd"));
      lineFinding(
        { ruleId: "event-json", messageId: "invalidUtf8" },
        "save the recording as UTF-8; a socket's text frames are UTF-8",
        at,
        1,
      );
    }
    if (isBlank(line)) return;
    text = line;
    eventPath = AT_TOP;
    if (line.length > MAX_LINE_CHARS) {
      text = "";
      addLineFinding(
        overlongLine(line.length),
        { hint: "split the recording into one event per line", path: [] },
        "value",
      );
      count("(invalid)");
      return;
    }
    const shape = shapes?.match(line);
    if (shape !== undefined) {
      summary.events++;
      count(shape.type);
      traversal.onEvent(
        { type: shape.type, event: eventOfShape(shape, line), at: AT_TOP },
        lineNumber,
      );
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      count("(invalid)");
      const problem = syntaxError(line, error);
      const report = {
        ruleId: "event-json",
        messageId: "invalidJson",
        data: { problem: problem.message },
      } as const;
      emit(
        EVENT_JSON,
        report,
        { hint: "each line of a recording is one JSON object", path: [] },
        lineNumber,
        problem.offset + 1,
        problem.offset + 2,
      );
      return;
    }
    // JSON.parse makes no RawNumber: an object that is no array is one.
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      count("(invalid)");
      addLineFinding(
        { ruleId: "event-json", messageId: "notAnObject", data: { kind: jsonKind(parsed) } },
        { hint: "each line of a recording is one JSON object", path: [] },
        "value",
      );
      return;
    }
    const value = parsed as JsonObject;
    summary.events++;
    countMembers(value, members);
    checkWriting(line, value);
    if (options.client) {
      // Client messages have no integer field: JSON.parse's numbers are good enough.
      count(typeof value.type === "string" ? value.type : "ClientMessage");
      checkClientLine(value, onField);
      return;
    }
    // The exact numbers replace values in place: the line's keys are the same.
    const located = checkServerLine(value, onField, members.top, exactNumbers);
    if (!located) {
      count("(unknown type)");
      return;
    }
    // A shape is learnt from the second line of a run of one type: types that come alone would
    // push out the shapes of runs.
    const inRun = located.type === runType;
    if (!inRun) learnTries = 0;
    count(located.type);
    eventPath = located.at;
    traversal.onEvent(located, lineNumber);
    if (shapes !== undefined && inRun && !lineFlawed && located.at === AT_TOP) {
      // A run whose lines cannot have a shape (spaces after colons) stops trying after a few.
      if (
        learnTries < MAX_LEARN_TRIES &&
        !shapes.learn(line, located.type, located.event, members.lastKey)
      )
        learnTries++;
    }
  };

  /** JSON.parse's reading is exact unless mayHaveInexactNumbers says otherwise (parse-line.ts). */
  const exactNumbers: ExactNumbers = (value) =>
    (members.plainAfterColons && text.indexOf("[") === -1) || !mayHaveInexactNumbers(text)
      ? value
      : withExactNumbers(treeOf(), value);

  /** A finding about the line's text itself, at an offset. */
  const lineFinding = (
    report: EventMessage<"event-json">,
    hint: string,
    offset: number,
    length: number,
    path: JsonPath = [],
    mild = false,
  ) =>
    emit(
      EVENT_JSON,
      report,
      { hint, path, demote: mild },
      lineNumber,
      offset + 1,
      offset + length + 1,
    );

  /**
   * What JSON.parse accepts silently but the host's parser (serde_json) does not: an escape that is
   * half a surrogate pair, and a field written twice (JSON.parse keeps the last copy). A key written
   * twice inside a payload is accepted by both, but parsers disagree on which copy counts: a warning.
   */
  const checkWriting = (line: string, value: JsonObject) => {
    const surrogate = loneSurrogateEscape(line);
    if (surrogate >= 0) {
      lineFlawed = true;
      lineFinding(
        { ruleId: "event-json", messageId: "loneSurrogate" },
        "escape a character outside the BMP as a pair (\\ud83d\\ude00)",
        surrogate,
        6,
      );
    }
    if (!mayRepeatMembers(line, members)) return;
    lineFlawed = true;
    const lineTree = treeOf();
    for (const member of lineTree.repeatedMembers()) {
      const path = lineTree.pathOf(member);
      const key = path[path.length - 1] as string;
      const own =
        path.length === 1 || (path.length === 2 && path[0] === "event" && !hasOwnType(value));
      lineFinding(
        own
          ? {
              ruleId: "event-json",
              messageId: "repeatedField",
              data: {
                key: quote(key),
                object: path.length === 1 ? "the event" : "the enveloped event",
              },
            }
          : { ruleId: "event-json", messageId: "repeatedKey", data: { key: quote(key) } },
        own ? "write each field once" : "write each key of an object once",
        lineTree.keyOffset(member),
        lineTree.keyLength(member),
        path,
        !own,
      );
    }
  };

  return {
    pushLine(line: string, invalidUtf8 = false): readonly Diagnostic[] {
      checkLine(line, invalidUtf8);
      return run.take();
    },
    pushOverlong(chars: number): readonly Diagnostic[] {
      // Counted as a line (so later line numbers stay right) and reported without its text.
      checkLine("", false);
      emit(
        EVENT_JSON,
        overlongLine(chars),
        { hint: "split the recording into one event per line", path: [] },
        lineNumber,
        1,
        2,
      );
      return run.take();
    },
    end(): readonly Diagnostic[] {
      // Every request's stream ends with done or error (spec part a), so a recording without a single
      // line to read is a capture that failed, not a stream that passed: an empty file or empty stdin
      // must not read "no problems".
      if (Object.keys(types).length === 0) {
        const content =
          lineNumber === 0 ? "it is empty" : `only ${plural(lineNumber, "blank line")}`;
        emit(
          EVENT_JSON,
          { messageId: "noEvent", data: { content } },
          {
            hint: "record the stream again: each request's events end with done or error",
            path: [],
          },
          1,
          1,
          2,
        );
      }
      traversal.end();
      return run.take();
    },
    summary,
  };
}

/** The library's validator: the same line validator, its findings shown as EventDiagnostics (lines and columns, no file). */
export function createEventValidator(options: EventValidatorOptions = {}): EventValidator {
  const severity = options.severity;
  const validator = createLineValidator({
    ...(options.client ? { client: true } : {}),
    file: "",
    absolutePath: "",
    settings: severity ? { severityFor: (ruleId) => severity(ruleId as EventRuleId) } : {},
  });
  const view = (found: readonly Diagnostic[]) => found.map(eventDiagnostic);
  return {
    push(chunk: string): EventDiagnostic[] {
      if (chunk.indexOf("\n") === -1) return view(validator.pushLine(chunk));
      const lines = chunk.split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      const found: EventDiagnostic[] = [];
      for (const line of lines) for (const item of view(validator.pushLine(line))) found.push(item);
      return found;
    },
    end: () => view(validator.end()),
    summary: validator.summary,
  };
}

function eventDiagnostic(d: Diagnostic): EventDiagnostic {
  return {
    ruleId: d.ruleId as EventRuleId,
    messageId: d.messageId!,
    severity: d.severity,
    message: d.message,
    ...(d.hint ? { hint: d.hint } : {}),
    line: d.range.start.line,
    column: d.range.start.column,
    endColumn: d.range.end.column,
    path: d.path,
    ...(d.relatedLine !== undefined ? { relatedLine: d.relatedLine } : {}),
  };
}

/** The finding about a line longer than MAX_LINE_CHARS, which is skipped unread. */
export function overlongLine(chars: number): EventMessage<"event-json"> {
  return {
    ruleId: "event-json",
    messageId: "lineTooLong",
    data: { length: chars, limit: MAX_LINE_CHARS },
  };
}

function jsonKind(value: unknown): string {
  if (value === null) return "JSON null";
  if (Array.isArray(value)) return "a JSON array";
  if (typeof value === "string") return "a JSON string";
  if (typeof value === "boolean") return "a JSON boolean";
  return "a JSON number";
}

/**
 * Whether a key of the line may be written twice: JSON.parse keeps one copy of a repeated key, so it
 * keeps fewer members than the line writes (`counts.all`). Every member written has one colon outside
 * strings, so a line with no more colons than members kept repeats none; only a line whose strings
 * hold colons needs the members written counted exactly (a walk over its strings).
 *
 * The walk also notes whether every number written right after a colon is a plain integer of at most
 * 15 digits (`counts.plainAfterColons`): in a line without arrays every number is a member's value,
 * after its colon, so JSON.parse read them all as written and the exact-number scan of the whole
 * text (mayHaveInexactNumbers) is not needed. False when the walk stopped early.
 */
function mayRepeatMembers(line: string, counts: MemberCounts): boolean {
  const kept = counts.all;
  let colons = 0;
  let plain = true;
  for (let at = line.indexOf(":"); at !== -1; at = line.indexOf(":", at + 1)) {
    if (++colons > kept) {
      counts.plainAfterColons = false;
      return propertiesWritten(line) !== kept;
    }
    if (plain) plain = isPlainIntegerOrNoNumberAt(line, at + 1);
  }
  counts.plainAfterColons = plain;
  return false;
}

/**
 * False when a number starts at `at` (after JSON whitespace) that is not a plain integer of at most
 * 15 digits: a fraction, an exponent or 16 digits. A colon inside a string may be followed by
 * anything: false there only costs the exact-number scan.
 */
function isPlainIntegerOrNoNumberAt(line: string, at: number): boolean {
  let code = line.charCodeAt(at);
  while (code === 32 || code === 9 || code === 10 || code === 13) code = line.charCodeAt(++at);
  if (code === 45) code = line.charCodeAt(++at);
  let digits = 0;
  while (code >= 48 && code <= 57) {
    digits++;
    code = line.charCodeAt(++at);
  }
  return digits === 0 || (digits <= 15 && code !== 46 && code !== 101 && code !== 69);
}

/** The members of a parsed line: its own keys, and those of every object in it. */
interface MemberCounts {
  top: number;
  all: number;
  /** The line's last own key (in the order written: JSON.parse keeps it; "" when it has none). */
  lastKey: string;
  /** Set by mayRepeatMembers: every number right after a colon is a plain integer of at most 15 digits. */
  plainAfterColons: boolean;
}

/**
 * Counts the members of a parsed line into `counts`, without recursion (a payload may nest a million
 * deep); the list of objects still to count is made only for a value that nests one.
 */
function countMembers(value: JsonObject, counts: MemberCounts): void {
  let count = 0;
  let pending: unknown[] | undefined;
  let lastKey = "";
  for (const key in value) {
    count++;
    lastKey = key;
    const item = value[key];
    if (item !== null && typeof item === "object") (pending ??= []).push(item);
  }
  counts.top = count;
  counts.lastKey = lastKey;
  while (pending !== undefined && pending.length > 0) {
    const next = pending.pop();
    if (Array.isArray(next)) {
      for (const item of next) if (item !== null && typeof item === "object") pending.push(item);
    } else if (next !== null && typeof next === "object") {
      for (const key in next) {
        count++;
        const item = (next as JsonObject)[key];
        if (item !== null && typeof item === "object") pending.push(item);
      }
    }
  }
  counts.all = count;
}

function hasOwnType(value: JsonObject): boolean {
  return Object.prototype.hasOwnProperty.call(value, "type");
}

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** Longest value a message shows whole: ids, counts and names from a recording may be megabytes long. */
const MAX_SHOWN_VALUE = 120;

function shortValues(data: MessageData | undefined): MessageData | undefined {
  if (!data) return data;
  let short: Record<string, unknown> | undefined;
  for (const key of Object.keys(data)) {
    const value = data[key];
    if (typeof value === "string" && value.length > MAX_SHOWN_VALUE)
      (short ??= { ...data })[key] = cutValue(value, MAX_SHOWN_VALUE);
  }
  return short ?? data;
}
