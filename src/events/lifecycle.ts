/**
 * The lifecycle across events: tool calls, approvals, clarifications and elicitations, sub-agent
 * frames and turns. Memory is bounded by what is open (calls, requests, agents, sessions) plus a
 * fixed-size memory of recently ended ids, so a recording of any length streams through.
 *
 * Ids (tool calls, requests, agents) are the server's, unique across sessions, so they are tracked
 * per recording; turns are per session: the plain (per-connection) stream is one session, and each
 * (source, session_id) of GlobalEvent envelopes is another.
 */
import type { ServerEventType } from "./definitions.js";
import { idOf, type Id, type JsonObject, type LocatedEvent } from "./check-fields.js";
import type { EventMessage } from "./rules.js";
import { quote } from "./text.js";

export type LifecycleRule = "tool-lifecycle" | "approval-lifecycle" | "agent-frame" | "turn-order";

export type LifecycleReport = EventMessage<LifecycleRule> & LifecycleFinding;

interface LifecycleFinding {
  hint?: string;
  /** Path of the field inside the event (the envelope prefix is added by the caller). */
  field: string;
  relatedLine?: number;
  /** A finding about an earlier line (reported at the end of the recording): its line. */
  line?: number;
  /** Only a warning whatever the rule's severity: the recording may simply be cut. */
  cut?: boolean;
}

type Terminal = "tool_done" | "tool_error" | "tool_cancelled" | "tool_rejected";

interface Call {
  id: Id;
  name: string;
  line: number;
  session: Session;
  /** Line of an `approval_resolved` with `approved: false` for this call. */
  deniedAt?: number;
}

const CALL_ENDS: ReadonlyArray<EndedCall["how"]> = ["tool_done", "tool_error", "tool_cancelled", "tool_rejected", "turn end"];

interface EndedCall {
  line: number;
  /** The terminal event, or "turn end" when the call was reported open at its turn's end. */
  how: Terminal | "turn end";
  startLine: number;
}

interface Agent {
  id: string;
  line: number;
  stackId: Id | undefined;
  parentAgentId: unknown;
  session: Session;
}

interface Session {
  /** Its key in the sessions map (source and session_id); "" for the plain stream. */
  key: string;
  /** Its running calls and agents, by id. */
  calls: OpenMap<Call>;
  agents: OpenMap<Agent>;
  /** Line of the turn's `done`, until the next `user_message`. */
  doneLine?: number;
}

type Family = "approval" | "clarification" | "elicitation";

/** One view of a request: the per-session event, the global-bus notice, or a pending write. */
interface RequestView {
  type: ServerEventType;
  line: number;
  toolCallId?: Id;
  /** `tool_name` of an approval, `title` of a clarification. */
  name?: unknown;
}

interface Request {
  family: Family;
  id: Id;
  views: RequestView[];
  /** Line of a tool_done or tool_error that ended the request's call while it was pending (reported then). */
  ranAt?: number;
}

const FAMILY_OF: Partial<Record<ServerEventType, Family>> = {
  approval_required: "approval",
  approval_requested: "approval",
  pending_write: "approval",
  agent_question: "clarification",
  clarification_requested: "clarification",
  elicitation_requested: "elicitation",
  approval_resolved: "approval",
  clarification_resolved: "clarification",
  elicitation_resolved: "elicitation",
};

/** Per-session events that are about a running tool call. */
const ABOUT_A_CALL: ReadonlySet<string> = new Set(["pending_write", "approval_required", "agent_question"]);

/** How many ended calls, resolved requests and ended agents are remembered, for better messages. */
const MEMORY = 10_000;

/** Sessions whose turn is done that are remembered (for output after their done); the oldest is forgotten past this. */
export const MAX_DONE_SESSIONS = 100_000;

/**
 * Ids of ended calls remembered (as ranges: a server's ids mostly count up, so a million ended calls
 * are a few ranges); past this many ranges an id is no longer added, which is said once.
 */
