/**
 * What several event rules read about the stream so far: sessions and their turns, running tool
 * calls and sub-agents, the calls that ended, and the summary's counts. One state per recording,
 * updated once per event by the traversal (src/events/traversal.ts) after the rules listening to that
 * event have read it; the rules never change it, so a rule that is off changes nobody's findings.
 *
 * Memory is bounded by what is open plus fixed-size memories of what ended (src/events/bounded-memory.ts),
 * so a recording of any length streams through. Ids (tool calls, agents) are the server's, unique
 * across sessions, so they are tracked per recording; turns are per session: the plain
 * (per-connection) stream is one session, and each (source, session_id) of GlobalEvent envelopes is another.
 */
import type { ServerEventType } from "./definitions.js";
import { idOf, type Id, type JsonObject, type LocatedEvent } from "./event-values.js";
import { IdSet, OpenMap, Recent } from "./bounded-memory.js";

export type Terminal = "tool_done" | "tool_error" | "tool_cancelled" | "tool_rejected";

export interface Call {
  id: Id;
  name: string;
  line: number;
  session: Session;
}

const CALL_ENDS: ReadonlyArray<EndedCall["how"]> = [
  "tool_done",
  "tool_error",
  "tool_cancelled",
  "tool_rejected",
  "turn end",
];

export interface EndedCall {
  line: number;
  /** The terminal event, or "turn end" when the call was still running at its turn's end. */
  how: Terminal | "turn end";
  startLine: number;
}

export interface Agent {
  id: string;
  line: number;
  stackId: Id | undefined;
  parentAgentId: unknown;
  session: Session;
}

export interface Session {
  /** Its key in the sessions map (source and session_id); "" for the plain stream. */
  key: string;
  /** Its running calls and agents, by id. */
  calls: OpenMap<Call>;
  agents: OpenMap<Agent>;
  /** Line of the turn's `done`, until the next `user_message`. */
  doneLine?: number;
}

/** A memory bound reached: past it, findings that depend on what was forgotten are no longer certain. */
export type MemoryBound = "doneSessions" | "endedIds";

/** Sessions whose turn is done that are remembered (for output after their done); the oldest is forgotten past this. */
export const MAX_DONE_SESSIONS = 100_000;

/**
 * Ids of ended calls remembered (as ranges: a server's ids mostly count up, so a million ended calls
 * are a few ranges); past this many ranges an id is no longer added, which is said once.
 */
export const MAX_ENDED_IDS = 1_000_000;

export const MEMORY_BOUNDS: Readonly<Record<MemoryBound, number>> = {
  doneSessions: MAX_DONE_SESSIONS,
  endedIds: MAX_ENDED_IDS,
};

export interface CallStats {
  byTerminal: Record<Terminal | "open" | "open at turn end", number>;
  longest?: { id: string; name: string; startLine: number; endLine: number; how: string };
}

function newSession(key: string): Session {
  return { key, calls: new OpenMap(), agents: new OpenMap() };
}

export class StreamState {
  /** The plain (per-connection) stream's session; the envelopes' sessions are keyed by source and id. */
  private readonly plainSession: Session = newSession("");
  /** Sessions with something running; a session with nothing running and no finished turn is not kept. */
  private readonly sessions = new Map<string, Session>();
  /** Sessions whose turn is done and that run nothing: only the line of that done, oldest first, up to MAX_DONE_SESSIONS. */
  private readonly doneSessions = new Map<string, number>();
  /**
   * Walks the done sessions from the oldest, as `Recent` does its keys: every key it passed was
   * forgotten (a session restored and done again is set anew, at the end). A new iterator per
   * forgotten session would step over every entry deleted since the map's table was last rebuilt,
   * which made a recording of 300,000 closed sessions quadratic.
   */
  private readonly oldestDone = this.doneSessions.keys();
  private readonly calls = new OpenMap<Call>();
  /** Ended calls: end line, how (an index into CALL_ENDS), start line. */
  private readonly ended = new Recent(3);
  /** Every ended call's id, for a tool_start that reuses one after its details were forgotten. */
  private readonly endedIds = new IdSet(MAX_ENDED_IDS);
  private readonly agents = new OpenMap<Agent>();
  private readonly boundsReached = new Set<MemoryBound>();
  readonly stats: CallStats = {
    byTerminal: {
      tool_done: 0,
      tool_error: 0,
      tool_cancelled: 0,
      tool_rejected: 0,
      open: 0,
      "open at turn end": 0,
    },
  };
  /** The line of the event being read. */
  line = 0;

  /** Told once per recording and bound when the state starts forgetting. */
  constructor(private readonly onBoundReached: (bound: MemoryBound) => void) {}

  runningCall(id: Id): Call | undefined {
    return this.calls.get(id);
  }

  /** A call that ended among the last ones remembered in detail. */
  endedCall(id: Id): EndedCall | undefined {
    const slot = this.ended.find(id);
    if (slot < 0) return undefined;
    return {
      line: this.ended.value(slot, 0),
      how: CALL_ENDS[this.ended.value(slot, 1)]!,
      startLine: this.ended.value(slot, 2),
    };
  }

  /** Whether a call of this id ever ended, its details forgotten or not (up to MAX_ENDED_IDS). */
  everEnded(id: Id): boolean {
    return this.endedIds.has(id);
  }

