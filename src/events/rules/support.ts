import {
  SERVER_EVENT_TYPES,
  SERVER_EVENTS,
  type EventDef,
  type FieldDef,
  type ServerEventType,
} from "../definitions.js";
import type { JsonObject } from "../event-values.js";
import type { StreamListeners } from "./types.js";

/**
 * Listeners for the event types whose definitions give some fields a property (`pick` returns it):
 * each is called with the event, its type and those fields with their property, worked out once.
 */
export function fieldPropertyListeners<T>(
  pick: (field: FieldDef) => T | undefined,
  check: (
    event: JsonObject,
    type: ServerEventType,
    fields: ReadonlyArray<readonly [string, T]>,
  ) => void,
): StreamListeners {
  const listeners: StreamListeners = {};
  for (const type of SERVER_EVENT_TYPES) {
    const definition: EventDef = SERVER_EVENTS[type];
    const fields = Object.entries(definition.fields).flatMap(([field, def]) => {
      const property = pick(def);
      return property === undefined ? [] : [[field, property] as const];
    });
    if (fields.length > 0) listeners[type] = (event) => check(event, type, fields);
  }
  return listeners;
}