export const MAX_ENDED_IDS = 1_000_000;

/**
 * A set of ids that only grows, in bounded memory when ids count up: integers are kept as sorted
 * disjoint ranges (new ones gathered in a small set and merged in batches, so adding stays linear
 * overall), other ids (16 digits or more) in a set of their own. `add` is false once `limit`
 * ranges and ids are held: the id is not kept.
 */
class IdSet {
  private starts = new Float64Array(0);
  private ends = new Float64Array(0);
  private readonly fresh = new Set<number>();
  private readonly texts = new Set<string>();

  constructor(private readonly limit: number) {}

  has(id: Id): boolean {
    if (typeof id === "string") return this.texts.has(id);
    if (this.fresh.has(id)) return true;
    const at = this.rangeAtOrBefore(id);
    return at >= 0 && this.ends[at]! >= id;
  }

  add(id: Id): boolean {
    if (this.has(id)) return true;
    if (this.starts.length + this.texts.size + this.fresh.size >= this.limit) return false;
    if (typeof id === "string") this.texts.add(id);
    else {
      this.fresh.add(id);
      if (this.fresh.size >= 4096) this.merge();
    }
    return true;
  }

  /** Index of the last range that starts at or before `id`, or -1. */
  private rangeAtOrBefore(id: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.starts[mid]! <= id) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  }

  private merge(): void {
    const ids = Float64Array.from(this.fresh).sort();
    this.fresh.clear();
    const starts: number[] = [];
    const ends: number[] = [];
    const push = (start: number, end: number) => {
      const last = ends.length - 1;
      if (last >= 0 && start <= ends[last]! + 1) ends[last] = Math.max(ends[last]!, end);
      else {
        starts.push(start);
        ends.push(end);
      }
    };
    let r = 0;
    for (const id of ids) {
      while (r < this.starts.length && this.starts[r]! <= id) push(this.starts[r]!, this.ends[r++]!);
      push(id, id);
    }
    while (r < this.starts.length) push(this.starts[r]!, this.ends[r++]!);
    this.starts = Float64Array.from(starts);
    this.ends = Float64Array.from(ends);
  }
}

/**
 * What is remembered of the last MEMORY keys set (ended calls, resolved requests, ended agents), as
 * numbers in fixed columns: one slot per key, reused when the key set longest ago is forgotten. Ten
 * thousand remembered objects would be a steady stream of objects that outlive young-generation
 * collections, and what outlives them makes V8 grow that generation; a numeric id as key (a small
 * integer in V8) and a slot as value allocate nothing.
 */
class Recent {
  private readonly slots = new Map<Id, number>();
  /**
   * Walks the keys from the oldest: every key it passed was forgotten (or set again, which moves it
   * to the end), so its next key is the oldest one. A new iterator per eviction would step over the
   * slots of every key deleted since the map's table was last rebuilt, thousands of them.
   */
  private readonly oldest = this.slots.entries();
  private readonly columns: Float64Array[];
  private readonly freed: number[] = [];
  private used = 0;

  constructor(columns: number) {
    this.columns = Array.from({ length: columns }, () => new Float64Array(MEMORY));
  }

  /** The slot of a remembered key, or -1. */
  find(key: Id): number {
    return this.slots.get(key) ?? -1;
  }

  /** A value of a slot that find() returned. */
  value(slot: number, column = 0): number {
    return this.columns[column]![slot]!;
  }

  /** The first column's value of a remembered key. */
  get(key: Id): number | undefined {
    const slot = this.find(key);
    return slot < 0 ? undefined : this.value(slot);
  }