  /** Whether a tool_start of this id starts a call: one that is not running and never ended. */
  canStart(id: Id): boolean {
    return !this.calls.has(id) && this.endedCall(id) === undefined && !this.endedIds.has(id);
  }

  runningCalls(): IterableIterator<Call> {
    return this.calls.values();
  }

  runningAgent(id: string): Agent | undefined {
    return this.agents.get(id);
  }

  runningAgents(): IterableIterator<Agent> {
    return this.agents.values();
  }

  /** The session of an event (created, or restored from the done sessions, as needed). */
  sessionOf(located: LocatedEvent): Session {
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

  /** A `done` of a running sub-agent (it carries the agent's stack_id): the agent's answer, not the end of the user's turn. */
  isSubAgentAnswer(event: JsonObject, session: Session): boolean {
    const stackId = idOf(event.stack_id);
    if (stackId !== undefined)
      for (const agent of session.agents.values()) if (agent.stackId === stackId) return true;
    return false;
  }

  /** Whether the event ends its session's turn: a `done` that is the turn's first, or `error`, `llm_failed`. */
  endsTurn(type: ServerEventType, event: JsonObject, session: Session): boolean {
    if (type === "error" || type === "llm_failed") return true;
    return (
      type === "done" && session.doneLine === undefined && !this.isSubAgentAnswer(event, session)
    );
  }

  /** Takes the event in, after the rules listening to it have read the state as it was before it. */
  takeIn(type: ServerEventType, event: JsonObject, session: Session, endsTurn: boolean): void {
    switch (type) {
      case "user_message":
        session.doneLine = undefined;
        return;
      case "tool_start": {
        const id = idOf(event.tool_call_id);
        if (id === undefined || !this.canStart(id)) return;
        const call: Call = {
          id,
          name: typeof event.name === "string" ? event.name : "",
          line: this.line,
          session,
        };
        this.calls.set(id, call);
        session.calls.set(id, call);
        return;
      }
      case "tool_done":
      case "tool_error":
      case "tool_cancelled":
      case "tool_rejected": {
        const id = idOf(event.tool_call_id);
        const call = id === undefined ? undefined : this.calls.get(id);
        if (!call) return;
        this.calls.delete(call.id);
        call.session.calls.delete(call.id);
        this.noteEnded(call, type);
        return;
      }
      case "agent_start": {
        const agentId = event.agent_id;
        if (typeof agentId !== "string" || this.agents.has(agentId)) return;
        const agent: Agent = {
          id: agentId,
          line: this.line,
          stackId: idOf(event.stack_id),
          parentAgentId: event.parent_agent_id,
          session,
        };
        this.agents.set(agentId, agent);
        session.agents.set(agentId, agent);
        return;
      }
      case "agent_done": {
        const agent =
          typeof event.agent_id === "string" ? this.agents.get(event.agent_id) : undefined;
        if (!agent) return;
        this.agents.delete(agent.id);
        agent.session.agents.delete(agent.id);
        return;
      }
      default:
        break;
    }
    if (!endsTurn) return;
    this.endTurn(session);
    if (type === "done") session.doneLine = this.line;
  }

  /** The turn ended (`done`, `error`, `llm_failed`): what still ran of it ends with it. */
  private endTurn(session: Session): void {
    for (const call of session.calls.values()) {
      this.calls.delete(call.id);
      this.noteEnded(call, "turn end");
    }
    session.calls.clear();
    for (const agent of session.agents.values()) this.agents.delete(agent.id);
    session.agents.clear();
  }

  private noteEnded(call: Call, how: EndedCall["how"]): void {
    this.ended.set(call.id, this.line, CALL_ENDS.indexOf(how), call.line);
    if (!this.endedIds.add(call.id)) this.reachBound("endedIds");
    this.stats.byTerminal[how === "turn end" ? "open at turn end" : how]++;
    this.noteDuration(call, this.line, how === "turn end" ? "open at turn end" : how);
  }

  private noteDuration(call: Call, endLine: number, how: string): void {
    const longest = this.stats.longest;
    if (!longest || endLine - call.line > longest.endLine - longest.startLine) {
      this.stats.longest = {
        id: String(call.id),
        name: call.name,
        startLine: call.line,
        endLine,
        how,
      };
    }
  }

  /**
   * After each event of an envelope's session: a session that runs nothing is dropped, and one whose
   * turn is done keeps only the line of its done (for output after it), among the last
   * MAX_DONE_SESSIONS such sessions; past that the oldest is forgotten, which is said once.
   */
  settle(session: Session): void {
    if (session === this.plainSession || session.calls.size > 0 || session.agents.size > 0) return;
    this.sessions.delete(session.key);
    if (session.doneLine === undefined) return;
    this.doneSessions.set(session.key, session.doneLine);
    if (this.doneSessions.size <= MAX_DONE_SESSIONS) return;
    this.doneSessions.delete(this.oldestDone.next().value!);
    this.reachBound("doneSessions");
  }

  /** The recording ended: the calls still running count as open in the summary (the rules have read them). */
  end(): void {
    for (const call of this.calls.values()) {
      this.stats.byTerminal.open++;
      this.noteDuration(call, this.line, "still open");
    }
  }

  private reachBound(bound: MemoryBound): void {
    if (this.boundsReached.has(bound)) return;
    this.boundsReached.add(bound);
    this.onBoundReached(bound);
  }
}
