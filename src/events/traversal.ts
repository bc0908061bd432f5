/**
 * One pass over a recording for the rules that read events (ESLint's traversal with listeners): for
 * each event, the listeners of its type in rule order, then those of the moments it makes (a turn's
 * end), each reading the stream state as it was before the event; then the state takes the event in.
 */
import type { LocatedEvent } from "./event-values.js";
import type { EventListener, StreamListeners } from "./rules/types.js";
import { MEMORY_BOUNDS, StreamState, type CallStats } from "./stream-state.js";

export interface Traversal {
  /** The stream state rules read (`context.stream`). */
  readonly stream: StreamState;
  /** Subscribes a rule's listeners (`context.on`), in the order the rules start. */
  on(listeners: StreamListeners): void;
  /** The next event of the recording, at `line`. */
  onEvent(located: LocatedEvent, line: number): void;
  /** The recording ended: findings about what is still open. */
  end(): void;
  /** The tool calls by outcome (`--summary`), counted whichever rules run. */
  readonly stats: CallStats;
}

/**
 * A new walk over a recording: the rules (started by the core's rule run) subscribe with `on`.
 * The state is kept whichever rules run, so turning a rule off changes no other rule's findings.
 */
export function startTraversal(): Traversal {
  const byType = new Map<string, EventListener[]>();
  const turnEnd: Array<NonNullable<StreamListeners["turnEnd"]>> = [];
  const memoryBound: Array<NonNullable<StreamListeners["memoryBound"]>> = [];
  const recordingEnd: Array<NonNullable<StreamListeners["recordingEnd"]>> = [];
  /** The listeners of the last event's type. */
  let lastType: string | undefined;
  let lastListeners: EventListener[] | undefined;
  const state = new StreamState((bound) => {
    for (const listener of memoryBound) listener(bound, MEMORY_BOUNDS[bound]);
  });
  return {
    stream: state,
    on(listeners) {
      lastType = undefined;
      for (const [key, listener] of Object.entries(listeners)) {
        if (key === "turnEnd") turnEnd.push(listener as NonNullable<StreamListeners["turnEnd"]>);
        else if (key === "memoryBound")
          memoryBound.push(listener as NonNullable<StreamListeners["memoryBound"]>);
        else if (key === "recordingEnd")
          recordingEnd.push(listener as NonNullable<StreamListeners["recordingEnd"]>);
        else {
          const forType = byType.get(key);
          if (forType) forType.push(listener as EventListener);
          else byType.set(key, [listener as EventListener]);
        }
      }
    },
    onEvent(located, line) {
      state.line = line;
      const { type, event } = located;
      const session = state.sessionOf(located);
      // Types come in runs (token deltas); a known type is one string, so this compares pointers.
      if (type !== lastType) {
        lastType = type;
        lastListeners = byType.get(type);
      }
      const listeners = lastListeners;
      if (listeners) for (const listener of listeners) listener(event, session);
      const endsTurn = state.endsTurn(type, event, session);
      if (endsTurn) for (const listener of turnEnd) listener(session, type);
      state.takeIn(type, event, session, endsTurn);
      state.settle(session);
    },
    end() {
      for (const listener of recordingEnd) listener();
      state.end();
    },
    stats: state.stats,
  };
}