  set(key: Id, first: number, second = 0, third = 0): void {
    let slot = this.slots.get(key);
    if (slot !== undefined) this.slots.delete(key);
    else if (this.freed.length > 0) slot = this.freed.pop()!;
    else if (this.used < MEMORY) slot = this.used++;
    else {
      const [forgotten, freedSlot] = this.oldest.next().value!;
      this.slots.delete(forgotten);
      slot = freedSlot;
    }
    this.slots.set(key, slot);
    const columns = this.columns;
    columns[0]![slot] = first;
    if (columns.length > 1) columns[1]![slot] = second;
    if (columns.length > 2) columns[2]![slot] = third;
  }

  delete(key: Id): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.slots.delete(key);
    this.freed.push(slot);
  }
}

/**
 * A Map of what is open (calls, agents, requests), keyed by id, which empties about as often as it
 * fills. V8 gives a Map a new table whenever it grows, shrinks or is cleared, in the generation of the
 * table it replaces: the tables of a long-lived Map are old, so each of the tens of thousands of
 * starts and ends of a long stream would leave one more table of garbage in the old generation (9 MB
 * of the peak of a 1,000,000-event run). An emptied map is dropped, and the next one is new: its
 * tables are young and die young.
 */
class OpenMap<V> {
  /** None while empty: a session with nothing running (most sessions, most of the time) holds no Map. */
  private map: Map<Id, V> | undefined;
  get(key: Id): V | undefined {
    return this.map?.get(key);
  }
  has(key: Id): boolean {
    return this.map?.has(key) ?? false;
  }
  get size(): number {
    return this.map?.size ?? 0;
  }
  set(key: Id, value: V): void {
    (this.map ??= new Map()).set(key, value);
  }
  delete(key: Id): void {
    if (this.map?.delete(key) && this.map.size === 0) this.map = undefined;
  }
  clear(): void {
    this.map = undefined;
  }
  values(): IterableIterator<V> {
    return (this.map ?? NOTHING_OPEN).values();
  }
}

const NOTHING_OPEN = new Map<never, never>();

function newSession(key: string): Session {
  return { key, calls: new OpenMap(), agents: new OpenMap() };
}

export interface CallStats {
  byTerminal: Record<Terminal | "open" | "open at turn end", number>;
  longest?: { id: string; name: string; startLine: number; endLine: number; how: string };
}

function named(name: string): string {
  return name ? ` (${quote(name)})` : "";
}

export class Lifecycle {
  /** The plain (per-connection) stream's session; the envelopes' sessions are keyed by source and id. */
  private readonly plainSession: Session = newSession("");
  /** Sessions with something running; a session with nothing running and no finished turn is not kept. */
  private readonly sessions = new Map<string, Session>();
  /** Sessions whose turn is done and that run nothing: only the line of that done, oldest first, up to MAX_DONE_SESSIONS. */
  private readonly doneSessions = new Map<string, number>();
  private readonly calls = new OpenMap<Call>();
  /** Ended calls: end line, how (an index into CALL_ENDS), start line. */
  private readonly ended = new Recent(3);
  /** Every ended call's id, for a tool_start that reuses one after its details were forgotten. */
  private readonly endedIds = new IdSet(MAX_ENDED_IDS);
  /** Pending approval requests by the tool call they are about. */
  private readonly pendingApprovals = new OpenMap<Request>();
  private readonly limitsReported = new Set<string>();
  private readonly denied = new Recent(1);
  private readonly agents = new OpenMap<Agent>();
  private readonly endedAgents = new Recent(1);
  private readonly requests = new OpenMap<Request>();
  private readonly resolved = new Recent(1);
  readonly stats: CallStats = { byTerminal: { tool_done: 0, tool_error: 0, tool_cancelled: 0, tool_rejected: 0, open: 0, "open at turn end": 0 } };
  private line = 0;
  private report: (report: LifecycleReport) => void = () => {};

  constructor(report: (report: LifecycleReport) => void) {
    this.report = report;
  }

  onEvent(located: LocatedEvent, line: number): void {
    this.line = line;
    const session = this.session(located);
    this.dispatch(located, session);
    if (session !== this.plainSession) this.settle(session);
  }

