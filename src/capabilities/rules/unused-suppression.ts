import { defineRule } from "./types.js";

/**
 * Reported by the pipeline after every other rule ran, since only then is it known which
 * `caplint-disable` entries suppressed something.
 */
export default defineRule({
  id: "unused-suppression",
  description: 'Report `caplint-disable` entries that suppress nothing or name no rule, so stale suppressions do not hide future findings.',
  category: "suspicious",
  defaultSeverity: "warning",
  fixable: true,
  check() {},
});
