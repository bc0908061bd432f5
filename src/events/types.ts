/**
 * TypeScript types of the event protocol, derived from the definitions the validator uses
 * (`import type { ServerEvent } from "caplint"`). Integer ids are JavaScript numbers: ids above
 * 2^53 lose precision in `JSON.parse`, which the validator (reading numbers as written) does not.
 */
import type {
  CLIENT_MESSAGE,
  FieldDef,
  INBOUND_DATA_MESSAGE,
  SERVER_EVENTS,
  ServerEventType,
} from "./definitions.js";

type ValueOf<F extends FieldDef> = F["kind"] extends "int"
  ? number
  : F["kind"] extends "nullableInt"
    ? number | null
    : F["kind"] extends "tokens"
      ? number | null
      : F["kind"] extends "string"
        ? F extends { enum: readonly (infer E)[] }
          ? E
          : string
        : F["kind"] extends "nullableString"
          ? string | null
          : F["kind"] extends "boolean"
            ? boolean
            : F["kind"] extends "stringArray"
              ? string[]
              : F["kind"] extends "attachments"
                ? unknown[]
                : unknown;

type RequiredKeys<T extends Record<string, FieldDef>> = {
  [K in keyof T]: T[K] extends { optional: true } ? never : K;
}[keyof T];
type OptionalKeys<T extends Record<string, FieldDef>> = Exclude<keyof T, RequiredKeys<T>>;
type Fields<T extends Record<string, FieldDef>> = { [K in RequiredKeys<T>]: ValueOf<T[K]> } & {
  [K in OptionalKeys<T>]?: ValueOf<T[K]>;
};
type Flatten<T> = { [K in keyof T]: T[K] };

/** One ServerEvent of the given type. */
export type ServerEventOf<T extends ServerEventType> = Flatten<
  { type: T } & Fields<(typeof SERVER_EVENTS)[T]["fields"]>
>;

/** Any ServerEvent: a union discriminated by `type`. */
export type ServerEvent = { [T in ServerEventType]: ServerEventOf<T> }[ServerEventType];

/** An event as published on the global broadcast bus. */
export interface GlobalEvent {
  /** The client channel; null for system or background events. */
  source: string | null;
  session_id: number | null;
  event: ServerEvent;
}

/** A user message sent by a client. */
export type ClientMessage = Flatten<Fields<(typeof CLIENT_MESSAGE)["fields"]>>;

/** A data push from a remote client, in its wire form. */
export type InboundDataMessage = Flatten<
  { type: "data" } & Fields<(typeof INBOUND_DATA_MESSAGE)["fields"]>
>;

export type { ServerEventType } from "./definitions.js";