  private dispatch(located: LocatedEvent, session: Session): void {
    const { type, event } = located;
    switch (type) {
      case "user_message":
        session.doneLine = undefined;
        return;
      case "token_delta":
      case "thinking":
        this.checkStreamedAfterDone(type, session);
        return;
      case "tool_start":
        this.checkStreamedAfterDone(type, session);
        this.startCall(event, session);
        return;
      case "tool_done":
      case "tool_error":
      case "tool_cancelled":
      case "tool_rejected":
        this.endCall(type, event);
        return;
      case "agent_start":
        this.startAgent(event, session);
        return;
      case "agent_done":
        this.endAgent(event);
        return;
      case "done":
        this.done(event, session);
        return;
      case "error":
      case "llm_failed":
        this.endTurn(session, type, "type");
        return;
      default:
        break;
    }
    if (ABOUT_A_CALL.has(type)) this.checkCallRunning(type, event);
    const family = FAMILY_OF[type];
    if (family === undefined) return;
    if (type.endsWith("_resolved")) this.resolve(family, type, event);
    else this.request(family, type, event);
  }

  /** Findings about what is still open when the recording stops: warnings, the recording may be cut. */
  end(): void {
    for (const call of this.calls.values()) {
      this.stats.byTerminal.open++;
      this.noteDuration(call, this.line, "still open");
      this.report({
        ruleId: "tool-lifecycle",
        messageId: "openAtRecordingEnd",
        data: { id: call.id, named: named(call.name) },
        hint: "end every tool_start with tool_done, tool_error, tool_cancelled or tool_rejected (or the recording was cut)",
        field: "tool_call_id",
        line: call.line,
        cut: true,
      });
    }
    for (const agent of this.agents.values()) {
      this.report({
        ruleId: "agent-frame",
        messageId: "openAtRecordingEnd",
        data: { agent: quote(agent.id) },
        hint: "end every agent_start with agent_done (or the recording was cut)",
        field: "agent_id",
        line: agent.line,
        cut: true,
      });
    }
    for (const request of this.requests.values()) {
      const first = request.views[0]!;
      this.report({
        ruleId: "approval-lifecycle",
        messageId: "pendingAtRecordingEnd",
        data: { family: request.family, id: request.id },
        hint: `resolve it with ${request.family}_resolved (or the recording was cut)`,
        field: "request_id",
        line: first.line,
        cut: true,
      });
    }
  }

  private endedCall(id: Id): EndedCall | undefined {
    const slot = this.ended.find(id);
    if (slot < 0) return undefined;
    return { line: this.ended.value(slot, 0), how: CALL_ENDS[this.ended.value(slot, 1)]!, startLine: this.ended.value(slot, 2) };
  }

  private session(located: LocatedEvent): Session {
    if (!located.envelope) return this.plainSession;
    const { source, sessionId } = located.envelope;
    // A string source is marked by a quote: `"source": null` and `"source": "null"` are two sessions.
    const key = `${typeof source === "string" ? `"${source}` : String(source)}\u0000${idOf(sessionId) ?? String(sessionId)}`;
    let session = this.sessions.get(key);
    if (!session) {
      session = newSession(key);
      const doneLine = this.doneSessions.get(key);
      if (doneLine !== undefined) {
        this.doneSessions.delete(key);
        session.doneLine = doneLine;
      }
      this.sessions.set(key, session);
    }
    return session;
  }

  /**
   * After each event of an envelope's session: a session that runs nothing is dropped, and one whose
   * turn is done keeps only the line of its done (for output after it), among the last
   * MAX_DONE_SESSIONS such sessions; past that the oldest is forgotten, which is said once.
   */
  private settle(session: Session): void {
    if (session.calls.size > 0 || session.agents.size > 0) return;
    this.sessions.delete(session.key);
    if (session.doneLine === undefined) return;
    this.doneSessions.set(session.key, session.doneLine);
    if (this.doneSessions.size <= MAX_DONE_SESSIONS) return;
    this.doneSessions.delete(this.doneSessions.keys().next().value!);
    this.reportLimit("turn-order", "doneSessions", MAX_DONE_SESSIONS);
  }

