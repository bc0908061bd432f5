import type { RuleSetting } from "./diagnostics.js";
import { UsageError } from "./errors.js";

/** Option values every command parses the same way. */

export const RULE_SETTINGS: readonly RuleSetting[] = ["off", "warning", "error"];

/** `warn` is accepted for `warning`, as ESLint users write it. */
export function normalizeSetting(value: string): RuleSetting {
  return value === "warn" ? "warning" : (value as RuleSetting);
}

export function parsePositiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new UsageError(`expected a whole number, got "${value}"`);
  return parsed;
}
