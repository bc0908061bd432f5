import type { Domain } from "../core/lint/domain.js";
import { EVENT_RULES } from "./rules/index.js";
import { EVENTS_DOMAIN } from "./rules/types.js";

/** Recorded chat event streams (JSONL): `caplint events`. Lines are read by its own streaming parser. */
export const EVENTS: Domain<(typeof EVENT_RULES)[number]> = {
  name: EVENTS_DOMAIN,
  lintCommand: "events",
  rules: EVENT_RULES,
};