  /** Once per recording and limit: memory kept bounded at the cost of findings that are no longer certain. */
  private reportLimit(ruleId: "turn-order" | "tool-lifecycle", limit: "doneSessions" | "endedIds", count: number): void {
    if (this.limitsReported.has(limit)) return;
    this.limitsReported.add(limit);
    this.report(
      ruleId === "turn-order"
        ? {
            ruleId,
            messageId: "memoryLimit",
            data: { limit: count },
            hint: "split the recording, or raise nothing: the limit bounds caplint's memory",
            field: "type",
            cut: true,
          }
        : {
            ruleId,
            messageId: "memoryLimit",
            data: { limit: count },
            hint: "split the recording, or raise nothing: the limit bounds caplint's memory",
            field: "tool_call_id",
            cut: true,
          },
    );
  }

  private checkStreamedAfterDone(type: ServerEventType, session: Session): void {
    if (session.doneLine === undefined) return;
    this.report({
      ruleId: "turn-order",
      messageId: "outputAfterDone",
      data: { type },
      hint: "a turn's output ends with done; the next turn starts with user_message",
      field: "type",
      relatedLine: session.doneLine,
    });
  }

  private startCall(event: JsonObject, session: Session): void {
    const id = idOf(event.tool_call_id);
    if (id === undefined) return;
    const open = this.calls.get(id);
    if (open) {
      this.report({
        ruleId: "tool-lifecycle",
        messageId: "secondStart",
        data: { id },
        hint: "give every tool call its own tool_call_id",
        field: "tool_call_id",
        relatedLine: open.line,
      });
      return;
    }
    const ended = this.endedCall(id);
    if (ended) {
      this.report({
        ruleId: "tool-lifecycle",
        messageId: "startAfterEnd",
        data: { id, how: ended.how },
        hint: "give every tool call its own tool_call_id",
        field: "tool_call_id",
        relatedLine: ended.startLine,
      });
      return;
    }
    if (this.endedIds.has(id)) {
      // Ended long ago: its details are forgotten, the fact that it ended is not.
      this.report({
        ruleId: "tool-lifecycle",
        messageId: "startAfterEarlierEnd",
        data: { id },
        hint: "give every tool call its own tool_call_id",
        field: "tool_call_id",
      });
      return;
    }
    const call: Call = { id, name: typeof event.name === "string" ? event.name : "", line: this.line, session };
    const denied = this.denied.get(id);
    if (denied !== undefined) call.deniedAt = denied;
    this.calls.set(id, call);
    session.calls.set(id, call);
  }

  private endCall(type: Terminal, event: JsonObject): void {
    const id = idOf(event.tool_call_id);
    if (id === undefined) return;
    const call = this.calls.get(id);
    if (!call) {
      const ended = this.endedCall(id);
      // A call already reported open at its turn's end is not reported a second time.
      if (ended?.how === "turn end") return;
      this.report({
        ruleId: "tool-lifecycle",
        ...(ended ? { messageId: "secondEnd" as const, data: { type, id, how: ended.how } } : { messageId: "endWithoutStart" as const, data: { type, id } }),
        hint: ended
          ? "exactly one of tool_done, tool_error, tool_cancelled and tool_rejected ends a call"
          : "a tool_start comes first (if the recording began mid-turn, record from the start of the turn)",
        field: "tool_call_id",
        ...(ended ? { relatedLine: ended.line } : {}),
      });
      return;
    }
    this.calls.delete(id);
    call.session.calls.delete(id);
    this.noteEnded(id, type, call.line);
    this.stats.byTerminal[type]++;
    const pending = this.pendingApprovals.get(id);
    if (pending && (type === "tool_done" || type === "tool_error")) {
      pending.ranAt = this.line;
      this.report({
        ruleId: "approval-lifecycle",
        messageId: "ranWhilePending",
        data: { id, type, request: pending.id },
        hint: "a call that waits for approval runs only after approval_resolved with approved: true",
        field: "tool_call_id",
        relatedLine: pending.views[0]!.line,
      });
    }
    this.noteDuration(call, this.line, type);
    const deniedAt = call.deniedAt ?? this.denied.get(id);
    if (deniedAt !== undefined) {
      this.denied.delete(id);
      if (type === "tool_done" || type === "tool_error") {
        this.report({
          ruleId: "approval-lifecycle",
          messageId: "rejectedCallRan",
          data: { id, type },
          hint: "a call whose approval is resolved with approved: false ends in tool_rejected",
          field: "tool_call_id",
          relatedLine: deniedAt,
        });
      }
    }
  }

