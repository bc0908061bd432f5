import type { Domain } from "../core/lint/domain.js";
import { EVENT_RULES } from "./rules.js";

/** Recorded chat event streams (JSONL): `caplint events`. Lines are read by its own streaming parser. */
export const EVENTS: Domain<(typeof EVENT_RULES)[number]> = {
  name: "events",
  lintCommand: "events",
  rules: EVENT_RULES,
};