  private noteEnded(id: Id, how: EndedCall["how"], startLine: number): void {
    this.ended.set(id, this.line, CALL_ENDS.indexOf(how), startLine);
    if (!this.endedIds.add(id)) this.reportLimit("tool-lifecycle", "endedIds", MAX_ENDED_IDS);
  }

  private noteDuration(call: Call, endLine: number, how: string): void {
    const longest = this.stats.longest;
    if (!longest || endLine - call.line > longest.endLine - longest.startLine) {
      this.stats.longest = { id: String(call.id), name: call.name, startLine: call.line, endLine, how };
    }
  }

  private checkCallRunning(type: ServerEventType, event: JsonObject): void {
    const id = idOf(event.tool_call_id);
    if (id === undefined || this.calls.has(id)) return;
    const ended = this.endedCall(id);
    this.report({
      ruleId: "tool-lifecycle",
      ...(ended ? { messageId: "eventAfterEnd" as const, data: { type, id, how: ended.how } } : { messageId: "eventBeforeStart" as const, data: { type, id } }),
      hint: `${type} belongs between the call's tool_start and its end`,
      field: "tool_call_id",
      ...(ended ? { relatedLine: ended.line } : {}),
    });
  }

  private request(family: Family, type: ServerEventType, event: JsonObject): void {
    const id = idOf(event.request_id);
    if (id === undefined) return;
    const key = `${family}:${id}`;
    const view: RequestView = { type, line: this.line };
    const toolCallId = idOf(event.tool_call_id);
    if (toolCallId !== undefined) view.toolCallId = toolCallId;
    if (family === "approval" && type !== "pending_write") view.name = event.tool_name;
    if (family === "clarification") view.name = event.title;
    const resolvedAt = this.resolved.get(key);
    if (resolvedAt !== undefined) {
      this.report({
        ruleId: "approval-lifecycle",
        messageId: "requestAfterResolution",
        data: { type, family, id },
        hint: "give every request its own request_id",
        field: "request_id",
        relatedLine: resolvedAt,
      });
      return;
    }
    const request = this.requests.get(key);
    if (!request) {
      const created: Request = { family, id, views: [view] };
      this.requests.set(key, created);
      if (family === "approval" && view.toolCallId !== undefined && !this.pendingApprovals.has(view.toolCallId))
        this.pendingApprovals.set(view.toolCallId, created);
      return;
    }
    const same = request.views.find((other) => other.type === type);
    if (same) {
      this.report({
        ruleId: "approval-lifecycle",
        messageId: "secondRequest",
        data: { type, family, id },
        hint: "give every request its own request_id",
        field: "request_id",
        relatedLine: same.line,
      });
      return;
    }
    // Two views of one request (per session and on the bus) must describe the same call.
    for (const other of request.views) {
      if (view.toolCallId !== undefined && other.toolCallId !== undefined && view.toolCallId !== other.toolCallId) {
        this.report({
          ruleId: "approval-lifecycle",
          messageId: "viewsNameOtherCalls",
          data: { type, id, toolCall: view.toolCallId, otherType: other.type, otherToolCall: other.toolCallId },
          hint: "both views of one request carry the same request_id, tool_call_id and tool_name",
          field: "tool_call_id",
          relatedLine: other.line,
        });
      } else if (
        view.name !== undefined &&
        other.name !== undefined &&
        view.name !== other.name &&
        typeof view.name === "string" &&
        typeof other.name === "string"
      ) {
        const field = family === "approval" ? "tool_name" : "title";
        this.report({
          ruleId: "approval-lifecycle",
          messageId: "viewsNameOtherTitles",
          data: { type, id, field, name: quote(view.name), otherType: other.type, otherName: quote(other.name) },
          hint: `both views of one request carry the same request_id, tool_call_id and ${field}`,
          field,
          relatedLine: other.line,
        });
      }
    }
    request.views.push(view);
  }

  private resolve(family: Family, type: ServerEventType, event: JsonObject): void {
    const id = idOf(event.request_id);
    if (id === undefined) return;
    const key = `${family}:${id}`;
    const request = this.requests.get(key);
    if (!request) {
      const resolvedAt = this.resolved.get(key);
      this.report({
        ruleId: "approval-lifecycle",
        messageId: resolvedAt !== undefined ? "secondResolution" : "neverRequested",
        data: { type, family, id },
        hint: resolvedAt !== undefined ? "a request is resolved once" : `${family === "approval" ? "an" : "a"} ${family} is requested before it is resolved`,
        field: "request_id",
        ...(resolvedAt !== undefined ? { relatedLine: resolvedAt } : {}),
      });
    } else {
      this.requests.delete(key);
      for (const view of request.views)
        if (view.toolCallId !== undefined && this.pendingApprovals.get(view.toolCallId) === request) this.pendingApprovals.delete(view.toolCallId);
      this.resolved.set(key, this.line);
      const toolCallId = idOf(event.tool_call_id);
      const named = request.views.find((view) => view.toolCallId !== undefined);
      if (toolCallId !== undefined && named && named.toolCallId !== toolCallId) {
        this.report({
          ruleId: "approval-lifecycle",
          messageId: "resolutionNamesOtherCall",
          data: { type, id, toolCall: toolCallId, otherType: named.type, otherToolCall: named.toolCallId! },
          hint: "a resolution carries the tool_call_id of its request",
          field: "tool_call_id",
          relatedLine: named.line,
        });
      }
    }
    if (type === "approval_resolved" && event.approved === false) {
      const toolCallId = idOf(event.tool_call_id);
      if (toolCallId === undefined) return;
      const call = this.calls.get(toolCallId);
      if (call) {
        call.deniedAt = this.line;
        return;
      }
      const ended = this.endedCall(toolCallId);
      if (!ended && !this.endedIds.has(toolCallId)) this.denied.set(toolCallId, this.line);
      else if (ended && (ended.how === "tool_done" || ended.how === "tool_error") && request !== undefined && request.ranAt === undefined) {
        // The call ran (and was not reported running while pending): rejected after the fact.
        this.report({
          ruleId: "approval-lifecycle",
          messageId: "rejectedAfterRun",
          data: { id: toolCallId, how: ended.how },
          hint: "a call that waits for approval runs only after approval_resolved with approved: true",
          field: "tool_call_id",
          relatedLine: ended.line,
        });
      }
    }
  }

  private startAgent(event: JsonObject, session: Session): void {
    const agentId = event.agent_id;
    const parentId = idOf(event.parent_tool_call_id);
    if (parentId !== undefined && !this.calls.has(parentId)) {
      const ended = this.endedCall(parentId);
      this.report({
        ruleId: "agent-frame",
        ...(ended
          ? { messageId: "parentEnded" as const, data: { parent: parentId, how: ended.how } }
          : { messageId: "parentNotRunning" as const, data: { parent: parentId } }),
        hint: "parent_tool_call_id names the running tool call that starts the sub-agent",
        field: "parent_tool_call_id",
        ...(ended ? { relatedLine: ended.line } : {}),
      });
    }
    if (typeof agentId !== "string") return;
    const running = this.agents.get(agentId);
    if (running) {
      this.report({
        ruleId: "agent-frame",
        messageId: "secondStart",
        data: { agent: quote(agentId) },
        hint: "give every sub-agent its own agent_id",
        field: "agent_id",
        relatedLine: running.line,
      });
      return;
    }
    const agent: Agent = { id: agentId, line: this.line, stackId: idOf(event.stack_id), parentAgentId: event.parent_agent_id, session };
    this.agents.set(agentId, agent);
    session.agents.set(agentId, agent);
  }

  private endAgent(event: JsonObject): void {
    const agentId = event.agent_id;
    if (typeof agentId !== "string") return;
    const agent = this.agents.get(agentId);
    if (!agent) {
      const endedAt = this.endedAgents.get(agentId);
      if (endedAt === -1) return; // reported running at its turn's end already
      this.report({
        ruleId: "agent-frame",
        messageId: endedAt !== undefined ? "secondDone" : "doneWithoutStart",
        data: { agent: quote(agentId) },
        hint: "every agent_done ends the agent_start of the same agent_id",
        field: "agent_id",
        ...(endedAt !== undefined ? { relatedLine: endedAt } : {}),
      });
      return;
    }
    this.agents.delete(agentId);
    agent.session.agents.delete(agentId);
    this.endedAgents.set(agentId, this.line);
    if (typeof event.parent_agent_id === "string" && typeof agent.parentAgentId === "string" && event.parent_agent_id !== agent.parentAgentId) {
      this.report({
        ruleId: "agent-frame",
        messageId: "parentMismatch",
        data: { agent: quote(agentId), parent: quote(event.parent_agent_id), startParent: quote(agent.parentAgentId) },
        hint: "agent_done repeats the parent_agent_id of its agent_start",
        field: "parent_agent_id",
        relatedLine: agent.line,
      });
    }
  }

  private done(event: JsonObject, session: Session): void {
    // A sub-agent's own final answer carries its stack_id; it does not end the user's turn.
    const stackId = idOf(event.stack_id);
    if (stackId !== undefined) for (const agent of session.agents.values()) if (agent.stackId === stackId) return;
    if (session.doneLine !== undefined) {
      this.report({
        ruleId: "turn-order",
        messageId: "secondDone",
        hint: "a turn ends with one done; the next turn starts with user_message",
        field: "type",
        relatedLine: session.doneLine,
      });
      return;
    }
    this.endTurn(session, "done", "type");
    session.doneLine = this.line;
  }

  /** The turn ended (`done`, `error`, `llm_failed`): nothing of it may still run. */
  private endTurn(session: Session, type: ServerEventType, field: string): void {
    for (const call of session.calls.values()) {
      this.calls.delete(call.id);
      this.noteEnded(call.id, "turn end", call.line);
      this.stats.byTerminal["open at turn end"]++;
      this.noteDuration(call, this.line, "open at turn end");
      this.report({
        ruleId: "tool-lifecycle",
        messageId: "openAtTurnEnd",
        data: { type, id: call.id, named: named(call.name) },
        hint: "end every tool call before the turn's done, error or llm_failed",
        field,
        relatedLine: call.line,
      });
    }
    session.calls.clear();
    for (const agent of session.agents.values()) {
      this.agents.delete(agent.id);
      this.endedAgents.set(agent.id, -1);
      this.report({
        ruleId: "agent-frame",
        messageId: "openAtTurnEnd",
        data: { type, agent: quote(agent.id) },
        hint: "end every agent_start with agent_done before the turn ends",
        field,
        relatedLine: agent.line,
      });
    }
    session.agents.clear();
  }
}
